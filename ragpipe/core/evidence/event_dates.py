"""The date a text gives the start or the last day of something, however it words the event: "The deadline is 15
March 2025", "must be submitted by 2025-03-15", "accepted until 30 June", "截止日期是3月15日", "须在2025-03-15前提交"
all name a last day; "starts on 2 September", "Classes begin on 2025-09-02", "2025年9月2日起", "开课" a first one.

A statement and an evidence sentence that give the same kind of day to what the statement speaks of (the words it
has beyond the question's, the date's and the event's; none left: the question's own topic) speak of one slot: the
same date bears the statement out, another one contradicts it where the evidence states its date nowhere. Without
this, "The deadline is 15 May 2025" shares no word with "Applications must be submitted by 2025-03-15"."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragpipe.core.evidence.agreement import found_in, words
from ragpipe.core.evidence.facts import dates_at, negated
from ragpipe.core.evidence.polarity import aligned_with, overlap, pronoun

# Words of an event's first day and of its last day, anywhere in the date's clause.
_FIRST = re.compile(r"\b(?:start(?:s|ed|ing)?|begin(?:s|ning)?|began|open(?:s|ed|ing)?|commence[sd]?|launch(?:es|ed)?|"
                    r"effective|kick(?:s|ed)? off)\b|开始|开课|开学|开幕|开放|开通|开馆|开业|开园|启动|生效", re.I)
_LAST = re.compile(r"\b(?:deadlines?|due|clos(?:e|es|ed|ing)|end(?:s|ed|ing)?|expir(?:es?|ed|y|ation)|cut-?off|"
                   r"last day|no later than|not later than|on or before)\b|截止|截至|到期|最迟|最晚|为止|结束", re.I)
# A word right before or after the date that makes it one end: "from 1 March", "by 2025-03-15", "有效期至…", "…前提交", "…起".
_FIRST_BEFORE = re.compile(r"(?:\b(?:from|since|as of|starting|beginning)|自|从)\s*(?:on\s*)?$", re.I)
_LAST_BEFORE = re.compile(r"(?:\b(?:by|until|till|through|before)|截至|截止(?:到|至)?|至|到)\s*(?:on\s*)?$", re.I)
_FIRST_AFTER = re.compile(r"^\s*(?:起|开始)")
_LAST_AFTER = re.compile(r"^\s*(?:之?前|以前|为止|截止)")
# The nouns of a date itself ("closing date", "截止日期"): no topic of the event's.
_DATE_NOUN = re.compile(r"\b(?:dates?|days?|time)\b|日期|时间|日子", re.I)
_AFTER_BEFORE, _AFTER_AFTER = re.compile(r"\bafter\s*(?:on\s*)?$", re.I), re.compile(r"^\s*(?:之后|以后)")
_BEFORE_BEFORE, _BEFORE_AFTER = re.compile(r"\bbefore\s*(?:on\s*)?$", re.I), re.compile(r"^\s*(?:之?前|以前)")
_CLAUSE = re.compile(r"[,;，；。]|\b(?:and|but|while)\b|而")


def event_kind(text: str) -> str | None:
    """"first" where the text speaks of a start, "last" of a last day ("deadline", "截止"), None for both or neither."""
    first, last = bool(_FIRST.search(text)), bool(_LAST.search(text))
    return "first" if first and not last else "last" if last and not first else None


def event_topic(text: str) -> list[str]:
    """The words of what the text gives a start or last day to: not those of the event, the date or a date noun."""
    dated = text
    for _, _, written in event_dates(text):
        dated = dated.replace(written, " ")
    return list(dict.fromkeys(words(_DATE_NOUN.sub(" ", _LAST.sub(" ", _FIRST.sub(" ", dated))))))


def event_dates(text: str) -> list[tuple[str, tuple, str]]:
    """The days of a month the text gives a start or a last day: (kind "first" or "last", (year or None, month, day),
    as written). A date whose clause names both kinds, or neither, is left out, and so is a negated clause."""
    found = []
    for start, end, (year, month, day) in dates_at(text):
        if not (month and day):
            continue
        before, after = text[:start], text[end:]
        kind = ("first" if _FIRST_BEFORE.search(before) or _FIRST_AFTER.match(after) else
                "last" if _LAST_BEFORE.search(before) or _LAST_AFTER.match(after) else None)
        clause = _CLAUSE.split(before)[-1] + text[start:end] + _CLAUSE.split(after)[0]
        if negated(_LAST.sub(" ", clause)):  # "no later than" denies nothing
            # A denial after a day makes it the last one, before a day the first: "not possible after 14 February",
            # "3月1日之前不得报名".
            kind = ("last" if _AFTER_BEFORE.search(before) or _AFTER_AFTER.match(after) else
                    "first" if _BEFORE_BEFORE.search(before) or _BEFORE_AFTER.match(after) else None)
            if kind:
                found.append((kind, (year, month, day), text[start:end]))
            continue
        kind = kind or event_kind(clause)
        if kind:
            found.append((kind, (year, month, day), text[start:end]))
    return found


def _same(a: tuple, b: tuple) -> bool:
    """One day: month and day equal, and the year where both give one."""
    return a[1:] == b[1:] and (a[0] is None or b[0] is None or a[0] == b[0])


def date_reading(statement: str, question: str, sentences: Sequence[str]):
    """True where an evidence sentence that speaks of what the statement speaks of gives its start or last day the
    statement's date; a contradiction ("date", what it says, what the evidence says, the sentence) where every such
    sentence gives another and no evidence states the statement's date; else None."""
    said = event_dates(statement)
    if len(said) != 1 or negated(_LAST.sub(" ", statement)):
        return None
    kind, date, written = said[0]
    # What it speaks of: a single Chinese character is a particle or a modal ("须在…前"), not a topic.
    frame = [t for t in event_topic(statement) if not pronoun(t) and (t.isascii() or len(t) > 1)]
    own = [t for t in frame if not found_in(t, words(question))]  # the question's words are its topic
    held = [(s, d, w) for s in sentences for k, d, w in event_dates(s) if k == kind]
    if own and held:
        held = [held[i] for i in aligned_with(own, [s for s, _, _ in held], [words(s) for s, _, _ in held])]
    # The same day bears it out only where the sentence names its topic too ("Registration closes on 2026-02-01" is
    # no payment's deadline); another day, stated nowhere else, contradicts it whatever its topic.
    if any(_same(date, d) and (not frame or overlap(frame, words(s))) for s, d, _ in held):
        return True
    if not held or any(_same(date, d) for _, d, _ in held):
        return None
    if any(d[1] and all(a is None or b is None or a == b for a, b in zip(date, d)) for s in sentences for _, _, d in dates_at(s)):
        return None  # the evidence states the day, or its month, elsewhere: of what, this reading cannot tell
    sentence, _, theirs = held[0]
    return "date", written, theirs, sentence
