"""A statement about one of two sibling things that says of it what the evidence says of the other.

Sibling things share a head noun and differ in the word before it: "standard pitches" / "premium pitches", "roller
blinds" / "Venetian blinds", "单光镜片" / "渐进多焦点镜片", "挂式空调" / "柜式空调". Neither modifier is a name, so the
name readers do not set one against the other, and "Standard pitches come with an electric hook-up" shares most of its
words with "Premium pitches have a 16-amp electric hook-up", while the clause about its own thing ("Standard pitches
are grass sites without power") says something else. ``sibling_swap`` finds that: the statement opens with its thing,
the evidence has a clause about it and, in the same or the next sentence, a clause about the sibling; what the
statement says of its thing is in the sibling's clause and not in its own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragpipe.core.evidence.agreement import found_in, words
from ragpipe.core.evidence.facts import facts
from ragpipe.core.text import is_chinese

# The clauses a sentence holds about two things: cut at a semicolon or a contrasting conjunction ("…, while e-bikes
# cost £35"); a comma stays inside the clause ("单光镜片现场加工，当天可取" says 当天可取 of 单光镜片).
_CLAUSES = re.compile(r"[;；]|,?\s+\b(?:while|whereas|but)\b", re.I)
# A clause that gives its thing what the other has ("standard pitches have one too", "普通轮胎也可以") or both things
# alike speaks of both: no contrast.
_ALIKE = re.compile(r"\b(?:too|also|as well|likewise|both|either)\b|也|同样|均|都", re.I)
# A subject's head noun stands among the first content words of its clause: three in English ("matte business cards"),
# four in Chinese, where jieba cuts a modifier finer ("渐进/多/焦点/镜片").
_OPENING = {"en": 3, "zh": 4}


# A Chinese modifier's suffix of kind ("耳背/式", "大/号") is one word with the word before it.
_ZH_KIND = frozenset("式型款号档类版")


def _terms(text: str) -> tuple[str, ...]:
    terms: list[str] = []
    for term in (t.rstrip("'") for t in words(text)):  # a possessive is its noun: "plan's" / "plan"
        if terms and term in _ZH_KIND:
            terms[-1] += term
        else:
            terms.append(term)
    return tuple(terms)


def _clauses(sentences: Sequence[str]) -> list[tuple[int, tuple[str, ...], str]]:
    return [(i, _terms(c), c.strip()) for i, s in enumerate(sentences) for c in _CLAUSES.split(s) if c and c.strip()]


def _subject(terms: tuple[str, ...], head: str, opening: int) -> tuple[str, ...]:
    """The words up to the head noun where it stands among the first of ``terms`` after another word (the subject:
    "premium pitch"), or ()."""
    at = next((k for k, t in enumerate(terms[:opening]) if found_in(head, (t,))), 0)
    return terms[:at + 1] if at else ()


def sibling_swap(statement: str, sentences: Sequence[str]) -> tuple[str, str, str, str] | None:
    """("subject", the statement, the clause about its own thing, that clause's sentence) where the statement says of
    one of two sibling things what the evidence says of the other."""
    said = _terms(statement)
    placed = _clauses(sentences)
    opening = _OPENING["zh" if is_chinese(statement) else "en"]
    for at, head in list(enumerate(said))[1:opening]:
        modifier, told = said[at - 1], said[at + 1:]
        if len(told) < 2:
            continue
        # The clause about the statement's own thing: its subject, or a Chinese modifier of kind alone ("耳背式可当天配戴").
        own = [(i, terms, c) for i, terms, c in placed if _subject(terms, head, opening)[-2:-1] == (modifier,)
               or terms[:1] == (modifier,) and modifier[-1] in _ZH_KIND]
        # A sibling's clause names neither the statement's modifier nor is named by the statement ("Linksys routers use
        # 192.168.1.1, D-Link" speaks of both "Linksys routers" and "D-Link and Netgear routers").
        others = [(i, terms, c) for i, terms, c in placed if (subject := _subject(terms, head, opening))
                  and not found_in(modifier, terms) and not any(found_in(t, said) for t in subject[:-1])]
        # Any clause about the statement's own thing that says as much of it as the sibling's does bears it out.
        if not own or any(_ALIKE.search(c) for _, _, c in own):
            continue
        for j, other_terms, other in others:
            in_other = [t for t in told if found_in(t, other_terms)]
            if len(in_other) < max(2, 2 * len(told) / 3):
                continue
            if all(sum(found_in(t, terms) for t in told) < len(in_other) for _, terms, _ in own):
                near = [(i, c) for i, _, c in own if abs(i - j) <= 1 and not _values_own(statement, c, other)]
                if near:
                    return "subject", statement, near[0][1], sentences[near[0][0]]
    return None


def _values_own(statement: str, own: str, other: str) -> bool:
    """The statement's numbers are those its own thing's clause gives, and not the sibling's: "Standard framing is
    ready in ten working days" says of standard framing its 10 days, though "ready in" is express framing's wording."""
    numbers = facts(statement).numbers
    return bool(numbers) and numbers <= facts(own).numbers and not numbers <= facts(other).numbers
