"""Superlatives against the values the evidence states for three or more sides: "The Basic plan is the cheapest"
against "The Basic plan costs $12 a month, the Plus plan $9 and the Pro plan $20" is contradicted (another side
holds the extreme), "The Plus plan is the cheapest" is borne out; in Chinese "基础版最便宜" the same. The scales and
the readers of values are those of comparisons.py."""

from __future__ import annotations

import re

from ragpipe.core.evidence.agreement import found_in, words
from ragpipe.core.evidence.comparisons import (EN_COMPARATIVES, EN_MORE_OF, LABEL, READINGS, ZH_COMPARATIVES, ZH_WORD,
                                               value_clauses)
from ragpipe.core.evidence.facts import negated
from ragpipe.core.evidence.polarity import clauses_of
from ragpipe.core.text import is_chinese

# "cheapest" of "cheaper", "biggest" of "bigger", "earliest" of "earlier"; "best" and "worst" have their own.
_EN_SUPERLATIVES = {w[:-2] + "est": d for w, d in EN_COMPARATIVES.items() if w.endswith("er")}
_EN_SUPERLATIVES |= {"best": {"quality": 1}, "worst": {"quality": -1}, "eldest": {"age": 1}}
# "the cheapest", "the most expensive", "the most students", "the fewest seats"; after "the" only ("most people"),
# and not "one of the highest", "最大的城市之一": one of several holds no extreme alone.
_EN_SUPERLATIVE = re.compile(rf"(?<!\bone\sof\s)(?<!\bamong\s)\bthe\s+(?:(?P<word>{'|'.join(_EN_SUPERLATIVES)})(?:\s+(?!of|in|among|on|at|by|for|with|and|but)(?P<noun>[a-z]+))?"
                             rf"|(?P<most>most|least|fewest)\s+(?P<of>[a-z]+))\b", re.I)
# Superlatives whose noun is mostly the measure ("the highest score", "the largest share"), not the kind of the side
# ("the newest building", "the cheapest plan").
_OF_A_MEASURE = frozenset({"highest", "lowest", "greatest", "largest", "biggest", "smallest", "best", "worst"})
# "基础版最便宜", "西校区的学生最多", "二号仓库面积最大": 最 before a comparative word and the clause's end or 的.
_ZH_SUPERLATIVE = re.compile(rf"最(?P<word>{ZH_WORD})(?=$|[\W_]|的)")


def _superlative(clause: str) -> tuple[str, dict[str, int], str, str] | None:
    """The side a clause names as holding an extreme, the scales with their directions, the attribute
    counted ("students" of "the most students") and the measure named ("score" of "the highest score"), or None."""
    if is_chinese(clause):
        m = None if "之一" in clause else _ZH_SUPERLATIVE.search(clause)
        return (clause[:m.start()], ZH_COMPARATIVES[m.group("word")], "", "") if m else None
    m = _EN_SUPERLATIVE.search(clause)
    if not m:
        return None
    if m.group("word"):
        word = m.group("word").lower()
        return clause[:m.start()], _EN_SUPERLATIVES[word], "", (m.group("noun") or "") if word in _OF_A_MEASURE else ""
    sign, of = (1 if m.group("most").lower() == "most" else -1), m.group("of").lower()
    return clause[:m.start()], {s: sign * d for s, d in EN_MORE_OF.get(of, {of: 1}).items()}, "" if of in EN_MORE_OF else of, ""


def _readings(scale: str, sign: int):
    """How values are read on a scale, each with the sign that makes the extreme the largest: the oldest is the
    one of the earliest year."""
    if scale == "age":
        return [(READINGS["time"][0], -sign)] + [(r, sign) for r in READINGS["other"]]
    return [(r, sign) for r in READINGS.get(scale, READINGS["other"])]


def ranked(statement: str, sentences: list[str]) -> tuple[bool, str, str, str] | None:
    """Whether the values one evidence sentence states for three or more sides bear out the statement's
    superlative (True) or give the extreme to another side (False), with the statement's clause, the
    evidence's value clauses and its sentence; None where no sentence states them."""
    for clause in clauses_of(statement):
        found = _superlative(clause)
        if not found or negated(clause):
            continue
        side, scales, attribute, measure = found
        own = set(words(side)) | {f"#{c}" for c in LABEL.findall(side)}
        # The measure a sentence lists values of is named once ("the highest satisfaction score (86), followed by
        # JetBlue (85)"): a sentence that names it not lists another ("award seats" are no scores).
        for sentence in [s for s in sentences if not measure or any(found_in(t, words(s)) for t in words(measure))]:
            for scale, sign in scales.items():
                for reading, direction in _readings(scale, sign):
                    result = _rank(own, attribute, sentence, reading, direction)
                    if result is not None:
                        return result[0], clause.strip(), result[1], sentence
    return None


def _rank(own: set[str], attribute: str, sentence: str, reading, direction: int) -> tuple[bool, str] | None:
    """The side's value against the others' in one sentence: each value clause holds one value of one
    dimension, the side's own words (less those every clause shares: "plan", 面积) name one clause only; the
    attribute counted, where the statement names one, picks the clauses that count it."""
    valued = []
    for clause in value_clauses(sentence):
        values = reading(clause)
        clause_words = set(words(clause)) | {f"#{c}" for c in LABEL.findall(clause)}
        if len(values) == 1:
            valued.append((clause.strip(), clause_words, next(iter(values))))
    if attribute:  # "the most data" of values all in GB: the unit measures what no clause names
        named = [v for i, v in enumerate(valued) if _names(attribute, valued[:i + 1])]
        valued = named or (valued if _one_unit([c for c, _, _ in valued]) else [])
    if len(valued) < 3 or len({dim for _, _, (dim, _) in valued}) != 1 or len({v for _, _, (_, v) in valued}) < len(valued):
        return None
    # Words no clause holds name no side: 人数 of "销售部人数最少" against "销售部有32人".
    distinct = {t for t in own if any(found_in(t, w) for _, w, _ in valued) and not all(found_in(t, w) for _, w, _ in valued)}
    named = [v for v in valued if distinct and all(found_in(t, v[1]) for t in distinct)]
    if len(named) != 1:
        return None
    extreme = max(valued, key=lambda v: direction * v[2][1])
    return extreme is named[0], "; ".join(c for c, _, _ in valued)


# A unit written short after every value: "5 GB", "20 GB", "50 GB".
_SHORT_UNIT = re.compile(r"\d\s*([A-Za-z]{1,3})\b")


def _one_unit(clauses: list[str]) -> bool:
    units = [_SHORT_UNIT.findall(c) for c in clauses]
    return all(len(u) == 1 for u in units) and len({u[0].lower() for u in units}) == 1


def _names(attribute: str, clauses: list) -> bool:
    """Whether the last clause names the attribute, or leaves it to the one before as a list's later member does:
    "the York branch 120" after "The Leeds branch employs 45 people" (a side and a value, three words at most)."""
    *before, (_, last, _) = clauses
    if any(found_in(t, last) for t in words(attribute)):
        return True
    return bool(before) and sum(not t.isdigit() for t in last) <= 3 and _names(attribute, before)
