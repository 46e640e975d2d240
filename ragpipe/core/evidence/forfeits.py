"""What becomes of money held back, under one condition: the statement says a deposit is refunded where the evidence
says it is lost under the same condition, or the other way round ("the deposit is refunded if you don't show up" /
"clients who don't show up lose their deposit"; "不足24小时取消，定金可以退还" / "不足24小时取消的，定金不予退还").

Both sides name the money and the condition in the same words; only the fate differs, and it is worded apart
(refunded / forfeit, 退还 / 不予退还), so polarity.py sees no negation and antonyms.py no pair. The condition's own
"not" must agree: "refunded if you show up" says what "who don't show up lose their deposit" leaves room for.
"""

from __future__ import annotations

import re

from ragpipe.core.evidence.agreement import found_in, words

# The money held back: a deposit and its kin.
_MONEY = re.compile(r"\b(?:deposits?|down payments?|security bond|bond)\b|定金|订金|押金|保证金", re.I)
# Lost (checked first: "not refunded", "不予退还" hold a word of the refund).
_KEPT = re.compile(r"\b(?:los(?:e|es|t|ing)|forfeit(?:s|ed)?|kept|keeps?|retain(?:s|ed)?|withh(?:o|e)ld|non-?refundable)\b"
                   r"|\b(?:not|never|no longer|n't)\s+(?:be\s+)?(?:refunded|returned|given back|paid back)\b"
                   r"|不予?退还?|不予?返还|不退|概不退|不予退回|扣除|扣掉|没收", re.I)
# Refunded: the money's own passive ("is returned"), not "return the tool".
_RETURNED = re.compile(r"\b(?:refund(?:ed|s)?|(?:is|are|be|been|gets?)\s+returned|get\s+(?:\w+\s+){0,2}back"
                       r"|given\s+back|paid\s+back|repaid)\b|退还|退回|返还|退款", re.I)
_NOT = re.compile(r"n't\b|\b(?:not|no|never|without)\b|不|没|未|无", re.I)
# Words beside the condition that the two sides need not share: the one who pays ("you", "clients", 患者), how much
# comes back ("in full", 全额), a modal (可以).
_BESIDE = frozenset("you your client customer patient guest member renter full 客户 顾客 患者 会员 客人 用户 也 可以 全额".split())


def _fate(clause: str) -> tuple[str, str, str] | None:
    """("kept" or "returned", its words as written, the clause less them), or None where it names neither."""
    for kind, found in (("kept", _KEPT.search(clause)), ("returned", _RETURNED.search(clause))):
        if found:
            return kind, found.group(0), clause[:found.start()] + " " + clause[found.end():]
    return None


def _condition(rest: str) -> tuple[list[str], bool]:
    """The condition's content words and whether it is denied."""
    plain = _MONEY.sub(" ", rest)
    return [t for t in dict.fromkeys(words(plain)) if t not in _BESIDE], bool(_NOT.search(plain))


def _clauses(text: str, chinese_whole: bool) -> list[str]:
    # A Chinese condition sits before the comma its fate follows ("不足24小时取消的，定金不予退还"): sentences whole.
    return [c for c in re.split(r"[;；。]" if chinese_whole else r"[;；。]|,\s*(?:and|but)\s+", text) if c.strip()]


def forfeit_conflict(statement: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """("antonym", the statement's fate, the evidence's, the sentence) where the evidence clause on the same money
    under the same condition gives it the other fate; None elsewhere."""
    if not _MONEY.search(statement):
        return None
    for clause in _clauses(statement, False):
        ours = _fate(clause)
        if not ours:
            continue
        condition, denied = _condition(ours[2])
        if not condition:
            continue
        for i, sentence in enumerate(sentences):
            # The money may be named in the sentence before: "A $100 deposit is required;" / "it is returned when …".
            if not _MONEY.search(sentence) and not (i and _MONEY.search(sentences[i - 1])):
                continue
            for part in _clauses(sentence, True):
                theirs = _fate(part)
                if not theirs or theirs[0] == ours[0]:
                    continue
                their_condition, their_denied = _condition(theirs[2])
                held = sum(found_in(t, their_condition) for t in condition)
                if denied == their_denied and held >= max(1, 0.6 * len(condition)):
                    return "antonym", ours[1], theirs[1], sentence
    return None
