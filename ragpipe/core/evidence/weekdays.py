"""Days a schedule is open: a range of weekdays in the evidence ("open Monday to Friday", "周二至周日开放") against a
statement that a place is open or closed on one day. Open on a day outside the range, or closed on one inside it,
is a contradiction; closed on a day outside it ("周一闭馆" against "周二至周日开放") or open on one inside it is what
the range says in other words."""

from __future__ import annotations

import re

from ragpipe.core.evidence.agreement import found_in, words
from ragpipe.core.evidence.facts import negated
from ragpipe.core.clocks import DAY_PART, EN_CLOCK_TIME
from ragpipe.core.text import normalize

_EN_DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_ZH_DAYS = "一二三四五六日"
# One weekday: "Monday(s)", "Tue.", "周三", "星期日", "礼拜天".
_DAY = (r"(?:\b(?:mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?|sat(?:urday)?"
        r"|sun(?:day)?)s?\b\.?|(?:周|星期|礼拜)[一二三四五六日天])")
_RANGE = re.compile(rf"(?P<first>{_DAY})\s*(?:to|through|thru|until|till|-|–|—|~|至|到)\s*(?P<last>{_DAY})", re.I)
_ONE_DAY = re.compile(_DAY, re.I)


def names_a_weekday(text: str) -> bool:
    """"Every Monday.", "周一。": a day of the week, a time that answers "When…?"."""
    return bool(_ONE_DAY.search(text))


# 每周二, 星期二, 礼拜天: the days 周二 and 周日 name (not 每周一次, once a week). jieba cuts 每周二 into 每周 / 二, so a
# reference and an answer that write one day two ways share no word for it until both write it one way.
_ZH_WEEKDAY = re.compile(r"(?:每个?)?(?:周|星期|礼拜)([一二三四五六日天])(?![次回遍趟个])")


def one_zh_weekday_form(text: str) -> str:
    return _ZH_WEEKDAY.sub(lambda m: "周" + m[1].replace("天", "日"), text)


# The weekend: days of the week too, for whether a place opens on them ("狗狗洗澡店周末开门吗？").
_WEEKEND = re.compile(r"\bweekends?\b|周末|双休日", re.I)


def speaks_of_opening_days(text: str) -> bool:
    """The text names a day of the week (or the weekend) and whether something is open or closed ("Is the studio open
    on Mondays?", "本馆每周一闭馆，周二至周日营业")."""
    return (names_a_weekday(text) or bool(_WEEKEND.search(text))) and bool(_OPEN.search(text) or _CLOSED.search(text))


# What says a place is open, or closed, on a day; a service runs on its days ("Appointments run Monday to Saturday"), and
# there is none on the others ("There are no regular appointments on Saturdays", 周六不出诊).
_OPEN = re.compile(r"\b(?:open(?:s|ed)?|opening hours|operates|available|runs?)\b|开放|营业|开门|开馆|办公|对外开放|开诊|接诊|出诊", re.I)
_CLOSED = re.compile(rf"\b(?:closed|shut|not open|does(?: not|n't) open|do(?: not|n't) open|no\s+(?:[a-z-]+\s+){{0,3}}?on(?=\s+{_DAY}))\b"
                     r"|闭(?:馆|园|店|站)|休馆|休息|店休|关门|停业|停诊|[不未](?:对外)?(?:开放|营业|开门|开馆|办公|开诊|接诊|出诊)", re.I)


# A closing word denied ("is not closed on Mondays", 周一不闭馆): the negation reads it (polarity.py), not the days.
_NOT_CLOSED = re.compile(r"\b(?:not|never|n't)\s+(?:be\s+)?(?:closed|shut)\b|[不没未](?:有)?(?:闭馆|休馆|休息|关门|停业|停诊)", re.I)


def _day(written: str) -> int:
    """0 for Monday … 6 for Sunday."""
    written = written.lower().strip(".")
    if written[-1] in "一二三四五六日天":
        return _ZH_DAYS.index(written[-1].replace("天", "日"))
    return _EN_DAYS.index(written[:3])


# "As usual" says how a place opens, not which place: 周一正常营业.
_AS_USUAL = re.compile(r"正常|照常|照样|\b(?:as usual|as normal|normally)\b", re.I)
# The days "every day" leaves out: "every day except Monday", "daily but Sundays", "除周一外".
_EXCEPT = re.compile(rf"\b(?:except|but|other than|apart from)\s+(?:on\s+)?{_DAY}(?:\s*(?:,|and|or)\s*{_DAY})*"
                     rf"|除(?:了)?{_DAY}(?:[、和及]{_DAY})*(?:[^，,。；;外]{{0,4}}?)(?:以?外|之外)", re.I)  # 除周一闭园外
