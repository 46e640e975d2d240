"""Quantities of a text: a number with its unit, read as an amount of the unit's dimension, so
that the spellings of one quantity compare equal: "65W" = "65瓦" = "65 watts", "两周" = "14天",
"two years" = "24 months", "1.5千瓦" = "1500瓦", "四个半小时" = "4.5小时", "2.7 km" = "2,700 metres",
"2 hours and 15 minutes" = "135 minutes", "一个月" = "30天" (a month is 28 to 31 days), a count with
no unit ("1,200,000" = "1.2 million" = "120万"), and a value stated as approximate ("约8849米", "about 42.2 km") = the precise one it rounds
("8848.86米", "42.195 kilometres").

``as_written_in`` writes a statement's quantities the way its evidence writes the same ones,
so that the readers of numbers, words and names downstream (typed facts, word overlap, the
embedding) see one value where a person sees one. A quantity the evidence states otherwise
("18个月" for "两年", "three days" for "48 hours") is left as written: still a conflict.

A small table rather than a units library (pint): the work is reading zh and en spellings in
running text, which no such library does; the conversion factors are a dozen exact constants.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

from ragpipe.core.evidence.conversions import rounded_alike
from ragpipe.core.evidence.fractions import as_percent_in
from ragpipe.core.evidence.iso_dates import without_calendar_weekdays
from ragpipe.core.evidence.units import DAY, MONTH_DAYS, SPELLINGS, UNIT
from ragpipe.core.evidence.facts import EN_MONTHS, EN_SCALES, EN_UNITS, ZH_NUMBER, dates_at, en_value, facts, zh_value
from ragpipe.core.synonyms import interchangeable
from ragpipe.core.clocks import DAY_PART, EN_CLOCK, NIGHT, ZH_RANGE_GAP, clock_hour, spelled_clock_rooms
from ragpipe.core.text import EN_STOPWORDS, content_tokens


EN_WORD = "|".join(sorted([*EN_UNITS, *EN_SCALES], key=len, reverse=True))
# A number: digits with their scale word ("1.2 million", "30万"; 千 before 米, 克, 瓦 is the unit's),
# a Chinese numeral ("三十万", "两"), number words ("twenty-four"), or 半 "half" alone ("半小时").
_DIGITS = r"\d+(?:,\d{3})*(?:\.\d+)?(?:\s*(?:万亿|亿|万|千(?![米克瓦])|million|billion|thousand)(?![A-Za-z]))?"
_NUM = (rf"{_DIGITS}"
        rf"|[零〇一二三四五六七八九十两百千万亿]+?"
        rf"|\b(?:{EN_WORD})(?:[\s-]+(?:and\s+)?(?:{EN_WORD}))*\b"
        rf"|(?<![零〇一二三四五六七八九十两百千万亿\d])半")
# A number, optionally the start of a range that shares its unit ("2 to 8 °C", "1.5至1.7升"), "个" or "个半" between
# number and unit ("18个月", "四个半小时"), then the unit; "and a half" before or after the unit as 个半.
_AND_A_HALF = r"\s+and\s+a\s+half\b"
# A word that only stresses the amount may stand before the unit: "one full day", "two whole weeks", "三整天", "一整年".
_WHOLE = r"(?:(?:full|whole|entire|complete|solid)\s+|整(?=[年月天日周个]))?"
# Half of one unit: "half an hour" and "a half hour" are 30 minutes, "half a year" six months.
_HALF_ONE = r"(?:\ba\s+)?\bhalf(?:\s+an?)?(?=[\s-]+(?:month|year|week|day|hour)\b)"
_QUANTITY = re.compile(rf"(?P<first>(?P<halved>{_HALF_ONE})|{_NUM}|\ban?(?=\s+[a-z]+{_AND_A_HALF})|\b(?P<one>an?)(?=\s+{_WHOLE}(?:month|year|week|day|hour|fortnight)\b))(?:\s*(?:-|–|~|～|to|至|到)\s*(?P<second>{_NUM}))?"
                       rf"(?P<half>个半|{_AND_A_HALF})?\s*-?\s*{_WHOLE}(?:个(?=小时|星期))?(?P<unit>{UNIT})(?P<half_after>{_AND_A_HALF})?", re.I)
# Amounts of one dimension in falling units, side by side, add up: "2 hours and 15 minutes" is 135
# minutes, "一年零三个月" 15 months, "1小时30分钟" 90 minutes.
_COMPOUND_JOIN = re.compile(r"\s*(?:,?\s*and|,|零|又)?\s*$", re.I)
# A time of day: "17:00", "5 pm", "noon", "下午五点", "晚上7点半" (an hour with no part of the day is as written);
# "5:30 p.m." and "晚上11:00" are read with their part of the day (17:30, 23:00), not as the bare "5:30".
_ZH_HOUR = "[零一二两三四五六七八九十]{1,3}|\\d{1,2}"
_CLOCK = re.compile(rf"(?:(?P<hpart>{DAY_PART})\s*)?(?<![\d:.])(?P<h>\d{{1,2}}):(?P<m>\d{{2}})(?![:\d])(?!\s*[ap]\.?m\b)|(?<![\d:.]){EN_CLOCK}"
                    rf"|(?P<noon>\bnoon\b|\bmidnight\b|(?:午夜|子夜)(?!\s*(?:\d|[零一二两三四五六七八九十])))|(?P<part>{DAY_PART})?(?P<zh>{_ZH_HOUR})点"
                    rf"(?:(?P<zhalf>半)|(?P<zm>{_ZH_HOUR})分|(?P<zmd>\d{{2}})(?![\d.%]))?钟?", re.I)  # "5点30发车" too
# What makes "a week" a rate's period: a count or an amount right before it ("twice", "3 times", "two tablets").
# A bound before it is left as before, unread: "less than an hour" is no hour to write as "about 90 minutes".
_RATE_BEFORE = re.compile(rf"(?:\d\S*|%|\b(?:once|twice|thrice|times|per|{EN_WORD})|(?:\d|\b(?:{EN_WORD}))\s+(?:\S+\s+)?\S+"
                          rf"|\b(?:(?:less|more|fewer|longer|shorter) than|over|under|at (?:least|most)|up to))\s*$", re.I)
# A ceiling a Chinese duration carries after it: "7天之内", "七日内", "两周以内" say one thing.
_WITHIN = re.compile(r"之内|以内|内")
# A Chinese hedge may stand before the verb that states the value, "大约有240万人", "大概是三天", and before the period of
# a rate, which Chinese writes first: "约每秒30万公里", "大约每小时80公里".
_APPROXIMATE = re.compile(r"(?:(?:约为?|大约|大概|将近|接近|(?<![最附临靠亲])近|差不多)[有是为]?(?P<period>每(?:秒钟?|分钟|小时|天|日|周|月|年))?|"
                          r"approximately|about|around|roughly|nearly|almost|close to|some|~)\s*$", re.I)
_APPROXIMATE_AFTER = re.compile(r"\s*(?:左右|上下)")
_COUNT_HEDGE_AFTER = re.compile(r"\s*([\u4e00-\u9fff]?)(?:左右|上下)")  # after a count's measure word
_ZH_SCALE = {"万": 1e4, "亿": 1e8}


@dataclass(frozen=True)
class Quantity:
    amount: float      # in the dimension's base unit
    dimension: str
    precision: float   # the place of the last digit written, in the base unit ("8849米" 1, "42.2 km" 100)
    approximate: bool  # marked as rounded ("约", "about", "左右")
    start: int         # where the number and its unit stand in the text
    end: int
    within: str = ""   # the ceiling word right after it ("内", "之内", "以内")
    number: float = 0.0  # the number as written, before its unit ("65" of "65千克")
    unit: str = ""       # the unit as written ("千克")


def _number(written: str) -> tuple[float, float] | None:
    """A written number's value and the place of its last digit ("1.2 million": 1.2e6, 1e5)."""
    written = written.strip()
    if written == "半":
        return 0.5, 0.1
    if written.lower() in ("a", "an"):  # "an hour and a half"
        return 1.0, 1.0
    if written[0].isdigit():
        digits = re.match(r"[\d,]+(?:\.(\d+))?", written)
        scale = {"万亿": 1e12, "亿": 1e8, "万": 1e4, "千": 1e3, "million": 1e6, "billion": 1e9,
                 "thousand": 1e3}.get(written[digits.end():].strip().lower(), 1.0)
        return float(digits.group(0).replace(",", "")) * scale, 10.0 ** -len(digits.group(1) or "") * scale
    value = zh_value(written) if not written.isascii() else en_value(written)
    if not value:
        return None
    # Only a scale word rounds here: "约三十万" is to the 万; a hedge widens a round number (``_rounded``).
    scales = [_ZH_SCALE.get(c, 1) for c in written[-1:]] if not written.isascii() else [
        EN_SCALES[w] for w in re.findall(r"[a-z]+", written.lower()) if w in EN_SCALES and w != "hundred"]
    return value, float(max(scales, default=1))


