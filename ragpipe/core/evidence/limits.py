"""Limits the evidence sets on a value, against a statement that sets others: a floor for a ceiling
("at least 3.5%" / "caps … at 3.5%"), no bound for a ceiling ("unlimited" / "最多一次"), a day off for
every day ("周一店休" / "每天营业"), and the ends of a range ("open from 10 a.m. to 5 p.m." / "closes at 5 p.m.")."""

from __future__ import annotations

import re

from ragpipe.core.evidence.agreement import found_in, words
from ragpipe.core.evidence.facts import bounds, capped, day_off, days_at, every_day, facts, negated
from ragpipe.core.evidence.polarity import aligned_with, overlap, pronoun
from ragpipe.core.evidence.quantities import quantities
from ragpipe.core.text import numbers


def bounded_alike(statement: str, text: str) -> bool:
    """Every number of the statement stands in the text, bounded by the same kind of word or by none ("within 24
    hours" in both; "under 18" against "under 18")."""
    stated = numbers(statement)
    return stated <= numbers(text) and bounds(statement) == {v: b for v, b in bounds(text).items() if v in stated}


def bound_conflict(statement: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """A bound the evidence opposes: a floor for a ceiling, none for a ceiling, a day off for every day: the
    kind ("bound"), what the statement says, what the evidence says, the sentence."""
    return _floor_for_ceiling(statement, sentences) or _unbounded(statement, sentences) or _off_every_day(statement, sentences)


def _floor_for_ceiling(statement: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """A value the statement makes a floor where every evidence sentence that states it and
    shares a word with the statement makes it a ceiling, or the other way round: "The federal
    government caps down payments at 3.5%" against "a down payment as low as 3.5%"."""
    stated = bounds(statement)
    statement_terms = [t for t in words(statement) if not facts(t).numbers]
    for value, kinds in stated.items():
        if len(kinds) != 1:
            continue
        # A range's end bounds the span between its ends, not the statement's value: "players aged 10 to 17 need
        # consent" neither bears out nor opposes "under 10"; the sentences beside it decide.
        theirs = [(bounds(s).get(value, set()), s) for i, s in enumerate(sentences)
                  if value in facts(s).numbers and any(found_in(t, words(s)) for t in statement_terms)
                  and not _range_end(value, s) and not _other_side(statement, " ".join(sentences[i:i + 2]))]
        if theirs and all(other and kinds.isdisjoint(other) for other, _ in theirs):
            shown = f"{value:g}"
            return "bound", f"{next(iter(kinds))} {shown}", f"{next(iter(theirs[0][0]))} {shown}", theirs[0][1]
    return None


# What holds past a bound, said after it: "满300元可免收服务费；否则收取服务费15元", "…; otherwise shipping is $5".
_OTHERWISE = re.compile(r"否则|不然|\botherwise\b|\bif not\b", re.I)


def _other_side(statement: str, sentence: str) -> bool:
    """The sentence (with the next) says what holds on both sides of its bound, and the statement speaks of the side past it (a word
    or value only that side has: "不满300元要收15元服务费"), which the opposite bound fits."""
    found = _OTHERWISE.search(sentence)  # in the sentence or the next one ("…满300元…。否则…")
    if not found:
        return False
    before, after = sentence[:found.start()], sentence[found.end():]
    past = [w for w in words(after) if not found_in(w, words(before))]
    values = (facts(after).numbers - facts(before).numbers) & facts(statement).numbers
    return bool(values) or any(found_in(t, past) or (not t.isascii() and t in w) for t in words(statement) for w in past)


def _range_end(value: float, sentence: str) -> bool:
    """The sentence writes the value as an end of a range of numbers ("aged 10 to 17", "10-17岁", "5至10人")."""
    shown = re.escape(f"{value:g}")
    return bool(re.search(rf"(?<![\d.]){shown}\s*(?:to|-|–|~|～|至|到)\s*\d|\d\s*(?:to|-|–|~|～|至|到)\s*{shown}(?![\d.])",
                          sentence))


# No bound at all: "unlimited", "no limit", "无限次", "不设上限".
_UNBOUNDED = re.compile(r"\b(?:an\s+)?unlimited(?:\s+number\s+of)?\b|\bno (?:upper )?limits?\b"
                        r"|\bwithout (?:any )?limits?\b|\bany number of\b|无限|不限|(?:没有|无|不设)(?:任何)?(?:上限|限制)|不受限制", re.I)


def _unbounded(statement: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """A statement that sets no bound ("can be retaken unlimited times", "图书可以无限次续借") against
    the sentence that speaks of the same thing with a ceiling ("no more than twice", "最多只能续借一次")."""
    found = _UNBOUNDED.search(statement)
    if not found:
        return None
    frame = [t for t in dict.fromkeys(words(_UNBOUNDED.sub(" ", statement))) if not facts(t).numbers]
    for i in aligned_with(frame, sentences, [words(s) for s in sentences]):
        ceiling = capped(sentences[i])
        if ceiling and not _UNBOUNDED.search(sentences[i]):
            return "bound", found.group(0).strip(), ceiling, sentences[i]
    return None


def _off_every_day(statement: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """A day off ("周一店休") against a sentence on the same schedule held every day, no exception named ("每天…营业")."""
    off = day_off(statement)
    frame = [t for t in dict.fromkeys(words(statement.replace(off, " "))) if not pronoun(t)] if off else []
    for s in sentences:  # its subject and another word at least: a schedule is worded many ways (早上 / 上午, 开门 / 营业)
        if overlap(frame, words(s)) >= 2 and every_day(s) and not day_off(s) and not re.search(r"除|except|but|closed|休", s):
            return "bound", off, every_day(s), s
    return None


# What a statement says starts or ends at a time or on a day: "opens at 10 a.m.", "ends on April 30", "下午5点闭馆".
_STARTS = re.compile(r"\b(?:open(?:s|ed|ing)|begin(?:s|ning)?|began|start(?:s|ed|ing)?|commence[sd]?)\b"
                     r"|\b(?:will|to|doors)\s+(?:open|begin|start)\b|开门|开放|开馆|开园|开始|开业|开幕|开课|开市|营业", re.I)
_ENDS = re.compile(r"\b(?:clos(?:es|ed|ing)|end(?:s|ed)|finish(?:es|ed)?|conclude[sd]?|shuts?)\b|\b(?:will|to|doors)\s+(?:close|end)\b"
                   r"|关门|闭馆|关闭|结束|截止|打烊|闭园|闭幕|停止|下班|收市", re.I)
# What a closure says: "closed until 6 a.m.", "每天12:00-13:00闭馆午休".
_CLOSED = re.compile(r"\bclosed\b|闭馆|闭园|关闭|休息|午休|停业|暂停", re.I)
# Open as a state ("is open", "are open daily"): a range beside it is the opening's, whatever else the clause closes.
_OPEN = re.compile(r"\b(?:is|are|stays?|remains?)\s+open\b", re.I)
# A word right before a time that makes it one end: "from 10 a.m.", "open until 5 p.m.", "营业到晚上10点", "截至6月30日".
_FROM = re.compile(r"(?:\b(?:from|since)|从|自)\s*$", re.I)
_UNTIL = re.compile(r"(?:\b(?:until|till|through|to)|截至|截止(?:到|至)?|直到|到|至)\s*$", re.I)
# What stands between the two ends of a range: "10 a.m. to 5 p.m.", "8:30–19:00", "上午9点至下午5点", "between … and …".
_TO = re.compile(r"\s*(?:to|until|till|through|thru|-|–|—|~|～|至|到)\s*$|\s*and\s*$", re.I)
# A time the statement puts before or after it is no end: "closes before 6 p.m.", "下午5点以后关门".
_AROUND = re.compile(r"\b(?:before|after|by|around|about)\s*$|^\s*(?:以前|之前|以后|之后|前|后|左右)")


def _points(text: str) -> list[tuple[int, int, tuple]]:
    """The times of day and the days of a month the text states, in order: (start, end, value)."""
    clock = [(q.start, q.end, ("clock", q.amount)) for q in quantities(text) if q.dimension == "clock"]
    return sorted(clock + [(a, b, ("day", day)) for a, b, day in days_at(text)])


def _ranges(sentence: str) -> list[tuple[tuple | None, tuple | None, str]]:
    """The ranges the sentence states: (first, last, as written), both ends of one kind ("until 5 p.m.": no first,
    "from 6 a.m.": no last)."""
    points, found, paired = _points(sentence), [], set()
    for (a, b, first), (c, d, last) in zip(points, points[1:]):
        between = _TO.match(sentence[b:c])
        if first[0] == last[0] and between and (between.group(0).strip() != "and" or re.search(r"\bbetween\s*$", sentence[:a])):
            found.append((first, last, sentence[a:d]))
            paired.update((a, c))
    # One end in each clause: "从12月1日开始，截止到12月31日", "open from 6 a.m."
    found += [(value, None, sentence[a:b]) if _FROM.search(sentence[:a]) else (None, value, sentence[a:b])
              for a, b, value in points if a not in paired and (_FROM.search(sentence[:a]) or _UNTIL.search(sentence[:a]))]
    found += _verb_marked(sentence, points, paired)
    # A closure's range is the opening's turned round: "closed until 6 a.m." opens at 6, "12:00-13:00闭馆" closes at 12.
    return [(last, first, written) if _closure(sentence, written) else (first, last, written) for first, last, written in found]


# Two times each marked by its verb, the second clause of the same subject: "opens at 8 a.m. and closes at 9 p.m.",
# "早上8点开门，晚上9点关门".
_EN_OPENS_AT = re.compile(r"\b(?:opens|starts|begins)\s+at\s*$", re.I)
_EN_THEN_CLOSES_AT = re.compile(r"^\s*,?\s*(?:and\s+)?(?:closes|ends|finishes)\s+at\s*$", re.I)
_ZH_OPENS_THEN = re.compile(r"^(?:开门|开始营业|开始|开馆|开放)[，,、]?$")
_ZH_CLOSES = re.compile(r"^(?:关门|结束|打烊|闭馆|停止营业)")


def _verb_marked(sentence: str, points: list, paired: set) -> list[tuple[tuple, tuple, str]]:
    found = []
    for (a, b, first), (c, d, last) in zip(points, points[1:]):
        if a in paired or c in paired or first[0] != last[0]:
            continue
        between = sentence[b:c]
        if (_EN_OPENS_AT.search(sentence[:a]) and _EN_THEN_CLOSES_AT.match(between)
                or _ZH_OPENS_THEN.match(between) and _ZH_CLOSES.match(sentence[d:])):
            found.append((first, last, sentence[a:d]))
    return found


def _closure(sentence: str, written: str) -> bool:
    clause = next((c for c in re.split(r"[,;，；。]", sentence) if written in c), sentence)
    # "is open … from 10 a.m. to 7 p.m. and is closed on Mondays": the range is the opening's, the closure a day's.
    return bool(_CLOSED.search(clause)) and not _STARTS.search(clause) and not _OPEN.search(clause)


def range_confirms(statement: str, question: str, sentences: list[str]) -> bool:
    """The statement's time is the end it names of the range the evidence sets: "closes at 5 p.m." and "博物馆上午9点开门"
    say what "Opening hours: 9:00-17:00" says. The question's words are the topic, which a timetable need not repeat."""
    return range_ends(statement, sentences, given=words(question)) == ()


def range_ends(statement: str, sentences: list[str], given: tuple[str, ...] = ()) -> tuple[str, str, str, str] | tuple[()] | None:
    """A statement that says when something starts or ends, against the range that the evidence sentence speaking of
    it sets: () where the time is the range's end of that kind ("closes at 5 p.m." / "open 10 a.m. to 5 p.m."); a
    contradiction ("range", what it says, the range, the sentence) where it is the other end ("closes at 10 a.m."), or
    neither and the evidence states it nowhere; None where the statement says no such thing or no range speaks of it."""
    points = _points(statement)
    if len(points) != 1 or negated(statement):
        return None
    at, until, value = points[0]
    if _AROUND.search(statement[:at]) or _AROUND.match(statement[until:]):
        return None
    starts, ends = _STARTS.search(statement), _ENDS.search(statement)
    end = 0 if _FROM.search(statement[:at]) else 1 if _UNTIL.search(statement[:at]) else None
    if end is None and bool(starts) != bool(ends):
        end = 0 if starts else 1
    if end is None:
        return None
    # "until", "from" mark the end: no word of what the statement speaks of.
    before = _FROM.sub(" ", _UNTIL.sub(" ", statement[:at]))
    frame = [t for t in dict.fromkeys(words(_ENDS.sub(" ", _STARTS.sub(" ", before + " " + statement[until:]))))
             if not pronoun(t) and not found_in(t, given)]
    held = [(s, r) for s in sentences for r in _ranges(s) if (r[0] or r[1])[0] == value[0]]
    if frame:
        aligned = aligned_with(frame, [s for s, _ in held], [words(s) for s, _ in held])
        held = [held[i] for i in aligned]
    if not held or any(r[end] == value for _, r in held):
        return () if held else None
    wrong = [(s, r) for s, r in held if r[1 - end] == value]
    told = [(s, r) for s, r in held if r[end] is not None]
    # A time stated elsewhere counts where that sentence speaks of the statement's subject too: breakfast "until
    # 11 a.m." is not borne out by "check-out is by 11 a.m." beside "Breakfast is served from 7 to 10 a.m.".
    speaking = [sentences[i] for i in aligned_with(frame, sentences, [words(s) for s in sentences])] if frame else sentences
    if not wrong and (not told or any(value in [p for *_, p in _points(s)] for s in speaking)):
        return None  # the evidence states the time elsewhere, or not the end the statement names
    sentence, (_, _, written) = (wrong or told)[0]
    said = (starts or ends).group(0) if (starts or ends) else ""
    return "range", f"{said} {statement[at:until]}".strip(), written, sentence
