"""Whether two names name one person or thing (slots.py, contradiction.py): one given as the other's other name in the
evidence ("老舍原名舒庆春"), one spelt two ways ("Sunset Boulevard" / "Sunset Blvd"), or two that only share a title, a head
word or what they are "of" ("Dr Chen" / "Dr Alvarez", "Department of Health" / "Department of Agriculture")."""

from __future__ import annotations

import re

from ragpipe.core.evidence.agreement import found_in, shares_word, words
from ragpipe.core.evidence.facts import PLACE_TITLE, fold
from ragpipe.core.evidence.zh_names import other_modifier, short_form, zh_surname

# A title two names share says nothing of whether they are one: "Dr Chen" and "Dr Alvarez" are two
# (and so are "Mount Fuji" and "Mount Aso": facts.PLACE_TITLE).
TITLE = re.compile(r"^(?:dr|mr|mrs|ms|prof|sir|st)\.?\s+")

# Words between two names that make one the other's other name: one person, no swap.
_ALIAS = re.compile(r"\b(?:pen|real|birth|stage|given|maiden) name\b|\b(?:born|nee|also known as|better known as|aka|"
                    r"a\.k\.a\.|alias|pseudonym)\b|原名|本名|笔名|又名|别名|真名|化名|艺名")


def one_person(a: str, b: str, sentences: list[str]) -> bool:
    """An evidence sentence gives one name as the other's other name: "老舍原名舒庆春", "Mark Twain, the pen
    name of Samuel Clemens", "Bob Dylan (born Robert Zimmerman)"; or one is the other's Chinese short form (珠峰)."""
    a, b = fold(a), fold(b)
    if short_form(a, b):
        return True
    for text in map(fold, sentences):
        if a in text and b in text:
            first, second = sorted([(text.index(a), a), (text.index(b), b)])
            if _ALIAS.search(text[first[0] + len(first[1]):second[0]]):
                return True
    return False


def one_name(a: str, b: str) -> bool:
    """Two names may be one spelt two ways when they share a word ("Sunset Boulevard", "Sunset Blvd"),
    but not by a shared title ("Dr Chen", "Dr Alvarez"), nor by a shared head word after modifiers
    that differ ("Berlin Philharmonic", "Vienna Philharmonic"; "Harvard University", "Yale University"), nor
    by a Chinese title ("王医生", "李医生": jieba keeps 李医生 one word, so no head word is seen to differ), nor by
    Chinese modifiers with no character in common before one ending ("上海图书馆", "国家图书馆": zh_names.other_modifier)."""
    a, b = (PLACE_TITLE.sub("", TITLE.sub("", zh_surname(n))) for n in (a, b))
    if not shares_word(a, [b]):
        return False
    head_a, head_b = words(a), words(b)
    return not (len(head_a) > 1 and len(head_b) > 1 and head_a[-1] == head_b[-1]
                and not any(found_in(t, head_b[:-1]) for t in head_a[:-1]) or other_modifier(a, b) or _other_of(a, b))


_OF = re.compile(r"\s+of\s+(?:the\s+)?", re.I)


def _other_of(a: str, b: str) -> bool:
    """One head named for two different things after "of": "Department of Health" / "Department of Agriculture",
    "University of Leeds" / "University of York" (the head shared, what it is of sharing no word)."""
    parts_a, parts_b = _OF.split(a, maxsplit=1), _OF.split(b, maxsplit=1)
    if len(parts_a) < 2 or len(parts_b) < 2 or words(parts_a[0]) != words(parts_b[0]):
        return False
    return not any(found_in(t, words(parts_b[1])) for t in words(parts_a[1]))