def _rounded(value: float, place: float) -> float:
    """The place an approximate number rounds to: a round number of one or two figures to its last non-zero digit
    ("about 300" to the hundred, "将近一百八十" to the ten; "about 4,810" is to the metre), at most a fifth of it, so
    that its half ("about 300": ±30) holds 298, not 250."""
    if place < 1 or not value or value != int(value):
        return place
    zeros = 1.0
    while value % (zeros * 10) == 0:
        zeros *= 10
    return max(place, min(zeros, abs(value) / 5)) if abs(value) / zeros < 100 else place


@lru_cache(maxsize=16384)
def quantities(text: str) -> tuple[Quantity, ...]:
    found = []
    for match in _QUANTITY.finditer(text):
        unit = match.group("unit")
        dimension, factor = next((dim, f) for s, dim, f in SPELLINGS if re.fullmatch(s, unit, re.I))
        if len(unit) == 1 and unit.isascii() and (unit not in "mgLhW" or not re.search(r"\d\s*$", text[:match.start("unit")])
                                                  or re.search(r"[$£€¥]\s*[\d.,]+\s*$", text[:match.start("unit")])):
            continue  # a lone letter is a unit only as written right after digits ("330 m", "65W"; "$3m" is money)
        if text.startswith("半", match.end()):
            continue  # "一年半" is a year and a half
        if re.match(r"[\s-]*(?:olds?|of age)\b", text[match.end():], re.I):
            continue  # an age ("15-year-olds", "21 years old") is a number, as the evidence's "aged 15": no span of time
        if match.group("one") and (_RATE_BEFORE.search(text[:match.start()]) or re.match(r"\s+or\b", text[match.end():])):
            continue  # "a month" is one month, but "twice a week", "seven days a week", "$5 a month", "three a day" are rates
        if unit in ("年", "日") and (re.search(r"[月号]\s*$", text[:match.start()])
                                    or (_number(match.group("first")) or (0,))[0] >= 1000):
            continue  # a date: "2020年", "3月5日", "每月15日"
        approximate = bool(_APPROXIMATE.search(text[max(0, match.start() - 14):match.start()])
                           or _APPROXIMATE_AFTER.match(text, match.end()))
        for group in ("first", "second"):
            halved = group == "first" and match.group("halved")
            if not match.group(group) or not (read := (0.5, 0.1) if halved else _number(match.group(group))):
                continue
            value, place = read[0], _rounded(*read) if approximate else read[1]
            if (match.group("half") or match.group("half_after")) and group == ("second" if match.group("second") else "first"):
                value, place = value + 0.5, 0.1
            end = match.end("first") if group == "first" and match.group("second") else match.end()
            within = _WITHIN.match(text, end) if group == "second" or not match.group("second") else None
            shift = 32 if dimension == "temperature" and factor != 1 else 0  # Fahrenheit (units.py)
            found.append(Quantity((value - shift) * factor, dimension, place * factor, approximate, match.start(group), end,
                                  within.group(0) if within else "", value, unit))
    found = _compounds(text, found)
    taken = [(q.start, q.end) for q in found]
    spelled, rooms = spelled_clock_rooms(text)  # "half past six" too, as its words' whole place
    for match in _CLOCK.finditer(spelled):
        minutes = _minutes(match, spelled)
        start, end = match.span()
        within = [(a, b) for a, b in rooms if a < end and start < b]
        start, end = min([start, *(a for a, _ in within)]), max([end, *(b for _, b in within)])
        if minutes is not None and not any(a < end and start < b for a, b in taken):
            found.append(Quantity(minutes, "clock", 1, False, start, end))
    return tuple(found)


