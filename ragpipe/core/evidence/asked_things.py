"""The thing a yes/no question asks of, affirmed: "Does it cause headaches?" answered "Yes, headaches are a common
side effect." claims headaches, though the word is the question's. invented.py leaves a question's words out of a
claim's new words (they are its topic, "What does the ticket include?"); a yes says the question's own thing, so
where the reply names it again and no evidence sentence names it, the yes is invented.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ragpipe.core.evidence.agreement import BARE_REPLY, asked_as_said, fact_terms, found_in, opening_reply, words
from ragpipe.core.evidence.facts import facts, negated

# A question a yes or no answers: an English one opened by its auxiliary, a Chinese one closed by 吗, or asking
# 是否 / A不A ("会不会") - and none that asks for a value as well ("什么", "哪", "多少").
_EN_YES_NO = re.compile(r"^\W*(?:do|does|did|is|are|was|were|can|could|will|would|should|has|have|may|must)\b[^?]*\?\s*$", re.I)
_ZH_YES_NO = re.compile(r"吗\s*[？?]?\s*$|是否|(\w)不\1")
_ZH_VALUE_ASKED = re.compile(r"什么|哪|谁|多少|几|怎么|如何|为什么")
# The auxiliary, the addressee and a pointing word of the question are no thing asked of.
_NOT_A_THING = re.compile(r"^(?:do|doe|does|did|is|are|was|were|can|could|will|would|should|has|have|may|must|you|your|i|my|we"
                          r"|our|it|its|they|there|any|this|that|these|those|会|能|可以|是|有|要|需要|我|你|您|它|他|她|我们|你们"
                          r"|这|那|这个|那个|这些|那些|该|此)$", re.I)

# A reason or a consequence ("因为爷爷已经100岁了", "so it is safe") explains a reply; it does not give one.
_GROUNDS = re.compile(r"^\W*(?:因为|由于|所以|因此|但是?|而且?|如果|because|since|so|but|therefore|if)(?![a-z])", re.I)


def yes_no(question: str) -> bool:
    """The question is answered by a yes or a no."""
    question = (question or "").strip()
    if _EN_YES_NO.match(question):
        return True
    return bool(_ZH_YES_NO.search(question)) and not _ZH_VALUE_ASKED.search(question)


def unnamed_asked_thing(statement: str, question: str, lowered: str,
                        missing: Callable[[list[str]], list[str]]) -> list[str]:
    """The words of the question's thing that an affirming reply ("Yes, headaches are…", "头痛是常见不良反应": the
    splitter has cut off its "会，") names again and the evidence never names (``missing``, as invented.py reads the
    evidence; a Chinese word by its head character too: "刷卡" is named where the evidence says "信用卡"); [] where
    the reply denies, gives grounds, or names nothing the question asks. The thing is all the question's words it
    names again: "Yes, breakfast is included" against "…covers a buffet breakfast" speaks of the evidence's breakfast,
    "Entry to the museum is free" of its museum. Names are left out: whether the evidence names them is another
    feature's."""
    if not yes_no(question):
        return []
    reply = opening_reply(statement, question)
    claim = reply[1] if reply else statement
    said = words(claim)
    # A negation inside the evidence's own words ("不良反应", "non-refundable") is not the reply's.
    own = claim
    for held in (w for w in said if not missing([w])):
        own = re.sub(re.escape(held), " ", own, flags=re.I)
    if (reply and negated(reply[0])) or negated(own) or _GROUNDS.match(claim):
        return []
    names = {t for n in facts(question).names for t in words(n)}
    asked = [w for w in dict.fromkeys(words(asked_as_said(question)))
             if len(w) > 1 and not _NOT_A_THING.match(w) and w not in names]
    named_again = [w for w in asked if found_in(w, said) or not w.isascii() and w in claim]
    unnamed = [w for w in missing(named_again) if w.isascii() or w[-1] not in lowered]
    # What the reply says of the thing is the evidence's ("…are a common side effect", "…是常见不良反应"): the thing
    # alone is new. A reply most of whose other words the evidence lacks too speaks of something else, or of nothing
    # it has; one where half of them are the evidence's ("馆内全场都开空调": 馆内) places the thing in what it speaks of.
    rest = [w for w in said if len(w) > 1 and w not in named_again and not _NOT_A_THING.match(w)
            and not BARE_REPLY.match(w) and not fact_terms(facts(w))]
    if not unnamed or unnamed != named_again or not rest or 2 * len(missing(rest)) > len(rest):
        return []
    return unnamed
