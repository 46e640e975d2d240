"""A span of time before an event said after it, or after it said before it: "Refunds are available until 7 days
after the course starts." against "…up to 7 days before the course starts", "在开课后5天截止报名" against
"报名在开课前5天截止".

A general before / after antonym contradicts too much ("After steeping the tea for five minutes, cool it
slightly" against "…cool slightly before drinking"): this reader fires only where both sides give the same span
of time, tied to the same event, one before it and the other after it, and no evidence clause gives the span on
the statement's side of that event.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ragpipe.core.evidence.agreement import found_in, words
from ragpipe.core.evidence.facts import negated
from ragpipe.core.evidence.polarity import clauses_of, modality
from ragpipe.core.evidence.quantities import quantities, same

# English: the span, then its side of the event, then the event ("7 days before the course starts").
_EN_SIDE = re.compile(r"^\s*(?P<side>before|after|prior to|ahead of|following)\s+(?P<event>[^,;:.!?]+)", re.I)
_EN_BEFORE = {"before", "prior to", "ahead of"}
# Chinese: the event, then its side, then the span ("开课前5天", "烧制日后7天"); or the event, the span, then the
# side ("考试开始30分钟后"). The event is the Chinese run the side follows.
_ZH_SIDE_FIRST = re.compile(r"(?P<event>[\u4e00-\u9fff]+?)(?P<side>之前|之后|以前|以后|前|后)$")
# Words whose 前 or 后 is no side of an event: 提前 ("提前3天预约"), 目前, 此前, 日前, 最后 ("最后3天"), 然后 …
_NOT_AN_EVENT = {"前": ("提", "目", "此", "先", "从", "以", "之", "最", "当", "空", "向"),
                 "后": ("此", "以", "之", "最", "然", "随", "落", "背", "今", "往", "向")}
_ZH_SIDE_AFTER = re.compile(r"^(?P<side>之前|之后|以前|以后|前|后)")
_ZH_EVENT_BEFORE_SPAN = re.compile(r"(?P<event>[\u4e00-\u9fff]+)$")


@dataclass(frozen=True)
class _Timed:
    span: object        # quantities.Quantity
    before: bool        # the span lies before the event
    event: tuple[str, ...]
    written: str        # the span and its side, as the text writes them


def before_after_conflict(statement: str, sentences: Sequence[str]) -> tuple[str, str, str, str] | None:
    """("antonym", the statement's span and side, the evidence's, the sentence) where an evidence clause puts the
    statement's span on the other side of the same event, and none on its side; None otherwise."""
    mine = [(t, c) for c in clauses_of(statement) for t in _timed(c)]
    if not mine:
        return None
    theirs = [(t, c, s) for s in sentences for c in clauses_of(s) for t in _timed(c)]
    for ours, clause in mine:
        related = [(t, c, s) for t, c, s in theirs if same(ours.span, t.span) and _same_event(ours.event, t.event)]
        if any(t.before == ours.before for t, _, _ in related):
            continue  # the evidence gives the span on the statement's side too
        # A negation on one side only may say what the other side says ("not after" / "before"); and the clause must
        # say something of what the statement says: "Doors close 15 minutes after the class starts" is no time to arrive.
        # Two words of one stance are one polarity, though only one says "not" ("应避免饮酒" / "不宜饮酒").
        opposed = [(t, s) for t, c, s in related if (negated(c) == negated(clause) or modality(c) == modality(clause) is not None)
                   and _said_of(clause, ours, c)]
        if opposed:
            return "antonym", ours.written, opposed[0][0].written, opposed[0][1]
    return None


def _timed(clause: str) -> list[_Timed]:
    """The spans of a clause that lie before or after a named event."""
    found = []
    # Any span of time: "up to 7 days before" is no range's second end here.
    for span in (q for q in quantities(clause) if q.dimension in ("time", "calendar")):
        written = clause[span.start:span.end]
        tail = _EN_SIDE.match(clause[span.end:])
        if tail:
            event = words(tail.group("event"))
            found.append(_Timed(span, tail.group("side").lower() in _EN_BEFORE, event, f"{written} {tail.group('side')}"))
            continue
        head = _ZH_SIDE_FIRST.search(clause[:span.start])
        if head and not head.group("event").endswith(_NOT_AN_EVENT[head.group("side")[-1]]):
            found.append(_Timed(span, "前" in head.group("side"), words(head.group("event")), head.group("side") + written))
            continue
        after = _ZH_SIDE_AFTER.match(clause[span.end:])
        event = _ZH_EVENT_BEFORE_SPAN.search(clause[:span.start])
        if after and event:
            found.append(_Timed(span, "前" in after.group("side"), words(event.group("event")), written + after.group("side")))
    return [t for t in found if t.event]


def _said_of(clause: str, timed: _Timed, other: str) -> bool:
    """The other clause holds a word of the clause that is neither its event's nor its span's ("refund", 截止)."""
    rest = [w for w in words(clause) if w not in timed.event and not found_in(w, words(timed.written))]
    return not rest or any(found_in(w, words(other)) for w in rest)


def _same_event(ours: tuple[str, ...], theirs: tuple[str, ...]) -> bool:
    """One event: every word of one side's event stands in the other's ("开课" in "古琴培训班报名在开课")."""
    return all(found_in(w, theirs) for w in ours) or all(found_in(w, ours) for w in theirs)
