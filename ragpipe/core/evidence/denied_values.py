"""A statement that denies what the evidence states with a value: "There is no cleaning fee." / "The cleaning fee is
$40 per stay.", "The pool is not heated." / "The outdoor pool is heated to 28°C all year.", 这个泳池没有加热 /
泳池全年恒温加热至28度. The value makes the evidence's clause an assertion of the very thing denied, though the
two share too few words for polarity.py to call one a restatement of the other."""

from __future__ import annotations

import re

from ragpipe.core.evidence.agreement import found_in, words
from ragpipe.core.evidence.facts import facts, negated
from ragpipe.core.evidence.polarity import clauses_of, pronoun

_NEGATION = re.compile(r"\b(?:not|no|never)\b|n['’]t\b|[不没无未]", re.I)
# A value stated under a condition or an exception asserts nothing of every case.
_HEDGED = re.compile(r"\b(?:if|unless|when|whether|except|only)\b|如果|若|除非|假如|除了|仅|只有", re.I)


def denied_value(statement: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """("negation", the statement, the clause, the clause) where the statement, negated and without a value of its
    own, has every one of its words (two at least) in an affirmative evidence clause that states a number."""
    if not negated(statement) or facts(statement).numbers or _HEDGED.search(statement):
        return None
    denial = _NEGATION.search(statement)
    if denial is None or not words(statement[denial.end():]):
        return None  # a fragment that says what it denies nowhere ("whitetail deer do not")
    said = [w for w in dict.fromkeys(words(statement)) if not facts(w).negated and not pronoun(w)]
    if len(said) < 2:
        return None
    for sentence in (s for s in sentences if not _HEDGED.search(s)):  # "If you stay over 3 hours, the fee is $12"
        for clause in clauses_of(sentence):
            held = words(clause)
            if (facts(clause).numbers and not negated(clause)
                    and all(found_in(w, held) for w in said)):
                return "negation", statement.strip(), clause.strip(), clause
    return None
