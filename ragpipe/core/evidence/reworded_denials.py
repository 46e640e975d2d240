"""A negation worded apart from the statement it opposes: "绝育手术可以报销" against "…手术不在赔付范围内", "穿鞋也能进场"
against "禁止穿鞋进入". The polarity reader aligns a statement with the evidence clause that holds its words; a
careful reader first takes the statement's verb for the evidence's where the two are interchangeable (报销 / 赔付,
进场 / 进入, refunded / refundable: synonyms.py) and a thing for the kind a rule names (狗 / 宠物), then reads the
two for polarity as written."""

from __future__ import annotations

import re

from ragpipe.core.evidence.polarity import polarity_conflict
from ragpipe.core.synonyms import reworded_as, rewordings

# A rule on a kind holds for each thing of it: "园内禁止携带宠物" forbids a dog. Member words and their kind, read one
# way only (a dog is a pet; "pets" is not a dog), and only here, where a rule is read.
_KINDS = {"宠物": re.compile(r"狗狗|小狗|猫咪|小猫|狗|猫"), "pets": re.compile(r"\b(?:dogs|cats)\b", re.I),
          "pet": re.compile(r"\b(?:dog|cat)\b", re.I)}


def _as_kind(statement: str, evidence: str) -> tuple[str, set[str]]:
    """The statement with a member word written as the kind the evidence names, and the kind words used."""
    used = set()
    for kind, members in _KINDS.items():
        if re.search(rf"\b{kind}\b" if kind.isascii() else kind, evidence, re.I) and members.search(statement):
            statement, used = members.sub(kind, statement), used | {kind}
    return statement, used


def reworded_denial(statement: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """The polarity reader's finding on the statement written in the evidence's words, with what the statement says
    as written (its antonym word, or the whole statement); None where no word of it needed rewording, or where the
    clause found lacks the evidence's words it was reworded into (then the rewording aligned nothing: "录音棚一经预订" is
    no denial of "预订后不能退款")."""
    evidence = " ".join(sentences)
    kinded, kinds = _as_kind(statement, evidence)
    theirs = set(rewordings(kinded, evidence).values()) | kinds
    found = theirs and polarity_conflict(reworded_as(kinded, evidence), sentences)
    if not found or not any(w.lower() in found[3].lower() for w in theirs):
        return None
    return found[0], found[1] if found[1] in statement else statement.strip(), *found[2:]
