"""An act the statement leaves to the reader ("you can open the door yourself") that the evidence gives to someone
else: "call the building manager, who sends the locksmith; the locksmith opens the door". agents.py reads two named
doers of one act; here the statement's doer is the reader or the subject's own people, marked by "yourself",
"themselves", "on your own", and the evidence's doer is a third party that does the same act (its verb) to the same
thing (the object's head noun), as the subject of an active verb or of a "who" clause after it."""

from __future__ import annotations

import re

from ragpipe.core.evidence.agreement import found_in, words
from ragpipe.core.evidence.facts import negated
from ragpipe.core.text import is_chinese, stem

# "open the door yourself", "fit the tyres themselves", "change the filter on your own": the verb and its object.
_SELF_DONE = re.compile(r"\b(?P<verb>[a-z]{3,})\s+(?P<object>(?:(?:the|your|their|a|an|any|its)\s+)?[a-z-]+(?:\s+[a-z-]+)?)\s+"
                        r"(?:yourself|yourselves|themselves|himself|herself|on (?:your|their) own)\b", re.I)
# Words between a doer and its verb: "the locksmith, who opens", "our mechanic will fit", "the staff then light".
_BETWEEN = frozenset({"who", "which", "then", "will", "always", "also", "usually", "only", "can", "must", "should", "normally"})
_DETERMINER = frozenset({"the", "our", "a", "an", "their", "your", "its"})
# The reader or the subject's own people are no third party.
_NOT_DOER = re.compile(r"^(?:you|guest|customer|visitor|member|owner|user|tenant|client|patient|person|people|student)s?$", re.I)


def _verb(word: str) -> str:
    return stem(word.lower()).rstrip("e")


def done_by_another(statement: str, sentences: list[str]) -> tuple[str, str, str] | None:
    """("yourself" as the statement writes it, the evidence's doer, the sentence) where the statement has its reader do
    an act the evidence gives to a third party; None elsewhere."""
    if is_chinese(statement) or negated(statement):
        return None
    said = _SELF_DONE.search(statement)
    if not said:
        return None
    verb, thing = _verb(said["verb"]), words(said["object"])[-1:]
    if not thing:
        return None
    for sentence in sentences:
        tokens = re.findall(r"[A-Za-z'-]+|[,;.:!?]", sentence)
        for k, token in enumerate(tokens):
            if _verb(token) != verb or not found_in(thing[0], words(" ".join(tokens[k + 1:k + 5]))):
                continue
            doer = _doer(tokens[:k])
            if doer and not negated(" ".join(tokens[max(0, k - 3):k + 1])):
                return said.group(0).split()[-1], doer, sentence
    return None


def _doer(before: list[str]) -> str:
    """The noun right before the verb (a "who" or a modal skipped), after its determiner: "the on-call locksmith", "our
    mechanic"; "" where the verb has none (an imperative, "you", a list)."""
    k = len(before)
    while k and (before[k - 1].lower() in _BETWEEN or before[k - 1] == ","):
        k -= 1
    noun = before[k - 1] if k else ""
    at = next((j for j in range(k - 2, max(-1, k - 4), -1) if before[j].lower() in _DETERMINER), None)
    if not noun or at is None or _NOT_DOER.match(noun) or not re.fullmatch(r"[A-Za-z-]+", noun):
        return ""
    return " ".join(before[at + 1:k])
