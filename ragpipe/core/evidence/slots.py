"""Slot swaps: the evidence sentence that speaks of what a statement speaks of (it holds the
statement's other words, or the same words around the slot) says another name, number or date in
the statement's place. contradiction.py weighs these with the other kinds of contradiction.
"""

from __future__ import annotations

import re

from ragpipe.core.evidence.agreement import found_in, name_in, shares_word, words
from ragpipe.core.evidence.counts import lone_one, ordinals_counted
from ragpipe.core.evidence.facts import (PLACE_TITLE, TIMES, TIMES_VALUE, VALUE_CLAUSE, common_word, counted, facts,
                                         fold, negated)
from ragpipe.core.evidence.polarity import aligned_with, clauses_of, overlap, pronoun
from ragpipe.core.evidence.quantities import written_numbers
from ragpipe.core.evidence.same_names import TITLE, one_name, one_person
from ragpipe.core.synonyms import as_evidence_words, interchangeable
from ragpipe.core.text import is_chinese, jieba_ready, number_mentions, numbers

# A statement echoes an evidence clause that holds this share of its words besides names and numbers.
ECHO = 0.3
# List numbers and pointers ("3  Cook the…", "(step 5)", "Method 1") are no facts.
_UNNUMBERED = re.compile(r"^\s*\d{1,2}[.)]?\s+|\b(?:steps?|passages?|documents?|methods?|options?|parts?|sections?)\s*#?"
                         r"\d{1,2}\b|(?:步骤|第)\s*\d{1,2}\s*步?", re.I)


_NO_FACTS = facts("")
# A hedge says how exact a number is, nothing of its slot: "航程大约45分钟" echoes "航程约25分钟".
_HEDGE = re.compile(r"约为?|大约|大概|左右|上下|差不多|将近|接近|approximately|about|around|roughly|nearly|almost", re.I)
# A title before a name makes it a person's, though its words are in the dictionary ("Professor Li Ming", "Dr. Sun").
_EN_PERSON_TITLES = r"(?:dr|mr|mrs|ms|prof|professor|dean|judge|president|director|sir|vice|principal|nurse|coach|captain|officer)"
_PERSON_TITLE = re.compile(rf"\b{_EN_PERSON_TITLES}\.?\s+$")
# "and" before a capitalised name and a verb opens a clause with its own subject.
_AND_SUBJECT = re.compile(rf"\s+(?=and\s+(?:(?i:{_EN_PERSON_TITLES})\.?\s+)*[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*\s+[a-z]+(?:s|ed)\b)")


