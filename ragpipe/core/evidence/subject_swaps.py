"""A statement that says word for word what an evidence clause says, of a subject the evidence never names:
"Professional theatre companies get 15% off orders of ten or more costumes." against "Schools and amateur dramatic
societies get 15% off orders of ten or more costumes."

The two clauses end alike (the predicate, with its values) and differ only in what opens them. Where none of the
statement's opening words is anywhere in the evidence, the evidence gives that predicate to someone else and says
nothing of the statement's subject: the statement moved it. group_swaps.py reads classes of people it knows
(students, seniors); this reads any subject, by alignment alone. English only: a Chinese clause's subject is not
cut off by word order so plainly.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragpipe.core.evidence.agreement import found_in, words
from ragpipe.core.text import is_chinese

_TOKEN = re.compile(r"[a-z0-9$£€%'.-]+")
_CLAUSES = re.compile(r"[;:!?]|\.(?:\s|$)")
_DEFINITE = re.compile(r"(?:the|this|that|these|those|it|its|our|their|his|her)\b")
# A subordinate or reporting word makes an opening a clause, not a subject.
_CLAUSE_WORD = re.compile(r"\b(?:that|who|which|whom|whose|when|where|while|if|because|said|says|reported|is|are|was|were|"
                          r"has|have|had|be|please|there|they|we|i|you|he|she|it)\b")
# The shared ending must carry the claim: at least this many words, and most of the statement.
_LEAST_SHARED = 4


def _tokens(text: str) -> list[str]:
    return [t.strip(".'") for t in _TOKEN.findall(text.lower()) if t.strip(".'")]


def swapped_subject(statement: str, sentences: Sequence[str]) -> tuple[str, str, str, str] | None:
    """("subject", the statement's opening, the evidence clause's opening, the evidence sentence) or None."""
    if is_chinese(statement) or not statement.lstrip()[:1].isupper():
        return None
    said = _tokens(statement)
    everywhere = words(" ".join(sentences))
    for sentence in sentences:
        for clause in _CLAUSES.split(sentence):
            theirs = _tokens(clause)
            shared = 0
            while shared < min(len(said), len(theirs)) and said[-1 - shared] == theirs[-1 - shared]:
                shared += 1
            if shared < _LEAST_SHARED or shared * 2 < len(said):
                continue
            opening, their_opening = said[:-shared], theirs[:-shared]
            if not 0 < len(opening) <= 5 or not 0 < len(their_opening) <= 6 or len(words(" ".join(said[-shared:]))) < 2 \
                    or opening[0].endswith("ly") or _CLAUSE_WORD.search(" ".join(opening + their_opening)) \
                    or len(opening) == 1 and not opening[0].endswith("s"):  # "Arrive 45 minutes before…": a verb
                continue  # openings that are noun phrases, a shared ending that says something
            ours, other = " ".join(opening), " ".join(their_opening)
            mine, its = words(ours), words(other)
            if _DEFINITE.match(ours) and len(mine) == 1:
                continue  # "The film was released…": a thing named again, not another subject
            if mine and its and not any(found_in(t, everywhere) for t in mine) and not any(found_in(t, its) for t in mine):
                return "subject", ours, other, sentence
    return None
