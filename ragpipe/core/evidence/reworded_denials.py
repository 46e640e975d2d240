"""A negation worded apart from the statement it opposes: "绝育手术可以报销" against "…手术不在赔付范围内", "穿鞋也能进场"
against "禁止穿鞋进入". The polarity reader aligns a statement with the evidence clause that holds its words; a
careful reader first takes the statement's verb for the evidence's where the two are interchangeable (报销 / 赔付,
进场 / 进入, refunded / refundable: synonyms.py), then reads the two for polarity as written."""

from __future__ import annotations

from ragpipe.core.evidence.polarity import polarity_conflict
from ragpipe.core.synonyms import reworded_as, rewordings


def reworded_denial(statement: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """The polarity reader's finding on the statement written in the evidence's words, with what the statement says
    as written (its antonym word, or the whole statement); None where no word of it needed rewording, or where the
    clause found lacks the evidence's words it was reworded into (then the rewording aligned nothing: "录音棚一经预订" is
    no denial of "预订后不能退款")."""
    evidence = " ".join(sentences)
    theirs = set(rewordings(statement, evidence).values())
    found = theirs and polarity_conflict(reworded_as(statement, evidence), sentences)
    if not found or not any(w.lower() in found[3].lower() for w in theirs):
        return None
    return found[0], found[1] if found[1] in statement else statement.strip(), *found[2:]