def slot_conflict(statement: str, sentences: list[str], sentence_terms) -> tuple[str, str, str, str] | None:
    """A name, number or date of the statement that no aligned sentence states, where an
    aligned sentence states another of its kind that the statement does not."""
    statement = _UNNUMBERED.sub(" ", statement)
    said = facts(statement)
    # A Chinese pronoun ("这家公司" / "该公司") points at what the evidence names: no word to align.
    statement_terms = [t for t in dict.fromkeys(words(statement)) if not pronoun(t)]
    # A name's slot is held by the same verb or its synonym ("acquired by" / "bought by"); a number's
    # is not: "3.2版新增了深色模式" does not speak of the 40% of "新版本加入深色模式，启动时间缩短约40%".
    # A Chinese word a sentence writes as it is is the sentence's, though its words cut it into a longer one
    # elsewhere (会议 of "这次会议由刘洋主持，张伟负责会议记录", where words() keeps 会议记录 only).
    sentence_terms = [tuple(ts) + tuple(t for t in statement_terms if not t.isascii() and t in s and t not in ts)
                      for ts, s in zip(sentence_terms, sentences)]
    read_terms = read_as_evidence(statement_terms, sentence_terms)
    # English number words are too often no number ("one of", "three horizontal lines" beside "2"):
    # only digits, Chinese numerals and a number word that counts a unit ("five-year") are slots.
    stated_numbers = said.numbers if is_chinese(statement) else said.numbers & (numbers(statement) | counted(statement))
    if lone_one(statement, " ".join(sentences)):
        stated_numbers = stated_numbers - {1.0}
    stated_numbers = stated_numbers - ordinals_counted(statement, " ".join(sentences))
    sentences = [_UNNUMBERED.sub(" ", s) for s in sentences]
    # A name of dictionary words ("Brazil", "Berlin Philharmonic") is a slot too, but only a proper name
    # between the same words takes its place (_in_its_place): "Open Control Panel" names a button.
    # A name's frame leaves out the statement's numbers, which are slots of their own: "Mars has two
    # moons" speaks of what "Jupiter has dozens of moons" speaks of.
    slots = [("name", n, _name_terms(n, statement, statement_terms) | {t for t in statement_terms if facts(t).numbers})
             for n in said.names]
    slots += [("number", v, set()) for v in stated_numbers] + [("year", y, set()) for y in said.years]
    slots += [("month", m, set(_month_words(statement))) for m in said.months]
    for kind, value, own_terms in slots:
        frame = [t for t in (read_terms if kind == "name" else statement_terms) if t not in own_terms]
        # A month the evidence states nowhere needs no echoed predicate: "starts on May 1" against
        # "lasts 6 months from March 1" says another date of the same subject, whatever the verb.
        # (A year the evidence lacks is a number it lacks already.)
        unstated_month = kind == "month" and not any(alternative(kind, value, _NO_FACTS, facts(s), s) is None
                                                     for s in sentences)
        aligned = [i for i in aligned_with(frame, sentences, sentence_terms) if unstated_month or _echoes(sentences[i], frame)
                   or (kind == "name" and (_name_in_its_place(value, statement, said, sentences[i])
                                           or _slot_name(value, statement, said, sentences[i], sentences)))]
        if unstated_month and not aligned:
            aligned = _dated_alike(frame, sentences, sentence_terms)
        if aligned and _stated_close_by(kind, value, frame, sentences, sentence_terms, aligned):
            continue
        for i in aligned if kind == "name" else []:
            other = _slot_name(value, statement, said, sentences[i], sentences)
            if other and not one_person(value, other, sentences):
                shown = as_written(other, sentences[i])
                return "name", as_written(value, statement), shown, sentences[i]
        found = [(alternative(kind, value, said, facts(sentences[i]), sentences[i]), i) for i in aligned]
        if kind != "name":  # names in one sentence are mostly a list ("by Jobs, Wozniak and Wayne")
            found = [(_closer_alternative(kind, value, said, frame, sentences[i]) if other is None else other, i)
                     for other, i in found]
        else:  # but not where their clauses differ ("…led by Wang Fang; Li Ming helped with…")
            found = [(_attached_elsewhere(value, said, frame, sentences[i]) if other is None else other, i)
                     for other, i in found]
        if any(other is None for other, _ in found):
            continue  # an aligned sentence states it
        if kind == "name":
            found = [(_frames_name(value, other, said, frame, sentences[i]) if other else
                      _name_in_its_place(value, statement, said, sentences[i]), i) for other, i in found]
        if kind == "name" and not (proper(value) or TITLE.match(value) or _PERSON_TITLE.search(fold(statement).split(value)[0])):
            found = [(other, i) for other, i in found if not other or _in_its_place(value, statement, other, sentences[i])]
        for other, i in found:
            if other and not (kind == "name" and one_person(value, other, sentences)):
                return ("date" if kind in ("year", "month") else kind, as_written(show(kind, value), statement),
                        as_written(other, sentences[i]), sentences[i])
    return None


def _name_terms(name: str, statement: str, statement_terms: list[str]) -> set[str]:
    """The name's words, and the words jieba cuts across it where the statement writes it: 由王 of "由王校长致辞", 刘 and
    总 of 刘总 (a name facts reads whole, words() in pieces); such a word is the name's, no part of its frame."""
    text = fold(statement)
    at = text.find(name)
    if at < 0 or name.isascii():
        return set(words(name))
    cut = {w for w, start, end in jieba_ready().tokenize(text) if start < at + len(name) and at < end}
    return set(words(name)) | (cut & set(statement_terms))


