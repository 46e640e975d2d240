"""Fractions in words as the percentages they are: "half" = "一半" = "半数" = 50%, "a quarter" = "四分之一" = 25%,
"two thirds" = 67%, "三成" = 30%, and shares as counts of a whole: "three out of four" = "每四名考生中有三名" =
75%, "one in five" = 20%. ``as_percent_in`` writes such a fraction as the percentage its evidence states, and a
percentage as the fraction in words its evidence states ("75%" as "three quarters"), so that the readers of numbers
downstream see one value where a person sees one; a fraction the evidence states otherwise stays as written."""

from __future__ import annotations

import re

from ragpipe.core.evidence.facts import EN_UNITS, ZH_NUMERAL, en_value, zh_value

_EN_PARTS = {"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4, "fifth": 5, "fifths": 5,
             "tenth": 10, "tenths": 10}
_EN_COUNT = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "nine": 9}
_EN_FRACTION = re.compile(r"\b(?:(?P<count>an?|one|two|three|four|nine)[\s-]+)?(?P<part>halves|half|thirds?|quarters?|fifths?|tenths?)\b"
                          r"(?!\s+(?:an?\s+)?(?:hour|day|week|month|year|mile|kilometre|kilometer|time|price|dozen)s?\b)", re.I)
_ZH_FRACTION = re.compile(rf"(?P<den>[{ZH_NUMERAL}]+)分之(?P<num>[{ZH_NUMERAL}]+)|(?P<half>一半|半数)|"
                          r"(?<![\d一二三四五六七八九十])(?P<tenths>[一二三四五六七八九])成(?![本功为立年绩果就熟])")
# "N out of M", "N in M", "N of every M" (not "3 in 10 minutes"); "每M名X中有N名", "M个X中有N个".
_EN_NUMERAL = rf"\d+|(?:{'|'.join(sorted(EN_UNITS, key=len, reverse=True))})"
_EN_SHARE = re.compile(rf"\b(?P<n>{_EN_NUMERAL})\s+(?:out\s+of|in|of\s+every)\s+(?P<m>{_EN_NUMERAL})\b"
                       r"(?!\s+(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?)\b)", re.I)
# A count of a whole the evidence states: "201 of the 300 members", "Of the 300 members, 201 voted".
# "Of the (rowing) club's 40 members, 10 …" too; "共有四十名成员，其中十人…".
_EN_OF_WHOLE = re.compile(r"\b(?P<n>\d+)\s+of\s+(?:the|all|its|their)\s+(?:(?:[a-z]+\s+)?[a-z]+'s\s+)?(?P<m>\d+)\b|"
                          r"\bof\s+(?:the|all|its|their)\s+(?:(?:[a-z]+\s+)?[a-z]+'s\s+)?(?P<m2>\d+)\s+[a-z]+(?:\s+[a-z]+)?,\s*(?P<n2>\d+)\b", re.I)
_MEASURE = "个名位人家户件只台所"
_ZH_OF_WHOLE = re.compile(rf"共(?:有|计)?(?P<m>\d+|[{ZH_NUMERAL}]+)[{_MEASURE}][\u4e00-\u9fff]{{0,6}}?[，,]\s*其中(?:有)?"
                          rf"(?P<n>\d+|[{ZH_NUMERAL}]+)[{_MEASURE}]")
# "每五个报名者中录取一个": a verb of one or two characters for 有, and then the count needs its measure word.
_ZH_SHARE = re.compile(rf"每?(?P<m>\d+|[{ZH_NUMERAL}]+)(?P<mw>[{_MEASURE}])?(?P<noun>[\u4e00-\u9fff]{{0,4}}?)中(?:就|只)?"
                       rf"[，,]?(?:有?(?P<n>\d+|[{ZH_NUMERAL}]+)[{_MEASURE}]?|(?P<verb>[\u4e00-\u9fff]{{1,2}}?)(?P<n2>\d+|[{ZH_NUMERAL}]+)[{_MEASURE}])")
_PERCENT = re.compile(rf"(?P<digits>\d+(?:\.\d+)?)\s*(?:%|％|\s*percent\b|\s*per cent\b)|百分之(?P<zh>[{ZH_NUMERAL}点]+)", re.I)
# Points between a fraction and every share its evidence states for it to be another share: "one in three" of
# "about 30%" is a reading, "half" of "10 of 40" is not.
OTHER_SHARE = 5.0
_HEDGE = re.compile(r"(?:about|around|roughly|nearly|almost|approximately|约|大约|近|将近|接近)\s*$", re.I)


