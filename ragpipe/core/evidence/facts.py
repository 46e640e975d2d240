"""Typed facts of a text: the numbers, dates and names it states, whether it negates, and
which values it bounds (``bounds``: "at least 3.5%" a floor, "不超过5克" a ceiling),
normalised so that the zh and en spellings of one value compare equal ("1,000" = "1000" =
"one thousand", "10万" = 100000, "March 5, 2020" = "5 March 2020" = "2020年3月5日").

Offline verification cannot read meaning, but a statement that puts another name, number or
month where its evidence has one, or says "not" where the evidence affirms, is wrong in a
way these typed facts show plainly; ``align`` and the metrics compare them.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from ragpipe.core.evidence.iso_dates import numeric_dates
from ragpipe.core.evidence.zh_names import zh_makers, zh_titled
from ragpipe.core.text import EN_STOPWORDS, is_chinese, jieba_ready, normalize, number_mentions, number_spans, pos_tags

EN_MONTHS = {m: i + 1 for i, m in enumerate(
    "january february march april may june july august september october november december".split())}
EN_MONTHS.update({m[:3]: i for m, i in list(EN_MONTHS.items())} | {"sept": 9})
_MONTH_WORD = r"(?:January|February|March|April|May|June|July|August|September|October|November|December|" \
              r"Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)(?![a-z])\.?"
_WEEKDAYS = {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
_YEAR = r"(?:1[0-9]{3}|20[0-9]{2})"
# A day of the month as an ordinal word: "third", "twenty-first", "thirtieth".
_ORDINALS = {w: i + 1 for i, w in enumerate(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth "
    "fifteenth sixteenth seventeenth eighteenth nineteenth twentieth".split())} | {"thirtieth": 30}
_ORDINALS |= {f"{tens}-{w}": base + _ORDINALS[w] for tens, base in (("twenty", 20), ("thirty", 30))
              for w in ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")
              if base + _ORDINALS[w] <= 31}
_DAY_WORD = "|".join(sorted((w.replace("-", "[\\s-]?") for w in _ORDINALS), key=len, reverse=True))
_DAY = rf"(?:\d{{1,2}}(?:st|nd|rd|th)?\b|(?:{_DAY_WORD})(?![\w-]))"
# "March 5, 2020", "March 5", "March 2020", "5 March 2020", "5th of March"; a day in words too ("the third of
# February", "February third"). Dates in digits ("2020-03-05", "05.03.2020") are iso_dates.numeric_dates.
_EN_DATE = re.compile(
    rf"\b(?P<m1>{_MONTH_WORD})(?:\s+(?P<d1>{_DAY}))?(?:,?\s+(?P<y1>{_YEAR})\b)?"
    rf"|(?:\bthe\s+)?\b(?P<d2>{_DAY})(?:\s+of)?\s+(?P<m2>{_MONTH_WORD})(?:,?\s+(?P<y2>{_YEAR})\b)?",
    re.I)
ZH_NUMERAL = "零〇一二三四五六七八九十百千万亿两"
_ZH_DATE = re.compile(rf"(?:(?P<y>\d{{4}}|[{ZH_NUMERAL}]{{4}})年)?(?:(?P<m>\d{{1,2}}|[{ZH_NUMERAL}]{{1,3}})月)"
                      rf"(?:(?P<d>\d{{1,2}}|[{ZH_NUMERAL}]{{1,3}})[日号])?|(?P<y_only>\d{{4}})年")
_BARE_YEAR = re.compile(rf"(?<![\d.,])(?:in |since |by |until |from |of |年份|)\b({_YEAR})\b(?![\d%]|[.,]\d)")

EN_UNITS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
             "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
             "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
             "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
EN_SCALES = {"hundred": 100, "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
_EN_NUMBER_WORDS = re.compile(r"\b(?:(?:%s)(?:[\s-]+(?:and\s+)?(?:%s))*)\b(?:\s*(?P<pct>percent|per cent))?" % (
    "|".join([*EN_UNITS, *EN_SCALES]), "|".join([*EN_UNITS, *EN_SCALES])), re.I)
_DIGITS_BEFORE = re.compile(r"\d\s*$")
# An amount of money with its scale abbreviated: "£50m", "$3bn", "€20k".
_MONEY_SCALE = re.compile(r"[$£€¥]\s?(\d+(?:\.\d+)?)\s?(k|m|mn|bn)\b", re.I)
_MONEY_SCALES = {"k": 1e3, "m": 1e6, "mn": 1e6, "bn": 1e9}
_ZH_DIGIT = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_ZH_SMALL = {"十": 10, "百": 100, "千": 1000}
_ZH_BIG = {"万": 1e4, "亿": 1e8}
# Measure words that count things ("两颗卫星", "三座桥", "两剂疫苗", "每日两片", "三套房", "十讲", "三场比赛"); not those
# that make words with a numeral (一部分, 一段时间, 三门峡, 一把手, 一口气).
ZH_THINGS = "颗只本张台辆艘架棵座所间层枚粒剂片份套件支瓶盒袋杯碗篇首针栋户讲集场轮版册页题道班趟站句幅卷处顿匹根朵盏扇课堂门"
# A Chinese numeral counts only before a measure word or unit ("三年", "两千元", "百分之二十", "一百GB"),
# so 一般, 统一 and 万一 stay words; nor does the 一 of 哪一 / 某一 ("which", "a certain": 哪一年). 千 after 万 or 亿 and before a unit is part of the unit ("三十万千米" is
# 300,000 km; "三千米" stays 3,000 m).
ZH_NUMBER = re.compile(rf"百分之(?P<pct>[{ZH_NUMERAL}]+)|(?<![\d.{ZH_NUMERAL}])(?!(?<=[哪某])一)(?P<num>[零〇一二三四五六七八九十两百千]"
                        rf"(?:(?![万亿]千[米克瓦卡焦])[{ZH_NUMERAL}])*[万亿]?)(?=(?<=[万亿])千[米克瓦卡焦]|[个位项年月日天岁次倍元块角成人家名周小时分钟秒公里米斤吨克升瓦毫厘亩条款章节季度期批届]|[{ZH_THINGS}]|(?<!一)大(?=[\u4e00-\u9fff])|(?:[GMKT]B|[kcm]m|kg|mAh|kW|Hz|[WVG%％])(?![A-Za-z]))"
                        r"(?!次性)")  # 一次性 "one-off" counts nothing; 七大洲 counts seven (一大早, 一大批 count nothing)

_EN_NEGATION = re.compile(r"\b(?:not|no|never|none|nobody|nothing|neither|nor|cannot|without)\b|n['’]t\b", re.I)
_NUMBER_SIGN = re.compile(r"\bNo\.?\s*(?=\d)|\bno\.\s*(?=\d)")  # "a No. 1 hit", "No 10 Downing Street" deny nothing
# Chinese negators, less the words that only contain one (不仅 "not only", 无论 "whatever",
# 非常 "very", 未来 "future", 不敌 "lose to", 不正当竞争 "unfair competition", 不动产 "real estate",
# 无理由退货 "no-questions-asked returns", 无人机 "drone", 不例外 "no exception": "周日也不例外" affirms, …).
_ZH_NEGATION = re.compile(r"(?<![毫差])(?:不|没|无|未|非|别|勿|莫)(?!仅|但|断|少|久|过|论|常|来|线|穷|数|比|同|管|光|妨|敌|正当|动产|锈|理由|人机|例外)"
                          r"|毫无|并非")
# Proper-noun tags of jieba: person, place, organisation, other proper noun.
_ZH_NAME_FLAGS = {"nr", "nrfg", "nrt", "ns", "nt", "nz"}
# Where a sentence, a heading, a list item or a label's value starts.
_SENTENCE_START = re.compile(r"(?:^\s*|[.!?:;\n•*\-–—)\]\d]\s*|[.!?]\S*\s+)$")
# Place nouns jieba tags as place names.
_ZH_COMMON_PLACES = frozenset("城市 国家 地区 首都 省份 城镇 农村 乡村 地方 全国 各地 本地 当地 海外 国内 国外 境内 境外 市区 郊区".split())
# Words that open a place's name ("Mount Fuji", "Lake Baikal", "Cape Horn"): dictionary words, yet
# part of the name even where they start a sentence, and the place is proper whatever follows them.
PLACE_TITLE = re.compile(r"^(?:mount|mt|lake|cape|fort|saint|isle)\.?\s+(?=\S)", re.I)
_EN_NAME = re.compile(r"\b[A-Z][\w'’.-]*(?:\s+(?:(?:of|de|da|von|van|the|and|la|le|du|del)\s+)*[A-Z][\w'’.-]*)*")

# Where one sentence gives several values, each belongs to its clause.
VALUE_CLAUSE = re.compile(r"[,;:，；：、]|\b(?:and|but|while|whereas)\b|以及|而且?|但是?")
# Words that make a value a floor or a ceiling: before it in its clause ("at least 3.5%",
# "caps … at 3.5%", "不得低于5%"), or right after it ("50 or older", "5万元以上"). The longer
# negated forms come first: "不低于" is a floor, "低于" a ceiling.
BOUND_BEFORE = re.compile(
    r"(?P<floor>\bat least\b|\bminimum\b|\bmin\.|\bas (?:low|little|few) as\b|\bno (?:less|fewer) than\b|"
    r"\bnot (?:less|fewer) than\b|\bstarting (?:at|from)\b|\bolder than\b|\b(?:over|above)\s+$|"  # right before the value: "over 16", not "over the year, 16"
    r"不[得应能可宜]?(?:低于|少于)|至少|最低|最少|起码|(?<![未不])年?满(?=\s*(?:[\d零一二两三四五六七八九十]|$)))"  # 年满18周岁: the slice before a value ends at 满
    r"|(?P<ceiling>\bat most\b|\bmaximum\b|\bmax\.|\bup to\b|\bno more than\b|\bnot more than\b|\bcap(?:s|ped)?\b|"
    r"\blimit(?:s|ed)?\b|\bas (?:high|much|many) as\b|\bexceed|\bless than\b|\bfewer than\b|\byounger than\b|\bunder\b|\bbelow\b|"
    r"不[得应能可宜]?(?:超过|高于|多于)|最多|最高|至多|上限|封顶|低于|少于|(?:未满|不满|不足|不到)(?=\s*(?:[\d零一二两三四五六七八九十]|$))"
    r"|(?<![不无])限[购乘载带]?(?=\s*(?:\d|[零一二两三四五六七八九十百千]|$)))", re.I)  # 每天限150人, 每人限购2件
_BOUND_AFTER = re.compile(r"\s*(?:%|percent|周岁|[元克岁天年月人个次倍])?\s*(?:(?P<floor>(?:or|and) (?:more|above|higher|older|greater|over|up(?!\s+to))\b|\+|"
                          r"(?:及|或)?以上|起)|(?P<ceiling>(?:or|and) (?:less|fewer|below|under|younger)\b|(?:及|或)?以[内下]|封顶|为限))",
                          re.I)
_BOUND_REACH = 48  # characters before a value that its bound word may stand in
# "Cancel free up to 48 hours before pick-up" bounds the lead time from below: it is "at least 48 hours before".
_LEAD_TIME = re.compile(r"\s*(?:hours?|days?|weeks?|months?|minutes?)\s+(?:before|prior to|in advance|ahead)\b", re.I)


def fold(text: str) -> str:
    """Width, case and accents folded: "Beyoncé" and "ＢＥＹＯＮＣＥ" both read "beyonce"."""
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text or ""))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


@dataclass(frozen=True)
class Facts:
    numbers: frozenset[float]     # values with their scale (percentages as their number), dates excluded
    years: frozenset[int]
    months: frozenset[int]
    days: frozenset[tuple[int, int]]  # (month, day)
    names: tuple[str, ...]         # folded names, longest first
    negated: bool

    @property
    def empty(self) -> bool:
        return not (self.numbers or self.years or self.months or self.names)


def zh_value(numeral: str) -> float | None:
    """A Chinese numeral as its value: 三 3, 十五 15, 两千 2000, 一百二十万 1,200,000, 二〇二〇 2020."""
    if all(c in _ZH_DIGIT for c in numeral) and len(numeral) > 1:  # digit by digit: 二〇二〇
        return float("".join(str(_ZH_DIGIT[c]) for c in numeral))
    total, section, digit = 0.0, 0.0, None
    for c in numeral:
        if c in _ZH_DIGIT:
            digit = _ZH_DIGIT[c]
        elif c in _ZH_SMALL:
            section += (1 if digit is None else digit) * _ZH_SMALL[c]
            digit = None
        elif c in _ZH_BIG:
            total += (section + (digit or 0)) * _ZH_BIG[c]
            section, digit = 0.0, None
        else:
            return None
    return total + section + (digit or 0)


def en_value(words: str) -> float | None:
    total, current = 0.0, 0.0
    for word in re.findall(r"[a-z]+", words.lower()):
        if word in EN_UNITS:
            current += EN_UNITS[word]
        elif word == "hundred":
            current = (current or 1) * 100
        elif word in EN_SCALES:
            total += (current or 1) * EN_SCALES[word]
            current = 0.0
    return total + current


# A number in words, whole: "one hundred and twenty", "twenty-four" (a scale word only after a number word).
_EN_PHRASE = r"(?:%s)(?:[\s-]+(?:and\s+)?(?:%s))*" % ("|".join(EN_UNITS), "|".join([*EN_UNITS, *EN_SCALES]))
_COUNTED = re.compile(r"\b(%s)[\s-]+(?:years?|months?|weeks?|days?|hours?|minutes?|percent|times|"
                      r"dollars|miles|people|members|employees|pages)\b" % _EN_PHRASE, re.I)
# A number word right before a plural noun counts things ("three doses", "two bedrooms", "four meeting rooms"):
# no adjective between, so "three horizontal lines" (an icon's look) stays a word.
# Nor after "the", "these", "its", …: "the two brothers" points at what the evidence names, it counts nothing new.
_COUNTED_THINGS = re.compile(r"(?<!\bthe )(?<!\bthese )(?<!\bthose )(?<!\bboth )(?<!\bits )(?<!\bhis )(?<!\bher )(?<!\btheir )"
                             r"\b(%s)\s+(?:[a-z]+ing\s+)?([a-z]{3,}(?<![siu])s)\b" % _EN_PHRASE, re.I)
_NOT_PLURAL = frozenset("does goes always perhaps whereas besides sometimes towards afterwards hers ours yours theirs".split())
# How many times: "twice", "thrice", and "once" of a rate ("once a week", "once daily"; not "once approved", "once a student…").
TIMES = re.compile(r"\b(?:twice|thrice|once(?=\s+(?:(?:a|an|per|every|each)\s+(?:day|week|month|year|fortnight|quarter|night)"
                    r"|daily|weekly|monthly|yearly|annually|nightly)\b))\b", re.I)
TIMES_VALUE = {"once": 1.0, "twice": 2.0, "thrice": 3.0}


def times_said(text: str) -> set[float]:
    return {TIMES_VALUE[m.group(0).lower()] for m in TIMES.finditer(text)}


def counted(text: str) -> set[float]:
    """Number words that count a unit or things ("a five-year warranty", "two weeks", "three doses", "twice a
    week"): numbers for sure."""
    things = [m.group(1) for m in _COUNTED_THINGS.finditer(text) if m.group(2).lower() not in _NOT_PLURAL]
    return {float(en_value(w)) for w in [m.group(1) for m in _COUNTED.finditer(text)] + things} | times_said(text)


def _month(token: str) -> int | None:
    if token.isdigit():
        return int(token) if 1 <= int(token) <= 12 else None
    if all(c in ZH_NUMERAL for c in token):
        value = zh_value(token)
        return int(value) if value and 1 <= value <= 12 else None
    return EN_MONTHS.get(token.lower().rstrip("."))


# A word that puts a bare "May" in time: "from May", "in May", "until May", "July and May".
_MONTH_BEFORE = re.compile(r"\b(?:from|in|until|till|to|through|since|by|during|early|late|mid|between|and|or)[\s-]+$",
                           re.I)


def _day(token: str | None) -> int | None:
    if not token:
        return None
    token = re.sub(r"(?<=\d)(?:st|nd|rd|th)$|[\s-]+", lambda m: "" if m.group(0)[0].isalpha() else "-", token.lower())
    value = int(token) if token.isdigit() else _ORDINALS.get(token) or zh_value(token)
    return int(value) if value and 1 <= value <= 31 else None


def _read_date(match: re.Match) -> tuple[int | None, int | None, int | None] | None:
    """A date match's year, month and day (None where not written), or None: no date."""
    group = match.groupdict()
    month_token = group.get("m1") or group.get("m2") or group.get("m")
    month = _month(month_token) if month_token else None
    if month_token and month is None:
        return None
    if group.get("m1") and group["m1"].lower() == "may" and not (group.get("d1") or group.get("y1")) \
            and not (group["m1"] == "May" and _MONTH_BEFORE.search(match.string, 0, match.start())):
        return None  # the verb "may"; "from May to July", "in May" name the month
    if any(group.get(k) and group[k][0].isalpha() for k in ("d1", "d2")) and not month_token[0].isupper():
        return None  # a day in words names its month with a capital: "you may first apply" is no date
    year = group.get("y1") or group.get("y2") or group.get("y") or group.get("y_only")
    value = (int(year) if year.isdigit() else zh_value(year)) if year else None
    day = _day(group.get("d1") or group.get("d2") or group.get("d")) if month else None
    return int(value) if value else None, month, day


def dates_at(text: str) -> list[tuple[int, int, tuple[int | None, int | None, int | None]]]:
    """Where the text states a date, in order: (start, end, (year, month, day)), None where not written."""
    return sorted([(m.start(), m.end(), read) for pattern in (_EN_DATE, _ZH_DATE)
                   for m in pattern.finditer(text) if (read := _read_date(m))] + numeric_dates(text))


def days_at(text: str) -> list[tuple[int, int, tuple[int, int]]]:
    """Where the text states a day of a month, in order: (start, end, (month, day))."""
    return [(start, end, (read[1], read[2])) for start, end, read in dates_at(text) if read[2]]


@lru_cache(maxsize=16384)
def facts(text: str) -> Facts:
    text = unicodedata.normalize("NFKC", text or "")
    years, months, days, spans = set(), set(), set(), []
    for start, end, (year, month, day) in dates_at(text):
        if year:
            years.add(year)
        if month:
            months.add(month)
        if day:
            days.add((month, day))
        spans.append((start, end))
    undated = list(text)
    for start, end in spans:
        undated[start:end] = " " * (end - start)
    rest = "".join(undated)
    for match in _BARE_YEAR.finditer(rest):
        years.add(int(match.group(1)))
        rest = rest[:match.start(1)] + " " * 4 + rest[match.end(1):]
    values = {v for v in number_mentions(rest)}
    for match in _MONEY_SCALE.finditer(rest):  # "£50m" is £50 million
        values.discard(float(match.group(1)))
        values.add(round(float(match.group(1)) * _MONEY_SCALES[match.group(2).lower()], 6))
    for match in _EN_NUMBER_WORDS.finditer(rest):
        if _DIGITS_BEFORE.search(rest, 0, match.start()) and match.group(0).lower() in ("thousand", "million", "billion"):
            continue  # "million" of "1.5 million" scales the digits before it, as number_mentions read them
        value = en_value(match.group(0))
        if value is not None:
            values.add(round(value, 6))
    values |= times_said(rest)
    for match in ZH_NUMBER.finditer(rest):
        value = zh_value(match.group("pct") or match.group("num"))
        if value is not None:
            values.add(round(value, 6))
    return Facts(frozenset(values), frozenset(years), frozenset(months), frozenset(days),
                 tuple(sorted(set(names(text)), key=len, reverse=True)), negated(text))


def negated(text: str) -> bool:
    return bool(_ZH_NEGATION.search(text) if is_chinese(text) else _EN_NEGATION.search(_NUMBER_SIGN.sub(" ", text)))


@lru_cache(maxsize=1)
def _dictionary() -> frozenset[str]:
    from english_words import get_english_words_set

    return frozenset(get_english_words_set(["web2"], lower=False, alpha=True))


def common_word(word: str) -> bool:
    """A word Webster's lists in lower case and not as a proper noun ("finally", "step"; not
    "Canberra", "Paris")."""
    word = word.strip(".,'’")
    if word.capitalize() in _dictionary() and word.lower() not in _dictionary():
        return False  # a proper noun the dictionary knows ("Paris"), whatever its ending
    forms = [word] + [word[: -len(end)] + add for end, add in (("ies", "y"), ("es", ""), ("s", ""), ("ing", ""), ("ing", "e"),
                                                               ("ed", ""), ("ed", "e"), ("'s", "")) if word.lower().endswith(end)]
    return any(f.lower() in _dictionary() and f.capitalize() not in _dictionary() and f.upper() not in _dictionary()
               for f in forms if len(f) > 1)


@lru_cache(maxsize=16384)
def names(text: str) -> tuple[str, ...]:
    """Folded proper names: capitalised spans in English (a sentence's first word only when
    it is no common word, month or weekday), jieba's proper nouns, a work's maker and 《titles》 in Chinese."""
    found: list[str] = []
    if is_chinese(text):
        jieba_ready()
        found += [m.group(1) for m in re.finditer(r"《([^》]{1,40})》", text)]
        found += [w for w, flag in pos_tags(text) if flag in _ZH_NAME_FLAGS and len(w) >= 2
                  and w not in _ZH_COMMON_PLACES]
        found += zh_makers(text)  # 老舍 of "由老舍创作": a person named as a work's maker
        found += zh_titled(text)  # 王医生, 李老师: jieba cuts a surname from its title (王 / 医生)
        found += [m.group(0) for m in re.finditer(r"[A-Za-z][A-Za-z0-9.&'-]+", text)]  # Latin names in zh text
    else:
        for match in _EN_NAME.finditer(text):
            words = match.group(0).split()
            if (_SENTENCE_START.search(text[:match.start()]) and common_word(words[0])
                    and not (len(words) > 1 and PLACE_TITLE.match(match.group(0)))):
                words = words[1:]  # "Finally", "Open", "Step": capitalised for the sentence, not as a name
            while words and (words[0].lower() in EN_STOPWORDS or words[0].lower().rstrip(".") in EN_MONTHS
                             or words[0].lower() in _WEEKDAYS):
                words = words[1:]
            while words and words[-1].lower() in ("of", "de", "the", "and"):
                words = words[:-1]
            words = [w.rstrip(".'’") for w in words if w.lower().rstrip(".") not in EN_MONTHS
                     and w.lower() not in _WEEKDAYS]
            if words and len(" ".join(words)) > 1:  # not "I", nor a bare letter ("Q:")
                found.append(" ".join(words))
    return tuple(dict.fromkeys(fold(n) for n in found if n.strip()))


def bounds(text: str) -> dict[float, set[str]]:
    """Each value of the text that a bound word makes a floor or a ceiling, with which."""
    found: dict[float, set[str]] = {}
    for value, kind, _, _ in bound_spans(normalize(text)):
        found.setdefault(value, set()).add(kind)
    return found


def bound_spans(text: str) -> list[tuple[float, str, int, int]]:
    """Each bounded value of the text: the value, "floor" or "ceiling", and where its bound and value stand."""
    found = []
    for value, start, end in _value_spans(text):
        reach = max(0, start - _BOUND_REACH)
        before = text[reach:start]
        reach += max((m.end() for m in VALUE_CLAUSE.finditer(before)), default=0)  # its own clause
        words_before = list(BOUND_BEFORE.finditer(text[reach:start]))
        after = _BOUND_AFTER.match(text, end)
        match = after if after else words_before[-1] if words_before else None
        if match:
            lead = match.group(0).lower() == "up to" and _LEAD_TIME.match(text, end)
            found.append((value, "floor" if match.group("floor") or lead else "ceiling",
                          start if after else reach + match.start(), after.end() if after else end))
    return found


def _value_spans(text: str) -> list[tuple[float, int, int]]:
    """Each value the text states, in digits or in words, with where it stands: a number in words is bounded as its
    digits are ("at least three bags", "至少三个")."""
    spans = number_spans(text)
    spans += [(value, m.start(), m.end()) for m in _EN_NUMBER_WORDS.finditer(text) if (value := en_value(m.group(0))) is not None]
    spans += [(value, m.start("num"), m.end("num")) for m in ZH_NUMBER.finditer(text)
              if m.group("num") and (value := zh_value(m.group("num"))) is not None]
    return sorted(spans, key=lambda span: span[1])


def capped(text: str) -> str:
    """The text's first ceiling word ("at most", "no more than", "最多", "上限"), whatever it bounds
    (a number or not: "no more than twice"), or ""."""
    return next((m.group("ceiling") for m in BOUND_BEFORE.finditer(normalize(text)) if m.group("ceiling")), "")


# Every day, and a day off ("周一店休", "closed on Mondays"): a schedule that has one has not the other.
_EVERY_DAY = re.compile(r"每天|每日|天天|全年无休|\b(?:daily|every day|seven days a week|7 days a week)\b", re.I)
_DAY_OFF = re.compile(r"(?:周|星期|礼拜)[一二三四五六日天]\w{0,2}?(?:休|闭馆|关门|不营业|不开放)"
                      r"|\bclosed (?:on )?(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b", re.I)


def every_day(text: str) -> str:
    """The words that say the text's schedule holds every day, or ""."""
    found = _EVERY_DAY.search(text)
    return found.group(0) if found else ""


def day_off(text: str) -> str:
    """The words that name a weekday on which the text's schedule is off, or ""."""
    found = _DAY_OFF.search(text)
    return found.group(0) if found else ""
