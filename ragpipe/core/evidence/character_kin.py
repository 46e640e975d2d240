"""Chinese words the evidence says with a kindred word: a paraphrase often keeps one telling character of a
compound and changes the rest (续航 / 连续使用, 缴纳 / 缴费, 装修 / 修缮, 邮费 / 运费, 退还 / 退回). A statement's
Chinese word the evidence lacks is read as the evidence's word that shares such a character with it, so that the
coverage features count it as held.

A character is telling when it is rare in use: the frequencies jieba's dictionary gives the words that contain
it sum to little (缴 2,158, 续 35,361; 到 394,566, 能 250,405, 只 168,445): a common one links unrelated words
(受到 / 达到, 能够 / 可能, 一只 / 只有). Never through a negator or a numeral (the readers of negation
and of numbers judge those), nor where one word holds a negator and the other none (免费 / 费用), nor where the
characters that differ oppose each other as in a pair of antonyms.py (上午 / 下午, 最高 / 最低, 室内 / 室外): that is a
swap, not a paraphrase.
"""

from __future__ import annotations

from functools import lru_cache

from ragpipe.core.evidence.antonyms import ANTONYMS
from ragpipe.core.evidence.facts import ZH_NUMERAL
from ragpipe.core.text import jieba_ready

# A character whose words' frequencies in jieba's dictionary sum to at most this is telling enough to link two
# words (费 39,553, 修 34,912 pass; 办 51,295, 指 75,952, 次 127,479 do not).
TELLING_CHARACTER_USE = 40000
_NEGATORS = set("不没无未非否勿莫禁别免")


@lru_cache(maxsize=1)
def _use() -> dict[str, int]:
    """Each character's use: the sum of the frequencies of jieba's dictionary words that contain it."""
    use: dict[str, int] = {}
    for word, frequency in jieba_ready().dt.FREQ.items():
        for character in set(word):
            use[character] = use.get(character, 0) + frequency
    return use


@lru_cache(maxsize=1)
def _opposed_characters() -> frozenset[frozenset[str]]:
    """Character pairs that oppose: the one differing character of two same-length Chinese antonyms (上调 / 下调)."""
    pairs = set()
    for a, b in ANTONYMS:
        if len(a) == len(b) and not a.isascii() and not b.isascii():
            differ = [(x, y) for x, y in zip(a, b) if x != y]
            if len(differ) == 1:
                pairs.add(frozenset(differ[0]))
    return frozenset(pairs)


def _telling(character: str) -> bool:
    return (character not in _NEGATORS and character not in ZH_NUMERAL and not character.isascii()
            and _use().get(character, 0) <= TELLING_CHARACTER_USE)


def kindred_word(token: str, evidence_words: list[str]) -> str | None:
    """The evidence's word (two characters or more) that shares a telling character with the Chinese ``token``,
    where both or neither hold a negator and none of the characters that differ oppose; the first such word in
    sorted order. A word of one character has its kin in a word that contains it (岁 / 周岁, 课 / 开课). None for
    an ASCII token, or no kin."""
    if not token or token.isascii():
        return None
    opposed = _opposed_characters()
    for word in sorted(evidence_words):
        shared = set(token) & set(word)
        if not any(_telling(c) for c in shared) or bool(set(token) & _NEGATORS) != bool(set(word) & _NEGATORS):
            continue
        if any(frozenset((a, b)) in opposed for a in set(token) - shared for b in set(word) - shared):
            continue
        return word
    return None
