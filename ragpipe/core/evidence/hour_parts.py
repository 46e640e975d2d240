"""Parts of an hour said in words: "a quarter of an hour" is 15 minutes, "three quarters of an hour" 45, as are
一刻钟 and 三刻钟. The quantity readers read minutes and hours, not these; so a statement's part of an hour is
written as the evidence writes that span ("It lasts three quarters of an hour." as "It lasts 45 minutes." against
"runs for 45 minutes", and "45分钟" as "三刻钟" against "三刻钟"), and in minutes where the evidence states no such
span, so that it differs from the evidence's "30 minutes". (A clock time's 一刻, "三点一刻", is a time of day.)"""

from __future__ import annotations

import re

from ragpipe.core.evidence.quantities import quantities

_EN_PART = re.compile(r"\b(?:(?P<count>an?|one|three)[\s-]+)?(?P<part>quarters?)\s+of\s+an\s+hour\b", re.I)
_ZH_PART = re.compile(r"(?P<count>[一三13])(?P<part>刻)钟")
_QUARTERS = {"a": 1, "an": 1, "one": 1, "1": 1, "一": 1, "three": 3, "3": 3, "三": 3}


def _parts(text: str) -> list[tuple[int, re.Match]]:
    """Each part of an hour the text says in words, in minutes ("three quarter of an hour" is no reading)."""
    found = []
    for match in [*_EN_PART.finditer(text), *_ZH_PART.finditer(text)]:
        quarters = _QUARTERS[(match.group("count") or "a").lower()]
        if match.re is _ZH_PART or (quarters > 1) == match.group("part").lower().endswith("s"):
            found.append((15 * quarters, match))
    return found


def hour_parts_as_written(statement: str, evidence: str) -> str:
    """The statement with each part of an hour written as the evidence writes the same span: in its words where it
    says it so, else in minutes; and minutes the evidence says as a part of an hour in its words."""
    theirs = {minutes: match.group(0) for minutes, match in _parts(evidence)}
    for minutes, match in sorted(_parts(statement), key=lambda p: -p[1].start()):
        written = theirs.get(minutes) or (f"{minutes}分钟" if match.re is _ZH_PART else f"{minutes} minutes")
        statement = statement[:match.start()] + written + statement[match.end():]
    for span in sorted(quantities(statement), key=lambda q: -q.start):
        if span.dimension == "time" and span.amount / 60 in theirs and span.unit and not _parts(statement[span.start:span.end]):
            statement = statement[:span.start] + theirs[span.amount / 60] + statement[span.end:]
    return statement
