"""A fee said to be none: the statement calls an act free ("Extending the booking by an hour costs nothing.",
"搬家前24小时内取消不收任何费用") where the evidence charges for the same act under the same condition ("Extending a
booking by one hour costs $20", "搬家前24小时内取消的，需支付100元违约金").

polarity.py opposes "free" to a price only within one clause, and a Chinese rule puts its condition in one clause and
its fee in the next ("…取消的，需支付…"): here the rule is read whole, up to its semicolon. The act and its condition
tie the two: nearly every word of the statement but its free-words stands in the rule's sentence (the rule may leave
its subject to the sentence's first part: "婚宴如需延期…；60天内申请延期的，收取…"), half of them at least in the rule itself,
and every number of it in the rule."""

from __future__ import annotations

import re

from ragpipe.core.evidence.agreement import found_in, words
from ragpipe.core.evidence.antonyms import free_worded, negated_at, stems_in
from ragpipe.core.evidence.limits import bounded_alike

# A fee the rule charges, said by its verb and its noun where no sum of money is stated ("收取定金的30%作为手续费").
# A fee left to the payer is charged too ("费用由入住老人自理", "需自费"); not 生活自理 (caring for oneself).
_ZH_CHARGED = re.compile(r"(?<![不免无])(?:收取|支付|缴纳|另付|另收|扣除?)[^，。；]{0,10}(?:费|违约金|罚金|定金|押金)"
                         r"|费[^，。；]{0,8}(?:自理|自付)|(?<![不免无])自费")
_FREE = {"free", "免费"}
_CHARGED = {"charg", "收费", "pay", "付费"}
# The words that say free of charge, not what is free.
_FREE_WORDS = re.compile(r"^(?:free|charg\w*|cost\w*|nothing|免费|费用?)$", re.I)
_RULES = re.compile(r"[;；]")
# Share of the statement's other words the rule holds.
TIED = 0.75


def _charges(rule: str) -> bool:
    return bool(stems_in(rule) & _CHARGED) or bool(_ZH_CHARGED.search(rule))


def fee_conflict(statement: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """("antonym", the statement's free-word, the rule's charge, the rule) where the evidence charges for what the
    statement calls free; None elsewhere."""
    said = stems_in(statement)
    free = next((w for w in sorted(_FREE & said) if not negated_at(free_worded(statement), w)), None)
    if free is None or said & _CHARGED:
        return None
    # Chinese single characters (前, 后, 店) are too common to tie anything.
    frame = [w for w in dict.fromkeys(words(free_worded(statement))) if not _FREE_WORDS.match(w) and (w.isascii() or len(w) > 1)]
    if len(frame) < 2:
        return None
    for sentence in sentences:
        if stems_in(free_worded(sentence)) & _FREE:
            continue  # a sentence that says "free" too sets free against charged itself ("…ahead is free; within …")
        tied = sum(any(_same_word(w, h) for h in _parts(sentence)) for w in frame)
        for rule in (r for r in _RULES.split(sentence) if r.strip()):
            in_rule = sum(any(_same_word(w, h) for h in _parts(rule)) for w in frame)  # the act is the charged rule's
            if (tied >= max(2, TIED * len(frame)) and in_rule >= max(2, len(frame) / 2) and _charges(rule)
                    and bounded_alike(statement, rule)):  # "within 24 hours" both
                return "antonym", free, "收费" if free == "免费" else "charg", rule.strip()
    return None


def _parts(text: str) -> list[str]:
    """The text's words, and the parts of a hyphenated one ("same-day" holds the "day" of "on the same day")."""
    return [part for word in words(text) for part in dict.fromkeys((word, *word.split("-"))) if part]


def _same_word(ours: str, theirs: str) -> bool:
    """One word, however inflected: "cancelling" / "cancellations" (agreement.found_in keeps their stems apart)."""
    return found_in(ours, (theirs,)) or ours.isascii() and len(ours) >= 5 and theirs.startswith(ours[:5])
