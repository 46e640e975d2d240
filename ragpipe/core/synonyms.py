"""Words a reader takes for one another: a small lexicon of interchangeable words (the everyday and the
written word for one act or thing), and how a statement's word the evidence lacks is read as the evidence's
word (``as_evidence_words``). Tokens are ``text.content_tokens``'s."""

from __future__ import annotations

import re
from functools import lru_cache

from ragpipe.core.text import content_tokens

# Words a careful reader takes for one another in a claim, one class a line: the everyday and the
# written word for one act or thing (吃 / 服用, 一天 / 每日, 付款 / 支付, twice / two), a product
# word and its abbreviation (充电 / 快充), or a verb and its past-tense synonym (removed / dropped).
# Neither hypernyms (pets / animals) nor antonyms (开放 / 闭馆): those claim something else.
_INTERCHANGEABLE = """
吃 服用 服 口服 食用
一天 每日 每天 一日 日均
一次 每次 单次
宝宝 婴幼儿 婴儿 幼儿
充电 快充
满电 充满
付款 支付 付钱 结账
放 播放
要 需 需要 应 应当 须 必须
禁用 禁止 严禁 不得 不能 不准 不许
不宜 避免
到 至
新增 加入 增加 添加
独自 单独 独立
持续 历时 为期 时长
接替 接任 继任
twice two
daily day
weekly week
monthly month
hourly hour
nightly night
annual annually yearly year
forbidden prohibited banned
removed dropped
added introduced
allowed permitted
integrated built-in
acquired bought purchased
wrote written authored penned composed
写 著 撰写 所著 写作
founded established
位于 设在 设于 坐落 地处
缺货 无货 断货 售罄 脱销
晚点 延误 延迟
delayed late
至多 上限 封顶
至少 最少 起码 下限
取现 取款 提现
坐 乘坐 搭乘 乘
送达 到达 抵达 到货 送到
之后 以后 此后
买 购买 购入
孩子 儿童 小孩 小朋友
通常 一般 往往 平常
usually normally generally typically
buy purchase
meal food
kid kids child children
drowsy drowsiness sleepy
报销 赔付 理赔
买票 购票
进场 入场 进入
退款 退还 退费
顾客 客人 宾客
拍照 拍摄
存放 留存
refunded refundable
reimbursed covered
"""


@lru_cache(maxsize=1)
def _interchangeable() -> dict[str, frozenset[str]]:
    classes: dict[str, frozenset[str]] = {}
    for line in _INTERCHANGEABLE.strip().splitlines():
        members = frozenset(t for w in line.split() for t in content_tokens(w)[:1])
        for member in members:
            classes[member] = classes.get(member, frozenset()) | members
    return classes


def reworded_as(text: str, evidence: str) -> str:
    """The text with each lexicon word the evidence lacks written as the evidence's word of its class (买票 as 购票
    where the evidence says 购票): the two then align word for word."""
    for ours, theirs in rewordings(text, evidence).items():
        text = re.sub(_word(ours), theirs, text, flags=re.I)
    return text


def rewordings(text: str, evidence: str) -> dict[str, str]:
    """Each lexicon word of the text the evidence lacks, and the evidence's word of its class. Whole words only (a
    Chinese one of two characters at least), so a word inside another is left alone."""
    found = {}
    for line in _INTERCHANGEABLE.strip().splitlines():
        members = line.split()
        theirs = next((w for w in members if _written(w, evidence)), None)
        found |= {ours: theirs for ours in members if theirs and ours != theirs and _written(ours, text) and not _written(ours, evidence)}
    return found


def _word(word: str) -> str:
    return rf"\b{re.escape(word)}\b" if word.isascii() else re.escape(word) if len(word) >= 2 else r"(?!)"


def _written(word: str, text: str) -> bool:
    return bool(re.search(_word(word), text, re.I))


