"""The thing whose price a question asks ("a local move" in "How much does a local move cost?", 钢琴搬运 in
钢琴搬运多少钱？), and whether a context names it. A context that gives an amount of money and names the priced thing
gives its price or a part of it ("Each additional mover adds $45 per hour to the local rate."): a reader takes it as
relevant, though it names little else of the question and its cosine lies far below the chunk that words the price
as asked. Only the head of the thing counts (its last word: "lesson" of "a driving lesson"), so that a fee of
another thing that shares a modifier ("the driving test fee") is not read as the lesson's price. A context that
names neither the thing nor the fee asked but a fee of its own (违约金, "a cancellation fee") gives that fee, and an
English context that says another thing costs its amount ("a buttonhole costs $18" for a bridal bouquet) gives that
thing's price."""

import re

from ragpipe.core.metrics.asked_kinds import ASKED_VALUES
from ragpipe.core.text import content_tokens, pos_tags

_MONEY = "an amount of money"
# "How much is a driving lesson?" asks its price too. Not read as asked_kinds' price question, which a context
# without an amount fails ("How much is the deposit…?" / "a deposit equal to five weeks' rent"): here it only lets
# a context that gives an amount and names the thing count.
_HOW_MUCH_IS = re.compile(r"\bhow much (?:is|are) (?:a|an|the|one)\b", re.I)

# An English noun phrase after a determiner, up to the word that ends it (a preposition or the asking verb).
_EN_DETERMINER = re.compile(r"\b(?:a|an|the|my|your|our|one|each)\s+(?=[a-z])", re.I)
_EN_PHRASE = re.compile(r"[a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,3}", re.I)
_EN_PHRASE_END = re.compile(r"\s+(?:of|for|at|in|on|to|with|from|per|by|cost|costs|charge|charges|be|is|are|run|"
                            r"come|set)\b.*", re.I)
# Words of the price itself, not of the thing priced ("the price of a season pass").
_EN_PRICE_WORDS = {"price", "cost", "fee", "charge", "rate", "amount", "total"}
# Where a Chinese question's priced thing ends: the words asking its price.
_ZH_PRICE_ASK = re.compile(r"(?:要|需要|大概|一般)?(?:多少钱|多少元|怎么收费|如何收费|收费|价格|费用|票价|售价|贵不贵)")
# Or a sum asked by its kind, the kind being the thing priced (定金 of 翠湖山庄的定金是多少？, 停车费 of 停车费要多少？): a
# context that names it and gives an amount gives it ("预订婚期需先交定金2万元").
_ZH_SUM_ASK = re.compile(r"(?<=[金费租款])(?:是|为|要|需要|需|大概|一般|大约)?多少(?![天年月周个次人位小分岁克斤吨时])")
# jieba's tags of a word that can head a priced thing: nouns, verbs of a service (搬运), set phrases (近视眼镜).
_ZH_HEAD_TAGS = ("n", "v", "l")
_ZH_NOT_HEADS = {"要", "需要", "是", "有"}
_SAME_WORD_LETTERS = 5  # "mover" / "move", "lessons" / "lesson"


def asks_price(question: str, asked_value) -> bool:
    """Whether the question asks a price: asked_kinds reads it so (asked_value is its reading), or "how much is a …"."""
    return bool(asked_value and asked_value[0] == _MONEY or _HOW_MUCH_IS.search(question))


def gives_money(context: str) -> bool:
    return bool(ASKED_VALUES[_MONEY][1].search(context))


def priced_thing_head(question: str) -> str:
    """The last word of the thing whose price the question asks, or "" where none is read."""
    ask = _ZH_PRICE_ASK.search(question) or _ZH_SUM_ASK.search(question)
    if ask:
        heads = [w for w, flag in pos_tags(question[:ask.start()])
                 if flag.startswith(_ZH_HEAD_TAGS) and len(w) >= 2 and w not in _ZH_NOT_HEADS]
        return heads[-1] if heads else ""
    for determiner in _EN_DETERMINER.finditer(question):
        words = _EN_PHRASE_END.sub("", _EN_PHRASE.match(question, determiner.end()).group()).split()
        if words and words[-1].lower() not in _EN_PRICE_WORDS:
            return words[-1].lower()
    bare = _EN_BARE_PRICED.search(question)
    words = _EN_PHRASE_END.sub("", bare.group(1)).split() if bare else []
    return words[-1].lower() if words and words[-1].lower() not in _EN_PRICE_WORDS else ""


# A thing priced without a determiner, a service or a plural ("How much does termite treatment cost?", "What do guitar
# lessons cost?", "How much will gutter cleaning run?"): the words between the asking verb and "cost".
_EN_BARE_PRICED = re.compile(r"\b(?:how much|what)\s+(?:does|do|did|will|would)\s+((?!(?:it|they|this|that|these|those|"
                             r"i|we|you)\b)[a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,3}?)\s+(?:cost|run|charge)\b", re.I)


# A bare thing before what it is of or for ("How much is entry to the cat café?"): the entry is priced, whatever the
# place is called in the context ("Entry to Whisker Lounge is $15").
_EN_BARE_OF = re.compile(r"\bhow much (?:is|are)\s+([a-z-]+)\s+(?:to|for|at|into|of|in)\b", re.I)


def names_priced_thing(question: str, context: str) -> bool:
    bare = _EN_BARE_OF.search(question)
    return named_in(priced_thing_head(question), context) or bool(
        bare and bare.group(1).lower() not in _EN_PRICE_WORDS | {"it", "this", "that"} and named_in(bare.group(1), context))


