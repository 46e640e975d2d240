"""What a claim says is provided: the thing named by a verb of offering or including, or the subject of
"… is free / included / available" ("hot meal" in "Economy passengers get a free hot meal", "Wi-Fi" in
"Wi-Fi is free on board", 无线网络 in "车上提供免费无线网络", 停车 in "会员可以免费停车").

invented.py reads it: a claim that offers a thing the evidence never names invents that thing, whatever
incidental word ("first class", "free", 一等座) it shares with the evidence.
"""

from __future__ import annotations

import re

from ragpipe.core.evidence.agreement import words
from ragpipe.core.text import is_chinese, pos_tags

# A verb of offering or including, and what follows it up to a preposition, a conjunction, a word of place ("a café next
# to the shop" offers a café) or a clause's end ("a certificate of completion"); "contains" as "includes". "has"/"have"/"get" are left out: mostly auxiliaries ("have noted") or a
# rating ("has 4 stars"), except "get(s) free …". Even "has a" + a noun phrase is mostly a quality on RAGTruth ("has a
# mixed reputation", "has a background in", "has a nucleus"): 12 of the 22 statements it read there were supported.
_EN_OFFERS = re.compile(r"\b(?:includes?|offers?|provides?|features?|contains?|comes? with|there (?:is|are)|there['’](?:s|re)|(?:gets?|has|have)(?=\s+(?:a\s+)?(?:free|complimentary)\b))\s+"
                        r"(?=(?:an?|free|complimentary)\s)(?P<thing>[\w'-]+(?:\s+(?!(?:with|of|on|in|at|for|to|from|and|or|by|during|if|when|that|which|"
                        r"who|per|every|each|is|are|next|beside|near|opposite|behind|inside|outside)\b)[\w'-]+){0,3})", re.I)
# A subject offered: "Wi-Fi is free on board", "Meals are included in first class".
# A reply before the claim: "Yes, insurance is included".
_EN_REPLY = re.compile(r"^\s*yes\s*[,.!]\s*", re.I)
_EN_OFFERED = re.compile(r"^\s*(?:the\s+|a\s+|an\s+)?(?P<thing>[\w'-]+(?:\s+[\w'-]+){0,2}?)\s+(?:is|are)\s+(?:also\s+)?"
                         r"(?:free|included|available|provided|offered|complimentary)\b", re.I)
# The object is one thing or a free one ("a rooftop restaurant", "free meals"): a bare plural or mass noun after the
# verb is mostly a summary's abstraction ("provide relief", "there are some concerns", "include convenience").
# What a place or a text is like is no thing it offers ("offers a lively atmosphere", "provides an overview of …").
_NOT_A_THING = re.compile(r"^(?:atmosphere|ambi[ae]nce|vibe|feel|experience|impression|sense|overview|summary|description|"
                          r"explanation|introduction|account|update|insight|picture|glimpse|look|opportunity|chance)s?$", re.I)
# "a variety of sandwiches" offers sandwiches.
_EN_AMOUNT = re.compile(r"\b(?:a|an)\s+(?:(?:wide|diverse|large|small|good|great|decent)\s+)?(?:variety|range|selection|number|"
                        r"lot|choice|array|mix|list|couple)\s+of\s+", re.I)
_EN_DETERMINER = re.compile(r"^(?:a|an|the|some|any|its|their|free|complimentary|also|both|several|many|various)$", re.I)
_PRONOUN = re.compile(r"^(?:it|this|that|they|these|those|which|everything|all|each|both)$", re.I)
# What is denied is not offered ("they do not provide Wi-Fi", "There is no mention of …"): contradiction.py's business.
_NEGATED = re.compile(r"\b(?:not|no|never|none|without)\b|n't\b|[不没未]|无(?!线)|并非")  # 无线 is wireless
# 提供/含/包括/设有/颁发… and what follows up to the clause's end; "可(以)免费 + verb" offers the verb's act, and a gift
# given besides ("租车还送一瓶矿泉水", "另送", "附送") its thing (not 送达 / 送货, a delivery).
_ZH_OFFERS = re.compile(r"(?:提供|包含|包括|含有|含|设有|配有|配备|附带|附赠|赠送|颁发|发放|可以免费|可免费"
                        r"|(?:还|另|再|加|附)送(?![达货到往]))(?P<thing>[^，。；、！？,.;!?]+)")


# A question that asks what something offers or has: "What comes with the camera?", "Does the apartment have a
# dishwasher?", "What facilities are there?", "小区有游泳池吗？", "这款手机配有什么配件？" (a short question: a long
# instruction that tells a writer to "include details" asks for no offer). In reply to one, "has a …" and 带/带有 offer
# the thing they name; elsewhere "has a" is mostly a quality (above), and a bare 有 is one everywhere (有关系, 有事业线).
# "Is there parking?" asks whether a thing is had, as 有停车场吗 does.
_EN_OFFER_ASKED = re.compile(r"\b(?:includ(?:es?|ed)|offers?|provides?|contains?|comes? with|facilities|amenities|perks|extras)\b"
                             r"|^\W*(?:does|do|is there|are there)\b.*\b(?:has|have)\s+(?:an?|any)\s|^\W*(?:is|are) there\b", re.I)
