"""Who does what for whom, where roles.py's readers lose the sides: in Chinese the two sides of a
preposition that names whom an act is for or aimed at (给, 为, 向, 对, 替, 帮) read by characters,
since jieba's words cut across them ("每位学生会为老师的演奏录音" is 学生会 / 会为 to it, "学徒负责给师傅打分"
puts a verb between the side and 给); and in English sides traded around a time phrase that moved
("The apprentices grade their masters every quarter" against "Every quarter the masters grade their
apprentices"). ``contradiction`` reads both as swapped roles."""

from __future__ import annotations

import re

from ragpipe.core.evidence.roles import swapped_roles
from ragpipe.core.text import is_chinese

_ZH_TOWARD = "给为向对替帮"
# What may stand between a side and the preposition without changing who acts: a modal, an adverb or a
# time, up to eight characters ("老师会为学生录音", "甲方应向乙方支付", "酒店会在入住前一天给客人打电话").
_ZH_BEFORE_TOWARD = "[^，。；：,;:！？!?\\s]{0,8}"
# A quantifier on the side after the preposition leaves it the same side ("由裁判给各队队员记分", "为每位学生录音").
_ZH_QUANTIFIER = "(?:各队|各位|各个|每位|每个|每名|所有|全体|全部|各|每|该|本)?"
# 为 and 对 in words of their own say no side: "成为", "作为", "因为", "认为", "为期", "为止", "对于", "对比".
_ZH_NOT_TOWARD = re.compile(r"[成作因认称以]为|为[期止主准何了]|对[于比照应称]|[相针面核绝反应]对|[交送借还嫁递]给|给予")
_ZH_CLAUSE = re.compile(r"[，。；：！？,;:!?\s]")
_HAN = re.compile(r"[\u4e00-\u9fff]+")


def _zh_traded(statement: str, sentence: str) -> tuple[str, str] | None:
    """The statement says A … P B V (P a preposition of _ZH_TOWARD, V the character after B) and the
    sentence B P A V, never A P B: the sides as the statement has them."""
    for clause in _ZH_CLAUSE.split(statement):
        for k, preposition in enumerate(clause):
            if preposition not in _ZH_TOWARD or _ZH_NOT_TOWARD.search(clause[max(k - 1, 0):k + 2]):
                continue
            for n in range(2, 5):  # the side after the preposition, two to four characters
                right, verb = clause[k + 1:k + 1 + n], clause[k + 1 + n:k + 2 + n]
                if not verb or not _HAN.fullmatch(right + verb):
                    continue
                for left in _lefts(clause[:k]):
                    if set(left) & set(right):
                        continue
                    toward = lambda a, b: re.search(  # noqa: E731
                        f"{re.escape(a)}{_ZH_BEFORE_TOWARD}{preposition}{_ZH_QUANTIFIER}{re.escape(b)}", sentence)
                    if toward(right, left + verb) and not toward(left, right):
                        return left, right
    return None


def _lefts(before: str) -> list[str]:
    """The runs of two to four Chinese characters before the preposition, longest first."""
    runs = {run[i:j] for run in _HAN.findall(before) for i in range(len(run)) for j in range(i + 2, min(i + 4, len(run)) + 1)}
    return sorted(runs, key=lambda run: (-len(run), run))


# When or how often something is done says nothing of who does it to whom, and may stand anywhere.
_EN_WHEN = re.compile(
    r"\b(?:(?:at\s+the\s+(?:end|start|beginning)\s+of|after|before|during)\s+(?:each|every|the)\s+\w+"
    r"|(?:every|each)\s+(?:other\s+)?(?:day|week|weekend|month|quarter|year|term|semester|season|session|lesson|class|"
    r"spring|summer|autumn|fall|winter|hour|"
    r"morning|afternoon|evening|night|monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
    r"|once\s+a\s+\w+|twice\s+a\s+\w+|on\s+(?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|weekends))\b,?",
    re.I)


def traded_sides(statement: str, sentences: list[str]) -> tuple[str, str, str] | None:
    """Sides of the statement that a sentence trades (see the module's text): what the statement
    says, what the sentence says, and the sentence; None when none does."""
    if is_chinese(statement):
        for sentence in sentences:
            if sides := _zh_traded(statement, sentence):
                return f"{sides[0]} → {sides[1]}", f"{sides[1]} → {sides[0]}", sentence
        return None
    unwhen = lambda text: re.sub(r"\s{2,}", " ", _EN_WHEN.sub("", text)).strip()  # noqa: E731
    bare = {unwhen(s): s for s in sentences}
    if unwhen(statement) == statement and all(b == s for b, s in bare.items()):
        return None  # no time phrase: roles.swapped_roles has read these already
    found = swapped_roles(unwhen(statement), list(bare))
    return found and (found[0], found[1], bare.get(found[2], found[2]))
