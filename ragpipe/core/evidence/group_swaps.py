"""A benefit, price or rule said of one group of people that the evidence gives another group: "Seniors get 20% off
jump passes." against "Students get 20% off jump passes, and seniors jump free on Tuesdays."; 学生可以免费滑雪 against
"学生凭学生证享八折优惠，65岁以上老人免费"; "Adults are seen by Dr. Patel." against "Dr. Patel sees children; Dr. Moreno
sees adults.". contradiction.py reads it.

The clause's values (its numbers, names and benefit words: free, half price, 八折) tie it to the evidence clause that
holds them all; that clause's group is another class of people, and no clause naming the statement's group holds them.
A group of one class is the same group however named ("kids" / "children", 老人 / 老年人; group_benefits.py).
"""

from __future__ import annotations

import re

from ragpipe.core.evidence.agreement import found_in, name_in, words
from ragpipe.core.evidence.facts import BOUND_BEFORE, facts, fold, negated
from ragpipe.core.evidence.group_benefits import GROUP_CLASSES
from ragpipe.core.text import is_chinese

# Prices and rules also name adults, whom a benefit seldom names (group_benefits leaves them out), and men and women
# ("Men must wait 12 weeks; women must wait 16 weeks", 男性不低于50公斤，女性不低于45公斤).
_CLASSES = (*GROUP_CLASSES, (r"adult", "成人|成年人"), (r"males?\b|m[ae]n\b", "男性|男士|男子|男生"),
            (r"females?\b|wom[ae]n\b", "女性|女士|女子|女生"))
# An English group is a word of its own, not part of a compound ("family-owned").
_PATTERNS = [re.compile(rf"(?<!-)\b(?:{en})\w*+(?!-)|{zh}", re.I) for en, zh in _CLASSES]
# "and" before a value opens the next group's part: "Tickets cost $14 for adults and $10 for children".
_CLAUSE = re.compile(r"[,，;；:：]|\band\s+(?=[$£€¥]?\d)", re.I)
# Benefit words, each read as what it gives: free, half price, 八折 (a number of tenths).
_FREE = re.compile(r"\b(?:free|complimentary|no charge)\b|免费|免票", re.I)
_HALF = re.compile(r"\bhalf[\s-]?(?:price|fare)?\b|半价|半票|(?<![\d.])五折", re.I)
_AGE = re.compile(r"\b(?:under|over|below|above|aged?|older than|younger than)\s+\d+|\b\d+\s*(?:years? old|\+)"
                  r"|\d+\s*(?:周岁|岁)(?:及?以[上下])?", re.I)
# A Chinese count ("一片", "两次") is a value, not a word of the clause's topic.
_ZH_COUNT = re.compile(r"[一二两三四五六七八九十百千万半]")
# A bound's word belongs to its value ("50公斤以上"), not to the clause's topic.
_BOUND_WORD = re.compile(r"以上|以下|以内|至少|最少|最多|不低于|不少于|不超过")
_PRONOUN_OPENING = re.compile(r"\s*(?:(?:it|they|this|these|that)\b|[它其该])", re.I)
_TENTHS = re.compile(r"([一二三四六七八九\d](?:\.\d|五)?)折(?![扣叠合旧算射])")


def _groups(text: str) -> set[int]:
    return {i for i, pattern in enumerate(_PATTERNS) if pattern.search(text)}


def _benefits(text: str) -> set[str]:
    return ({"free"} if _FREE.search(text) else set()) | ({"half"} if _HALF.search(text) else set()) | {
        f"{m.group(1)}折" for m in _TENTHS.finditer(text)}


def _values(clause: str) -> tuple[frozenset[float], tuple[str, ...], set[str]]:
    """Numbers, names and benefits; an age bound is the group's ("65岁以上老人"). A name is a titled person's ("Dr.
    Patel sees children"), who serves a group; an organisation ("Dollar General", "EEOC") ties no group's clause, and
    a Chinese clause's names are left out (jieba tags 滑雪 as one)."""
    read = facts(_AGE.sub(" ", clause))
    titled = tuple(n for n in read.names if not is_chinese(clause)
                   and re.search(rf"\b(?:dr|mr|mrs|ms|prof)\.?\s+(?:\w+\s+)?{re.escape(n.split()[-1])}\b", fold(clause)))
    return read.numbers, titled, _benefits(clause)


def _holds(clause: str, values: tuple[frozenset[float], tuple[str, ...], set[str]]) -> bool:
    numbers, names, benefits = values
    theirs = _values(clause)
    return numbers <= theirs[0] and all(name_in(n, theirs[1]) for n in names) and benefits <= theirs[2]


def _clauses(sentences: list[str]) -> list[tuple[str, set[int], str, str]]:
    """Each evidence clause, the groups it speaks of, the words it is read with and its sentence: a clause that names none speaks of the one
    group its sentence names ("成人每次1片，每8小时1次": the 8 hours are the adults')."""
    out = []
    for k, sentence in enumerate(sentences):
        parts = [p for p in _CLAUSE.split(sentence) if p.strip()]
        named = _groups(sentence)
        # A sentence that opens with a pronoun speaks of the one before: "A full hearing test takes 45 minutes. It is
        # free for adults over 60" (the words its clause is matched by are that sentence's too).
        said = f"{sentences[k - 1]} {sentence}" if k and _PRONOUN_OPENING.match(sentence) else sentence
        out += [(p, _groups(p) or (named if len(named) == 1 else set()), said, sentence) for p in parts]
    return out


def group_swap(statement: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """("group", the statement's group word, the evidence's, the evidence sentence) where a clause of the statement gives
    its group the values of an evidence clause about another group, and the evidence names its group but gives it others;
    the two clauses say it alike (both negated or neither) and the sentence holds half the clause's other words."""
    evidence = _clauses(sentences)
    for clause in (c for c in _CLAUSE.split(statement) if c.strip()):
        values = _values(clause)
        if not any(values):
            continue  # no value to tie the clause to one evidence clause
        for group in _groups(clause):
            if not any(group in theirs for _, theirs, _, _ in evidence) or any(
                    group in theirs and _holds(part, values) for part, theirs, _, _ in evidence):
                continue  # a group the evidence never names is unsupported, not swapped; or it gives it this one too
            mention = _PATTERNS[group].search(clause).group(0)
            rest = [t for t in words(_PATTERNS[group].sub(" ", clause))
                    if not _benefits(t) and not _ZH_COUNT.match(t) and not _BOUND_WORD.fullmatch(t)]
            for part, theirs, said, sentence in evidence:
                others = theirs - _groups(clause)
                if (others and _holds(part, values) and _denies(part) == _denies(clause)
                        and sum(found_in(t, words(said)) or t in said for t in rest) * 2 >= len(rest)):
                    other = _PATTERNS[min(others)].search(part) or _PATTERNS[min(others)].search(sentence)
                    return "group", mention, other.group(0), sentence
    return None


def _denies(clause: str) -> bool:
    """The clause negates, a bound aside ("不低于50公斤", "no more than 2" deny nothing)."""
    return negated(BOUND_BEFORE.sub(" ", clause))