def named_in(word: str, context: str) -> bool:
    """The context names the word: a Chinese word as written, an English one by its first letters ("renew" /
    "renewals", "cabin" / "cabins")."""
    if not word:
        return False
    if not word.isascii():
        return word in context
    stem = content_tokens(word)
    return bool(stem) and any(w.startswith(stem[0][:_SAME_WORD_LETTERS]) for w in content_tokens(context))


# A fee named as such: a word of three characters or more ending in 费 or 金 (违约金, 楼层费, 手续费; not 收费 or 押金,
# a deposit paid towards the price), "a cancellation fee", "a late fine". Not a surcharge, added to the price asked.
_ZH_FEE = re.compile(r"[\u4e00-\u9fff]{2,4}[费金]")
_EN_FEE = re.compile(r"\b([a-z]+)\s+(?:fees?|fines?|penalt(?:y|ies))\b", re.I)
_ASKS_FEE = re.compile(r"\b(?:fees?|fines?|penalt(?:y|ies))\b|[费金]", re.I)


def gives_another_fee(question: str, context: str) -> bool:
    """The context names a fee the question does not (a cancellation fee, 违约金) and not the thing priced: the
    amount it gives is that fee's, not the price asked ("搬家前24小时内取消的，需支付100元违约金。" for 钢琴搬运多少钱？)."""
    # A question that asks a fee ("the late fee", 违约金多少) is answered by a fee of any name.
    if not priced_thing_head(question) or names_priced_thing(question, context) or _ASKS_FEE.search(question):
        return False
    if _ZH_PRICE_ASK.search(question):
        return any(_ZH_FEE.fullmatch(w) for w, _ in pos_tags(context))
    asked = set(content_tokens(question))
    return any((said := set(content_tokens(m.group(1)))) and not said & asked for m in _EN_FEE.finditer(context))


# "A buttonhole costs $18", "Table centrepieces cost $45 each", "Tent pitches go for $25 a night": a thing said to cost
# (rent, sell or go for, be priced at, start at) an amount, its phrase from the first determiner (or the sentence's
# start) up to the verb, cut at a preposition ("A day ticket for the run").
_EN_PRICED = re.compile(r"(?:^|(?<=[.;!?]\s))([^.;!?]*?)\s+(?:costs?|is|are|(?:rent|sell|go|hire|let)s?\s+for|"
                        r"(?:is|are)\s+priced\s+at|(?:start|begin)s?\s+(?:at|from))\s+"
                        r"(?:only\s+|just\s+|about\s+|around\s+)?"
                        r"(?:[$€£¥]\s?\d|\d[\d,.]*\s*(?:euros?|dollars?|pounds?|cents?)\b)", re.I)
_EN_PREPOSITION = re.compile(r"\s+(?:of|for|at|in|on|to|with|from|per|by)\b.*", re.I)
# Words for the price of entry or of the thing itself, whatever is priced: "Adult admission is $25" prices the museum
# ticket asked; so do a period or a group it is priced by ("The first hour is $15", "Children are $8"). And a surcharge
# or a part ("A three-piece suit is $6 more") adds to the price asked.
_EN_ANY_THING = {"admission", "entry", "ticket", "tickets", "pass", "passes", "fare", "fares", "it", "one", "each", "this",
                 "that", "they", "these", "those", "hour", "hours", "day", "days", "night", "nights", "week", "weeks",
                 "month", "months", "year", "years", "session", "sessions", "visit", "person", "people", "adult", "adults",
                 "child", "children", "kids", "senior", "seniors", "student", "students", "member", "members", "guest",
                 "guests", "group", "groups", *_EN_PRICE_WORDS}
_EN_ADDED = re.compile(r"\b(?:more|extra|additional|plus|on top)\b", re.I)


def _en_priced_phrases(context: str) -> list[list[str]]:
    phrases = []
    for m in _EN_PRICED.finditer(context):
        clause = m.group(1)
        # The thing is named before any place or time said of it ("Dry storage units at the marina rent for…"), unless
        # that is a word of the price or of entry ("The price of a kayak", "Admission to the gallery").
        named = _EN_PREPOSITION.sub("", clause).lower().split()
        if named and named[-1] not in _EN_ANY_THING and named[-1].rstrip("s") not in _EN_PRICE_WORDS:
            clause = " ".join(named)
        determiner = _EN_DETERMINER.search(clause)
        words = _EN_PREPOSITION.sub("", clause[determiner.end():] if determiner else clause).lower().split()
        if words:
            phrases.append(words)
    return phrases


def prices_another_thing(question: str, context: str) -> bool:
    """An English context says a thing the question does not name costs its amount ("At Petal & Stem a buttonhole
    costs $18." for a bridal bouquet's price) and never names the thing priced: the amount is that other thing's.
    A phrase sharing a word with the question may be the thing in other words ("the pottery course" for the class)."""
    head = priced_thing_head(question)
    if not head.isascii() or not head or names_priced_thing(question, context) or _EN_ADDED.search(context):
        return False
    asked = {w[:_SAME_WORD_LETTERS] for w in content_tokens(question)}
    return any(phrase[-1] not in _EN_ANY_THING and content_tokens(phrase[-1])
               and not {w[:_SAME_WORD_LETTERS] for w in content_tokens(" ".join(phrase))} & asked
               for phrase in _en_priced_phrases(context))