def _compounds(text: str, found: list[Quantity]) -> list[Quantity]:
    """Adjacent amounts of one dimension in falling units as their sum, in the smaller unit."""
    out: list[Quantity] = []
    for q in found:
        last = out[-1] if out else None
        if (last and q.dimension == last.dimension and q.number and last.number and q.amount / q.number < last.amount / last.number
                and _COMPOUND_JOIN.match(text[last.end:q.start]) and not last.within):
            total = last.amount + q.amount
            out[-1] = Quantity(total, q.dimension, q.precision, last.approximate, last.start, q.end, q.within,
                               total / (q.amount / q.number), q.unit)
        else:
            out.append(q)
    return out


# A Chinese part of the day a few words before the hour holds for it: "晚上开到9点" is 21:00, and so does the one of
# a range's first end: "晚上7点到9点".
_PART_BEFORE = re.compile(rf"({DAY_PART})(?:[^\d零一二两三四五六七八九十，。；、,.;]{{1,3}}|{ZH_RANGE_GAP})$")


def _minutes(match: re.Match, text: str) -> float | None:
    """A time of day as minutes after midnight."""
    group = match.groupdict()
    if group["zh"] and not group["part"]:
        before = _PART_BEFORE.search(text[max(0, match.start() - 8):match.start()])
        group["part"] = before.group(1) if before else None
    if group["noon"]:
        return 720.0 if group["noon"].lower() == "noon" else 0.0
    if group["h"]:
        hour, minute = clock_hour(int(group["h"]), group["hpart"]), int(group["m"])
    elif group["eh"]:
        hour, minute = clock_hour(int(group["eh"]), half=group["half"]), int(group["em"] or 0)
    else:
        minutes = group["zm"] or group["zmd"]
        read = [_number(group["zh"]), _number(minutes) if minutes else (30.0, 1.0) if group["zhalf"] else (0.0, 1.0)]
        if None in read:
            return None
        hour, minute = clock_hour(int(read[0][0]), group["part"]), int(read[1][0])
    if hour == 12 and (group["hpart"] or group["part"]) in NIGHT:
        hour = 0  # midnight: "营业至晚上12点" closes when "营业到午夜" does (the text's number stays 12)
    return float(hour * 60 + minute) if hour < 24 and minute < 60 else None


