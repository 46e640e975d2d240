"""Opposite statements, found by rule: the evidence clause that speaks of what a statement
speaks of negates what the statement affirms (or the other way round), or has the antonym of
one of its words ("increased" / "decreased", "允许" / "禁止"). Also here, shared with the other
rules of contradiction.py: how a sentence is cut into clauses, and which sentences speak of
a statement's words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from ragpipe.core.evidence.agreement import found_in, words
from ragpipe.core.evidence.facts import facts, fold, negated
from ragpipe.core.text import is_chinese

# A clause restates a statement (but for its polarity) when this share of its words are the statement's.
RESTATED = 0.6
# A sentence speaks of what a statement speaks of when it holds this share of the
# statement's other words (at least two of them, or its only one).
ALIGNED_SHARE = 0.6
# Word stems that say opposite things about the same subject (a text has a stem when one of
# its words starts with it; Chinese: when it contains it).
_ANTONYMS = [("increas", "decreas"), ("increas", "reduc"), ("rais", "lower"), ("rise", "fall"), ("rose", "fell"),
             ("higher", "lower"), ("more", "less"), ("more", "fewer"), ("above", "below"),
             ("maximum", "minimum"), ("allow", "prohibit"), ("allow", "forbid"), ("permit", "prohibit"),
             ("accept", "reject"), ("approv", "reject"), ("win", "los"), ("won", "lost"), ("open", "clos"),
             ("largest", "smallest"), ("earliest", "latest"), ("north", "south"), ("east", "west"),
             ("public", "private"), ("mandatory", "optional"), ("required", "optional"), ("legal", "illegal"),
             ("增加", "减少"), ("提高", "降低"), ("上调", "下调"), ("上升", "下降"), ("增长", "下降"), ("高于", "低于"),
             ("之前", "之后"), ("以前", "以后"), ("以上", "以下"), ("最高", "最低"), ("允许", "禁止"), ("可以", "不得"),
             ("批准", "拒绝"), ("必须", "无需"), ("强制", "自愿"), ("最大", "最小"), ("公立", "私立"), ("合法", "违法"),
             ("缴纳", "免征"), ("征收", "免征"), ("需要", "无需"), ("收费", "免费"), ("仅限", "不限"),
             ("still", "no longer"), ("仍", "不再")]
# Said once for a sentence's subject, whichever clause holds the predicate: "classified Pluto
# as a dwarf planet, no longer as a planet", "…归类为矮行星，它不再属于行星".
_SENTENCE_WIDE = frozenset({"no longer", "不再"})
_CLAUSE = re.compile(r"[,;:，；：]|\s--?\s|—|\b(?:but|while|whereas|although)\b|但是?|而|然而")
# Words that bound a value negate no predicate: "允许携带一件不超过7公斤的行李" allows it.
_BOUND = re.compile(r"不[得应能可宜]?(?:超过|高于|多于|低于|少于)|\bnot? (?:more|less|fewer|later|earlier) than\b", re.I)
# A duty, however worded: "is not required to return the deposit" denies "must return the deposit".
_DUTY = re.compile(r"\b(?:must|shall|required|obliged|obligated|ha(?:s|ve) to)\b|必须|务必|应当|需要", re.I)
_DUTY_WORDS = frozenset({"requir", "require", "oblig", "obligat", "need", "必须", "务必", "须"})  # as words() gives them
# A negation under a condition asserts nothing ("if you do not report income").
_CONDITION = re.compile(r"\b(?:if|unless|when|whether)\b|如果|若|除非|假如", re.I)


def overlap(frame: Sequence[str], sentence_terms: Sequence[str]) -> int:
    return sum(found_in(t, sentence_terms) for t in frame)


def aligned_with(frame: list[str], sentences: list[str], sentence_terms: list[tuple[str, ...]]) -> list[int]:
    """The sentences that hold the most of ``frame``, when that is enough to speak of it."""
    if not frame:
        return []
    scores = [overlap(frame, t) for t in sentence_terms]
    best = max(scores, default=0)
    if best < max(min(2, len(frame)), ALIGNED_SHARE * len(frame)):
        return []
    return [i for i, s in enumerate(scores) if s == best]


def clauses_of(sentence: str) -> list[str]:
    return [c for c in _CLAUSE.split(sentence) if c and c.strip()]


def _predicate_clauses(statement_terms: list[str], sentences: list[str]) -> list[str]:
    """The evidence clauses that speak of what the statement speaks of: the clauses that hold
    enough of its words; else, in the sentences that do, the clause holding most of them (the
    later on a tie: "抗生素对病毒无效，因此不能治疗普通感冒" carries its subject in the first)."""
    clauses = [c for s in sentences for c in clauses_of(s)]
    aligned = aligned_with(statement_terms, clauses, [words(c) for c in clauses])
    if aligned:
        return [clauses[i] for i in aligned]
    found = []
    for i in aligned_with(statement_terms, sentences, [words(s) for s in sentences]):
        parts = clauses_of(sentences[i])
        found.append(max(reversed(parts), key=lambda c: overlap(statement_terms, words(c))))
    return found


def _restates(clause: str, statement: str) -> bool:
    """One says what the other says, but for the polarity: most of its words are the other's
    ("因此不能治疗普通感冒" / "抗生素可以治疗普通感冒"), not a neighbouring fact ("thus they are not
    essential to obtain from your diet" / "must be obtained from the diet")."""
    held = {t for t in words(clause) if not facts(t).negated}  # the negation is the difference, not a word apart
    return bool(held) and sum(found_in(t, words(statement)) for t in held) >= RESTATED * len(held)


def _contained(clause: str, statement: str) -> bool:
    """The clause holds every word of the statement, at least three: "The X200 warranty does
    not cover the battery." inside "… a two-year limited warranty covering the motor and battery".
    Asked only of a negated statement: a negation in a long clause may belong to another part
    of it ("a combination of compounds that are not chemically bonded"). Where the clause
    states a duty, the statement's duty words need not be its very words ("is not required to
    return" / "must return")."""
    held = [t for t in dict.fromkeys(words(statement)) if not facts(t).negated]
    if _DUTY.search(clause):
        held = [t for t in held if t not in _DUTY_WORDS]
    return len(held) >= 3 and set(held) <= set(words(clause))  # the very words: a stem match ("produced" in "products") is too loose


def _negates(text: str) -> bool:
    return negated(_BOUND.sub(" ", text))


def polarity_conflict(statement: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """The evidence clause that speaks of what the statement speaks of says the opposite: one
    negates and the other does not, or one has a word the other has its antonym for: the kind
    ("negation", "antonym"), what the statement says, what the evidence says, and the clause."""
    statement_terms = list(dict.fromkeys(words(statement)))
    if len(statement_terms) < 2:
        return None
    denies = _negates(statement)
    single = len(clauses_of(statement)) == 1
    stated = _stems_in(statement)
    pairs = [(ours, theirs) for ours, theirs in [*_ANTONYMS, *((y, x) for x, y in _ANTONYMS)]
             if ours in stated and theirs not in stated]
    for clause in _predicate_clauses(statement_terms, sentences):
        if (single and len(statement_terms) >= 3 and _negates(clause) != denies
                and not _CONDITION.search(clause)
                and (_restates(clause, statement) or denies and _contained(clause, statement))):
            return "negation", statement.strip(), clause.strip(), clause
        sentence = next((s for s in sentences if clause in s), clause)
        found = _stems_in(clause) | (_stems_in(sentence) & _SENTENCE_WIDE)
        for ours, theirs in pairs:
            if theirs in found and ours not in found:
                return "antonym", ours, theirs, clause
    return _antonym_on_the_object(statement, statement_terms, sentences, pairs)


# Besides the shared object, a sentence that opposes a statement's verb on it holds this many of its words.
OBJECT_FRAME = 2


def _object_of(text: str, stem: str) -> str | None:
    at = text.find(stem)
    following = words(text[at + len(stem):]) if at >= 0 else ()
    return following[0] if following and len(following[0]) >= 2 else None


def _antonym_on_the_object(statement: str, statement_terms: list[str], sentences: list[str],
                           pairs: list[tuple[str, str]]) -> tuple[str, str, str, str] | None:
    """In Chinese, the evidence puts the antonym of the statement's verb before the same object
    ("需要缴纳个人所得税" / "…免征个人所得税"), in a sentence that holds a few more of its words: a
    reworded condition ("自住满五年的家庭唯一住房" / "自用达五年以上并且是家庭唯一生活用房") leaves
    too few shared words for the clause to be aligned, but the verb and its object say enough."""
    if not is_chinese(statement):
        return None
    for ours, theirs in pairs:
        obj = _object_of(statement, ours)
        if obj is None:
            continue
        frame = [t for t in statement_terms if t != obj and ours not in t]
        for sentence in sentences:
            for clause in clauses_of(sentence):
                if (theirs in clause and ours not in clause and _object_of(clause, theirs) == obj
                        and overlap(frame, words(sentence)) >= OBJECT_FRAME):
                    return "antonym", ours, theirs, clause
    return None


_STEMS = sorted({w for pair in _ANTONYMS for w in pair})


@lru_cache(maxsize=65536)
def _stems_in(text: str) -> frozenset[str]:
    """The antonym stems a text has: one of its words starts with it (Chinese: it contains it)."""
    folded = fold(text)
    found = re.findall(r"[a-z]+", folded)
    return frozenset(stem for stem in _STEMS if (stem in text if not stem.isascii()
                                                 else re.search(rf"\b{stem}\b", folded) if " " in stem
                                                 else any(w.startswith(stem) for w in found)))