# A sentence that holds every day holds the statement's too.
_EVERY_DAY = re.compile(r"\b(?:daily|every ?day|each day|(?:7|seven) days a week)\b|每天|每日|天天|全年无休", re.I)


def named_days(text: str) -> set[int]:
    """Every day a text names: one by one, inside a range ("周一至周日": all seven) or as every day ("daily")."""
    text = normalize(text)
    if _EVERY_DAY.search(text):  # but the days it excepts: "every day except Monday" names six
        return set(range(7)) - {_day(m.group(0)) for found in _EXCEPT.finditer(text) for m in _ONE_DAY.finditer(found.group(0))}
    days = {_day(m.group(0)) for m in _ONE_DAY.finditer(text)}
    for found in _RANGE.finditer(text):
        first, last = _day(found.group("first")), _day(found.group("last"))
        days |= {(first + i) % 7 for i in range((last - first) % 7 + 1)}
    return days


def other_weekday(answer: str, reference: str) -> str | None:
    """The answer names days of the week and the reference only others, both saying the same of them (closed, open,
    or neither: a bare day): "周三休息" for "每周二休息", "Wednesday." for "Tuesday."; "closed on Mondays" for "open
    Tuesday to Sunday" says one thing."""
    said, expected = named_days(answer), named_days(reference)
    if not said or not expected or said & expected or len(expected) == 7:
        return None
    sense = [(bool(_CLOSED.search(t)), bool(_OPEN.search(t))) for t in (answer, reference)]
    if sense[0] != sense[1]:
        return None
    return f"{_ONE_DAY.search(normalize(answer)).group(0)} for {_ONE_DAY.search(normalize(reference)).group(0)}"


# Clauses of a schedule sentence: "closed on Wednesdays and open every other day", "周日休息，周一至周六正常接诊".
_CLAUSE = re.compile(r"[,，;；]|\b(?:but|while|whereas)\b|但|而|\band\b(?=\s+(?:is\s+|are\s+)?open)", re.I)


# A day after a capitalised word is a holiday's ("closed on Good Friday, Easter Sunday and Christmas Day").
_HOLIDAY = re.compile(r"\w\s+[A-Z][a-z]+\s+$")


def open_days(sentence: str) -> tuple[set[int], str, bool] | None:
    """The days a schedule sentence opens, how it says so, and whether it says they are open: its range of weekdays in
    an opening clause ("Tuesday to Sunday": 1-6), or else every day but those its closing clauses name ("每周一闭馆，
    其余日期开放": 1-6, said open; "closed on Mondays": 1-6, not said); None for no schedule."""
    sentence = normalize(sentence)
    clauses = _CLAUSE.split(sentence)
    found = _RANGE.search(sentence)
    if found:
        clause = next((c for c in clauses if found.group(0) in c), sentence)
        opening = clause if _OPEN.search(clause) else sentence  # "open from 9 a.m. to 8 p.m., Tuesday to Saturday"
        if not _OPEN.search(opening) or _CLOSED.search(opening.replace(found.group(0), " ")):
            return None
        # A day another opening clause names opens too: "周一至周五8:00-21:00营业，周日10:00-18:00营业" opens on Sunday.
        also = [named_days(c) for c in clauses if found.group(0) not in c and _OPEN.search(c) and not _CLOSED.search(c)]
        return named_days(found.group(0)).union(*also), found.group(0), True
    closing = [m for c in clauses if _CLOSED.search(c) for m in _ONE_DAY.finditer(c) if not _HOLIDAY.search(c[:m.start()])]
    # Every day but the days it excepts: "open every day except Monday", "除周一外每天营业".
    excepted = [m for found in _EXCEPT.finditer(sentence) for m in _ONE_DAY.finditer(found.group(0))]
    if excepted and not closing:
        return set(range(7)) - {_day(m.group(0)) for m in excepted}, ", ".join(m.group(0) for m in excepted), True
    # Every day in an opening clause, beside a closing day, opens the other days ("营业时间为每天10:00-20:00，每周三店休");
    # in a closing clause it is a daily break ("每天12:00-13:00休息").
    if not closing or any(_EVERY_DAY.search(c) for c in clauses if _CLOSED.search(c)):
        return None
    shown = ", ".join(m.group(0) for m in closing)
    closed = {_day(m.group(0)) for m in closing}
    return set(range(7)) - closed, shown, any(_OPEN.search(c) and not _CLOSED.search(c) for c in clauses)


