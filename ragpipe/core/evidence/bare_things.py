"""A statement that is only a thing named, a noun phrase with no verb ("A packed lunch.", "a refillable water bottle",
"防晒霜", "一份午餐和一个水壶"), where the question asks what thing (what to bring, buy or show): a reply or a reference
that lists it. It claims that thing, where the question points, and nothing else: one none of whose words the evidence
holds is unsupported however short (invented.py), where a two-word fragment of a longer claim is too short to tell. A
Chinese claim of a noun and a value ("成年人门票120元") or of a predicate jieba tags as a noun ("全部商品包邮") answers
no what-question; one with a digit states a value, which the value readers check."""

import re

from ragpipe.core.text import is_chinese, pos_tags

# An English noun phrase opened by a determiner, up to four words and none an auxiliary, a modal or a verb's "to"
# ("A packed lunch", "an extra pair of socks", "some warm clothes"; not "A refund is possible", "The museum can open").
_EN_THING = re.compile(r"^\W*(?:a|an|some|one|two|three|a pair of|your|their|his|her|its)\s+"
                       r"(?!.*\b(?:is|are|was|were|be|been|has|have|had|can|could|will|would|must|may|might|should|"
                       r"do|does|did|to|not)\b)[a-z][\w'-]*(?:\s+[\w'-]+){0,3}\W*$", re.I)
# jieba's tags of a Chinese noun phrase's words: nouns, numerals and measure words, adjectives, "的", and a conjunction
# that joins two things (not "而不是白嘉轩", a denial).
_ZH_THING_TAGS = ("n", "m", "q", "a", "b", "uj")
_ZH_JOINS_THINGS = {"和", "与", "及", "以及", "或", "或者", "跟"}
_ZH_MAX_CHARS = 12
_ASKS_WHAT_THING = re.compile(r"什么|哪些|哪[个种样件]|\bwhat\b|\bwhich\b", re.I)


def names_only_a_thing(statement: str, question: str) -> bool:
    """The statement is a noun phrase and nothing more, answering a what-question (see the module)."""
    text = statement.strip().rstrip("。.！!；;")
    if not _ASKS_WHAT_THING.search(question) or re.search(r"\d", text):
        return False
    if not is_chinese(text):
        return bool(_EN_THING.match(text))
    tagged = pos_tags(text)
    return 0 < len(text) <= _ZH_MAX_CHARS and any(f.startswith("n") for _, f in tagged) and \
        all(f.startswith(_ZH_THING_TAGS) or w in _ZH_JOINS_THINGS for w, f in tagged)
