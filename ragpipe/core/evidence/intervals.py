"""How often something recurs, said otherwise: "The airport train runs every 30 minutes." against "The first airport
train leaves at 5:30 a.m. and runs every 15 minutes.", "机场列车每30分钟一班" against "…5点30分发车，每15分钟一班".

durations.py leaves a rate's span out, and slots.py passes a number the evidence states anywhere: the 30 of a
clock time ("5:30", 5点30分) or of another rule ("开车前30分钟以上可以退票") passed the statement's interval. Here
an interval ("every N minutes", 每N分钟, 每隔N天) is compared with the intervals of the sentence that speaks of what
the statement speaks of, and only with intervals: a clock time or a plain span is no interval.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragpipe.core.evidence.agreement import fact_terms, words
from ragpipe.core.evidence.facts import facts, negated
from ragpipe.core.evidence.polarity import aligned_with
from ragpipe.core.evidence.quantities import Quantity, quantities, same

_EVERY = re.compile(r"(?:\bevery|\beach|每隔?)\s*$", re.I)


def interval_conflict(statement: str, sentences: Sequence[str]) -> tuple[str, str, str, str] | None:
    """("number", the statement's interval, the evidence's, the sentence) where the sentence that speaks of what the
    statement speaks of gives only other intervals, and no evidence sentence gives the statement's; None otherwise."""
    mine = _intervals(statement)
    if len(mine) != 1 or negated(statement):
        return None
    ours = mine[0]
    rest = statement[:ours.start] + " " + statement[ours.end:]
    frame = [t for t in dict.fromkeys(words(rest)) if not fact_terms(facts(t))]
    sentences = [s for s in sentences if s and s.strip()]
    theirs = [_intervals(s) for s in sentences]
    if len(frame) < 2 or any(same(ours, other) for found in theirs for other in found):
        return None
    for i in aligned_with(frame, sentences, [words(s) for s in sentences]):
        if theirs[i]:
            other = theirs[i][0]
            return "number", statement[ours.start:ours.end], sentences[i][other.start:other.end], sentences[i]
    return None


def _intervals(text: str) -> list[Quantity]:
    """The spans of time of a text that say how often ("every 15 minutes", 每15分钟)."""
    return [q for q in quantities(text) if q.dimension in ("time", "calendar") and _EVERY.search(text[:q.start])]