def _said(statement: str) -> tuple[set[int], bool] | None:
    """The days a statement names, one by one or as one range ("open Monday to Friday"), and whether it says the place
    is open on them. A range beside other days ("周二至周日营业，周一闭馆") is a schedule of its own: None."""
    statement = normalize(statement)
    if _RANGE.search(statement) and len(_ONE_DAY.findall(statement)) > 2:
        return None
    days = named_days(statement)
    # The closing word of its exception ("除周一闭园外，每天开放") closes no day the statement names.
    unexcepted = _EXCEPT.sub(" ", statement)
    closed, opened = bool(_CLOSED.search(unexcepted)), bool(_OPEN.search(unexcepted))
    if not days or closed == opened and not closed or _NOT_CLOSED.search(statement):
        return None
    return days, not closed


# A negation particle belongs to the closing word jieba cut it from (不营业 as 不 / 营业), not to the subject.
_NEGATION_WORD = re.compile(r"[不没未]|没有")
# A Chinese time of day or span of hours ("晚上7点到8点", "9:00-17:00"): when, like the day, not what.
_ZH_HOUR = r"(?:\d{1,2}|[零一二两三四五六七八九十]{1,3})点(?:半|\d{1,2}分?)?|\d{1,2}[:：]\d{2}"
_ZH_CLOCK_SPAN = re.compile(rf"(?:{DAY_PART})?\s*(?:{_ZH_HOUR})(?:\s*(?:到|至|-|—|~|～)\s*(?:{DAY_PART})?\s*(?:{_ZH_HOUR}))?")


def _schedule(statement: str, question: str, sentences: list[str]) -> tuple[set[int], bool, tuple[set[int], str, bool], str] | None:
    """The statement's days and state, and the open days of the evidence sentence on its subject (a word of the
    statement or its question that is no day or schedule word)."""
    said = _said(statement)
    if said is None:
        return None
    # jieba cuts 每周一 into 每周 / 一: no day word left to drop; "as usual" says nothing of the subject (周一正常营业)
    statement = _AS_USUAL.sub("", one_zh_weekday_form(statement))
    topic = [t for t in words(f"{statement} {question}") if not any(p.fullmatch(t) for p in (_ONE_DAY, _OPEN, _CLOSED, _NEGATION_WORD))]
    schedules = [(sentence, days) for sentence in sentences if (days := open_days(sentence)) is not None]
    for sentence, days in schedules:
        if any(found_in(t, words(sentence)) for t in topic):
            return (*said, days, sentence)
    # A bare answer names no subject ("每周二闭馆。"), or the question's ("The shop is closed on Sundays" for "Which day
    # is the watch shop closed?"): it speaks of the evidence's one schedule, whatever that calls the place ("We are…").
    asked = words(question)
    if len(schedules) == 1 and not [t for t in words(statement) if not any(p.fullmatch(t) for p in (_ONE_DAY, _OPEN, _CLOSED, _NEGATION_WORD))
                                    and not found_in(t, asked)]:
        return (*said, schedules[0][1], schedules[0][0])
    return None


# A subject the statement leaves to the question: "It's held on Sundays." to "When is the Knife Skills class?".
_PRONOUN_SUBJECT = re.compile(r"^\s*(?:it|it's|it’s|they|they're|they’re|this|these)\b|^\s*(?:它|它们)", re.I)


