"""Limits the evidence sets on a value, against a statement that sets others: a floor for a ceiling
("at least 3.5%" / "caps … at 3.5%"), no bound for a ceiling ("unlimited" / "最多一次"), a day off for
every day ("周一店休" / "每天营业")."""

from __future__ import annotations

import re

from ragpipe.core.evidence.agreement import found_in, words
from ragpipe.core.evidence.facts import bounds, capped, day_off, every_day, facts
from ragpipe.core.evidence.polarity import aligned_with, overlap, pronoun


def bound_conflict(statement: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """A bound the evidence opposes: a floor for a ceiling, none for a ceiling, a day off for every day: the
    kind ("bound"), what the statement says, what the evidence says, the sentence."""
    return _floor_for_ceiling(statement, sentences) or _unbounded(statement, sentences) or _off_every_day(statement, sentences)


def _floor_for_ceiling(statement: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """A value the statement makes a floor where every evidence sentence that states it and
    shares a word with the statement makes it a ceiling, or the other way round: "The federal
    government caps down payments at 3.5%" against "a down payment as low as 3.5%"."""
    stated = bounds(statement)
    statement_terms = [t for t in words(statement) if not facts(t).numbers]
    for value, kinds in stated.items():
        if len(kinds) != 1:
            continue
        theirs = [(bounds(s).get(value, set()), s) for s in sentences
                  if value in facts(s).numbers and any(found_in(t, words(s)) for t in statement_terms)]
        if theirs and all(other and other != kinds for other, _ in theirs):
            shown = f"{value:g}"
            return "bound", f"{next(iter(kinds))} {shown}", f"{next(iter(theirs[0][0]))} {shown}", theirs[0][1]
    return None


# No bound at all: "unlimited", "no limit", "无限次", "不设上限".
_UNBOUNDED = re.compile(r"\b(?:an\s+)?unlimited(?:\s+number\s+of)?\b|\bno (?:upper )?limits?\b"
                        r"|\bwithout (?:any )?limits?\b|\bany number of\b|无限|不限|(?:没有|无|不设)(?:任何)?(?:上限|限制)|不受限制", re.I)


def _unbounded(statement: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """A statement that sets no bound ("can be retaken unlimited times", "图书可以无限次续借") against
    the sentence that speaks of the same thing with a ceiling ("no more than twice", "最多只能续借一次")."""
    found = _UNBOUNDED.search(statement)
    if not found:
        return None
    frame = [t for t in dict.fromkeys(words(_UNBOUNDED.sub(" ", statement))) if not facts(t).numbers]
    for i in aligned_with(frame, sentences, [words(s) for s in sentences]):
        ceiling = capped(sentences[i])
        if ceiling and not _UNBOUNDED.search(sentences[i]):
            return "bound", found.group(0).strip(), ceiling, sentences[i]
    return None


def _off_every_day(statement: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """A day off ("周一店休") against a sentence on the same schedule held every day, no exception named ("每天…营业")."""
    off = day_off(statement)
    frame = [t for t in dict.fromkeys(words(statement.replace(off, " "))) if not pronoun(t)] if off else []
    for s in sentences:  # its subject and another word at least: a schedule is worded many ways (早上 / 上午, 开门 / 营业)
        if overlap(frame, words(s)) >= 2 and every_day(s) and not day_off(s) and not re.search(r"除|except|but|closed|休", s):
            return "bound", off, every_day(s), s
    return None
