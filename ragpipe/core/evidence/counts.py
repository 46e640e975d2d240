"""Counts of things: "three doses", "2 bedrooms", "twice a week", "两剂", "三个校区", "每周两次", each with what it counts
and the period of its rate, so that a count compares with the evidence's count of the same thing, and with no other
number: "four doses" against "two doses, four weeks apart" counts doses otherwise, whatever the four there counts.
Numbers are read as ``quantities`` reads them (digits, Chinese numerals, English number words)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ragpipe.core.evidence.bare_hours import bare_hours_as_written
from ragpipe.core.evidence.facts import BOUND_BEFORE, EN_UNITS, TIMES, TIMES_VALUE, ZH_THINGS, times_said
from ragpipe.core.evidence.frequencies import frequencies_as_written
from ragpipe.core.evidence.hour_parts import hour_parts_as_written
from ragpipe.core.evidence.quantities import EN_WORD, UNIT, _number, as_written_in
from ragpipe.core.text import EN_STOPWORDS, is_chinese

# A count of things: a number right before what it counts ("three doses", "2 bedrooms", "两剂", "三个校区"), or how many
# times ("twice", "3 times", "两次"). A generic measure word (个, 种, …) counts the noun after it; a specific one (剂, 间)
# counts what it measures. An amount of a unit ("four weeks", "两周") is a quantity, not a count.
_EN_COUNT = re.compile(rf"(?<![\d.,])(?P<num>\d+(?:,\d{{3}})*|\b(?:{EN_WORD})(?:[\s-]+(?:and\s+)?(?:{EN_WORD}))*)\s+"
                       rf"(?:[a-z]+ing\s+)?(?P<noun>[a-z]{{3,}})\b", re.I)
_GENERIC = "个种位名家项条"
_ZH_COUNT = re.compile(rf"(?<![\d.第])(?P<num>\d+|[零〇一二两三四五六七八九十百千万]+)(?P<measure>[{_GENERIC}次{ZH_THINGS}])(?P<noun>(?:(?!的)[\u4e00-\u9fff]){{0,2}})")  # 的 ends the noun: "一个月的租金" counts 个月
# What makes a count no plain one: a bound or a hedge before it ("at least two doses", "最多三次", "约两个"), a range
# ("two to three doses", "2-3剂"), or a rate's period ("每次一片" counts per dose, "每日两片" per day).
_RANGE_OR_HEDGE = re.compile(r"(?:-|–|~|\bto|\bor|至|到|或|\b(?:about|around|nearly|almost|roughly|approximately)|约|大约|近|多达)\s*$", re.I)
_PERIOD_ZH = re.compile(r"(?:每|(?<![\d零〇一二两三四五六七八九十])一)(次|天|日|周|星期|月|年|人)")
_CLAUSE_END = re.compile(r"[,;:，；：。]")
_PERIOD_EN = re.compile(r"\b(?:a|an|per|every|each)\s+(day|week|month|year|time|dose|person)\b|\b(daily|weekly|monthly|yearly)\b", re.I)
# Plural nouns after a number that measure rather than count: "350 degrees", "four stars" (a rating), "20 points".
_MEASURES = frozenset("degree star point percent dollar cent euro pound ounce inch feet foot yard calorie mph".split())
_PERIODS = {"天": "day", "日": "day", "daily": "day", "周": "week", "星期": "week", "weekly": "week", "月": "month",
            "monthly": "month", "年": "year", "yearly": "year", "次": "time", "人": "person"}


@dataclass(frozen=True)
class Count:
    value: float
    thing: str   # what it counts: an English noun's stem, "time", or a Chinese measure word with its noun
    period: str  # the rate's period in its clause ("day" of "twice a day", "日" of "每日两片"), or ""
    written: str
    plain: bool = True  # no bound, hedge or range: "at least two doses", "about 100 passengers" are not


@lru_cache(maxsize=16384)
def counts(text: str) -> tuple[Count, ...]:
    """The plain counts of things a text states, with what each counts."""
    found = []
    for match in _EN_COUNT.finditer(text):
        noun = match.group("noun").lower()
        value = (_number(match.group("num")) or (None,))[0]
        if (value is None or noun in EN_STOPWORDS or re.fullmatch(UNIT, noun, re.I) or noun.rstrip("s") in _MEASURES
                or (value == 1) == noun.endswith("s") and noun != "times"):
            continue  # "one of", "three weeks" (a quantity), "350 degrees" (a measure), "2 things" but not "2 thing"
        found.append((value, "time" if noun == "times" else noun.rstrip("s"), match))
    found += [(TIMES_VALUE[m.group(0).lower()], "time", m) for m in TIMES.finditer(text)]
    for match in _ZH_COUNT.finditer(text):
        measure, noun = match.group("measure"), match.group("noun")
        value = (_number(match.group("num")) or (None,))[0]
        if value is not None and (noun or measure not in _GENERIC):
            found.append((value, measure + (noun if measure in _GENERIC else ""), match))  # written: its number and measure
    out = []
    for value, thing, match in found:
        before, after = _CLAUSE_END.split(text[:match.start()])[-1], _CLAUSE_END.split(text[match.end():])[0]
        plain = not (_RANGE_OR_HEDGE.search(before) or BOUND_BEFORE.search(before))
        # The period is another word of its clause: the count's own 一次 / 一天 is no "per time" ("可续借一次").
        clause = before + "|" + after
        period = _PERIOD_ZH.search(clause) or _PERIOD_EN.search(clause)
        written = (period.group(1) or period.group(2) or "").lower() if period else ""
        shown = match.group(0) if thing[0].isascii() or thing[0] in _GENERIC else match.group("num") + thing
        out.append(Count(value, thing, _PERIODS.get(written, written), shown, plain))
    return tuple(out)


def elided_count(value: float, sentence: str) -> bool:
    """The sentence states the value bare at the end of a list's member, its noun left to the member before: 25 of
    "The small room seats 6 guests, the medium room 12 and the party room 25." counts guests too."""
    shown = {f"{value:g}", f"{value:,.0f}"} if value == int(value) else {f"{value:g}"}
    return any(re.search(rf"(?<![\d.,$€£¥]){re.escape(n)}(?![\d.,]\d)\s*(?:[.,;)]|\band\b|$)", sentence) for n in shown)


def same_thing(a: Count, b: Count) -> bool:
    """Two counts of one kind of thing in one period: "doses" / "dose", "classes" / "class", "两剂" / "三剂"."""
    short, long = sorted((a.thing, b.thing), key=len)
    return a.period == b.period and long.startswith(short) and len(long) - len(short) <= 2 and len(short) >= (1 if not short.isascii() else 3)


# An ordinal of a thing: "第二剂" (the second dose), "第3次".
_ZH_ORDINAL = re.compile(rf"第(?P<num>\d+|[一二两三四五六七八九十]+)(?P<measure>[次{ZH_THINGS}])")


def ordinals_counted(statement: str, evidence: str) -> set[float]:
    """The statement's ordinals of a thing that the evidence counts at least so many of: "第一剂和第二剂" says
    which of "两剂" it means, and the evidence need not state 1 or 2 (as lone_one, for the "a" of "一天")."""
    theirs = [c for c in counts(evidence) if not c.period and c.plain]
    return {value for m in _ZH_ORDINAL.finditer(statement) if (value := (_number(m.group("num")) or (0,))[0])
            and any(c.thing == m.group("measure") and c.value >= value for c in theirs)}


_ZH_ORDINALS = re.compile(rf"第(?:\d+|[一二两三四五六七八九十]+)(?P<measure>[次{ZH_THINGS}])(?:(?:和|与|及|、)第(?:\d+|[一二两三四五六七八九十]+)(?P=measure))+")


def ordinals_as_counted(statement: str, evidence: str) -> str:
    """Ordinals that list all of a thing the evidence counts, written as the evidence's count: "第一剂和第二剂" as
    "两剂" where the evidence gives "两剂" (they name the same two doses)."""
    theirs = [c for c in counts(evidence) if not c.period and c.plain]

    def counted(match: re.Match) -> str:
        values = sorted(_number(m.group("num"))[0] for m in _ZH_ORDINAL.finditer(match.group(0)))
        count = next((c for c in theirs if c.thing == match.group("measure") and values == list(range(1, int(c.value) + 1))), None)
        return count.written if count else match.group(0)

    return _ZH_ORDINALS.sub(counted, statement)


def counts_as_counted(statement: str, evidence: str) -> str:
    """Each count written as the evidence writes the same count of the same thing in the same period: "two times a
    day" as "twice" of "twice daily" (another value stays as written: a claim of its own)."""
    theirs = [c for c in counts(evidence) if c.plain]
    for mine in counts(statement):
        same = next((c for c in theirs if c.value == mine.value and same_thing(mine, c) and c.written != mine.written), None)
        if mine.plain and same and same.written.lower() not in statement.lower():
            statement = statement.replace(mine.written, same.written, 1)
    return statement


