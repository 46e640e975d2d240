"""A bare clock hour ("closes at 5", "5 o'clock", "五点关门") is the hour a reader takes from the context: "5 p.m.",
"17:00" or "下午5点" in the evidence is the same time, not another number (5 against 17). The statement is read with
the evidence's words for that time, where the evidence writes that hour in the afternoon or evening and never in the
morning."""

from __future__ import annotations

import re

from ragpipe.core.clocks import DAY_PART, EN_CLOCK_TIME, clock_hour
from ragpipe.core.evidence.facts import zh_value

# A bare hour: after a word that sets a time ("at 5", "until 9") and before the clause ends or a word that does not
# count a thing ("at 5 on Sundays"), or with "o'clock"; in Chinese an hour with 点 and no part of the day before it.
_BARE = (re.compile(r"\b(?:at|by|until|till|from|before|after|around|to)\s+(?P<time>(?P<hour>\d{1,2})(?:\s*o['’]clock)?)"
                    r"(?=\s*(?:[,.;!?]|$)|\s+(?:on|every|each|and|or|to|until|till|daily|sharp|at|in)\b)(?!\s*[ap]\.?m\b)", re.I),
         re.compile(r"\b(?P<time>(?P<hour>\d{1,2})\s*o['’]clock)\b(?!\s*(?:in the|at night))", re.I),
         re.compile(r"(?<![\d零一二两三四五六七八九十:：])(?P<time>(?P<hour>\d{1,2}|[一二两三四五六七八九十]{1,3})点)"
                    r"(?![\d零一二两三四五六七八九十半]|钟)"))
_DAY_PART = re.compile(DAY_PART)
_BETWEEN = re.compile(r"[^\d零一二两三四五六七八九十，。；、,.;]{0,3}")  # "晚上开到9点": the part of the day still holds
# The evidence's afternoon and evening hours on the hour, as written: "5 p.m.", "17:00", "17点", "下午5点".
_ZH_PART_HOUR = re.compile(rf"(?P<part>{DAY_PART})(?P<hour>\d{{1,2}}|[零一二两三四五六七八九十]{{1,3}})点(?![\d零一二两三四五六七八九十半])")
_TWENTY_FOUR = re.compile(r"(?<![\d:：])(?P<hour>1[3-9]|2[0-3])(?::00(?![\d:])|点(?![\d零一二两三四五六七八九十半]))")


def _hour(written: str) -> int | None:
    value = int(written) if written.isdigit() else zh_value(written)
    return int(value) if value is not None and 1 <= value <= 12 else None


def _written_hours(evidence: str) -> dict[int, set[str]]:
    """Each 24-hour hour the evidence writes on the hour, with how it writes it."""
    found: dict[int, set[str]] = {}
    for m in EN_CLOCK_TIME.finditer(evidence):
        if not m.group("em") or int(m.group("em")) == 0:
            found.setdefault(clock_hour(int(m.group("eh")), half=m.group("half")), set()).add(m.group(0).strip())
    for m in _ZH_PART_HOUR.finditer(evidence):
        hour = _hour(m.group("hour"))
        if hour is not None:
            found.setdefault(clock_hour(hour, m.group("part")), set()).add(m.group(0))
    for m in _TWENTY_FOUR.finditer(evidence):
        found.setdefault(int(m.group("hour")), set()).add(m.group(0))
    return found


def bare_hours_as_written(statement: str, evidence: str) -> str:
    """The statement with each bare hour that the evidence writes only as the later of its two times of day
    ("at 5" against "5 p.m.", "五点" against "17:00") written as the evidence writes it."""
    hours = _written_hours(evidence)
    rewrites = {}
    parts = [p.end() for p in _DAY_PART.finditer(statement)]
    for m in (m for pattern in _BARE for m in pattern.finditer(statement)):
        if any(end <= m.start() and _BETWEEN.fullmatch(statement[end:m.start()]) for end in parts):
            continue  # "晚上7点", "晚6点" have their part of the day: the clock readers read them
        hour = _hour(m.group("hour"))
        if hour is not None and hour != 12 and hour not in hours and len(hours.get(hour + 12, ())) == 1:
            rewrites[m.span("time")] = next(iter(hours[hour + 12]))
    for (start, end), written in sorted(rewrites.items(), reverse=True):
        if written.endswith(".") and statement[end:end + 1] == ".":  # "at 5 p.m." ends the sentence too
            written = written[:-1]
        statement = statement[:start] + written + statement[end:]
    return statement