def _other_day(statement: str, sentences: list[str], question: str = "") -> tuple[str, str, str, str] | None:
    """Days the statement gives something ("集市每周三举行", "The clinic is closed on Thursdays"), where an evidence
    sentence on the same subject (it holds half the statement's other words, at most four, and the question's where the
    statement's subject is a pronoun) gives it other days and none on that subject gives these: ("date", the
    statement's days, the sentence's, the sentence). A sentence that denies ("It does not run on Sundays") gives none."""
    statement = normalize(statement)
    days = {_day(m.group(0)) for m in _ONE_DAY.finditer(statement)}
    if not days or _RANGE.search(statement) or negated(statement):
        return None
    # "1 p.m.", "晚上7点到8点" are no topic words
    topic = list(dict.fromkeys(words(_ZH_CLOCK_SPAN.sub(" ", EN_CLOCK_TIME.sub(" ", _ONE_DAY.sub(" ", statement))))))
    if len(topic) > 4:
        return None  # a schedule says when a thing happens in a few words; a long sentence's day may be its report's
    if _PRONOUN_SUBJECT.match(statement) and question:
        topic = list(dict.fromkeys([*topic, *words(_ONE_DAY.sub(" ", normalize(question)))]))
        sentences = [s for s in sentences if not negated(s)]
    needed = max(1, (len(topic) + 1) // 2)
    on_topic = [s for s in map(normalize, sentences) if sum(found_in(t, words(_ONE_DAY.sub(" ", s))) for t in topic) >= needed]
    named = [(s, {_day(m.group(0)) for m in _ONE_DAY.finditer(s)}) for s in on_topic]
    if not topic or any(days & theirs or _EVERY_DAY.search(s) or _RANGE.search(s) for s, theirs in named):
        return None
    other = next(((s, theirs) for s, theirs in named if theirs), None)
    if other is None:
        return None
    shown = lambda text: ", ".join(m.group(0).rstrip(".") for m in _ONE_DAY.finditer(text))  # noqa: E731
    return "date", shown(statement), shown(other[0]), other[0]


def weekday_reading(statement: str, question: str, sentences: list[str]) -> tuple[str, str, str, str] | bool | None:
    """Open on a day the evidence's schedule leaves out, or closed on one it holds: the contradiction ("bound", the
    statement's days, the range or closing days, the sentence); closed on a day it leaves out ("周一闭馆" / "周二至周日
    开放"), or open on one it says is open: True. The schedule is a range of open days or the days it closes
    ("博物馆周二不开放" against "每周一闭馆，其余日期开放" is the contradiction). Without one, other days the evidence
    gives the same thing (``_other_day``): the contradiction. None where no sentence on the statement's subject speaks
    to its days."""
    found = _schedule(statement, question, sentences)
    if found is None:
        return _other_day(statement, sentences, question)
    days, opened, (open_on, shown, said_open), sentence = found
    # "Every day" with no day named repeats the schedule's own "every day" beside its closing day ("每天8:00至17:00开放" /
    # "墓园每天8:00至17:00开放，周一闭园维护"): the hours, not a day the schedule leaves out.
    # Not a schedule's "every day except Tuesday": there "every day" leaves the day out (it drops the exception).
    if opened and not _ONE_DAY.search(normalize(statement)) and _EVERY_DAY.search(normalize(sentence)) \
            and not _EXCEPT.search(normalize(sentence)):
        return None
    if (days <= open_on) if opened else not days & open_on:
        return True if said_open or not opened else None  # "closed on Mondays" alone says nothing of Tuesdays
    # Closed on another day than the evidence's closing day reads as the other day it gives the same thing.
    return _other_day(statement, sentences, question) or ("bound", _days_as_written(statement), shown, sentence)


def _days_as_written(statement: str) -> str:
    """The days as the statement writes them: its range ("Monday to Friday"), "daily", or its days one by one."""
    found = _RANGE.search(statement) or _EVERY_DAY.search(statement)
    return found.group(0).rstrip(".") if found else ", ".join(m.group(0).rstrip(".") for m in _ONE_DAY.finditer(statement))


# A day with its "every" (每周一, 每个星期二) or its "this / next / last" (本周一, 下周二: one date, no schedule).
_ZH_DAY_AS_WRITTEN = re.compile(r"(?P<before>每个?|[本上下这])?(?P<day>(?:周|星期|礼拜)[一二三四五六日天])")


# The days 工作日 names, as the evidence may spell them out ("周一至周五"). (周末 as "周六和周日" is left: it would align
# 周末不开诊 with "周六和周日休息", and 不开诊 / 休息 are no antonym pair the verifier reads.)
_WORKDAYS = re.compile(r"(?:周|星期|礼拜)一\s*(?:至|到|-|—|~|～)\s*(?:周|星期|礼拜)?五")


def as_evidence_spells(statement: str, evidence: str) -> str:
    """A Chinese weekday written as the evidence spells the same day: "星期二" as the evidence's "周二", "礼拜天"
    as its "周日" (one day, three spellings; another day stays as written, a claim of its own), "每个星期二" as its
    "每周二" and "每周一" as its schedule's "周一" (not its "本周一", one date); 工作日 as its "周一至周五" (not 非工作日)."""
    workdays = _WORKDAYS.search(evidence)
    if workdays and "工作日" not in evidence:
        statement = re.sub(r"(?<!非)工作日", workdays.group(0), statement)
    theirs = {}
    for found in _ZH_DAY_AS_WRITTEN.finditer(evidence):
        theirs.setdefault(_day(found.group("day")), (found.group("before") or "", found.group("day")))

    def spelled(match: re.Match) -> str:
        before, day = match.group("before") or "", match.group("day")
        their_before, their_day = theirs.get(_day(day), (None, day))
        # A schedule's day is every such day, with or without 每: "每周一闭站" says the evidence's "周一闭站".
        if before.startswith("每") and their_before in ("", "每"):
            before = their_before
        return before + their_day

    return _ZH_DAY_AS_WRITTEN.sub(spelled, statement) if theirs else statement
