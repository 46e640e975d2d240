"""A span of time the evidence gives otherwise for the same thing: "You can donate two weeks after getting
a tattoo." against "If you have had a tattoo or piercing, you must wait four months before you can donate."
(the "two weeks" of "Platelet donation … can be repeated every two weeks" speaks of another thing), or
"提前1天预约就可以" against "搬家需至少提前3天预约" (the 24小时 of its cancellation clause is another).

slots.py aligns a number with the sentence that holds the statement's other words, the unit among them, and
passes a value the evidence states anywhere; a span is a number and its unit, so the unit is no word of its
frame ("weeks" against "months"), and only the clause that speaks of the same thing may state it.
A floor or a ceiling in that clause bounds the span ("at least three days": five days bears it out);
a rate ("every two weeks", 每2周) is left to the rate readers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragpipe.core.evidence.agreement import fact_terms, words
from ragpipe.core.evidence.facts import bounds, facts, negated
from ragpipe.core.evidence.polarity import aligned_with, clauses_of
from ragpipe.core.evidence.quantities import Quantity, quantities, same
from ragpipe.core.evidence.units import DAY, MONTH_DAYS

_RATE = re.compile(r"(?:\bevery|\bper|\beach|\ba|每|一)\s*$", re.I)
_ARTICLE = re.compile(r"an?\b", re.I)  # "a day", "an hour": mostly a rate's or an idiom's, not a stated span
_RANGE = re.compile(r"^\s*(?:-|–|~|～|to|至|到|or|或)", re.I)  # a range's first end, before its second
_RANGE_BEFORE = re.compile(r"(?:-|–|~|～|\bto|至|到)\s*$", re.I)  # its second end


def duration_conflict(statement: str, sentences: Sequence[str]) -> tuple[str, str, str, str] | None:
    """("number", the statement's span, the evidence's, the sentence) where the clause that speaks of what the
    statement speaks of gives only other spans of time; None otherwise."""
    if negated(statement):
        return None
    clauses = [(c, s) for s in sentences for c in clauses_of(s)]
    if not clauses:
        return None
    # The frame is what the span is of: not the words of the statement's other quantities ("Six weeks, at 15 hours a
    # week" says nothing of what "15 hours" measures).
    spans = quantities(statement)
    for mine in _spans(statement):
        frame = [t for t in dict.fromkeys(words(_without(statement, spans))) if not fact_terms(facts(t))]
        if len(frame) < 2:
            continue
        # The clause that speaks of it; where the sentence spreads it over two ("If you have had a tattoo, you must
        # wait four months before you can donate"), the sentence.
        units = clauses
        aligned = aligned_with(frame, [c for c, _ in units], [words(c) for c, _ in units])
        if not aligned:
            units = [(s, s) for s in sentences]
            aligned = aligned_with(frame, list(sentences), [words(s) for s in sentences])
        theirs = [(other, c, s) for i in aligned for c, s in [units[i]] for other in _spans(c)]
        if not aligned or len(theirs) < len(aligned) or any(_borne_out(mine, other, c) for other, c, _ in theirs):
            continue  # an aligned clause gives no span, or one that agrees
        other, clause, sentence = theirs[0]
        return "number", statement[mine.start:mine.end], clause[other.start:other.end], sentence
    return None


def _without(text: str, spans: list[Quantity]) -> str:
    """The text with the spans cut out."""
    for q in sorted(spans, key=lambda q: q.start, reverse=True):
        text = text[:q.start] + " " + text[q.end:]
    return text


def _spans(text: str) -> list[Quantity]:
    """The spans of time of a text, but rates and a range's ends."""
    return [q for q in quantities(text) if q.dimension in ("time", "calendar") and not _ARTICLE.match(text, q.start)
            and not _RATE.search(text[:q.start]) and not _RANGE.match(text[q.end:])
            and not _RANGE_BEFORE.search(text[:q.start])]


def _borne_out(mine: Quantity, other: Quantity, clause: str) -> bool:
    """The clause's span is the statement's, or a bound that the statement's span keeps."""
    if same(mine, other):
        return True
    kinds = bounds(clause).get(other.number, set())
    (mine_low, mine_high), (other_low, other_high) = _days(mine), _days(other)
    # A month is 28 to 31 days: the span keeps the bound where any of its readings does.
    return ("floor" in kinds and mine_high >= other_low) or ("ceiling" in kinds and mine_low <= other_high)


def _days(span: Quantity) -> tuple[float, float]:
    """The span in days, as the least and the most it may be."""
    if span.dimension == "calendar":
        return span.amount * MONTH_DAYS[0], span.amount * MONTH_DAYS[1]
    return span.amount / DAY, span.amount / DAY