def same(a: Quantity, b: Quantity) -> bool:
    """One quantity: the same amount of one dimension, or, where either is stated as
    approximate, amounts that agree to the coarser one's last written digit, or one converted from the other."""
    if {a.dimension, b.dimension} == {"calendar", "time"}:
        months, days = (a.amount, b.amount / DAY) if a.dimension == "calendar" else (b.amount, a.amount / DAY)
        return MONTH_DAYS[0] * months <= days <= MONTH_DAYS[1] * months
    if {a.dimension, b.dimension} == {"time", "workday"}:  # "about three days" rounds "3 business days"
        days = a if a.dimension == "time" else b
        return days.approximate and math.isclose(a.amount, b.amount, rel_tol=1e-9)
    if a.dimension != b.dimension:
        return False
    if math.isclose(a.amount, b.amount, rel_tol=1e-9):
        return True
    return ((a.approximate or b.approximate) and abs(a.amount - b.amount) <= max(a.precision, b.precision) / 2 + 1e-9
            or rounded_alike(a, b))


# A price right after "一年" / "一个月" / "一晚", or right before it, makes it a rate: "年卡一年3000元" and "年卡3000元一年"
# are "年卡每年3000元".
_ZH_RATE = re.compile(r"一个?(年|月|周|天|日|晚)(?=\s*(?:\d[\d,.]*|[零〇一二三四五六七八九十两百千万]+)\s*(?:元|块|美元|欧元|英镑))"
                      r"|(?<=[\d零〇一二三四五六七八九十两百千万][元块镑])\s*一个?(年|月|周|天|日|晚)")


