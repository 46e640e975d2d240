"""Whether a context speaks of a sibling of the thing a question asks about, and never of that thing: "the Silver
plan costs $20" for "How much is the Gold plan?", "科技馆周一9点开门" for 水族馆几点开门. Such a context holds the kind
of answer asked, with a close cosine, yet answers for another thing. context_relevance holds it not relevant.

Siblings are read from their shape, which a synonym rarely has. In English: two names before the same word naming a
kind of place, plan or product ("Harbor Room" / "Garden Room", "Gold plan" / "Silver plan"), or two model codes
after the same word ("LaserJet M200" / "LaserJet M400", "the Ultra 5" / "the Ultra 7"); two names that differ by a letter or two are one name
misspelt (Convent / Covent Garden), and a name before another word is often a person's (Bryan White / Shelton
White). Two places of different kinds are two things too ("the botanical garden closes at 5 p.m." for when the
aquarium closes, the bowling alley for the ice rink), where neither holds the other: a hotel has a restaurant and a
pool, so only places that stand on their own are read so, in Chinese too (保龄球馆 for 溜冰场). In Chinese: two nouns
of three characters or more that end in the same character naming a kind of place
or body and share no other character (水族馆 / 科技馆, 杭州市 / 成都市), and two words of two characters or more before
the same word naming a kind of plan, ticket, class or service, sharing no character but a last one (白金会员 / 青铜会员, 书法班 /
舞蹈班, 日语班 / 韩语班). A plain English word beside the shared one may
be a synonym ("pottery class" / "pottery course"), and so may Chinese nouns of other shapes (乘客 / 旅客, 新生儿 /
婴儿, 坐火车 / 次列车): those are left alone."""

import re
from difflib import SequenceMatcher

from ragpipe.core.text import content_tokens, is_chinese, pos_tags, stem

_EN_WORD = re.compile(r"[A-Za-z0-9][\w'-]*")
# Words naming a kind of place, plan or product, whose instances are told apart by a name before them.
_EN_HEADS = {"room", "hall", "plan", "pass", "card", "ticket", "tier", "package", "bundle", "membership", "line",
             "route", "branch", "store", "shop", "pool", "gym", "park", "campus", "building", "terminal", "gate",
             "floor", "wing", "lounge", "suite", "edition", "model", "version", "series", "course", "class", "account",
             "subscription", "museum", "library", "clinic", "hospital", "hotel", "restaurant", "station", "center", "centre"}
# Places that stand on their own, by kind (a synonym mapped to one kind): neither is a part of the other.
_EN_PLACE_KINDS = {"pool": "pool", "library": "library", "gym": "gym", "aquarium": "aquarium", "zoo": "zoo",
                   "cinema": "cinema", "bakery": "bakery", "pharmacy": "pharmacy", "chemist": "pharmacy", "bank": "bank",
                   "supermarket": "supermarket", "museum": "museum", "gallery": "museum", "restaurant": "restaurant",
                   "cafe": "cafe", "caf": "cafe", "botanical": "botanical garden",  # "café" is read as "caf"
                   "rink": "ice rink", "alley": "bowling alley", "theatre": "theatre",
                   "theater": "theatre", "stadium": "stadium", "hardware": "hardware store", "locksmith": "locksmith",
                   "barber": "barber", "florist": "florist", "bookshop": "bookshop", "bookstore": "bookshop",
                   "laundromat": "laundromat", "go-kart": "go-kart track", "kart": "go-kart track",
                   "karting": "go-kart track", "trampoline": "trampoline park"}
# The same in Chinese, said as one word (溜冰场 / 保龄球馆: two places, though their last characters differ).
_ZH_PLACE_KINDS = {"溜冰场": "ice rink", "滑冰场": "ice rink", "保龄球馆": "bowling alley", "游泳馆": "pool",
                   "游泳池": "pool", "图书馆": "library", "健身房": "gym", "健身馆": "gym", "电影院": "cinema",
                   "影院": "cinema", "剧院": "theatre", "博物馆": "museum", "水族馆": "aquarium", "动物园": "zoo",
                   "植物园": "botanical garden", "药店": "pharmacy", "药房": "pharmacy", "超市": "supermarket",
                   "面包店": "bakery", "五金店": "hardware store", "开锁店": "locksmith", "理发店": "barber",
                   "花店": "florist", "书店": "bookshop", "洗衣店": "laundromat", "体育场": "stadium",
                   "卡丁车场": "go-kart track", "卡丁车馆": "go-kart track", "蹦床馆": "trampoline park",
                   "蹦床公园": "trampoline park"}
_MODEL_CODE = re.compile(r"(?=.*[a-z])(?=.*\d)[a-z0-9-]+")
# A bare model number has at most three digits (a year has four), and after a month it is a day.
_MODEL_NUMBER = re.compile(r"\d{1,3}")
_MONTHS = {"january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"}
# A word said at the start of a sentence is capitalised whatever it is.
_SENTENCE_START = re.compile(r"(?:^|[.!?]\s+)([A-Za-z0-9][\w'-]*)")
# "本店", "该馆", "我校": the thing itself, named by a pointing word.
_ZH_POINTING = re.compile(r"^[本该此这我贵其各]")
# The last character of a Chinese name of a place or a body: a kind its siblings share (馆: 水族馆, 科技馆).
_ZH_PLACE_HEADS = set("馆院厅店场站园市省县区镇村楼室局所校队厂港岛山湖河桥路街")
# Chinese words naming a kind of plan, ticket, class or service whose instances a word of their own before them tells
# apart (白金会员 / 青铜会员, 书法班 / 舞蹈班, 学历公证 / 出生证明公证), where English writes the instance's name in
# capitals (_EN_HEADS). Not words of a kind of value (时间, 费用: 营业时间 and 开放时间 are one thing), nor 证 or 卡,
# which a context lists as papers to bring (身份证, 银行卡) for the one asked about.
_ZH_KIND_HEADS = {"会员", "套餐", "公证", "保险", "班", "课", "票", "舱", "房"}
# jieba's tags of words that never name an instance: numbers, measure words, pronouns, prepositions, particles,
# punctuation, conjunctions, adverbs, times (每周, 9月).
_ZH_NO_MODIFIER = ("m", "q", "r", "p", "u", "x", "t", "c", "d")