def read_as_evidence(terms: list[str], sentence_terms) -> list[str]:
    """The statement's words, each the evidence lacks read as the word it has that a reader takes it for
    (synonyms.as_evidence_words: "acquired" / "bought", 最高 / 最高峰): a synonym keeps a name's slot aligned."""
    held = {t for ts in sentence_terms for t in ts}
    return list(as_evidence_words(tuple(terms), held, [t for t in held if len(t) >= 2 and not t.isascii()]))


def _dated_alike(frame: list[str], sentences: list[str], sentence_terms) -> list[int]:
    """For a month the evidence states nowhere, the sentences stating a month that hold the most of the
    statement's other words, one at least: "Applications close on 15 June" speaks of the date of "The
    deadline for applications is 15 July", though its verb is another. The date the statement gives is
    unsupported anyway; the sentence says which date the evidence gives instead."""
    dated = {i: overlap(frame, sentence_terms[i]) for i, s in enumerate(sentences) if facts(s).months}
    best = max(dated.values(), default=0)
    return [i for i, held in dated.items() if best and held == best]


def _frames_name(value: str, other: str, said, frame: list[str], sentence: str) -> str:
    """Of the sentence's other proper names, the one in the clause that holds most of the statement's
    words: "张择端" of "…画家张择端所作，现藏于北京故宫博物院", not the museum."""
    names = [n for n in facts(sentence).names if proper(n) and not name_in(n, said.names) and not one_name(n, value)]
    held = {n: max((overlap(frame, words(c)) for c in clauses_of(sentence) if n in fold(c)), default=-1) for n in names}
    return max(names, key=lambda n: held[n]) if names else other


def _attached_elsewhere(value: str, said, frame: list[str], sentence: str) -> str | None:
    """The other proper name of a Chinese sentence's clause that holds the statement's words (enough to speak of
    it, and more than the clause naming the value does): "公司总部位于苏州，在杭州设有分公司" puts 杭州 in the
    slot of a branch, 苏州 in that of the headquarters. None where there is none: the sentence states the value."""
    parts, value = clauses_of(sentence), TITLE.sub("", value)  # "Dr. Yang Fan" is named "Yang Fan" there
    if not is_chinese(sentence):  # "Coach Rivera teaches yoga and Coach Lin teaches boxing": two clauses, no comma
        parts = [p for c in parts for p in _AND_SUBJECT.split(c)]
    mine = max((overlap(frame, words(c)) for c in parts if value in fold(c)), default=None)
    # English: only a name that is its clause's subject, its titles before it, has a predicate of its own ("; Li Ming
    # helped with…", "Professor Adams teaches physics, and …"); after "and" a word must follow ("…, and Principal Ward
    # closed the ceremony"), or the name ends a list ("by Jobs, Wozniak, and Ronald Wayne, to sell…").
    subject = rf"\W*(?:{_EN_PERSON_TITLES}\.?\s+)*{re.escape(value)}\b|\W*(?:and|but|while|whereas)\s+(?:{_EN_PERSON_TITLES}\.?\s+)*{re.escape(value)}\s+[a-z]"
    if mine is None or not is_chinese(sentence) and not any(re.match(subject, fold(c)) for c in parts):
        return None
    for clause in parts:
        held = overlap(frame, words(clause))
        if value not in fold(clause) and held > mine and held >= max(2, 0.6 * len(frame)):
            # A title makes a name of dictionary words a person's ("Coach Patel").
            others = [n for n in facts(clause).names if (proper(n) or re.match(rf"{_EN_PERSON_TITLES}\.?\s+\w", n))
                      and not name_in(n, said.names) and not one_name(n, value)]
            if others:
                return others[0]
    return None


def proper(name: str) -> bool:
    """A name that is not one or two dictionary words: "Canberra", "Charles Dickens", "李四",
    "Federal Housing Administration", "Department of Veterans Affairs", a place with its title
    ("Mount Fuji"); not a button or a heading in title case ("Apply", "Control Panel")."""
    parts = name.split()
    return (not name.isascii() or bool(PLACE_TITLE.match(name)) or not all(common_word(w) for w in parts)
            or len(parts) >= 3 or any(w in ("of", "for", "and", "de") for w in parts))


