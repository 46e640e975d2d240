"""A thing said not to be provided where the evidence provides it: "修好的机器不提供保修" against "经本店维修的机器享受6个月
保修", "The shop does not offer a warranty on repairs" against "Every repair comes with a six-month warranty". The
two verbs differ (提供 / 享受, offer / comes with), so polarity.py aligns no clause; the thing offered ties them
(provisions.offered_thing reads it on both sides), and the statement's other words stand in the evidence sentence.
"""

from __future__ import annotations

import re

from ragpipe.core.evidence.agreement import found_in, words
from ragpipe.core.evidence.polarity import clauses_of, overlap
from ragpipe.core.evidence.provisions import offered_thing

_ZH_OFFER_VERBS = "提供|包含|包括|含|设有|配有|配备|附带|附赠|赠送|享受|享有"
# The denial of a verb of offering, cut out to read what it would offer.
_DENIAL = re.compile(rf"(?:并)?(?:不|没有|没)(?={_ZH_OFFER_VERBS})|\b(?:does|do|did)\s+not\s+(?=\w)"
                     r"|\b(?:doesn|don|didn)['’]t\s+(?=\w)", re.I)
# Enjoying a thing is being provided it: "享受6个月保修" offers 保修.
_ENJOYS = re.compile(r"享受|享有")


def denied_offer(statement: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """("negation", the statement's denial, the evidence clause, its sentence) where the statement denies providing a
    thing an evidence clause provides, of what the statement speaks of; None elsewhere."""
    denial = _DENIAL.search(statement)
    if not denial:
        return None
    thing = offered_thing(statement[:denial.start()] + statement[denial.end():])
    if not thing:
        return None
    # The words before the denial say of what ("修好的机器"): half of them stand in the evidence sentence.
    subject = [w for w in words(statement[:denial.start()]) if w not in thing]
    for sentence in sentences:
        if subject and overlap(subject, words(sentence)) < 0.5 * len(subject):
            continue
        for clause in clauses_of(sentence):
            theirs = offered_thing(_ENJOYS.sub("提供", clause))
            if theirs and found_in(thing[-1], theirs):
                return "negation", statement[denial.start():].strip(), clause, sentence
    return None
