"""Minors and "under 18" are one group: "Minors must wear a life jacket." says what "Renters under 18 must wear a life
jacket" says, and 未成年人 what 未满18周岁者 or 18岁以下人员 says. The verifier reads the statement's word for the group
as the evidence writes it (``as_evidence_names_minors``), so that its words, its number and the rules that tie a group
(use_rules, polarity) read one group, whichever way either side says it.
"""

from __future__ import annotations

import re

from ragpipe.core.evidence.wordings import in_evidence_wording

_EN_MINORS = re.compile(r"\b(?:minors?|underage (?:guests|visitors|customers|people|persons|renters|children))\b", re.I)
_ZH_MINORS = re.compile(r"未成年人?")
# "anyone under 18", "guests under the age of 18", "renters younger than 18 years old".
_EN_UNDER_18 = re.compile(r"\b(?:(?:anyone|those|people|persons|guests|visitors|customers|renters|riders|players|children)\s+)?"
                          r"(?:under|below|younger than)\s+(?:the age of\s+|age\s+)?18\b(?:\s+years?(?:\s+of\s+age|\s+old)?)?", re.I)
_ZH_UNDER_18 = re.compile(r"(?:未满|不满)18(?:周岁|岁)(?:者|的?(?:人员|人|游客|顾客|客人|乘客|儿童))?"
                          r"|18(?:周)?岁以下(?:的)?(?:人员|人|者|游客|顾客|客人|乘客|儿童)?")


def as_evidence_names_minors(statement: str, evidence: str) -> str:
    """The statement with its word for people under 18 written as the evidence writes it, where the evidence
    writes it otherwise and never the statement's way."""
    zh = bool(re.search(r"[\u4e00-\u9fff]", statement))
    return in_evidence_wording(statement, evidence, *((_ZH_MINORS, _ZH_UNDER_18) if zh else (_EN_MINORS, _EN_UNDER_18)))
