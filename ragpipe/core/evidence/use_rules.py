"""Rules of use, found by rule: a statement that lets a group use a thing ("Children under 12 can take it too.")
where the evidence forbids that group its use ("Do not give this medicine to children under 12."), or the
other way round.

polarity.py reads "can" and an imperative "do not" as ability and advice as often as rules ("The soil can dry
out" / "Don't let the soil dry out"), so it opposes them only to an explicit modal word. With a verb of use
after them (take, use, give, eat, drink, …) they are rules: "can take" permits and "do not give … to" forbids
the same act, seen from the taker's side or the giver's. The group ties the two: every word of it, and the
same bound ("under 12" is not "over 12"), must stand in the evidence clause.
"""

from __future__ import annotations

import re

from ragpipe.core.evidence.agreement import found_in, words
from ragpipe.core.evidence.facts import bounds
from ragpipe.core.evidence.polarity import clauses_of, modality, pronoun
from ragpipe.core.text import is_chinese

_USE = (r"(?:tak(?:e|en|ing)|us(?:e|ed|ing)|consum(?:e|ed|ing)|eat(?:en|ing)?|drink(?:ing)?|appl(?:y|ied|ying)"
        r"|giv(?:e|en|ing)|administer(?:ed|ing)?)")
# "can take", "may also be given", "do not give", "never use", "must not take": the modal and its verb of use.
_PERMITS_USE = re.compile(r"\b(?:can|may)\s+(?:also\s+|safely\s+)?(?:be\s+)?" + _USE + r"\b", re.I)
_FORBIDS_USE = re.compile(r"^\s*(?:please\s+)?(?:do\s+not|don['’]t|never)\s+" + _USE + r"\b"
                          r"|\b(?:must|may|should|can)\s*not\s+(?:be\s+)?" + _USE + r"\b"
                          r"|\b(?:mustn|shouldn|can)['’]?t\s+(?:be\s+)?" + _USE + r"\b", re.I)
_VERB_OF_USE = re.compile(r"\b" + _USE + r"\b", re.I)
# Words of the rule, not of the group it names.
_RULE_WORDS = re.compile(r"^(?:can|may|must|should|not|never|also|too|safe|safely|pleas|medicin|product|drug|tablet"
                         r"|this|that|these|it|them)\w*$", re.I)
_CONDITION = re.compile(r"\b(?:if|unless|when|whether|except)\b", re.I)


def _stance(text: str) -> str | None:
    if _FORBIDS_USE.search(text):
        return "forbid"
    return "permit" if _PERMITS_USE.search(text) else None


def _group(text: str) -> list[str]:
    """The words of a rule of use but its verbs and modal words: whom (and what) it speaks of."""
    rest = _VERB_OF_USE.sub(" ", text)
    return [w for w in dict.fromkeys(words(rest)) if not _RULE_WORDS.match(w) and not pronoun(w)]


def use_rule_conflict(statement: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """The evidence clause that forbids the statement's group the use the statement permits it, or permits what
    the statement forbids: ("modality", the statement's rule words, the clause's, the clause)."""
    if is_chinese(statement) or _CONDITION.search(statement):
        return None  # Chinese rules of use say 禁用 / 可以服用 explicitly: polarity.py reads them
    stance = _stance(statement)
    group = _group(statement)
    if stance is None or not group:
        return None
    for clause in (c for s in sentences for c in clauses_of(s)):
        theirs = _stance(clause)
        if theirs is None or theirs == stance or _CONDITION.search(clause) or bounds(clause) != bounds(statement):
            continue
        if all(found_in(w, words(clause)) for w in group) and modality(clause) in (theirs, None):
            mine = (_FORBIDS_USE if stance == "forbid" else _PERMITS_USE).search(statement).group(0)
            return "modality", mine, (_FORBIDS_USE if theirs == "forbid" else _PERMITS_USE).search(clause).group(0), clause
    return None
