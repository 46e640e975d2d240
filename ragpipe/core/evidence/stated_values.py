"""The numbers a statement asserts and the numbers evidence can support them with (features.py): every value a text
states however written, dates included; a statement's own numbers, without list labels and pointers; the months a text
names; its times of day."""

from __future__ import annotations

import re

from ragpipe.core.evidence.facts import counted, facts
from ragpipe.core.evidence.quantities import quantities
from ragpipe.core.text import is_chinese, numbers

# A pointer to a passage or step, or the answer's own length ("in 42 words"): numbers
# that assert nothing about the world.
POINTER = re.compile(r"\b(?:passages?|documents?|sources?|contexts?|paragraphs?|steps?)\s*#?\d{1,2}\b"
                      r"|(?:段落|文档|资料|来源|步骤)\s*\d{1,2}"
                      r"|\b(?:in|within|under|of)\s+(?:about\s+)?\d{1,4}\s+words?\b|\d{1,4}\s*字(?:以内|以下|左右)", re.I)


def stated_values(text: str) -> set[float]:
    """Every number a text states, however written ("60000", "六万", "sixty thousand"), dates included:
    what evidence can support a statement's number with."""
    found = facts(text)
    dates = {float(y) for y in found.years} | {float(m) for m in found.months} | {float(d) for _, d in found.days}
    return set(numbers(text)) | set(found.numbers) | dates


def statement_numbers(statement: str) -> set[float]:
    """Numbers the statement asserts: a leading enumeration label and a POINTER
    ("(Passage 2)", "Step 6:", "文档2", "in 42 words") are not claims."""
    text = POINTER.sub(" ", re.sub(r"^\s*\d{1,2}[.)]\s+", "", statement))
    # Digits, and Chinese numerals before a unit ("六万元"); English number words are too often no number at all
    # ("one of the", "no one") to demand them of the evidence, but for those that count a unit ("lasts eight
    # hours", as contradiction's slots read them), and a date's day and month however written ("十二月十五号", "May third",
    # "starts in May", 五月开始: a month is a value the evidence must hold, as _values reads it there).
    said = facts(text)
    return set(numbers(text)) | (set(said.numbers) if is_chinese(text) else counted(text)) | \
        {float(d) for _, d in said.days} | stated_months(text)


def stated_months(text: str) -> set[float]:
    """The months a text names (a question's month is its own, not a claim a reply must prove: "each December")."""
    said = facts(text)
    return {float(m) for m in said.months} if is_chinese(text) or _EN_MONTH.search(text) else set()


# An English month is a month's name as written, capitalised: "may ride" and "March in step" are no months, and
# neither is a "May I…?" that opens the text.
_EN_MONTH = re.compile(r"\b(?:January|February|March|April|(?<!^)May|June|July|August|September|October|November|"
                       r"December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\b")


def clock_values(text: str) -> set[float]:
    return {q.amount for q in quantities(text) if q.dimension == "clock"}


def outside_clocks_with_minutes(text: str) -> set[float]:
    """The numbers a text states outside its times of day with minutes ("8:30 a.m.", "晚上8点40分")."""
    spans = [(q.start, q.end) for q in quantities(text) if q.dimension == "clock" and q.amount % 60]
    for start, end in sorted(spans, reverse=True):
        text = text[:start] + " " + text[end:]
    return stated_values(text) if spans else set()
