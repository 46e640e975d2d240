"""Enumerations: "fever, cough and fatigue", "Visa, Mastercard and PayPal", "发热、咳嗽和乏力". A statement
that copies an evidence sentence's frame ("Common side effects include", 常见副作用包括) and a member of its list
but puts in a member the evidence states nowhere ("headache" where it lists "drowsiness") lists what the
evidence does not: one member replaced by another of its kind, the rest copied so that word overlap and the
embedding see a restatement."""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from ragpipe.core.evidence.agreement import found_in, words
from ragpipe.core.text import is_chinese, pos_tags

# Where one member ends and the next begins: commas and "and"/"or" (en), 、 and the conjunctions (zh, as jieba's
# whole words: the 和 of 和平 is no separator). The list ends with its clause.
_EN_SEPARATOR = re.compile(r"\s*,\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+", re.I)
_ZH_SEPARATORS = {"、", "和", "及", "以及", "与", "或", "或者"}
_CLAUSE_END = re.compile(r"[.;!?。；！？]")
# A part after a comma that opens with a preposition is an adjunct, no member: "available 24 hours a day, with a $150
# fee" lists nothing.
_ADJUNCT = re.compile(r"\s*(?:with|for|at|in|on|by|from|to|of|via|including|except|without)\b", re.I)
_LONGEST_MEMBER = 3  # words: "a USB cable", "延长退货期"; a longer part is a clause, not a list member


def _chunks(clause: str) -> list[str]:
    if is_chinese(clause):
        out, current = [], ""
        for pair in pos_tags(clause):
            if pair.word in _ZH_SEPARATORS:
                out, current = out + [current], ""
            else:
                current += pair.word
        return [c for c in out + [current] if c.strip()]
    return [c for c in _EN_SEPARATOR.split(clause) if c.strip()]


def _members(statement_clause: str, evidence_clause: str) -> tuple[list[tuple], list[tuple], list[str]] | None:
    """Both clauses' members as word tuples (and the statement's as written), where both are lists under one frame: their first parts open with
    the same words (two at least) and differ, if at all, in the first member only."""
    ours, theirs = _chunks(statement_clause), _chunks(evidence_clause)
    if len(ours) < 2 or len(theirs) < 2 or any(_ADJUNCT.match(c) for c in ours[1:] + theirs[1:]):
        return None
    first_ours, first_theirs = list(words(ours[0])), list(words(theirs[0]))
    frame = 0
    while frame < min(len(first_ours), len(first_theirs)) and first_ours[frame] == first_theirs[frame]:
        frame += 1
    if frame < 2 or len(first_ours) - frame > _LONGEST_MEMBER or len(first_theirs) - frame > _LONGEST_MEMBER:
        return None
    # Equal first parts share the first member, whatever of them is frame.
    head = 1 if first_ours == first_theirs else 0
    mine = [tuple(first_ours[frame - head:])] + [words(c) for c in ours[1:]]
    other = [tuple(first_theirs[frame - head:])] + [words(c) for c in theirs[1:]]
    if not all(0 < len(m) <= _LONGEST_MEMBER for m in mine + other):
        return None
    return mine, other, ours


def _misspelt(term: str, held: set[str]) -> bool:
    """One letter apart from a word of five letters or more that the evidence has."""
    return len(term) >= 5 and term.isascii() and any(
        abs(len(term) - len(h)) <= 1 and SequenceMatcher(None, term, h).ratio() >= 1 - 1.5 / len(term) for h in held)


def _same_member(a: tuple, b: tuple) -> bool:
    return all(found_in(t, b) for t in a) or all(found_in(t, a) for t in b)


def _own_words(member: tuple, others: list[tuple], written: str) -> tuple:
    """A member less the words it ends with as a member of the other list does: the kind of a name ("Labour Day" /
    "Christmas Day", 保价服务 / 包装服务) or the list's closing words (红色三种颜色 / 蓝色三种颜色) name no member. An
    English member that is no name keeps them: "the remaining fabric" rewords "the rest of the fabric"."""
    if not (is_chinese(written) or re.search(r"\b[A-Z][\w'-]*\W*$", written)):
        return member
    longest = 0
    for other in others:
        n = 0
        while n < min(len(member), len(other)) - 1 and member[-1 - n] == other[-1 - n]:
            n += 1
        longest = max(longest, n)
    return member[:len(member) - longest]


def member_named(clause: str, terms: list[str]) -> str:
    """The clause less the list members after its first part that name none of ``terms``, where the first part names
    one: "We do not repair smartwatches or fitness trackers" read against "We repair smartwatches" says what "We do not
    repair smartwatches" says (不提供停车和餐饮 / 提供停车). A part too long for a member leaves the clause whole."""
    chunks = _chunks(clause)
    if len(chunks) < 2 or any(_ADJUNCT.match(c) or len(words(c)) > _LONGEST_MEMBER for c in chunks[1:]):
        return clause
    kept = [c for c in chunks[1:] if any(found_in(t, words(c)) for t in terms)]
    if len(kept) == len(chunks) - 1 or not any(found_in(t, words(chunks[0])) for t in terms):
        return clause
    return " ".join([chunks[0], *kept]) if not is_chinese(clause) else "".join([chunks[0], *kept])


def list_conflict(statement: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """("name", the statement's part with the member it adds, the evidence's list, its sentence) where the statement lists under
    an evidence sentence's frame a member that sentence's list lacks and no evidence sentence states, beside one
    it has."""
    clause = _CLAUSE_END.split(statement.strip())[0]
    held = {t for s in sentences for t in words(s)}
    for sentence in sentences:
        for theirs in _CLAUSE_END.split(sentence):
            read = _members(clause, theirs)
            if not read:
                continue
            mine, other, written = read
            shared = [m for m, w in zip(mine, written) if any(_same_member(_own_words(m, other, w), o) for o in other)]
            # Another member wholly: none of its words stands in the evidence ("index finger" of "running to your
            # index finger" does), not even misspelt ("cardamom" / "cardamon").
            added = [i for i, m in enumerate(mine) if m not in shared and not any(
                found_in(t, held) or _misspelt(t, held) for t in _own_words(m, other, written[i]))]
            if shared and added:
                return "name", written[added[0]].strip(), theirs.strip(), sentence
    return None
