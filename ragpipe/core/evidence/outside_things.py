"""Things brought from outside: a statement that lets one bring one's own thing ("You may bring clay from elsewhere.",
"客人可以自己带啤酒进包厢") where the evidence forbids outside things of that kind ("outside clay is not allowed",
"包厢内禁止自带酒水"), or the other way round; and the same rule said in other words ("No, outside food is not allowed"
for "Guests cannot bring their own food"), which borne_out reads as support.

Each side names the thing's outside origin in its own words ("your own", "from home", "from elsewhere", "outside";
自带, 自己带, 自己的, 外带, 外来): those words are one, and so the two rules speak of one thing when the thing is one. A Chinese
thing is one where the two words share a character: the evidence's rule names the kind (酒水 for 啤酒, 食品 for 零食).
polarity.modality says which way each rule goes.
"""

from __future__ import annotations

import re

from ragpipe.core.evidence.agreement import found_in, words
from ragpipe.core.evidence.polarity import clauses_of, modality
from ragpipe.core.text import is_chinese

_DETERMINER = r"(?:(?:a|an|the|some|any|your|their|our)\s+)?"
# The thing of outside origin: "their own food", "outside clay", "bring clay from elsewhere", "drinks brought from outside".
_EN_OUTSIDE = re.compile(r"\b(?:your|their|our|my|his|her)\s+own\s+(?P<own>[a-z]+)|\boutside\s+(?P<outside>[a-z]+)"
                         r"|\bbring\s+" + _DETERMINER + r"(?P<brought>[a-z]+)(?:\s+[a-z]+){0,3}?\s+from\s+(?:home|elsewhere|outside)\b"
                         r"|\b(?P<thing>[a-z]+)\s+(?:brought\s+(?:in\s+)?)?from\s+(?:home|elsewhere|outside)\b", re.I)
_ZH_OUTSIDE = re.compile(r"(?:自带|自己带|自行带|外带|带外面的|从外面带|外来的?|自己的)(?:的)?(?P<thing>[\u4e00-\u9fff]{1,6})")
# A rule with a condition or an exception is another rule.
_CONDITION = re.compile(r"\b(?:if|unless|except|only)\b|如果|只要|除非|除外|仅限", re.I)
_NOT_THINGS = re.compile(r"^(?:bring|brought|take|things?|items?|进|到|入|来)$")


def _outside_thing(text: str) -> str | None:
    """The thing the text speaks of as brought from outside, as its first word."""
    if is_chinese(text):
        match = _ZH_OUTSIDE.search(text)
        held = [w for w in words(match.group("thing")) if not _NOT_THINGS.match(w)] if match else []
        return held[0] if held else None
    match = _EN_OUTSIDE.search(text)
    thing = match and next(g for g in match.groups() if g)
    return None if not thing or _NOT_THINGS.match(thing.lower()) else words(thing)[0] if words(thing) else None


def _same_thing(ours: str, theirs: str, clause: str) -> bool:
    """An English thing is one the clause names anywhere ("their own wedding cake" names the cake)."""
    return found_in(ours, words(clause)) if ours.isascii() else bool(set(ours) & set(theirs))


def outside_rule(statement: str, sentences: list[str]) -> tuple[bool, str] | None:
    """(whether the evidence's rule on the statement's outside thing goes its way, the evidence clause), where a
    clause of the evidence permits or forbids that thing brought from outside; None elsewhere."""
    ours, stance = _outside_thing(statement), modality(statement)
    if ours is None or stance not in ("permit", "forbid") or _CONDITION.search(statement):
        return None
    for clause in (c for s in sentences for c in clauses_of(s)):
        theirs, rule = _outside_thing(clause), modality(clause)
        if theirs and rule in ("permit", "forbid") and not _CONDITION.search(clause) and _same_thing(ours, theirs, clause):
            return rule == stance, clause
    return None


def outside_rule_conflict(statement: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """("modality", the statement's rule, the evidence's, the clause) where the evidence rules the other way on the
    thing the statement lets one bring, or forbids bringing."""
    found = outside_rule(statement, sentences)
    if found is None or found[0]:
        return None
    return "modality", modality(statement), modality(found[1]), found[1]