_ZH_OFFER_ASKED = re.compile(r"提供|包含|包括|含有|设有|配有|配备|附带|附赠|赠送|设施|配件|有没有|有(?:什么|哪些)|(?<![所没])有[^，。？?]{1,10}吗")
_EN_HAS = re.compile(r"\b(?:has|have)\s+" + _EN_OFFERS.pattern.split(r")\s+", 1)[1], re.I)
_ZH_HAS = re.compile(r"(?:带有|拥有|(?<![携])带(?![来着领动走回上去]))(?P<thing>[^，。；、！？,.;!?]+)")
# "包含在里面", "包括在房费内": the verb's object is the place of inclusion, the thing its subject (adverbs before the verb left out).
_ZH_INSIDE = re.compile(r"^(?:在[^，。；、！？,.;!?]{0,8}?)?(?:里面|里边|里头|其中|之内|在内|内|中)\s*$")
_ZH_ADVERBS = re.compile(r"[都也均已全]+\s*$")
# A count and its classifier ("一个", "一副") says how many, not what: "一个地下车位" offers 地下车位.
_ZH_COUNT = re.compile(r"^[一二两三四五六七八九十几\d]+[个副台张间套份只件把辆块条双对]?$")


# Including, as a list of contents says it: "including basic insurance", "comes with", 包括, 配有.
_INCLUDES = re.compile(r"\binclud(?:e|es|ed|ing)\b|\bcomes? with\b|包含|包括|含有|配有|附带|附赠", re.I)


# Where an English thing stands ("next to the reuse shop", "beside the tool shed"): to the clause's end.
_EN_PLACE = re.compile(r"\b(?:next to|beside|near|opposite|behind|inside|outside)\b[^,;.]*", re.I)


def place_words(text: str) -> tuple[str, ...]:
    """The words of where a thing is said to stand ("beside the tool shed"): they say where, not what is offered."""
    return tuple(w for m in _EN_PLACE.finditer(text) for w in words(m.group(0)))


def says_included(text: str) -> bool:
    """The text says what is included (a list of contents, or a claim about one)."""
    return bool(_INCLUDES.search(text))


def asks_offer(question: str) -> bool:
    """The question asks what something offers, includes or has."""
    question = question or ""
    if is_chinese(question):
        return len(question) <= 30 and bool(_ZH_OFFER_ASKED.search(question))
    return len(question.split()) <= 15 and bool(_EN_OFFER_ASKED.search(question))


_ZH_OBJECT_FLAGS = frozenset({"n", "nr", "ns", "nt", "nz", "r"})  # a noun, a name or a pronoun; not a verbal noun (服务)


def _zh_object(written: str) -> str:
    """What a Chinese verb of offering takes, less a purpose after it: "两辆婚车接送新人" offers 婚车, and 接送新人
    says what for (a verb after a noun starts it); "免费停车" offers the act itself."""
    tagged = [(word, flag) for word, flag in pos_tags(written)]
    named = False
    for k, (word, flag) in enumerate(tagged):
        # "行李寄存服务" is one thing: the verb is a purpose's only where a plain noun (its object) ends the phrase.
        if named and flag == "v" and tagged[-1][1] in _ZH_OBJECT_FLAGS and k < len(tagged) - 1:
            return "".join(w for w, _ in tagged[:k])
        named = named or flag.startswith("n")
    return written


def offered_thing(statement: str, asked: bool = False) -> tuple[str, ...]:
    """The words (as agreement.words spells them, the head last) naming what the statement says is
    provided; () where it offers nothing or denies it. ``asked``: the question asks what is offered or had
    (asks_offer), so "has a …" and 带 offer too."""
    if _NEGATED.search(statement):
        return ()
    if is_chinese(statement):
        found = _ZH_OFFERS.search(statement) or (_ZH_HAS.search(statement) if asked else None)
        if not found:
            return ()
        written = _zh_object(found.group("thing"))
        if _ZH_INSIDE.match(written):  # "陶土和烧制都包含在里面": what is included stands before the verb
            written = _ZH_ADVERBS.sub("", statement[:found.start()])
        thing = tuple(w for w in words(written) if w != "免费" and not _ZH_COUNT.match(w))
        if thing and len(thing[-1]) > 1:
            return thing
        rest = re.sub(r"^(?:免费|的)+", "", written)  # jieba glues "免费餐" + "食": the thing is 餐食
        return (rest,) if len(rest) > 1 else ()
    statement = _EN_REPLY.sub("", _EN_AMOUNT.sub("", statement))
    found = _EN_OFFERED.search(statement) or _EN_OFFERS.search(statement) or (_EN_HAS.search(statement) if asked else None)
    kept = [w for w in found.group("thing").split() if not _EN_DETERMINER.match(w)] if found else []
    # "a lively and enjoyable atmosphere": the phrase stops at "and", the noun that says what it is comes later
    said_after = re.findall(r"[\w'-]+", statement[found.start("thing"):]) if found else []
    if not kept or _PRONOUN.match(kept[-1]) or any(_NOT_A_THING.match(w) for w in said_after[:6]):
        return ()
    return tuple(t for w in kept for t in words(w))
