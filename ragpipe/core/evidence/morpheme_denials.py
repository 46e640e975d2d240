"""A Chinese verb denied on one side and affirmed on the other, where the two sides write the verb as different words
that open with the same morpheme: "定金不能退" against "定金可全额退还", "会员卡可以退费" against "会员卡一经售出，余额概不退还",
"驾照体检费可以报销" against "驾照体检等个人项目不在报销范围内". The polarity reader aligns a statement with the clause
that holds most of its words and compares whole words; here the verb is aligned by the character the two words share
(退 / 退还 / 退费), the thing by a word of the statement's clause found in the same evidence sentence, and the polarity is read
right before each verb, not anywhere in the clause (a condition's 未 or 不足 says nothing of the verb)."""

from __future__ import annotations

import re

from ragpipe.core.evidence.agreement import words
from ragpipe.core.text import is_chinese, pos_tags

_CLAUSE = re.compile(r"[，。；;！？!?：:,]")
# A denial right before the verb, through a modal or an adverb of manner: 不能退, 概不退还, 不予退还, 禁止拍摄, 不在报销….
_DENIED = re.compile(r"(?:不|没|未|别|勿|禁止|严禁|谢绝|拒绝|不得|不能|不可|不予|概不|无法|不会|不用|不需|不在|无需)"
                     r"(?:可以|可|能|得|会|予|用|需|再|被|全额|随意|自行|一律)*$")
# A negation anywhere before the verb, also one worded as an act of its own ("取消了对安卓7的支持"); not a cancelling
# that is the condition of what follows ("取消可退还定金": cancel, and it is refunded).
_NEGATION = re.compile(r"不|没|未|别|勿|禁止|严禁|谢绝|拒绝|(?:取消|停止)(?![可能须需后时的即])|无法|无需")
# A question asserts nothing: "押金能退吗", "回收站哪天不开门" read before its answer.
_QUESTION = re.compile(r"[吗呢]\s*$|[?？]|哪|什么|谁|多少|怎么|如何|为什么|为何|是否|能否|可否")
# A clause that grants the verb to one part only ("仅高级会员支持下载") denies it to the others: scope.py reads it.
_ONLY = re.compile(r"仅|只有|只限|唯有|限于")
# Verbs that carry no act of their own: modals, the copula, "have", "do".
_LIGHT = frozenset({"可以", "能够", "需要", "应该", "必须", "允许", "进行", "是", "有", "没有", "会", "能", "可", "需",
                    "应", "要", "如", "得", "予", "在", "不在"})


def _verbs(text: str) -> list[tuple[str, int]]:
    """The verbs of a Chinese text that carry an act, with where each starts; not one before 的, which modifies a
    noun ("中国拍的电视剧") and asserts nothing."""
    found, at = [], 0
    for word, flag in pos_tags(text):
        if flag.startswith("v") and word not in _LIGHT and re.fullmatch(r"[\u4e00-\u9fff]+", word) \
                and not text[at + len(word):].startswith("的"):
            found.append((word, at))
        at += len(word)
    return found


def _polarity(text: str, at: int) -> bool | None:
    """The verb at ``at`` is denied (a negation right before it in its clause: True) or affirmed (no negation in the
    clause before it: False); None where a negation stands further back, whose scope the words between leave open
    ("泳裤的干湿不会对游泳造成影响", "没有古人抄今人")."""
    before = _CLAUSE.split(text[:at])[-1]
    if _DENIED.search(before):
        return True
    return None if _NEGATION.search(before) else False


def _clause_at(sentence: str, at: int) -> str:
    """The clause of ``sentence`` that holds the character at ``at``."""
    start = sum(len(c) + 1 for c in _CLAUSE.split(sentence[:at])[:-1])
    return _CLAUSE.split(sentence[start:])[0]


def _aligned(clause: str, at: int, verb: str, sentence: str, other_at: int, other: str) -> bool:
    """The two verbs are one predicate of one thing: the statement's words before its verb that the evidence clause
    holds stand before the evidence's verb too ("今人抄古人" is not "古人无法抄袭今人" denied), and where both verbs
    take an object, the objects share a word ("不属于红茶" is not "属乌龙茶" denied)."""
    part = _clause_at(sentence, other_at)
    verb_at = other_at - sum(len(c) + 1 for c in _CLAUSE.split(sentence[:other_at])[:-1])
    ours, theirs = words(clause[at + len(verb):]), words(part[verb_at + len(other):])
    before = [w for w in words(clause[:at]) if len(w) >= 2 and w in part]
    # A thing the statement names before its verb and nothing after it is its object put first ("定金一律不退" /
    # "取消可退还定金"): no second party whose role could be swapped.
    if not all(part.find(w) < verb_at for w in before) and (ours or not all(part.find(w) > verb_at for w in before)):
        return False
    return not ours or not theirs or any(w in part[verb_at:] for w in ours)


def morpheme_denial(statement: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """("negation", the statement's clause, the evidence clause, its sentence) where the statement denies a verb that
    every evidence verb opening with the same morpheme, said of the same thing, affirms, or the other way round."""
    if not is_chinese(statement):
        return None
    for clause in (c for c in _CLAUSE.split(statement) if c.strip() and not _QUESTION.search(c)):
        for verb, at in _verbs(clause):
            stated = _polarity(clause, at)
            # The things it is said of: the clause's other words of two characters or more (jieba tags 驾照 a verb).
            things = [w for w in words(clause) if len(w) >= 2 and not set(w) & set(verb)]
            readings = [(sentence, other_at, other, _polarity(sentence, other_at))
                        for sentence in sentences if any(t in sentence for t in things)
                        for other, other_at in _verbs(sentence) if other[0] == verb[0]
                        and not _QUESTION.search(_clause_at(sentence, other_at))
                        and not _ONLY.search(_clause_at(sentence, other_at))]
            # Every reading of the verb opposes the statement: none bears it out under another condition.
            if stated is None or not readings or any(denied is None or denied == stated for *_, denied in readings):
                continue
            sentence, other_at, other, _ = readings[0]
            if _aligned(clause, at, verb, sentence, other_at, other):
                return "negation", clause.strip(), _clause_at(sentence, other_at), sentence
    return None
