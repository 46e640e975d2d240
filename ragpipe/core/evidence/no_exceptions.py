"""A thing the evidence names as no exception to what it affirms, denied by a statement: "咖啡厅周日不营业。" against
"咖啡厅每天营业，周日也不例外", "充电站节假日不开放。" against "充电站全天开放，节假日也照常", "The shop does not open on
Sundays." against "The shop opens daily, and Sunday is no exception.".

The 不 of "不例外" denies nothing (facts.negated reads none), but the thing named is all that ties the two: the rest of
the evidence sentence (what holds for it too) must hold the statement's other words, and the reading decides before a
range of hours in the sentence does (contradiction.range_ends).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragpipe.core.evidence.agreement import found_in, words
from ragpipe.core.evidence.facts import negated
from ragpipe.core.text import is_chinese

# "周日也不例外", "节假日照常", "节假日亦照旧": the thing in the clause before the words (what follows 照常 is the verb).
_ZH_NO_EXCEPTION = re.compile(r"([^，。；,;：:！!]{1,10}?)(?:也|亦|均|都)?(?:不例外|照常|照旧)")
# "Sunday is no exception", "even on Sundays": the thing is the word named.
_EN_NO_EXCEPTION = re.compile(r"\b(\w+)\s+(?:is|are)\s+no\s+exceptions?\b|\beven\s+on\s+(\w+)", re.I)
# The statement's denial, as shown: "不营业", "not open".
_ZH_DENIAL = re.compile(r"(?:不|没有?|未)[^\W\d_]{1,3}")
_EN_DENIAL = re.compile(r"\b(?:not|never)\s+\w+|n['’]t\s+\w+", re.I)
# Words that only say "not", or that the no-exception phrase itself holds.
_NOT_WORDS = frozenset({"不", "没", "没有", "未", "not", "never", "does", "do", "did", "is", "are", "on"})


def no_exception_denied(statement: str, sentences: Sequence[str]) -> tuple[str, str, str, str] | None:
    """("negation", the statement's denial, the evidence's no-exception words, the sentence), or None."""
    zh = is_chinese(statement)
    if not negated(statement) or _no_exception(statement, zh):
        return None
    denial = (_ZH_DENIAL if zh else _EN_DENIAL).search(statement)
    if not denial:
        return None
    for sentence in sentences:
        for found in _no_exception(sentence, zh):
            thing = next(g for g in found.groups() if g)
            if zh:
                thing = re.sub(r"^(?:连|就连|即使|即便|包括)", "", thing)
            if not _names(statement, thing, zh):
                continue
            rest = sentence[:found.start()] + " " + sentence[found.end():]
            if negated(rest):
                continue  # what the evidence affirms must be affirmed: "周末不营业，节假日也不例外" denies it too
            # A denial jieba writes as one word ("不营业") is read by its verb.
            said = [re.sub(r"^(?:不|没有?|未)(?=\w)", "", w) if zh else w for w in words(statement)]
            said = [w for w in said if w.lower() not in _NOT_WORDS and not (w in thing if zh else _names(w, thing, zh))]
            held = [w for w in said if found_in(w, words(rest)) or (zh and w in rest)]
            if said and len(held) >= 0.75 * len(said):
                return "negation", denial.group(0), found.group(0), sentence
    return None


def _no_exception(text: str, zh: bool) -> list[re.Match]:
    return list((_ZH_NO_EXCEPTION if zh else _EN_NO_EXCEPTION).finditer(text))


def _names(text: str, thing: str, zh: bool) -> bool:
    """The text names the thing: its characters (zh) or its word, singular or plural (en)."""
    if zh:
        return bool(thing) and thing in text
    stem = thing.lower().rstrip("s")
    return any(w.lower().rstrip("s") == stem for w in re.findall(r"\w+", text))