def _fraction(match: re.Match) -> float | None:
    if match.re in (_EN_SHARE, _ZH_SHARE):
        n, m = _count(match.group("n") or match.group("n2")), _count(match.group("m"))
        return n / m if n and m and n < m <= 1000 else None
    if match.re is _EN_FRACTION:
        part = match.group("part").lower()
        count = _EN_COUNT[(match.group("count") or "a").lower()]
        return count / _EN_PARTS[part] if count < _EN_PARTS[part] and (count > 1) == part.endswith("s") else None
    if match.group("half"):
        return 0.5
    if match.group("tenths"):
        return zh_value(match.group("tenths")) / 10
    den, num = zh_value(match.group("den")), zh_value(match.group("num"))
    return num / den if den and num and num < den else None


def _count(written: str) -> float | None:
    return float(written) if written.isdigit() else en_value(written) if written.isascii() else zh_value(written)


def _as_share(match: re.Match, percent: str) -> str:
    """The share written as that percentage of its whole: "75% of" (candidates), "75%的考生"."""
    if match.re is _EN_SHARE:
        return f"{percent} of"
    if match.re is _ZH_SHARE:
        return f"{percent}的{match.group('noun') or (match.group('mw') == '人' and '人') or ''}" + (match.group("verb") or "")
    return percent


def _percents(text: str) -> list[tuple[float, str]]:
    return [(float(m.group("digits")) if m.group("digits") else zh_value(m.group("zh")) or -1.0, m.group(0))
            for m in _PERCENT.finditer(text)]


def _fractions_as_percent_in(statement: str, evidence: str) -> str:
    """The statement's percentages that the evidence states as a fraction in words written as those words ("75% of
    the seats" as "three quarters of the seats", "75%的考生" as "四分之三的考生"): read alone, the evidence's "three"
    is a 3 and no 75."""
    theirs = [(100 * value, match.group(0)) for pattern in (_EN_FRACTION, _ZH_FRACTION)
              for match in pattern.finditer(evidence) if (value := _fraction(match))]
    if not theirs:
        return statement

    def written(match: re.Match) -> str:
        value = float(match.group("digits")) if match.group("digits") else zh_value(match.group("zh")) or -1.0
        return next((w for p, w in theirs if abs(p - value) <= 0.5), match.group(0))
    return _PERCENT.sub(written, statement)


def _shares(text: str) -> list[tuple[float, str]]:
    """The counts of a whole a text states, as (percentage, the count written as "201 of 300" / "300中201")."""
    found = []
    for match in [*_EN_OF_WHOLE.finditer(text), *_ZH_SHARE.finditer(text), *_ZH_OF_WHOLE.finditer(text)]:
        n, m = match.group("n") or match.group("n2"), match.group("m") or match.group("m2")
        value = _fraction(match) if match.re is _ZH_SHARE else (
            _count(n) / _count(m) if _count(n) and _count(m) and _count(n) < _count(m) else None)
        if value:
            found.append((100 * value, f"{n} of {m}" if match.re is _EN_OF_WHOLE else f"{m}中{n}"))
    return found


def as_percent_in(statement: str, evidence: str) -> str:
    """The statement with each fraction in words the evidence states as a percentage written as that percentage
    ("一半用户" as "50%用户" against "50%的用户"), or as a count of a whole written as that count ("two thirds of the
    members" as "201 of 300 of the members" against "Of the 300 members, 201 voted"); a hedged one ("about a
    third") to within 2.5 points. A percentage the evidence states as a fraction in words is written as those words."""
    statement = _fractions_as_percent_in(statement, evidence)
    theirs = _percents(evidence) + _shares(evidence)
    if not theirs:
        return statement
    # Every share the evidence states, however written: a fraction clearly none of them (OTHER_SHARE points off each)
    # is another share, and is written as its percentage ("half of the members" against "Of the 40 members, 10 …" as
    # "50% of the members"), a number the evidence lacks.
    stated = [p for p, _ in theirs] + [100 * value for pattern in (_EN_SHARE, _ZH_SHARE, _EN_FRACTION, _ZH_FRACTION)
                                       for match in pattern.finditer(evidence) if (value := _fraction(match))]
    out, last = [], 0
    found = [m for pattern in (_EN_SHARE, _ZH_SHARE, _EN_FRACTION, _ZH_FRACTION) for m in pattern.finditer(statement)]
    for match in sorted(found, key=lambda m: m.start()):
        value = _fraction(match)
        slack = 2.5 if _HEDGE.search(statement[max(0, match.start() - 14):match.start()]) else 0.5
        written = value and match.start() >= last and next((w for p, w in theirs if abs(p - 100 * value) <= slack), None)
        if value and match.start() >= last and not written and all(abs(p - 100 * value) > OTHER_SHARE for p in stated):
            written = f"{100 * value:.3g}%"
        if written:
            out += [statement[last:match.start()], written if not written.endswith("%") else _as_share(match, written)]
            last = match.end()
    return "".join(out) + statement[last:] if out else statement