def _name_in_its_place(name: str, statement: str, said, sentence: str) -> str:
    """A name of dictionary words after the same two words as the statement's name ("Tern is written
    in Go" / "…is written in Rust and compiles…"), or between the same two as a proper one ("The Loire flows"
    / "The Seine flows"), or "": such a name is another only in the same place, and the place ties the sentence to the
    statement where a short statement echoes too little of it."""
    return next((n for n in facts(sentence).names if not proper(n) and not name_in(n, said.names) and not one_name(n, name)
                 and (_in_its_place(name, statement, n, sentence, before=2) or proper(name) and _in_its_place(name, statement, n, sentence, 1, True))), "")


# The preposition that puts a name in its slot, and what may follow a name that fills it: "in Hamburg,",
# "by Ana Torres", "in Killeen"; not "on the Web browser", "in the Nom field" (the name is a modifier there).
_SLOT = r"\b(in|to|by|at|from|on)\s+(?:the\s+)?"
_FILLED = r"(?=\s*(?:$|[,;.!?)]|\b(?:in|at|on|from|to|by|with|for|during|since|until|when|where|which|who)\b))"


def _slot_name(value: str, statement: str, said, sentence: str, sentences: list[str]) -> str:
    """The proper name an English sentence puts in the slot of a statement's only name: after the same
    preposition, in a clause that holds the statement's last word before it ("The headquarters are in
    Munich" / "The company's headquarters are located in Hamburg"; "the capital moved to Gdańsk" /
    "…moved the royal court to Warsaw"); "" when there is none, or an evidence sentence names the
    value in the slot or other than in a role of its own ("…, with a branch office in Munich", "…by Ana
    Torres, whose sister Maria Lopez…": the name of a list, "in Hamburg and Munich", is in the slot too)."""
    mine = not is_chinese(statement) and said.names == (value,) and proper(value) and re.search(
        rf"([^,;:]*?){_SLOT}{re.escape(value)}{_FILLED}", fold(statement))
    before = mine and words(mine.group(1))
    if not before:
        return ""
    slot = (mine.group(2), before[-1])
    if any(_names_in_place(value, slot, statement, fold(s)) for s in sentences):
        return ""
    # The agent of a passive ("acquired by", "written by") is whoever did it: a capitalised word there names
    # them, though it is a dictionary word ("Oracle", "Apple"); after another preposition it may name a button.
    return next((n for n in facts(sentence).names if (proper(n) or slot[0] == "by") and not one_name(n, value)
                 and _in_slot(n, slot, fold(sentence))), "")


def _in_slot(name: str, slot: tuple[str, str], text: str) -> bool:
    """A clause of the folded text that does not deny it puts the name after the slot's preposition,
    with the slot's word before it."""
    return any(m.group(2) == slot[0] and any(found_in(w, words(m.group(1))) for w in interchangeable(slot[1]))
               and not negated(c)
               for c in VALUE_CLAUSE.split(text) if c
               for m in re.finditer(rf"(.*?){_SLOT}{re.escape(name)}{_FILLED}", c))


def _names_in_place(value: str, slot: tuple[str, str], statement: str, text: str) -> bool:
    """The folded text names the value in the statement's slot, or in a clause that gives it no role
    of its own (no word the statement lacks before it)."""
    return value in text and (_in_slot(value, slot, text) or any(
        value in c and not set(words(c.split(value)[0])) - set(words(statement))
        for c in VALUE_CLAUSE.split(text) if c))


