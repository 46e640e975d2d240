"""An age limit said in other words: "18 or older" says what "aged 18 and over" says, "younger than 12" what "under 12"
says, 8岁以上 what 8岁及以上 says. The verifier reads the statement's bound on an age as the evidence writes the same kind
of bound on the same age (``as_evidence_bounds``), so that the bound's words are no words the evidence lacks; a bound of
another kind or on another value stays as written, for the contradiction readers. Only ages: on a dose or a sum
("一天最多3片" / "每日不超过3片") the calibrated model reads the evidence's words as no more support (u07 fell 0.81 -> 0.79).
"""

from __future__ import annotations

import re

from ragpipe.core.evidence.facts import BOUND_BEFORE, bound_spans

# An age written after the value ("at least 10 years old"): the evidence's bound written after the value takes its place.
_AGE_AFTER = re.compile(r"\s*years?(?:\s+old|\s+of\s+age)\b", re.I)
_NUMERAL = re.compile(r"[\d零〇一二两三四五六七八九十百千万亿]")
_NUMERAL_RUN = re.compile(r"[\d.,零〇一二两三四五六七八九十百千万亿]+")
_AGE = re.compile(r"周?岁|儿童|孩子|小孩|\bage[ds]?\b|\byears?\s+(?:old|of\s+age)\b|\b(?:older|younger|child(?:ren)?|kids?)\b", re.I)
_ASKS_AGE = re.compile(r"\bhow old\b|\bwhat age\b|多大|几岁|多少岁|年龄", re.I)
_AGE_REACH = 12  # characters on either side of a bound where its age word may stand ("aged 18 and over", "年满12周岁")


def _on_age(text: str, start: int, end: int) -> bool:
    return bool(_AGE.search(text[max(0, start - _AGE_REACH):end + _AGE_REACH]))


def _tight(span: str) -> bool:
    """The bound word stands right before the value, or after it: "最多能取两万" holds words of its own (能取) that a
    rewrite must not drop."""
    value = _NUMERAL.search(span)
    head = span[:value.start()].strip() if value else span
    return len(_NUMERAL_RUN.findall(span)) == 1 and (not head or bool(BOUND_BEFORE.fullmatch(head)))


def as_evidence_bounds(statement: str, evidence: str, question: str = "") -> str:
    """The statement with each bound on an age that the evidence puts on the same age, of the same kind, written as the
    evidence writes it ("Anyone 18 or older can join" as "Anyone 18 and over can join" beside "open to people aged 18
    and over"). A question that asks an age makes the reply's bound one on an age ("at least 18" to "How old …?")."""
    asks_age = bool(_ASKS_AGE.search(question))
    theirs: dict[tuple[float, str], str] = {}
    for value, kind, start, end in bound_spans(evidence):
        if _tight(evidence[start:end]) and _on_age(evidence, start, end):
            theirs.setdefault((value, kind), evidence[start:end].strip())
    for value, kind, start, end in sorted(bound_spans(statement), key=lambda span: -span[2]):
        mine, their = statement[start:end].rstrip(), theirs.get((value, kind))
        if not their or their.lower() == mine.lower() or not _tight(mine) or not (asks_age or _on_age(statement, start, end)):
            continue
        end = start + len(mine)
        age = _AGE_AFTER.match(statement, end) if their[:1].isdigit() else None
        statement = statement[:start] + their + statement[age.end() if age else end:]
    return statement