def interchangeable(token: str) -> frozenset[str]:
    """The content tokens a reader takes for ``token`` (itself included), as content_tokens writes them."""
    return _interchangeable().get(token, frozenset((token,)))


def as_evidence_words(tokens: tuple[str, ...], held: set[str], zh_words: list[str],
                       proper: tuple[str, ...] = ()) -> tuple[str, ...]:
    """A statement's word the evidence lacks (``held`` are the evidence's tokens), read as the evidence's
    word a reader takes it for: an interchangeable word (吃 / 服用, twice / two), an English stem less its
    silent e (smoke / smok), or a Chinese word that one of the evidence's contains or is contained in
    (摄入量 / 摄入, 充满电 / 满电) or that is the word less an inner character (成年人 / 成人; not a
    ``proper`` name: 李小明 is not 李明): a paraphrase adds or drops a character more often than it
    changes the word. Two characters at least on both sides."""
    def read(token: str) -> str:
        if token in held:
            return token
        # A word the lexicon takes for one the evidence has; an English stem less its silent e ("smoke" / "smok"); a word
        # of the evidence's word's family ("delivery" / "delivered", "rehearses" / "rehearsals").
        alike = next((w for w in [*sorted(interchangeable(token)), token[:-1] if token.isascii() and token.endswith("e") else ""]
                      if w in held), None) or family_member(token, held)
        if alike or len(token) < 2 or token.isascii():
            return alike or token
        found = next((w for w in sorted(zh_words) if w in token or token in w), None)
        return found or (token in proper and token) or shortened(token, held) or token

    # The character pairs content_tokens adds after a long Chinese word go with the word: where 成年人 is
    # read as 成人, its 成年 and 年人 are no words the evidence lacks.
    out, word = [], ("", "")
    for token in tokens:
        pair_of_word = len(token) == 2 and token in word[0] and token not in held
        out.append(word[1] if pair_of_word else read(token))
        if not pair_of_word:
            word = (token, out[-1]) if len(token) > 2 and out[-1] != token else ("", "")
    return tuple(out)


# Endings that make a noun, an adjective or an agent of an English verb, longest first ("delivery", "rehearsal",
# "collection", "acceptance", "visitor"), each with the shortest root it may leave: a shorter one is too often another
# word's start ("corn" / "corner", "stat" / "station", "sign" / "signal"). Stems are content_tokens's: plurals and
# -ing/-ed are cut already.
_DERIVED = (("ation", 4), ("ment", 4), ("ance", 4), ("ence", 4), ("ery", 4), ("ion", 5), ("ing", 4), ("al", 5),
            ("er", 5), ("or", 5), ("e", 4))


@lru_cache(maxsize=65536)
def family_root(token: str) -> str:
    """An English stem less a derivational ending, its doubled last consonant single ("trimm" / "trim"): the root
    the words of one family share. Other tokens are themselves."""
    if not token.isascii() or not token.isalpha():
        return token
    if len(token) > 4 and token[-1] == token[-2] and token[-1] not in "aeiouls":
        token = token[:-1]
    for ending, shortest in _DERIVED:
        if token.endswith(ending) and len(token) - len(ending) >= shortest:
            return token[:-len(ending)]
    return token


def family_member(token: str, held) -> str | None:
    """The evidence's word (of ``held``) of the token's family, where the token is English and the evidence lacks it:
    "delivery" read as the evidence's "deliver", "evening" as "even" (the stem of "evening")."""
    if not token.isascii() or len(token) < 4 or token in held:
        return None
    root = family_root(token)
    return next((w for w in sorted(held) if w[:3] == token[:3] and w != token and family_root(w) == root), None)


def shortened(word: str, present) -> str | None:
    """The word less one inner character, where ``present`` holds it (成年人 / 成人)."""
    shorter = (word[:i] + word[i + 1:] for i in range(1, len(word) - 1)) if len(word) >= 3 and not word.isascii() else ()
    return next((w for w in shorter if w in present), None)