def _in_its_place(name: str, statement: str, other: str, sentence: str, before: int = 1, after: bool = False) -> bool:
    """The other name stands between the words the name stands between ("the coast of Brazil." /
    "the coast of Queensland, Australia."; "the Treasury Department runs" / "The Small Business
    Administration runs"): the ``before`` words before, and the word after (``after``: only) or the clause's end."""
    def around(value: str, text: str) -> tuple[str, str] | None:
        match = re.search(rf"((?:\w+\W+){{{before}}}){re.escape(value)}\b\W*?(\w+|[,;.!?]|$)", fold(text))
        return match and (" ".join(re.findall(r"\w+", match.group(1))),
                          "" if not match.group(2)[:1].isalnum() else match.group(2))
    mine, theirs = around(name, statement), around(other, sentence)
    return bool(mine and theirs) and mine[0] == theirs[0] and (mine[1] == theirs[1] != "" or not after and "" in (mine[1], theirs[1]))


def _echoes(sentence: str, statement_terms: list[str]) -> bool:
    """The statement says what a clause of the sentence says, but for its names and numbers: the
    clause holds most of the statement's other words, and at least ECHO of the clause's other
    words are the statement's. A plain swap copies its source; a statement that merely shares
    a topic with a sentence is no swap of it."""
    own = {t for n in facts(sentence).names for t in words(n)}
    for clause in clauses_of(sentence):
        held = words(clause)
        rest = [t for t in dict.fromkeys(held) if t not in own and not _month_words(t) and not facts(t).numbers]
        frame = [t for t in statement_terms if not facts(t).numbers and not _month_words(t) and not _HEDGE.fullmatch(t)]
        # A Chinese word may be cut otherwise in the clause ("所作" / "所", "作"): its characters there count.
        if (rest and sum(found_in(t, statement_terms) for t in rest) >= ECHO * len(rest)
                and sum(found_in(t, held) or not t.isascii() and t in clause for t in frame) >= 0.8 * len(frame)):
            return True
    return False


def _stated_close_by(kind: str, value, frame: list[str], sentences: list[str], sentence_terms,
                     aligned: list[int]) -> bool:
    """A sentence besides the best-aligned ones states the value and holds more than 70 % as
    much of the statement's other words: the evidence may say it there."""
    enough = overlap(frame, sentence_terms[aligned[0]]) * 0.7
    return any(i not in aligned and overlap(frame, t) > enough  # the cheap test first: facts() tags words
               and alternative(kind, value, _NO_FACTS, facts(s), s) is None
               for i, (s, t) in enumerate(zip(sentences, sentence_terms)))


def as_written(value: str, text: str) -> str:
    """A folded name as the text writes it ("canberra" -> "Canberra", "gdansk" -> "Gdańsk")."""
    match = re.search(re.escape(value), text, re.I)
    folded = fold(text)
    at = folded.find(value) if not match and len(folded) == len(text) else -1
    return match.group(0) if match else text[at:at + len(value)] if at >= 0 else value


def _month_words(statement: str) -> list[str]:
    return [t for t in words(statement) if t[:3] in ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug",
                                                    "sep", "oct", "nov", "dec")]


def alternative(kind: str, value, said, found, sentence: str):
    """None when the sentence states the value; "" when it states nothing else of its kind;
    else the other value it states."""
    if kind == "name":
        if name_in(value, found.names) or all(found_in(w, words(sentence)) for w in words(value) or (value,)):
            return None
        others = [n for n in found.names if proper(n) and not name_in(n, said.names) and not one_name(n, value)]
        return others[0] if others else ""
    pool = {"number": (found.numbers, said.numbers), "year": (found.years, said.years),
            "month": (found.months, said.months)}[kind]
    if value in pool[0]:
        return None
    others = sorted(pool[0] - pool[1])
    return show(kind, others[0]) if others else ""


