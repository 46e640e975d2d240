"""A condition waived: the statement says a thing holds even if something happened ("you can cancel for a full refund
even if you've already made a claim", 即使已经理赔过也能全额退还) where the evidence grants it only if that did not
happen ("…provided no claim has been made", 退保且未发生理赔的，全额退还).

Both sides affirm the thing and share its words; only the condition opposes them, and it is worded apart ("even if
… made a claim" / "no claim has been made"), so polarity.py sees no negation to compare. What ties the two
conditions is a content word they share (claim, 理赔).
"""

from __future__ import annotations

import re

from ragpipe.core.evidence.agreement import words

_EVEN_IF = re.compile(r"\b(?:even if|even when|even after|even though|regardless of whether|whether or not)\b"
                      r"|即使|即便|哪怕|就算|无论是否|不管是否", re.I)
# The evidence's condition that the thing did not happen: "provided no claim has been made", "as long as you have
# not …", "unless a claim …", 且未发生理赔, 前提是没有….
_ONLY_IF_NOT = re.compile(r"\b(?:provided|providing|as long as|so long as|only if|on condition)\b"
                          r"(?=[^,.;:]*?(?:\b(?:no|none|not|nothing|never)\b|n't\b))"
                          r"|\bunless\b|(?:且|并且|前提是|只要|仅限)(?:尚未|从未|没有|未|无)", re.I)
_CLAUSE_END = re.compile(r"[,.;:!?，。；：！？]|的(?=[，,])")
_CONDITION_WORDS = frozenset("already made have has had been yet no not none nothing never 已经 已 过 发生 曾".split())


def _condition(text: str, marker: re.Match) -> set[str]:
    """The content words of the condition that starts at ``marker``, to its clause's end."""
    end = _CLAUSE_END.search(text, marker.end())
    return set(words(text[marker.end():end.start() if end else len(text)])) - _CONDITION_WORDS


def waived_condition(statement: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """("condition", the statement's "even if …", the evidence's "provided no …", the sentence) where the statement
    waives a condition the evidence grants the thing under; None elsewhere."""
    waived = _EVEN_IF.search(statement)
    if not waived or not (ours := _condition(statement, waived)):
        return None
    for sentence in sentences:
        for granted in _ONLY_IF_NOT.finditer(sentence):
            if ours & _condition(sentence, granted):
                end = _CLAUSE_END.search(sentence, granted.end())
                return ("condition", statement[waived.start():].rstrip("。."),
                        sentence[granted.start():end.start() if end else len(sentence)], sentence)
    return None
