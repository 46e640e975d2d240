"""A place in a calendar said otherwise: "interviewed in the first week of March" against "…in the last week of
March", "每月第一个周六开放" against "每月最后一个周六对外开放".

slots.py aligns numbers and names, not the ordinal of a week or a weekday within its month: "first" and "last" are
no values to it. Only the same unit of the same period counts (a week of March against a week of March, a
Saturday of each month against a Saturday of each month), in a sentence that holds some of the statement's other
words, and only where no evidence sentence gives the statement's place.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ragpipe.core.evidence.agreement import words
from ragpipe.core.evidence.facts import negated
from ragpipe.core.evidence.polarity import overlap

# The sentence speaks of the statement's subject when it holds this share of its other words (one at least): the
# two may name who takes part otherwise ("New members" / "Applicants").
_SHARED = 1 / 3

_EN_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "last": -1, "final": -1}
_EN_UNIT = r"week(?:end)?|day|(?:mon|tues|wednes|thurs|fri|satur|sun)day|month|quarter"
# "the first week of March", "the last Saturday of each month", "the final day of the quarter"
_EN = re.compile(rf"\b(?P<pos>{'|'.join(_EN_ORDINALS)})\s+(?P<unit>{_EN_UNIT})\s+of\s+(?:the\s+|each\s+|every\s+)?"
                 rf"(?P<period>[a-z]+)", re.I)
_ZH_ORDINALS = {"第一": 1, "第二": 2, "第三": 3, "第四": 4, "最后": -1, "最末": -1}
# "每月第一个周六", "3月最后一周", "每季度最后一天": the period, the place, the unit.
_ZH = re.compile(r"(?P<period>每月|每周|每年|每季度?|本月|当月|\d{1,2}月|[一二三四五六七八九十]{1,2}月)"
                 rf"(?P<pos>{'|'.join(_ZH_ORDINALS)})(?:一)?个?(?P<unit>周[一二三四五六日天末]?|星期[一二三四五六日天]?|天|日|工作日)")


@dataclass(frozen=True)
class _Place:
    position: int
    unit: str
    period: str
    written: str


def calendar_place_conflict(statement: str, sentences: Sequence[str]) -> tuple[str, str, str, str] | None:
    """("date", the statement's place, the evidence's, the sentence) where the sentence that speaks of what the
    statement speaks of puts the same unit of the same period at another place, and no sentence at the statement's;
    None otherwise."""
    mine = _places(statement)
    if not mine or negated(statement):
        return None
    frame = [t for t in dict.fromkeys(words(_without_places(statement))) if len(t) > 1 or not t.isascii()]
    held = {s: overlap(frame, words(_without_places(s))) for s in sentences}
    for ours in mine:
        same_unit = [(p, s) for s in sentences for p in _places(s) if (p.unit, p.period) == (ours.unit, ours.period)]
        if any(p.position == ours.position for p, _ in same_unit):
            continue
        other = [(p, s) for p, s in same_unit if held[s] and held[s] >= _SHARED * len(frame)]
        if other:
            return "date", ours.written, other[0][0].written, other[0][1]
    return None


def _places(text: str) -> list[_Place]:
    found = [_Place(_EN_ORDINALS[m.group("pos").lower()], m.group("unit").lower(), m.group("period").lower(), m.group(0))
             for m in _EN.finditer(text)]
    return found + [_Place(_ZH_ORDINALS[m.group("pos")], m.group("unit").replace("星期", "周"), m.group("period"), m.group(0))
                    for m in _ZH.finditer(text)]


def _without_places(text: str) -> str:
    return _ZH.sub(" ", _EN.sub(" ", text))
