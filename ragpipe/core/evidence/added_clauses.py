"""What a statement adds to the clause before it: the part after an additive connective the splitter keeps ("并赠送…",
"which can…", ", and also…"), a Chinese clause whose "also" adds it, a lower-case item joined by a bare "and", or an
instruction's second step. invented.py reads it: an added claim is short, and what it adds must stand in the evidence."""

from __future__ import annotations

import re

from ragpipe.core.text import is_chinese, is_step

# What a statement adds after its first clause: a clause the splitter cut from its sentence at an additive
# connective it keeps ("并赠送…", "which can…"), or the part after one within it; a Chinese clause whose
# "also" (还/也 before a modal or verb: "学生还可免费多带一件") adds it, whole. (A lower-case opening is no
# sign of one: short English answers often start so, and read as added clauses they cost HaluEval 0.005 AUROC.)
_ZH_ADDED = re.compile(r"(?:^|[，,])(?:并且|而且|并|且|还|另外|此外|同时|以及|另)")
_ZH_ALSO = re.compile(r"^[^，,]{1,8}?(?:还|也)(?=[可能会有要需将])")
# A lower-case item of one to three words joined by a bare "and" to a claim of four words or more is added too
# ("…access to the pool and free parking"; not a name, "Stardust Resort and Casino", nor a short answer's list).
# That one is sought only where no other sign is: it would cut "…functions, including growth and development,
# metabolism, and reproductive processes" after its last "and".
_EN_ADDED = re.compile(r"^which\s|,\s+(?:and also|and|plus|with|including|which)\s", re.I)
_EN_ADDED_ITEM = re.compile(r"^(?:\S+\s+){4,}and\s(?=[a-z][\w-]*(?:\s[\w-]+){0,2}\W*$)")


def added_clause(statement: str) -> str:
    """What the statement adds to the clause before it, or "" when it adds to none."""
    statement = statement.strip()
    if is_chinese(statement) and _ZH_ALSO.match(statement):
        return statement
    found = (_ZH_ADDED.search(statement) if is_chinese(statement)
             else _EN_ADDED.search(statement) or _EN_ADDED_ITEM.search(statement) or _second_step(statement))
    return statement[found.end():] if found else ""


def _second_step(statement: str) -> re.Match | None:
    """The "and" before the second step of a two-step instruction the splitter keeps whole (text.is_step)."""
    return next((cut for cut in re.finditer(r"\s+and\s+", statement)
                 if is_step(statement[:cut.start()]) and is_step(statement[cut.end():])), None)
