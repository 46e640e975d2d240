"""A stance said in other words than the evidence's: "定金交了就不能退" read as "定金交了就不予退" where the evidence says
"宴会预订定金不予退还", so that the statement's words are the evidence's where both take one stance (stances.MODALITY).
Whether the stances differ is polarity.py's to judge; here they are the same, only worded apart.
"""

from __future__ import annotations

import re

from ragpipe.core.evidence.agreement import words
from ragpipe.core.evidence.polarity import clauses_of, modality
from ragpipe.core.evidence.stances import MODALITY
from ragpipe.core.text import is_chinese


def as_evidence_stance(statement: str, evidence: str) -> str:
    """The statement with its stance word (不能, 最好不要) the evidence's (不予, 应避免) where an evidence clause takes the
    same stance in another word and holds what the statement's is taken on (退 of 不能退 in 不予退还). Chinese only: an English stance is a phrase ("should avoid", "is not allowed"), not a word."""
    if not is_chinese(statement):
        return statement
    stance = modality(statement)
    if stance is None:
        return statement
    ours = _stance_word(statement, stance)
    if ours is None or ours.group(0) in evidence:
        return statement
    # What the stance is taken on: the words after it ("退", "带生鲜食品"), every one in the evidence clause after its
    # stance word ("只允许使用人工饵" permits another bait than "可以使用活饵" does).
    taken_on = words(re.split(r"[，,；;。]", statement[ours.end():])[0])
    for clause in (c for c in clauses_of(evidence) if modality(c) == stance):
        theirs = _stance_word(clause, stance)
        if theirs and taken_on and all(w in clause[theirs.end():] for w in taken_on):
            return statement[:ours.start()] + theirs.group(0) + statement[ours.end():]
    return statement


def _stance_word(text: str, stance: str) -> re.Match | None:
    return next((m for kind, pattern in MODALITY if kind == stance for m in [pattern.search(text)] if m), None)
