"""What a statement says each of a whole has: "Every room has a balcony.", "Each lane comes with a bumper option.",
"每间客房都有阳台。", "每个房间都配有浴缸。" invented.py reads it as a claim that needs its thing named: evidence that
speaks of the rooms and never names a balcony does not bear it out.

A plain "has a" is left alone: it is mostly a quality on RAGTruth ("has a mixed reputation", "has a background in"),
where 12 of the 22 statements it read were supported (provisions.py). The whole that "every" / 每 / 所有 names is a
set of things, and what each of them has is a fitting or a feature of it; what each has of its own ("its own way",
"每个程序员都有自己喜欢的编程语言") is a saying about people, no fitting.
"""

from __future__ import annotations

import re

from ragpipe.core.evidence.agreement import words

# "Every room has a balcony", "All rooms come with a kettle", "Each desk is equipped with a lamp"; the thing stops at a
# preposition or clause word ("a bumper option for kids": bumper option).
# What each one receives is had too ("Every passenger receives a certificate", "After landing, everyone is served a
# glass of champagne", "落地后每位乘客都会收到一张照片"): a time before it says when.
_EN_EACH_HAS = re.compile(r"^\s*(?:(?:after|before|at|on|once|during)\b[^,]{1,40},\s*)?"
                          r"(?:(?:every|each|all(?: (?:the|our|of the))?)\s+(?P<whole>[\w'-]+(?:\s+[\w'-]+)?)|(?P<everyone>everyone|everybody))\s+"
                          r"(?:has|have|comes? with|(?:is|are) equipped with|receives?|gets?|(?:is|are) (?:given|served|handed))\s+"
                          r"(?:an?\s+)?(?!(?:its|their|his|her) own\b)"
                          r"(?P<thing>[\w'-]+(?:\s+(?!(?:with|of|on|in|at|for|to|from|and|or|by|that|which|who)\b)[\w'-]+){0,2}"
                          r"(?:\s+of\s+(?:the\s+)?[\w'-]+)?)",  # "a glass of champagne": the champagne is the thing too
                          re.I)
# "每间客房都有阳台", "所有房间均配有浴缸", "每条球道都配有儿童护栏"; a count before the thing says how many ("一个").
_ZH_EACH_HAS = re.compile(r"(?:每(?:一)?[个间位条台张辆家所座套]|所有|全部)(?P<whole>[\u4e00-\u9fff]{1,6}?)[都均也]?"
                          r"(?:配有|带有|设有|配备|拥有|有|会?(?:收到|获得|得到|领到|获赠))(?:[一两\d]+[个台张间套只把条块份]?)?(?!自己)"
                          r"(?P<thing>[\u4e00-\u9fff]{2,8})")
# The words that frame such a claim say nothing of its own: "每个房间都配有独立卫生间" asked "房间有独立卫生间吗？"
# claims only what its question names.
_FRAME_WORD = re.compile(r"^(?:每个|每间|每位|每条|每台|每一|所有|全部|配有|带有|设有|配备|拥有)$")
_NEGATED = re.compile(r"\b(?:not|no|never|without)\b|n't\b|[不没未]|无(?!线)")


def each_has(statement: str) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """(the whole's words, the thing's words) where the statement says every one of a whole has a thing; else None."""
    if _NEGATED.search(statement):
        return None
    found = _EN_EACH_HAS.search(statement) or _ZH_EACH_HAS.search(statement)
    if not found:
        return None
    whole, thing = words(found.groupdict().get("whole") or found.group("everyone")), words(found.group("thing"))
    return (whole, thing) if whole and thing else None


def frame_word(word: str) -> bool:
    """A Chinese word that only frames a claim of what each of a whole has (每个, 所有, 配有): none of its claim."""
    return bool(_FRAME_WORD.match(word))


# What every one of a whole does: "Every session ends with a free disco hour", "every tutor completes a safeguarding
# course before teaching any pupil" (a clause of time after it says when, not what: left out), "每位导师都要参加安全培训".
_AUXILIARY = r"(?:has|have|is|are|was|were|can|may|must|will|should|could|would|do|does)\b"
_EN_EVERY_DOES = re.compile(rf"^\W*(?:(?:yes|yeah)\W+)?(?:every|each|all(?: (?:the|our|of the))?)\s+(?!of\b)[\w'-]+(?:\s+(?!{_AUXILIARY})[\w'-]+)??\s+"
                            rf"(?P<predicate>(?!{_AUXILIARY})[a-z]+\b.*?)"
                            r"(?:\s+\b(?:before|after|when|while|until|once|during|if)\b.*)?\W*$", re.I)
_ZH_EVERY_DOES = re.compile(r"^(?:每(?:一)?[个间位条台张辆家所座套名场次]|所有|全部)[\u4e00-\u9fff]{1,6}?[都均]"
                            r"(?!(?:有|配有|带有|设有|配备|拥有|是|可以|可|能|不|没|未))(?P<predicate>[^，。；！？,.;!?]{2,16}?)"
                            r"(?:(?:之前|之后|以前|以后|前|后|时)[^，。；！？,.;!?]*)?[，。；！？,.;!?]?$")


def every_does(statement: str) -> tuple[str, ...]:
    """The words of what a statement says every one of a whole does ("ends with a free disco hour"); () where it says
    no such thing, denies it, or says what each has (``each_has``) or is."""
    if _NEGATED.search(statement):
        return ()
    found = _EN_EVERY_DOES.match(statement) or _ZH_EVERY_DOES.match(statement)
    return words(found.group("predicate")) if found else ()

