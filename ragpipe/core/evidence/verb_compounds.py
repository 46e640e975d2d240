"""A one-character Chinese verb said by the evidence as a two-character verb that holds it: written Chinese
(the evidence) prefers the two-character form, an answer often says the one character (带 / 携带, 取 / 领取,
看 / 观看, 坐 / 乘坐, 租 / 租用). The compound's other character adds register, not a claim.

The part of speech is jieba's dictionary's; both sides must be verbs (用 the preposition is no 使用, 关 in 关于 no
关闭). Never through a negator (禁带 / 带), nor a numeral.
"""

from __future__ import annotations

from ragpipe.core.evidence.facts import ZH_NUMERAL
from ragpipe.core.evidence.frame_words import dictionary_tag

_NEGATORS = set("不没无未非否勿莫禁别免")


def _verb(word: str) -> bool:
    return dictionary_tag(word).startswith("v")


def compound_verb(token: str, evidence_words: list[str]) -> str | None:
    """The evidence's two-character verb that holds the one-character verb ``token``, the first in sorted order;
    None for any other token, or none such."""
    if len(token) != 1 or token in _NEGATORS or token in ZH_NUMERAL or token.isascii() or not _verb(token):
        return None
    return next((w for w in sorted(evidence_words)
                 if len(w) == 2 and token in w and _verb(w) and not set(w) & _NEGATORS), None)