# One each of a list ("上午10点和下午3点各一场", "六月和九月各采收一次"): as many as the list names.
_EACH_ONE = re.compile(rf"各[\u4e00-\u9fff]{{0,3}}?(?:一|1)(?P<measure>[次{ZH_THINGS}])")
_LIST_JOIN = re.compile(r"以及|和|与|及|、|跟")


def each_as_counted(statement: str, evidence: str) -> str:
    """A count the evidence gives as one each of a list of as many, written as it writes it: "每天两场" as "每天各一场"
    where it says "每天上午10点和下午3点各一场" (another number stays: a claim of its own)."""
    for match in _EACH_ONE.finditer(evidence):
        listed = _CLAUSE_END.split(evidence[:match.start()])[-1]
        each = next((c for c in counts(evidence[match.start():match.end()]) if c.value == 1), None)
        if each is None or not _LIST_JOIN.search(listed):
            continue
        many = Count(len(_LIST_JOIN.findall(listed)) + 1, each.thing, counts(listed + match.group(0))[-1].period, "")
        mine = next((c for c in counts(statement) if c.plain and c.value == many.value and same_thing(c, many)), None)
        if mine:
            statement = statement.replace(mine.written, "各一" + match.group("measure"), 1)
    return statement


# A lone 一 before a measure says "each" where the evidence says 每 ("一节课90分钟" / "每节90分钟", "一期12节课" /
# "每期十二课时"): not 这一 / 同一 / 唯一, nor a numeral's 一 ("十一节").
_A_EACH = re.compile(r"(?<![零〇一二两三四五六七八九十百千万亿\d第这那同唯统某哪])一(?=([节期条场间份张]))")