def _en_pairs(text: str) -> list[tuple[tuple[str, bool], tuple[str, bool]]]:
    """Adjacent content words of an English text, each as (stem, whether it reads as a name)."""
    content = set(content_tokens(text))
    starts = {m.start(1) for m in _SENTENCE_START.finditer(text)}
    said = [(stem(m.group().lower()), m.start() not in starts and m.group()[0].isupper())
            for m in _EN_WORD.finditer(text)]
    said = [(w, named) if w in content else None for w, named in said]
    return [(a, b) for a, b in zip(said, said[1:]) if a and b]


def _siblings(shared: tuple[str, bool], asked: tuple[str, bool], given: tuple[str, bool], shared_at: int) -> bool:
    """Whether two words beside the same one name two things of one kind: names before a kind, codes after a word
    (a bare number after a name only: "Ultra 5" / "Ultra 7", not "costs 5" / "costs 7")."""
    (a, a_named), (b, b_named) = asked, given
    if shared_at == 1:  # the names come before the shared word
        return (shared[0] in _EN_HEADS and a_named and b_named and a.isalpha() and b.isalpha()
                and SequenceMatcher(None, a, b).ratio() < 0.7)
    return bool(_MODEL_CODE.fullmatch(a) and _MODEL_CODE.fullmatch(b)
                or shared[1] and shared[0] not in _MONTHS and _MODEL_NUMBER.fullmatch(a) and _MODEL_NUMBER.fullmatch(b))


def _place_kinds(words: set[str]) -> set[str]:
    return {_EN_PLACE_KINDS[w] for w in words if w in _EN_PLACE_KINDS}


def _en_other(question: str, context: str) -> bool:
    asked, given = set(content_tokens(question)), set(content_tokens(context))
    asked_places, given_places = _place_kinds(asked), _place_kinds(given)
    if asked_places and given_places and not asked_places & given_places:
        return True
    for q_pair in _en_pairs(question):
        for c_pair in _en_pairs(context):
            for position in (0, 1):
                q_word, c_word = q_pair[1 - position], c_pair[1 - position]
                if (q_pair[position][0] == c_pair[position][0] and q_word[0] != c_word[0] and q_word[0] not in given
                        and c_word[0] not in asked and _siblings(q_pair[position], q_word, c_word, position)):
                    return True
    return False


def _zh_words(text: str) -> list[tuple[str, str]]:
    """jieba's words, a noun and the place character jieba cut off after it joined again (冰淇淋 店 -> 冰淇淋店,
    卡丁车 场 -> 卡丁车场), as it leaves 面包店 whole."""
    words = []
    for word, flag in pos_tags(text):
        if len(word) == 1 and word in _ZH_PLACE_HEADS and words and words[-1][1].startswith("n"):
            words[-1] = (words[-1][0] + word, "n")
        else:
            words.append((word, flag))
    return words


def _zh_nouns(text: str) -> set[str]:
    return {w for w, flag in _zh_words(text)
            if flag.startswith("n") and len(w) >= 3 and w[-1] in _ZH_PLACE_HEADS and not _ZH_POINTING.match(w)}


def _zh_kinds(text: str) -> set[tuple[str, str]]:
    """(word before, kind word) for each kind word of _ZH_KIND_HEADS, said alone or at the end of a longer word
    (书法 班, 舞蹈班): the word before is the instance's own name, if it has two characters or more. Two names that
    end alike are two of a kind (日语 / 韩语), as _zh_nouns' places are."""
    words = [(w, flag) for w, flag in pos_tags(text)]  # jieba pairs unpack but do not index
    found = set()
    for i, (word, _) in enumerate(words):
        for head in _ZH_KIND_HEADS:
            if word == head and i and not words[i - 1][1].startswith(_ZH_NO_MODIFIER):
                found.add((words[i - 1][0], head))
            elif len(word) > len(head) and word.endswith(head):
                found.add((word[:-len(head)], head))
    return {(modifier, head) for modifier, head in found if len(modifier) >= 2 and not _ZH_POINTING.match(modifier)}


def _zh_place_kinds(text: str) -> set[str]:
    return {kind for word, kind in _ZH_PLACE_KINDS.items() if word in text}


def _zh_other(question: str, context: str) -> bool:
    asked_places, given_places = _zh_place_kinds(question), _zh_place_kinds(context)
    if asked_places and given_places and not asked_places & given_places:
        return True
    if any(q[-1] == c[-1] and q not in context and c not in question and not set(q[:-1]) & set(c[:-1])
           for q in _zh_nouns(question) for c in _zh_nouns(context)):
        return True
    return any(q_head == c_head and q not in context and c not in question and not set(q[:-1]) & set(c[:-1])
               for q, q_head in _zh_kinds(question) for c, c_head in _zh_kinds(context))


def speaks_of_other(question: str, context: str) -> bool:
    """Whether the context names a sibling of the question's thing (see the module) and not the thing itself."""
    return _zh_other(question, context) if is_chinese(question) else _en_other(question, context)
