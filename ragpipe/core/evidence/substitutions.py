"""A statement that copies an evidence sentence with one phrase of common words put in the place of
another: "Donors can use the mobile unit at the public library instead." against "…; donors can use the
mobile unit at the town hall instead." slots.py reads names, numbers and dates in their slots; a place or
a thing written in common words ("the town hall", "the back door") is no name, so it needs this reader.

Only a plain copy counts: every word of the statement but the phrase stands in the sentence in the same
order, the phrase and the sentence's phrase are one to three words each (two or more on one side, after an article
or a preposition: a noun phrase, not a verb or a lone word that may be a synonym), neither's head is a word or a
synonym of one that the other text has, the two share no word, and both are written in lower case (a proper name's place
is the slot reader's). English only: a Chinese sentence is not cut into words a copy can be read by.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher

from ragpipe.core.evidence.agreement import found_in, words
from ragpipe.core.synonyms import interchangeable
from ragpipe.core.text import EN_STOPWORDS, is_chinese

_TOKEN = re.compile(r"[A-Za-z]+(?:'[a-z]+)?|\d+(?:[.,:]\d+)*")
_CLAUSES = re.compile(r"\s*[;:]\s*|,\s+(?:and|but|while|whereas)\s+|\.\s+")
_BEFORE_NOUN = frozenset("the a an at in on to from near into inside outside behind beside by via".split())
# The least of the statement that must be copied around the phrase: a frame, not a coincidence.
_MIN_COPIED = 4


def substituted(statement: str, sentences: Sequence[str]) -> tuple[str, str, str, str] | None:
    """("name", the statement's phrase, the evidence's phrase, the sentence) for the first sentence
    (or clause of one) that the statement copies but for one phrase in common words, or None."""
    if is_chinese(statement) or not statement.strip():
        return None
    mine = _TOKEN.findall(statement)
    evidence_words = {w for s in sentences for w in words(s)}
    for sentence in sentences:
        for clause in [sentence, *_CLAUSES.split(sentence)]:
            theirs = _TOKEN.findall(clause)
            found = _one_phrase_replaced(mine, theirs)
            if found and _apart(found[0], found[1], evidence_words, words(statement)):
                return "name", " ".join(found[0]), " ".join(found[1]), sentence
    return None


def _one_phrase_replaced(mine: list[str], theirs: list[str]) -> tuple[list[str], list[str]] | None:
    """The statement's phrase and the clause's, where the statement is the clause (or a stretch of it)
    with that one phrase replaced; None otherwise."""
    lowered_mine, lowered_theirs = [w.lower() for w in mine], [w.lower() for w in theirs]
    blocks = SequenceMatcher(None, lowered_mine, lowered_theirs, autojunk=False).get_opcodes()
    # The clause may say more before or after the copied stretch.
    while blocks and blocks[0][0] == "insert":
        blocks = blocks[1:]
    while blocks and blocks[-1][0] == "insert":
        blocks = blocks[:-1]
    changed = [b for b in blocks if b[0] != "equal"]
    if len(changed) != 1 or changed[0][0] != "replace":
        return None
    _, i1, i2, j1, j2 = changed[0]
    copied = lowered_mine[:i1] + lowered_mine[i2:]
    if len(copied) < _MIN_COPIED or sum(w not in EN_STOPWORDS for w in copied) < 2:
        return None
    ours, other = mine[i1:i2], theirs[j1:j2]
    # A phrase of two words or more on one side, after an article or a preposition: a noun phrase. A single
    # word put for another is as often a synonym the reader cannot tell ("repairs" / "refurbishment").
    if not (1 <= len(ours) <= 3 and 1 <= len(other) <= 3 and max(len(ours), len(other)) >= 2):
        return None
    if i1 == 0 or lowered_mine[i1 - 1] not in _BEFORE_NOUN:
        return None
    if any(not w.islower() for w in ours + other) or ours[-1] in EN_STOPWORDS or other[-1] in EN_STOPWORDS:
        return None  # a name or a number stands in one of them, or a function word heads one
    return ours, other


def _apart(ours: list[str], other: list[str], evidence_words: set[str], statement_words: tuple[str, ...]) -> bool:
    """Neither phrase's head (its last word) is a word, or a synonym of one, of the other text: "public library" is
    no "town hall" though the evidence speaks of "public holidays" elsewhere."""
    our_head, other_head = words(ours[-1]), words(other[-1])
    if not our_head or not other_head or any(found_in(w, words(" ".join(other))) for w in words(" ".join(ours))):
        return False  # a shared word makes it a rewording of one phrase ("library holds" / "library's collection numbers")
    return not _held(our_head[0], evidence_words) and not _held(other_head[0], statement_words)


def _held(word: str, pool) -> bool:
    return found_in(word, pool) or bool(interchangeable(word) & set(pool))
