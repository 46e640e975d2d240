""""Both sides" and "the two of them" are one pair: "结婚登记时两个人都要带身份证" says what "男女双方须携带身份证" says,
and "the two parents must sign" what "both parents must sign" says. The verifier reads the statement's word for the pair
as the evidence writes it (``as_evidence_names_pair``), so that the 2 of "两个人" is not a number the evidence lacks.
"""

from __future__ import annotations

import re

from ragpipe.core.evidence.wordings import in_evidence_wording

# 双方 ("both sides": 男女双方, 夫妻双方, 买卖双方) and 两个人 / 两人 / 二人 / 两位 / 两方 / 两口子 / 夫妻俩.
_ZH_BOTH = re.compile(r"双方")
_ZH_THE_TWO = re.compile(r"(?<![\d零〇一二两三四五六七八九十百千第])(?:两个人|[两二](?:人|位|方)|两口子)")
# "both" and "the two" before the same kind of word ("both parents", "the two parents"; "both of them", "the two of them").
_EN_BOTH = re.compile(r"\bboth\b", re.I)
_EN_THE_TWO = re.compile(r"\bthe two\b(?=\s+(?:of\s+(?:them|you|us)\b|[a-z]+s\b))", re.I)


def as_evidence_names_pair(statement: str, evidence: str) -> str:
    """The statement with its word for a pair of people written as the evidence writes it, where the evidence writes
    the pair otherwise and never the statement's way."""
    zh = bool(re.search(r"[\u4e00-\u9fff]", statement))
    return in_evidence_wording(statement, evidence, *((_ZH_THE_TWO, _ZH_BOTH) if zh else (_EN_THE_TWO, _EN_BOTH)))