def _rates_as_written_in(statement: str, evidence: str) -> str:
    """A rate "一年…元" or "…元一年" written with 每 where the evidence writes it so: one thing said."""
    def per(match: re.Match) -> str:
        period = match.group(1) or match.group(2)
        return "每" + period if "每" + period in evidence else match.group(0)

    return _ZH_RATE.sub(per, statement)


def as_written_in(statement: str, evidence: str, question: str = "") -> str:
    """The statement with each quantity the evidence states in another form ("14天" for "两周",
    "65瓦" for "65W", "约8849米" for "8848.86米") written as the evidence writes it. A quantity the
    question states is its topic and stays as written: "一年有十个月" to "一年有多少个月？" must not
    read "12个月有十个月" against "12个月"."""
    statement = _rates_as_written_in(_dates_as_written_in(as_percent_in(statement, evidence), evidence), evidence)
    theirs = quantities(evidence)
    if not theirs:
        return _counts_as_written_in(statement, evidence, question)
    asked = quantities(question) if question else []
    out, last = [], 0
    for mine in quantities(statement):
        if mine.start < last or any(same(mine, q) for q in asked) or _said_as_word(statement[mine.start:mine.end], evidence):
            continue
        matches = [q for q in theirs if same(mine, q)]
        if not matches:
            # Another amount, in the evidence's unit where it writes the dimension in another one ("一年" against
            # "6个月" reads "12个月", whose 12 then conflicts); or, where the evidence has the number only as an
            # amount of another dimension ("65千克" against "65千瓦"), in another unit of its own ("65000g").
            written = (_in_their_unit(mine, theirs, statement)
                       or (_in_other_unit(mine) if _elsewhere(mine, theirs, evidence) else None))
            if written:
                out += [statement[last:mine.start], written]
                last = mine.end
            continue
        best = min(matches, key=lambda q: abs(q.amount - mine.amount))
        within = mine.within and best.within and mine.within != best.within  # "7天之内" as "七日内"
        if _spelling(statement, mine) == _spelling(evidence, best) and not within:
            continue  # spelt alike ("two years", "two-year"): the readers agree already
        before, end = statement[last:mine.start], mine.end + (len(mine.within) if within else 0)
        if mine.approximate and not best.approximate:  # "约8849米" is what "8848.86米" states: no hedge left
            before = _APPROXIMATE.sub(lambda m: m.group("period") or "", before)  # a rate keeps its period
            after = _APPROXIMATE_AFTER.match(statement, end)
            end = after.end() if after else end
        out += [before, evidence[best.start:best.end] + (best.within if within else "")]
        last = end
    return _counts_as_written_in("".join(out) + statement[last:] if out else statement, evidence, question)


