"""An activity said by its verb or by its noun: "take photos" / "photograph" / "photography", 拍照 / 照相 / 摄影. A rule
says what may be done with the noun ("Photography is forbidden inside the gallery."), an answer with the verb
("Visitors may take photos inside the gallery."): polarity.py reads both in one word, so that the two speak of one
thing and their modal words decide."""

from __future__ import annotations

import re

# The verb (with its object) and the noun of one activity, written as the noun.
_EN = re.compile(r"\b(?:tak(?:e|es|ing|en)|took)\s+(?:any\s+|a\s+)?(?:photo(?:graph)?s?|pictures?)\b"
                 r"|\bphotograph(?:s|ed|ing)?\b", re.I)
_ZH = re.compile(r"拍照|照相")


def activity_worded(text: str) -> str:
    """The text with the verb of an activity written as its noun (photography, 摄影)."""
    return _ZH.sub("摄影", _EN.sub("photography", text))


def as_evidence_names_it(statement: str, evidence: str) -> str:
    """The statement with an activity's verb written as the evidence's noun for it, where the evidence says the noun
    ("Taking photos is not permitted" read against "Photography is forbidden"): the verifier then finds its word."""
    worded = activity_worded(statement)
    if worded == statement:
        return statement
    held = activity_worded(evidence) == evidence  # the evidence names it only by the noun
    return worded if held and ("摄影" in evidence or re.search(r"\bphotography\b", evidence, re.I)) else statement
