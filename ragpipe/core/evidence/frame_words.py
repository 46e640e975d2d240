"""Chinese words that frame a claim without making one, and words the segmenter made up: what a faithful Chinese
paraphrase adds around the evidence's words, and no reason to doubt it.

A paraphrase says the evidence's claim in its own sentence frame: a measure word (这座城市) or a particle (镇压着,
慢慢地). Those are grammar; where the evidence lacks one, the claim is not the less supported. Their class is
the part of speech jieba's dictionary gives them, not a list of words. Conjunctions and prepositions are not: many
condition or limit a claim (只有, 只要, 除了, 比).

jieba also guesses a word its dictionary lacks from the characters around it, across the paraphrase's own word
boundaries (满电状态下能连续放 gives 下能, 这座城市 gives 这座). Such a guess is read as the dictionary words it is made
of (下 + 能, 这 + 座); a character of it that the evidence has inside one of its words (取 in 取现) is held, and so is
a piece that is a stopword or a frame word.

Never a word with a negator's character (the polarity readers judge those), a numeral, a word of an antonym pair
(之前 / 之后, 以上 / 以下: a swap, not a frame), a name, or an ASCII token.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ragpipe.core.evidence.antonyms import ANTONYMS
from ragpipe.core.evidence.facts import ZH_NUMERAL
from ragpipe.core.text import ZH_STOPWORDS, jieba_ready

# Parts of speech of jieba's dictionary that are grammar, not content: measure words and particles (u, uj, ul, uz, ...).
FRAME_TAGS = ("q", "u")
_NEGATORS = set("不没无未非否勿莫禁别免")


@lru_cache(maxsize=1)
def _antonym_words() -> frozenset[str]:
    return frozenset(w for pair in ANTONYMS for w in pair)


@lru_cache(maxsize=1)
def _tags() -> dict[str, str]:
    import jieba.posseg

    jieba_ready()
    return jieba.posseg.dt.word_tag_tab


def dictionary_tag(word: str) -> str:
    """The part of speech jieba's dictionary gives a word ("" for a word it lacks): the word's own class, not
    one read from a sentence."""
    return _tags().get(word, "")


def _plain(token: str) -> bool:
    """A Chinese token a frame reading may touch: no negator, numeral, antonym or ASCII."""
    return (bool(token) and not token.isascii() and not set(token) & _NEGATORS and not set(token) & set(ZH_NUMERAL)
            and token not in _antonym_words())


def frame_word(token: str, statement: str = "") -> bool:
    """A Chinese word whose part of speech in jieba's dictionary is grammar (FRAME_TAGS); not a measure word the
    ``statement`` puts after a number: that is a unit (14天, 两周), a value the number readers judge."""
    tag = dictionary_tag(token)
    if tag == "q" and re.search(rf"[\d{ZH_NUMERAL}]\s*{re.escape(token)}", statement):
        return False
    return _plain(token) and tag.startswith(FRAME_TAGS)


def _guessed(token: str) -> bool:
    """A word jieba's dictionary lacks: the segmenter guessed it."""
    return not jieba_ready().dt.FREQ.get(token)


def held_in_pieces(token: str, held: set[str], evidence_words: list[str]) -> bool:
    """A word the segmenter guessed whose dictionary pieces are each held: an evidence token, a stopword, a frame
    word, or one character found inside one of the evidence's words (取 / 取现)."""
    if not _plain(token) or len(token) < 2 or not _guessed(token):
        return False
    def held_piece(piece: str) -> bool:
        inside = len(piece) == 1 and _plain(piece) and any(piece in w for w in evidence_words)
        return piece in held or piece in ZH_STOPWORDS or frame_word(piece, token) or inside

    pieces = jieba_ready().lcut(token, HMM=False)
    return len(pieces) > 1 and all(held_piece(p) for p in pieces)


def without_frame_words(tokens: tuple[str, ...], held: set[str], evidence_words: list[str], names=(),
                        statement: str = "") -> tuple[str, ...]:
    """The statement's content words less those the evidence lacks that only frame the claim: frame words, and
    guessed words whose pieces the evidence holds. A name stays (李小明 is a name, whatever jieba guessed)."""
    return tuple(t for t in tokens
                 if t in held or t in names or not (frame_word(t, statement) or held_in_pieces(t, held, evidence_words)))
