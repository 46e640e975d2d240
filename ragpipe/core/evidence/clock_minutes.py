"""A clock time's minutes belong to the time, not to the text's free numbers: "5点30分发车" states no 30 that
"每30分钟一班" (an interval) could borrow, nor does "5:30 a.m." support "every 30 minutes". ``without_clock_minutes``
drops the minutes and keeps the hour, so the text's other numbers can be read as before; ``clock_minutes`` gives
the minutes apart, for a reader that must still tell "5:30" from "5:45"."""

from __future__ import annotations

import re
import unicodedata

from ragpipe.core.evidence.facts import Facts, facts, zh_value
from ragpipe.core.evidence.quantities import quantities
from ragpipe.core.clocks import spelled_clocks

# "5:30" / "17:45" / "5.30pm" (two digits, not a ratio such as "16:9", nor the seconds of "19:36:12"), "5点30分" / "5点30" / "五点三十分"; not "30分钟" (an
# interval) and not a decimal written in Chinese ("三点五").
_CLOCK_MINUTES = re.compile(
    r"(?<![:：]\d\d)(?<=\d)(?:[:：]|\.(?=\d{2}\s*[ap]\.?m\b))(?P<en>\d{2})(?![\d:])"
    r"|(?<=[\d零一二两三四五六七八九十])点\s*(?P<zh>\d{1,2}|[零一二三四五六七八九十]{1,3}(?=\s*分))(?:\s*分(?!钟))?(?![\d钟])")


def _read(text: str) -> str:
    return spelled_clocks(unicodedata.normalize("NFKC", text))  # "九点三刻" has minutes as "9:45" does


def without_clock_minutes(text: str) -> str:
    """The text with every clock time's minutes left out ("5点30分" → "5点", "6:30 a.m." → "6 a.m.")."""
    return _CLOCK_MINUTES.sub(lambda m: "" if m.group("en") else "点", _read(text))


def has_clock_minutes(text: str) -> bool:
    return bool(_CLOCK_MINUTES.search(_read(text)))


def clock_minutes(text: str) -> list[int]:
    """The minutes of each clock time the text writes, in order: "5点30分、6:45" → [30, 45]."""
    found = []
    for match in _CLOCK_MINUTES.finditer(_read(text)):
        written = match.group("en") or match.group("zh")
        found.append(int(written) if written.isdigit() else int(zh_value(written) or 0))
    return found


def timed_facts(text: str) -> tuple[Facts, list[str]]:
    """A text's facts with its clock times' minutes read apart, and those minutes as terms of their own ("#:30"):
    the 30 of "first bus 5:30" is no answer to "how often", where "every 30 minutes" would take it for one."""
    if not has_clock_minutes(text):
        return facts(text), []
    return facts(without_clock_minutes(text)), [f"#:{m}" for m in clock_minutes(text)]


def hours_stated_otherwise(statement_clocks: set[float], evidence_clocks: set[float], evidence_numbers: set[float]) -> set[float]:
    """The hours a statement gives on the hour ("晚上8点开始", "opens at 8 a.m.") where the evidence writes that
    hour only with minutes ("晚上8点40分", "8:30 a.m."): another time of day. Clock times are minutes after
    midnight (quantities.py); "8点" and "晚上8点" are one hour here, as a reader without the part of the day takes it.
    ``evidence_numbers`` are the evidence's numbers outside its times with minutes: an hour among them may be
    on the hour in a way the clock reader does not take ("16:0-22:0" beside "22:30")."""
    on_the_hour = {e % 720 for e in evidence_clocks if e % 60 == 0}
    with_minutes = {(e // 60) % 12 for e in evidence_clocks if e % 60}
    return {s // 60 for s in statement_clocks
            if s % 60 == 0 and s % 720 not in on_the_hour and (s // 60) % 12 in with_minutes
            and not {(s // 60) % 12, (s // 60) % 12 + 12} & evidence_numbers}


def _times_of_day(text: str) -> set[float]:
    """The text's times of day, in minutes after midnight, half a day apart taken as one: a bare "5:30" may be the
    "5:30 p.m." another text writes."""
    return {q.amount % 720 for q in quantities(unicodedata.normalize("NFKC", text)) if q.dimension == "clock"}


def other_time_of_day(answer: str, reference: str, question: str = "") -> str | None:
    """The answer's time of day where the reference states another and the answer none of the reference's: "9:45
    a.m." for "9:30 a.m.", "8点45分" for "8点半" (a minute's difference is another time, as an hour's is). Times the
    question gives are neither answer nor reference."""
    asked = _times_of_day(question)
    wanted, given = _times_of_day(reference) - asked, _times_of_day(answer) - asked
    if not wanted or not given or wanted & given:
        return None
    show = lambda times: ", ".join(f"{int(t // 60)}:{int(t % 60):02d}" for t in sorted(times))  # noqa: E731
    return f"time {show(given)} for {show(wanted)}"
