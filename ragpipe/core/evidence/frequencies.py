"""How often a thing is done, read as times a year: "annually", "once every year", "twice a year", "every six months",
"quarterly", "every other week", "every other Thursday", "on alternate Thursdays", "隔周", "一年一次", "每半年", "每三个月一次", "一周两次". A rate the evidence writes in other words
("Replace it annually." for "once every year", "Every six months." for "twice a year") is the same rate, and the
statement is read with the evidence's words for it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ragpipe.core.evidence.facts import TIMES_VALUE
from ragpipe.core.evidence.quantities import EN_WORD, _number

# A period in days ("fortnight" 14; 季度 a quarter).
_EN_DAYS = {"day": 1, "night": 1, "week": 7, "fortnight": 14, "month": 365 / 12, "quarter": 365 / 4, "year": 365}
_ZH_DAYS = {"天": 1, "日": 1, "晚": 1, "周": 7, "星期": 7, "礼拜": 7, "月": 365 / 12, "季度": 365 / 4, "季": 365 / 4,
            "年": 365}
_EN_ADVERBS = {"daily": 365, "nightly": 365, "weekly": 365 / 7, "fortnightly": 365 / 14, "monthly": 12, "quarterly": 4,
               "annually": 1, "yearly": 1, "biannually": 2, "semiannually": 2, "semi-annually": 2, "half-yearly": 2}
_EN_COUNT = rf"(?P<count>once|twice|thrice|(?:\d+|{EN_WORD})\s+times)"
_EN_PERIOD = r"(?P<period>days?|nights?|weeks?|fortnights?|months?|quarters?|years?)"
_ZH_NUM = r"\d+|[一二两三四五六七八九十]+"
_ZH_PERIOD = r"个?(?P<zperiod>季度|星期|礼拜|[天日晚周月季年])"
# "every other Thursday" is every other week, as "alternate Thursdays" and 隔周六 are ("every Thursday" is left to
# the weekday readers: it is a rate with a day of its own).
_EN_WEEKDAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?"
FREQUENCY = re.compile(
    # "twice a year", "3 times per week", "once every year"
    rf"\b{_EN_COUNT}\s+(?:a|an|per|every|each)\s+(?:(?P<every>\d+|{EN_WORD})\s+)?{_EN_PERIOD}\b|"
    # "every six months", "each year", "every other week"
    rf"\b(?:every|each)\s+(?:(?P<other>other)\s+|(?P<num>\d+|{EN_WORD})\s+)?(?P<period2>days?|nights?|weeks?|fortnights?|"
    rf"months?|quarters?|years?)\b|\b(?:every|each)\s+(?P<other2>other)\s+(?P<weekday>{_EN_WEEKDAY})\b|"
    rf"\b(?P<alternate>alternate)\s+(?P<period3>days|nights|weeks|months|years|{_EN_WEEKDAY})\b|"
    rf"\b(?P<adverb>{'|'.join(sorted(_EN_ADVERBS, key=len, reverse=True))})\b|"
    # 每半年, 每三个月一次, 每周两次, 一年一次, 半年一次, 三个月一次, 一周两次 (每年 alone may be a date's: "每年3月")
    rf"(?:每隔?|(?<![\d一二两三四五六七八九十]))(?P<znum>{_ZH_NUM}|半)?{_ZH_PERIOD}(?P<zcount>{_ZH_NUM})次|"
    rf"每隔?(?P<znum2>{_ZH_NUM}|半)个?(?P<zperiod2>季度|星期|礼拜|[天日周月年])|每个?(?P<zperiod3>季度)|"
    # 隔周 / 隔天 / 隔月: every other week, day, month (每隔 is read above, with its number)
    rf"(?<!每)隔(?P<zalternate>[天日周月年])", re.I)


@dataclass(frozen=True)
class Frequency:
    per_year: float
    written: str
    start: int
    end: int


def _value(written: str | None, default: float = 1.0) -> float | None:
    if not written:
        return default
    if written == "半":
        return 0.5
    if written.lower() in TIMES_VALUE:
        return TIMES_VALUE[written.lower()]
    found = _number(re.sub(r"\s+times$", "", written, flags=re.I))
    return found[0] if found else None


def _en_days(period: str) -> float:
    period = period.lower().rstrip("s")
    return _EN_DAYS.get(period, 7)  # a weekday comes once a week


@lru_cache(maxsize=16384)
def frequencies(text: str) -> tuple[Frequency, ...]:
    """The rates a text states, each as times a year."""
    found = []
    for m in FREQUENCY.finditer(text):
        if m["adverb"]:
            rate = _EN_ADVERBS[m["adverb"].lower()]
        elif m["period"] and m["count"]:
            count, every = _value(m["count"]), _value(m["every"])
            rate = count * 365 / (every * _en_days(m["period"])) if count and every else None
        elif m["period2"]:
            every = 2.0 if m["other"] else _value(m["num"])
            rate = 365 / (every * _en_days(m["period2"])) if every else None
        elif m["weekday"]:
            rate = 365 / 14
        elif m["alternate"]:
            rate = 365 / (2 * _en_days(m["period3"]))
        elif m["zalternate"]:
            rate = 365 / (2 * _ZH_DAYS[m["zalternate"]])
        else:
            period = m["zperiod"] or m["zperiod2"] or m["zperiod3"]
            every = _value(m["znum"] or m["znum2"])
            count = _value(m["zcount"])
            rate = count * 365 / (every * _ZH_DAYS[period]) if count and every else None
        if rate:
            found.append(Frequency(round(rate, 2), m.group(0), m.start(), m.end()))
    return tuple(found)


# The period a rate is written with: "every day" and "daily" share theirs, and the readers already match the two. A
# day's rates are one ("daily routines" is no "each night"), as are 天, 日 and 晚.
_PERIOD_WORD = re.compile(r"day|week|fortnight|month|quarter|year|annual|天|周|星期|礼拜|月|季|年")


def _periods(written: str) -> set[str]:
    day = re.sub(r"daily|nightly|\bnights?\b|[日晚]", "day", written.lower())
    return set(_PERIOD_WORD.findall(day))


# A number of times or periods other than one ("twice", "两次", "every six months", "每隔半年").
_MANY = re.compile(rf"[2-9]|\d\d|[半二两三四五六七八九十]|\b(?:twice|thrice|times|other|half|(?!one\b)(?:{EN_WORD}))\b", re.I)


def _once(written: str) -> bool:
    return not _MANY.search(written)


def frequencies_as_written(statement: str, evidence: str) -> str:
    """The statement with each rate the evidence states in other words ("once every year" for "annually", "twice a
    year" for "every six months", 每隔半年 for 一年两次) written as the evidence writes it; "every day" and "daily",
    once in the same period, are left to the readers."""
    theirs = {f.per_year: f.written for f in frequencies(evidence)}
    for f in sorted(frequencies(statement), key=lambda f: f.start, reverse=True):
        written = theirs.get(f.per_year)
        if written is not None and not (_periods(written) & _periods(f.written) and _once(written) and _once(f.written)):
            if f.written[:1].islower():  # "Every six months." within a sentence is no name
                written = written[:1].lower() + written[1:]
            statement = statement[:f.start] + written + statement[f.end:]
    return statement
