"""A benefit denied to a group of people that the evidence gives that group: "学生买票不打折。" against "学生凭学生证购票可享
半价。", "老年人乘坐地铁没有优惠。" against "65岁以上老人凭老年卡可免费乘坐地铁。", "Students do not get a discount on tickets."
against "Students with a valid ID can buy tickets at half price.".

The negation readers align words, and the two sides word the benefit apart (不打折 / 半价, 没有优惠 / 免费) and often the
group too (学生 / 学生证, 老年人 / 老人). Here the group's class (group_benefits.GROUP_CLASSES) ties the two, any benefit
(free, a discount however priced) is one, and the act must be the same: a word of the statement's own, or in Chinese a
character of it, stands in the evidence clause ("买票" / "购票").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragpipe.core.evidence.agreement import found_in, words
from ragpipe.core.evidence.discounts import discount_worded
from ragpipe.core.evidence.group_benefits import GROUP_CLASSES
from ragpipe.core.text import is_chinese, normalize

# A benefit said to be none: "不打折", "没有优惠", "无折扣", "不免费", "不能享受优惠", "no discount", "not free", "full price".
_ZH_DENIED = re.compile(r"(?:不|没有?|无|未)(?:能|可|会|再)?(?:享受?|提供|给|有)?(?:任何)?(?:打折|优惠|折扣|减免|免费)|全价|原价")
_EN_DENIED = re.compile(r"\b(?:no|not|never|n't)\s+(?:\w+\s+){0,3}?(?:discount\w*|free|reduced)\b|n't\s+(?:\w+\s+){0,3}?"
                        r"(?:discount\w*|free)\b|\bfull\s+(?:price|fare)\b", re.I)
# A benefit given: free, a discount however priced (discounts.discount_worded), 优惠, 减免.
_GIVEN = re.compile(r"\b(?:free|discount\w*|complimentary)\b|免费|优惠|减免|打折|折扣|立减", re.I)
_NOT = re.compile(r"\b(?:not|no|never|without)\b|n't\b|[不没无未非]", re.I)
_CLAUSE = re.compile(r"[，,；;。.!！?？]")
# Words that say the benefit, the denial or nothing: not the act.
_LIGHT = re.compile(r"^(?:get|gets|got|have|has|receive|receives|any|price|prices|享受|享|有|可|可以|能|任何|的)$", re.I)


def denied_benefit(statement: str, sentences: Sequence[str]) -> tuple[str, str, str, str] | None:
    """("negation", the statement's denial, the evidence's benefit, the sentence), or None."""
    zh = is_chinese(statement)
    text = discount_worded(normalize(statement))
    denial = (_ZH_DENIED if zh else _EN_DENIED).search(text)
    group = denial and _group(text[:denial.start()])
    if not group:
        return None
    number, named = group
    act = [w for w in words(text[:denial.start()].replace(named, " ") + " " + text[denial.end():])
           if not _LIGHT.match(w) and not re.search(rf"{GROUP_CLASSES[number][1]}", w)
           and not re.match(rf"(?:{GROUP_CLASSES[number][0]})", w, re.I)]
    if not act:
        return None
    held: list[tuple[str, str]] = []
    for sentence in sentences:
        for clause in _CLAUSE.split(discount_worded(normalize(sentence))):
            found = _group(clause)
            if not found or found[0] != number:
                continue
            if _NOT.search(clause):
                return None  # the evidence denies the group a benefit itself, or sets a condition ("非会员不享受")
            given = _GIVEN.search(clause)
            if given and any(found_in(w, words(clause)) or zh and any(c in clause for c in w) for w in act):
                held.append((given.group(0), sentence))
    return ("negation", denial.group(0), *held[0]) if held else None


def _group(text: str) -> tuple[int, str] | None:
    """The class of the group of people the text names (its number in GROUP_CLASSES) and the words naming it; a group
    said not to be one ("非学生", "non-members") names none."""
    for number, (en, zh) in enumerate(GROUP_CLASSES):
        found = re.search(rf"(?<!non-)(?<!non)\b(?:{en})\w*|(?<![非不])(?:{zh})", text, re.I)
        if found:
            return number, found.group(0)
    return None