# A price for one person is a price per person: "1680元一位" / "每人1680元", "一人一张" / "每位一张".
_A_PERSON = re.compile(r"(?<![零〇一二两三四五六七八九十百千万亿\d第这那同唯统某哪有只仅])一(?:个人|位|人|名)")
_EACH_PERSON = re.compile(r"每(?:人|位|名)")


def each_as_written(statement: str, evidence: str) -> str:
    """Each lone 一 before a measure written as 每 where the evidence writes 每 before that measure, and one person as
    the evidence's 每人 / 每位."""
    person = _EACH_PERSON.search(evidence)
    if person:
        statement = _A_PERSON.sub(person.group(0), statement)
    return _A_EACH.sub(lambda m: "每" if "每" + m.group(1) in evidence else "一", statement)


def in_evidence_terms(statement: str, evidence: str, question: str = "") -> str:
    """The statement written as its evidence writes the same things: a quarter of an hour as the evidence
    writes it (``hour_parts``), a bare hour as the evidence's ("at 5" as
    "5 p.m.", ``bare_hours``), a rate as the evidence's ("once every year" as "annually", ``frequencies``), ordinals
    that list a count as that count ("第一剂和第二剂" as "两剂"), a lone 一 as the evidence's 每 ("一节课" as "每节课"), a count of one each as the evidence's ("每天两场" as
    "每天各一场"), a count as the evidence's ("two times" as "twice"), then quantities and dates as
    ``quantities.as_written_in`` rewrites them."""
    statement = frequencies_as_written(bare_hours_as_written(hour_parts_as_written(statement, evidence), evidence), evidence)
    statement = each_as_counted(ordinals_as_counted(each_as_written(statement, evidence), evidence), evidence)
    return as_written_in(counts_as_counted(statement, evidence), evidence, question)