def _said_as_word(written: str, evidence: str) -> bool:
    """The evidence says the quantity with a word a reader takes for it: "一天" of "一天吃两次" is the "每日" of
    "每日两次", not the "24小时" of another sentence (a rate's period, read by the lexicon, not an amount)."""
    return any((interchangeable(t) - {t}) & set(content_tokens(evidence)) for t in content_tokens(written))


def _dates_as_written_in(statement: str, evidence: str) -> str:
    """Each date the evidence states in another form written as the evidence writes it: "二〇二三年七月一日"
    as "2023年7月1日", "the fifteenth of March" as "March 15" (the same year, month and day, as written); one
    that leaves out what the evidence's adds (its year) in digits: "十二月二十五号" as "12月25日"; a weekday the
    calendar gives its date is left out ("Sunday, 7 December 2025" is what "2025-12-07" says)."""
    statement, theirs = without_calendar_weekdays(statement, dates_at(statement)), {}
    for start, end, read in dates_at(evidence):
        theirs.setdefault(read, evidence[start:end].rstrip("."))  # the dot of "Feb." may end the sentence
    out, last = [], 0
    for start, end, read in dates_at(statement):
        written = theirs.get(read) or (read[1] and any(all(m in (None, t) for m, t in zip(read, r)) for r in theirs)
                                       and _in_digits(read, statement[start:end]))
        if written and start >= last:
            out += [statement[last:start], written]
            last = end - statement[start:end].endswith(".")
    return "".join(out) + statement[last:]


def _in_digits(read: tuple, written: str) -> str:
    year, month, day = read
    if not written.isascii():
        return (f"{year}年" if year else "") + f"{month}月" + (f"{day}日" if day else "")
    return list(EN_MONTHS)[month - 1].title() + (f" {day}" if day else "") + (f", {year}" if year else "")


_BARE = re.compile(rf"(?<![\d.,:])(?:{_DIGITS})(?![\d:])", re.I)


def _counts_as_written_in(statement: str, evidence: str, question: str) -> str:
    """A number with no unit written as the evidence writes the same one: "1,200,000" as "1.2 million",
    "7个工作日" as "七个工作日", "about 2.4 million" as "2,412,000" (a rounding that agrees to its last
    written digit, as ``same``)."""
    theirs, asked = written_numbers(evidence), {v for v, *_ in written_numbers(question)}
    out, last = [], 0
    for value, place, start, end in written_numbers(statement):
        if start < last:
            continue
        hedge = _APPROXIMATE.search(statement[max(last, start - 14):start])
        after = _COUNT_HEDGE_AFTER.match(statement, end)  # "三百人左右"
        best = next((c for c in theirs if math.isclose(c[0], value)), None) or next(
            (c for c in theirs if (hedge or after) and abs(c[0] - value) <= _rounded(value, place) / 2 + 1e-9), None)
        written = best and evidence[best[2]:best[3]]
        if value in asked or not best or _plain_digits(written) == _plain_digits(statement[start:end]):
            continue
        rounded = not math.isclose(best[0], value)  # the hedge goes with the rounding
        start -= len(hedge.group(0)) - len(hedge.group("period") or "") if hedge and rounded else 0
        out += [statement[last:start], written] + ([after.group(1)] if after and rounded else [])
        last = after.end() if after and rounded else end
    return "".join(out) + statement[last:] if out else statement


# A number in English words before what it counts ("two bedrooms", "one hundred and twenty rooms"; not "one of").
_EN_NUMBER = re.compile(rf"\b(?:{EN_WORD})(?:[\s-]+(?:and\s+)?(?:{EN_WORD}))*\b", re.I)


