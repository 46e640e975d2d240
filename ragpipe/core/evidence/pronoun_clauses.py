"""A pronoun inside the evidence: "Wigs can only be hired with a costume; they are not hired out on their own." The
second clause denies what "Wigs can be hired on their own" says, but names its subject only as "they", so no reader
aligns the statement with it (the clause that names wigs says something else). Here a later clause that opens with
"it" or "they" is read with the subject of the clause before it put in its place, and the negation reader
(polarity.polarity_conflict) reads the statement against that clause alone: only a negation or an antonym counts, the
kinds a pronoun cannot make up by itself."""

from __future__ import annotations

import re

from ragpipe.core.evidence.agreement import words
from ragpipe.core.evidence.polarity import polarity_conflict

# Clauses of one evidence sentence (or of several run together): a semicolon, a full stop, a comma before "but".
_CLAUSES = re.compile(r";\s*|(?<=[a-z0-9)])[.!]\s+|,\s*(?=but\b)", re.I)
# The subject of an English clause: the words before its first verb of being, modal or auxiliary, after an article.
_SUBJECT = re.compile(r"^\s*(?:(?:the|all|our|your|these|those)\s+)?(?P<subject>[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,2}?)\s+"
                      r"(?:is|are|was|were|can(?:not)?|must|may|might|will|should|need|needs|do|does|has|have)\b", re.I)
# A clause that opens with the pronoun (and maybe "but" / "and"): "they are not…", "but it cannot…".
_PRONOUN_OPENING = re.compile(r"^\s*(?:(?:but|and|however,?)\s+)?(?P<pronoun>they|it)\b", re.I)
# A subject that is itself a pronoun or a dummy ("There are…", "It is…", "We…") points at nothing.
_NO_SUBJECT = re.compile(r"^(?:it|they|there|we|you|i|this|that|he|she)\b", re.I)


def _subject(clause: str) -> tuple[str, ...]:
    found = _SUBJECT.match(clause)
    return words(found.group("subject")) if found and not _NO_SUBJECT.match(found.group("subject")) else ()


def resolved_clauses(sentences: list[str]) -> list[str]:
    """Each later clause that opens with "it" or "they", with the subject of the clause before it in its place (the
    evidence comes cut into sentences: the clause before may end the sentence before)."""
    resolved = []
    clauses = [c for sentence in sentences for c in _CLAUSES.split(sentence) if c and c.strip()]
    for before, clause in zip(clauses, clauses[1:]):
        subject, opening = _SUBJECT.match(before), _PRONOUN_OPENING.match(clause)
        if subject and opening and not _NO_SUBJECT.match(subject.group("subject")):
            resolved.append(f"{subject.group('subject')}{clause[opening.end('pronoun'):]}".strip())
    return resolved


def pronoun_denial(statement: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """("negation" or "antonym", what the statement says, what the resolved clause says, the clause) where an evidence
    clause that names the statement's subject only by a pronoun says the opposite of the statement."""
    # Only a clause about the statement's own subject: "Wigs can be hired…" against "wigs are not hired…".
    subject = _subject(statement)
    clauses = [c for c in resolved_clauses(sentences) if subject and _subject(c) == subject]
    found = polarity_conflict(statement, clauses) if clauses else None
    return found if found and found[0] in ("negation", "antonym") else None
