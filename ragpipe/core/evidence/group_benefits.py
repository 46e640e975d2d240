"""A benefit given to a group of people the evidence never names: "A second bag is free for students.",
"学生购买标准会员可享五折优惠。" against contexts that name no students invent the group's offer, whatever else
they share with the evidence (bag, 标准会员). invented.py reads it.

A group is a class of people by age, status or role; the evidence names it by any word of its class
("kids" / "children", 老人 / 老年人) and, for a group by age, by an age bound ("under 12", "65岁以上").
"""

from __future__ import annotations

import re

from ragpipe.core.evidence.discounts import discount_worded
from ragpipe.core.text import normalize

# One class a line: English stems (a word starting so), Chinese words (contained).
GROUP_CLASSES = (
    (r"student|pupil", "学生|在校生"),
    (r"senior|elderly|pensioner|retiree", "老人|老年|长者|退休"),
    (r"child|kid|infant|toddler|bab(?:y|ies)|minor", "儿童|小孩|孩子|婴儿|幼儿|未成年"),
    (r"teen|youth", "青少年"),
    (r"member", "会员"),
    (r"veteran|military|soldier", "军人|退伍"),
    (r"teacher", "教师|老师"),
    (r"employee|staff", "员工|职工"),
    (r"resident|local", "居民|本地"),
    (r"famil(?:y|ies)", "家庭"),
    (r"disabled|disabilit", "残疾"),
    (r"pregnant", "孕妇"),
    (r"couple", "情侣|夫妻"),
    (r"newcomer|new (?:customer|user|subscriber|client|student)|first[\s-]time", "新用户|新客户|新会员|新学员|新顾客|首次"),
    (r"returning (?:customer|user|client|student|member)|existing (?:customer|user|client|member)|repeat customer",
     "老用户|老客户|老会员|老学员|老顾客"),
)
_AGED = {1, 2, 3}  # the classes by age: seniors, children, teens
# An age bound names a group by age: "under 12", "aged 65 and over", "65岁以上", "身高1.2米以下".
_AGE_BOUND = re.compile(r"\b(?:under|over|below|above|aged?|older than|younger than)\s+\d|\b\d+\s*(?:years? old|\+)"
                        r"|\d+\s*(?:周岁|岁)|身高", re.I)
# A benefit: free, a discount however priced (discounts.py), complimentary, waived; 免费, 优惠, 减免, 折扣.
_BENEFIT = re.compile(r"\b(?:free|discount|complimentary|waived|no charge)\b|免费|优惠|减免|打折|折扣|立减", re.I)
# A benefit for everyone covers every group: "Admission is free for everyone" / "Students get in free".
_EVERYONE = re.compile(r"\b(?:everyone|everybody|anyone|all ages)\b|所有人|任何人", re.I)
_NEGATED = re.compile(r"\b(?:not|no|never|none|without)\b(?! charge)|n't\b|[不没未无]|并非", re.I)


def unnamed_group_benefit(statement: str, evidence: str) -> bool:
    """The statement gives a benefit to a group of people that the evidence names nowhere, by any word of its class.
    The group is the benefit's: it stands before it in its clause ("Students get 50% off", 学生…可享五折优惠) or just
    after it with "for" ("free for students"), not anywhere ("free WiFi, making it a popular spot for locals")."""
    text = discount_worded(normalize(statement))
    if not _BENEFIT.search(text) or _NEGATED.search(text):
        return False
    lowered = normalize(evidence).lower()
    if _EVERYONE.search(lowered):
        return False
    for number, (en, zh) in enumerate(GROUP_CLASSES):
        group = rf"(?:\b(?:{en})|{zh})"
        given = re.search(rf"{group}[^,，;；]*?(?:{_BENEFIT.pattern})|(?:{_BENEFIT.pattern})(?:\s+[\w-]+){{0,3}}?\s+for\s+(?:the\s+|all\s+)?{group}",
                          text, re.I)
        named = re.search(group, lowered, re.I) or number in _AGED and _AGE_BOUND.search(lowered)
        if given and not named:
            return True
    return False