def written_numbers(text: str) -> list[tuple[float, float, int, int]]:
    """Each number of a text (digits with their scale word, a Chinese numeral before a measure word, English number words) with
    the place of its last digit and where it stands."""
    found = [(*value, m.start(), m.end()) for m in _BARE.finditer(text) if (value := _number(m.group(0)))]
    found += [(*value, m.start("num"), m.end("num")) for m in ZH_NUMBER.finditer(text)  # not an ordinal's: 第二剂
              if m.group("num") and not text.endswith("第", 0, m.start("num")) and (value := _number(m.group("num")))]
    found += [(*value, m.start(), m.end()) for m in _EN_NUMBER.finditer(text) if (value := _number(m.group(0)))
              and (after := re.match(r"[\s-]+([a-z]+)", text[m.end():], re.I)) and after.group(1).lower() not in EN_STOPWORDS]
    # A number before 年, 月, 日 or 号 is a date's or a quantity's, which ``quantities`` reads.
    return sorted((c for c in found if text[c[3]:c[3] + 1] not in ("年", "月", "日", "号")),
                  key=lambda c: c[2])


def _plain_digits(written: str) -> str:
    return re.sub(r"[\s,]", "", written.lower())


def _spelling(text: str, quantity: Quantity) -> str:
    """A quantity as written, less case, spaces, hyphens and plural -s ("two years" is "two-year")."""
    return re.sub(r"[\s-]+|s\b", "", text[quantity.start:quantity.end].lower())


# A unit of each dimension to write an amount in where its number must not meet the evidence's.
_REWRITE_UNITS = {"length": [("m", 1), ("km", 1000)], "mass": [("g", 1), ("kg", 1000)], "power": [("W", 1), ("kW", 1000)],
                  "volume": [("L", 1), ("ml", 0.001)], "time": [("seconds", 1), ("hours", 3600)],
                  "calendar": [("months", 1), ("years", 12)]}


def _elsewhere(mine: Quantity, theirs: tuple[Quantity, ...], evidence: str) -> bool:
    """The evidence writes the quantity's number only as an amount of another dimension ("65千瓦"
    for the statement's "65千克"): the number readers would take one for the other."""
    if mine.dimension not in _REWRITE_UNITS:
        return False
    # Days and working days are kin, not another dimension: "三天" against "3个工作日" is left to the readers.
    others = [q for q in theirs if q.number == mine.number and {q.dimension, mine.dimension} != {"time", "workday"}]
    if not others or any(q.dimension == mine.dimension for q in others):
        return False
    rest = list(evidence)
    for q in others:
        rest[q.start:q.end] = " " * (q.end - q.start)
    return mine.number not in facts("".join(rest)).numbers


def _in_their_unit(mine: Quantity, theirs: tuple[Quantity, ...], statement: str) -> str | None:
    if statement.startswith("一", mine.start) and facts(statement).numbers - {1.0}:
        return None  # a lone 一 beside a count is a rate's period: "一天最多滴3次" is "每日…3次"
    kin = [q for q in theirs if q.dimension == mine.dimension and q.number and q.unit]
    amount = mine.amount
    if not kin and mine.dimension in ("calendar", "time"):  # months against days or weeks: 30 days a month
        kin = [q for q in theirs if q.dimension in ("calendar", "time") and q.number and q.unit]
        amount = mine.amount * 30 * DAY if mine.dimension == "calendar" else mine.amount / (30 * DAY)
    elif any(math.isclose(q.amount / q.number, mine.amount / mine.number) for q in kin if mine.number):
        return None  # the evidence writes an amount in the statement's own unit: the numbers compare
    if not kin or not mine.number:
        return None  # the evidence writes no amount of it
    factor = kin[0].amount / kin[0].number
    return _plain(amount / factor) + (" " if kin[0].unit[0].isalpha() and kin[0].unit.isascii() else "") + kin[0].unit


def _plain(value: float) -> str:
    return f"{value:.6f}".rstrip("0").rstrip(".")


def _in_other_unit(mine: Quantity) -> str:
    unit, factor = next((u, f) for u, f in _REWRITE_UNITS[mine.dimension] if not math.isclose(mine.amount / f, mine.number))
    return _plain(mine.amount / factor) + unit
