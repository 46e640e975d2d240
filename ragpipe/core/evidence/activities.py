"""An activity said by its verb or by its noun: "take photos" / "photograph" / "photography", 拍照 / 照相 / 摄影. A rule
says what may be done with the noun ("Photography is forbidden inside the gallery."), an answer with the verb
("Visitors may take photos inside the gallery."): polarity.py reads both in one word, so that the two speak of one
thing and their modal words decide."""

from __future__ import annotations

import re

# The verb (with its object) and the noun of one activity, written as the noun: taking photos, eating and drinking.
_ACTIVITIES = (
    (re.compile(r"\b(?:tak(?:e|es|ing|en)|took)\s+(?:any\s+|a\s+)?(?:photo(?:graph)?s?|pictures?)\b"
                r"|\bphotograph(?:s|ed|ing)?\b", re.I), "photography"),
    (re.compile(r"\beat(?:ing)?\s+(?:and|or)\s+drink(?:ing)?\b", re.I), "food and drink"),
    (re.compile(r"拍照|照相"), "摄影"),
    (re.compile(r"吃东西|吃喝"), "饮食"),
)


def activity_worded(text: str) -> str:
    """The text with the verb of an activity written as its noun (photography, 摄影, food and drink, 饮食)."""
    for pattern, noun in _ACTIVITIES:
        text = pattern.sub(noun, text)
    return text


def as_evidence_names_it(statement: str, evidence: str) -> str:
    """The statement with an activity's verb written as the evidence's noun for it, where the evidence says the noun
    ("Taking photos is not permitted" read against "Photography is forbidden"): the verifier then finds its word."""
    nouns = [noun for pattern, noun in _ACTIVITIES if pattern.search(statement)]
    held = activity_worded(evidence) == evidence  # the evidence names it only by the noun
    if not nouns or not held or not any(re.search(rf"(?<!\w){re.escape(n)}(?!\w)", evidence, re.I) for n in nouns):
        return statement
    return activity_worded(statement)