def _closer_alternative(kind: str, value, said, frame: list[str], sentence: str):
    """In a sentence that states the value and another of its kind ("75 mg a day for women and
    90 mg for men", "不得低于5%，原则上不高于12%"), the other one when its clause fits the
    statement better; else None (the sentence states the value). A clause fits by the
    statement's words that only it has, less the sentence's topic (its words before the first
    value, which all its clauses share: "vitamin C"), then by all the statement's words it has."""
    text = fold(sentence)
    found = facts(sentence)
    # A negation is no word of the topic: "不" of "缴存比例不低于5%" must not tie it to "原则上不高于12%".
    # Nor is a number: the value is the slot, and "six" of "six times" must not tie it to its own clause.
    frame = [t for t in frame if not facts(t).negated and not facts(t).numbers]
    pool = {"name": found.names, "number": found.numbers, "year": found.years, "month": found.months}[kind]
    mine = {"name": said.names, "number": said.numbers, "year": said.years, "month": said.months}[kind]
    others = [v for v in pool if v not in mine and not (kind == "name" and (name_in(v, mine) or shares_word(v, [value])))]
    if kind == "number":  # a sum and a count are two kinds: "runs over six Saturday mornings and costs $240"
        ours = _money(value, sentence, text)
        others = [v for v in others if None in (ours, theirs := _money(v, sentence, text)) or theirs == ours]
    spots = {(m.start(), v) for v in [value, *others] for m in re.finditer(_surface(kind, v, sentence), text)}
    if kind == "number":  # a number in words: "six times", "十讲", "twice"
        spots |= {(at, v) for v, _, at, _ in written_numbers(text) if v in [value, *others]}
        spots |= {(m.start(), v) for m in TIMES.finditer(text) if (v := TIMES_VALUE[m.group(0)]) in [value, *others]}
    spots = sorted(spots)
    if not others or value not in {v for _, v in spots}:
        return None  # a value written in a way this cannot place ("30万" for 300000) is taken as stated
    topic = set(words(text[:spots[0][0]]))
    clauses = []  # each spot's clause, as its span and its words
    for start, v in spots:
        left = max((m.end() for m in VALUE_CLAUSE.finditer(text, 0, start)), default=0)
        right = next((m.start() for m in VALUE_CLAUSE.finditer(text, start)), len(text))
        clauses.append((v, (left, right), set(words(text[left:right]))))
    # A value fits by its best clause: the 6 of "from 6 a.m. to 10 p.m. on weekdays and from 8 a.m. to 6 p.m. on
    # weekends" stands in both clauses, and the 8 of "on weekends … opens at 8 a.m." fits its own as well as 6 does.
    fit = {}
    for v, span, held in clauses:
        elsewhere = set().union(*(w for _, other, w in clauses if other != span))
        fit[v] = max(fit.get(v, (-1, -1)), (sum(t in held - elsewhere - topic for t in frame), overlap(frame, tuple(held))))
    best = max(others, key=lambda v: fit.get(v, (-1, -1)))
    return show(kind, best) if fit.get(best, (-1, -1)) > fit.get(value, (-1, -1)) else None


_CURRENCY_BEFORE = re.compile(r"[$£€¥]\s*$")
_CURRENCY_AFTER = re.compile(r"\s*(?:元|块钱|美元|英镑|欧元|(?:dollars?|pounds?|euros?|yuan|usd|rmb)\b)")


def _money(value: float, sentence: str, text: str) -> bool | None:
    """Whether the value stands in the folded sentence as a sum of money; None where it is not found written."""
    spots = [(m.start(), m.end()) for m in re.finditer(_surface("number", value, sentence), text)]
    spots += [(start, end) for v, _, start, end in written_numbers(text) if v == value]  # "six Saturday mornings"
    if not spots:
        return None
    return any(_CURRENCY_BEFORE.search(text[:start]) or _CURRENCY_AFTER.match(text, end) for start, end in spots)


def _surface(kind: str, value, sentence: str) -> str:
    """A pattern for where a value stands in the folded sentence."""
    if kind == "name":
        return re.escape(value)
    if kind == "month":
        return rf"\b{show(kind, value)[:3].lower()}|(?<!\d){int(value)}月"
    written = number_mentions(sentence).get(value, f"{value:g}")
    return rf"(?<![\d.]){re.escape(fold(written))}(?![\d])"


def show(kind: str, value) -> str:
    if kind == "month":
        return ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                "November", "December"][int(value) - 1]
    return f"{value:g}" if isinstance(value, float) else str(value)
