"""Dates in digits as documents write them: year first ("2025-03-15", "2025/03/15", "2025.3.15") and day first
("15.03.2025", "15/03/2025") where the order cannot be misread (a first number over 12, or day and month the
same: "03/04/2025" is 3 April in London and March 4 in New York, so it is read as no date). A weekday beside a
date ("Sunday, 7 December 2025", "2025/09/08（星期一）") is what the calendar says of that date, nothing more:
``without_calendar_weekdays`` drops the ones the calendar agrees with, so that only a wrong one stays a claim."""

from __future__ import annotations

import datetime
import re

_SEP = r"(?P<sep>[-/.])"
# No digit or date separator may touch the date on either side: "1.2025.03" and "12/2025/03/15" are no dates.
_NUMERIC_DATE = re.compile(
    rf"(?<![\d./-])(?:(?P<y>(?:19|20)\d{{2}}){_SEP}(?P<m>\d{{1,2}})(?P=sep)(?P<d>\d{{1,2}})"
    rf"|(?P<d2>\d{{1,2}})(?P<sep2>[/.])(?P<m2>\d{{1,2}})(?P=sep2)(?P<y2>(?:19|20)\d{{2}}))(?![\d]|[./-]\d)")
_EN_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_ZH_WEEKDAYS = "一二三四五六日"
_EN_WEEKDAY = r"(?P<en>Mon(?:day)?|Tue(?:s|sday)?|Wed(?:nesday)?|Thu(?:rs|rsday)?|Fri(?:day)?|Sat(?:urday)?|Sun(?:day)?)\b\.?"
_ZH_WEEKDAY = r"(?:星期|周|礼拜)(?P<zh>[一二三四五六日天])"
_WEEKDAY_BEFORE = re.compile(rf"(?:{_EN_WEEKDAY}|{_ZH_WEEKDAY}),?\s*$", re.I)
_WEEKDAY_AFTER = re.compile(rf"\s*(?P<open>[(（])?\s*(?:{_EN_WEEKDAY}|{_ZH_WEEKDAY})\s*(?(open)[)）])", re.I)


def numeric_dates(text: str) -> list[tuple[int, int, tuple[int, int, int]]]:
    """Where the text writes a date in digits: (start, end, (year, month, day)), only real calendar days."""
    found = []
    for match in _NUMERIC_DATE.finditer(text):
        if match.group("y"):
            year, month, day = int(match.group("y")), int(match.group("m")), int(match.group("d"))
        else:
            year, first, second = int(match.group("y2")), int(match.group("d2")), int(match.group("m2"))
            if first <= 12 and first != second:
                continue  # day first or month first: a reader cannot tell
            day, month = first, second
        if _calendar_day(year, month, day):
            found.append((match.start(), match.end(), (year, month, day)))
    return found


def _calendar_day(year: int, month: int, day: int) -> datetime.date | None:
    try:
        return datetime.date(year, month, day)
    except ValueError:
        return None


def _weekday(match: re.Match) -> int:
    if match.group("en"):
        return next(i for i, w in enumerate(_EN_WEEKDAYS) if w.startswith(match.group("en").lower()[:3]))
    return _ZH_WEEKDAYS.index(match.group("zh").replace("天", "日"))


def without_calendar_weekdays(text: str, dates: list[tuple[int, int, tuple]]) -> str:
    """The text without each weekday written beside one of ``dates`` (start, end, (year, month, day)) that
    falls on it; a weekday the calendar does not agree with is kept."""
    cut = []
    for start, end, (year, month, day) in dates:
        date = year and month and day and _calendar_day(year, month, day)
        if not date:
            continue
        for match in (_WEEKDAY_BEFORE.search(text, 0, start), _WEEKDAY_AFTER.match(text, end)):
            if match and _weekday(match) == date.weekday():
                cut.append(match.span())
    for start, end in sorted(cut, reverse=True):
        text = text[:start] + text[end:]
    return text