# A rank: an ordinal before a superlative ("second largest", "third most visited", "第二大", "第三高") ranks by that
# superlative; one after a verb of ranking ("ranked fifth", "排名第四", "位列第二") is a plain rank; a bare superlative
# of size or standing ("the largest airport", "最大的城市") is the first by it.
_EN_ORDINAL = "first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\\d+(?:st|nd|rd|th)"
_EN_RANK = re.compile(rf"\b(?P<num>{_EN_ORDINAL})[\s-]+(?P<by>(?:most|least)\s+[a-z]+|[a-z]+est)\b|"
                      rf"\b(?:rank(?:s|ed)?|placed|finished)\s+(?:no\.?\s*)?(?P<num2>{_EN_ORDINAL})\b|"
                      r"\bthe\s+(?P<top>(?:most|least)\s+[a-z]+|(?:larg|bigg|high|long|small|deep|tall|old|busi|rich)est)\b", re.I)
_ZH_RANK = re.compile(r"第(?P<num>\d+|[一二三四五六七八九十]+)(?P<by>大|高|长|多|小|深|富)|(?<!之)最(?P<top>大|高|长|深|富)(?=的?[城市港口机场河山湖国家公司])|"
                      r"(?:排名|排行|排位|位列|位居|名列|排在?)第(?P<num2>\d+|[一二三四五六七八九十]+)(?![次个])")
_ORDINAL_VALUE = {w: i + 1 for i, w in enumerate(_EN_ORDINAL.split("|")[:10])}


def ranks(text: str) -> list[tuple[float, str, str]]:
    """The ranks a text states: (the place, what it ranks by, as written)."""
    found = []
    for match in [*_EN_RANK.finditer(text), *_ZH_RANK.finditer(text)]:
        if match.group("top"):  # a bare superlative is the first: "the largest airport", "最大城市"
            found.append((1.0, match.group("top").lower(), match.group(0)))
            continue
        num = (match.group("num") or match.group("num2")).lower()
        value = _ORDINAL_VALUE.get(num) or (float(num[:-2]) if num[:1].isdigit() and not num.isdigit() else
                                            (_number(num) or (None,))[0])
        if value:
            found.append((float(value), (match.group("by") or "rank").lower(), match.group(0)))
    return found


def rank_conflict(statement: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """A rank by what the evidence ranks by too, at another place and never this one: "third largest" against
    "second largest", "排名第四" against "排名第二"."""
    for value, by, written in ranks(statement):
        theirs = [(v, w, s) for s in sentences for v, b, w in ranks(s) if b == by]
        if theirs and all(v != value for v, _, _ in theirs):
            return "number", written, theirs[0][1], theirs[0][2]
    return None


# A lone 一 before a unit of time or count says "a" ("一天不超过4次": a day, as "每天" or "24小时内" say; "一只猫"), and so
# before 条 / 节 / 期 ("一条船最多坐6人" / "每艘船限乘6人", "一节课两小时", "一期12节"), not 这一 / 同一 / 唯一 (one of a kind).
_LONE_ONE = re.compile(rf"(?<![零〇一二两三四五六七八九十百千万亿\d第])(?:一(天|日|年|个?月|周|星期|次|个?小时|分钟|[{ZH_THINGS}])"
                       r"|(?<![这那同唯统某哪])一([条节期]))")
_ZH_AMOUNT = r"[\d零〇一二两三四五六七八九十百千万]+\s*"


# What counts times in English evidence: "twice", "3 times", "once" (a rate's 1 then stands against it).
_EN_COUNTS_TIMES = re.compile(r"\b(?:once|twice|thrice|(?:\d+|%s)\s+times)\b" % "|".join(EN_UNITS), re.I)


def lone_one(statement: str, evidence: str) -> bool:
    """Every 1 of a Chinese statement is a lone 一 before a unit ("一天", "一次") that the evidence
    counts with no number, or says "each" of ("每次两粒" / "一次吃两粒"): then it says "a", not "one",
    and the evidence need not state 1. So is the "once" of an English rate where the evidence counts no
    times ("once a week" / "weekly"); against "twice a week" it is a count."""
    if not is_chinese(statement):
        return (bool(TIMES.search(statement)) and not re.search(r"(?<![\d.])1(?![\d.])|\bone\b", statement, re.I)
                and 1.0 in times_said(statement) and not _EN_COUNTS_TIMES.search(evidence))
    units = [m.group(1) or m.group(2) for m in _LONE_ONE.finditer(statement)]
    return (bool(units) and not re.search(r"(?<![\d.])1(?![\d.])", statement)
            and not any(re.search(_ZH_AMOUNT + re.escape(u), evidence) and "每" + u not in evidence for u in units))
