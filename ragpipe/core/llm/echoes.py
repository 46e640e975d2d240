"""How a prompt's output is told apart from a copy of the prompt's own examples and
placeholders (``Prompt``'s echo check): words and CJK characters compared with case, width,
punctuation and spacing folded."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ragpipe.core.text import normalize

# An output string echoes the prompt's examples when at least ECHO_SHARE of its words lie in
# runs copied from an example and not from the material, and the copy is a whole example or
# at least MIN_ECHO words: a prefix, a cut-off or re-punctuated copy. Words are compared with
# case, width, punctuation and spacing folded; a CJK character counts half a word. A run is
# at least MIN_ECHO_RUN words, or a whole example that is shorter (a placeholder such as
# "short verdict"). Borrowing an example's frame for a finding of one's own ("The rate is
# right, but the cap of 5,000 dollars is missing"), a stock phrase ("It contradicts the
# ground truth") and quoting the material are no echo.
ECHO_SHARE = 0.8
MIN_ECHO_RUN = 4.0
MIN_ECHO = 6.0
STRING_LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)+)"')
_CJK_CHAR = re.compile(r"[\u4e00-\u9fff]")
_UNIT = re.compile(r"[\u4e00-\u9fff]|[^\W_\u4e00-\u9fff]+")


def folded(text: str) -> str:
    """Width, case, spacing and the punctuation around it do not make a different string."""
    return " ".join(normalize(text).casefold().split()).strip(" .。…!！?？,，:：;；'\"“”‘’")


def units_of(text: str) -> tuple[str, ...]:
    """Words and CJK characters: case, width, punctuation and spacing do not count."""
    return tuple(_UNIT.findall(normalize(text).casefold()))


def unit_weight(unit: str) -> float:
    return 0.5 if _CJK_CHAR.match(unit) else 1.0


def echo_runs(units: tuple[str, ...]) -> list[tuple[int, int]]:
    """(start, end) of every shortest run that weighs MIN_ECHO_RUN words, or of the whole
    when it weighs less."""
    if sum(map(unit_weight, units)) < MIN_ECHO_RUN:
        return [(0, len(units))] if units else []
    found = []
    for start in range(len(units)):
        end, weight = start, 0.0
        while end < len(units) and weight < MIN_ECHO_RUN:
            weight, end = weight + unit_weight(units[end]), end + 1
        if weight >= MIN_ECHO_RUN:
            found.append((start, end))
    return found


def joined(units: tuple[str, ...]) -> str:
    """Units as text in which a run of them is found as a substring, whole units only."""
    return f" {' '.join(units)} "


def covered(spans: Iterable[tuple[int, int]]) -> set[int]:
    return {i for start, end in spans for i in range(start, end)}


def strings_in(value: Any, path: str = "") -> list[tuple[str, str]]:
    """(path, string) for every string in decoded JSON, e.g. ("judge.reasoning", "…")."""
    if isinstance(value, str):
        return [(path or "(root)", value)]
    if isinstance(value, dict):
        return [found for k, v in value.items() for found in strings_in(v, f"{path}.{k}" if path else str(k))]
    if isinstance(value, (list, tuple)):
        return [found for i, v in enumerate(value) for found in strings_in(v, f"{path}[{i}]")]
    return []


def schema_constants(schema: Any) -> set[str]:
    """The fixed words of an output schema (enum values, constants, property names): a
    reply may and must repeat those."""
    if isinstance(schema, dict):
        found = {str(v) for v in schema.get("enum", ())} | set(schema.get("properties", {}))
        if "const" in schema:
            found.add(str(schema["const"]))
        return found | {c for v in schema.values() for c in schema_constants(v)}
    if isinstance(schema, list):
        return {c for v in schema for c in schema_constants(v)}
    return set()
