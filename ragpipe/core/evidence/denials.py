"""A statement that denies what the evidence supports: "The train is not delayed." against "The train
is delayed by 20 minutes.", "这本书不是茅盾写的。" against "《子夜》是茅盾创作的长篇小说。".

The polarity rules (polarity.py) find a flipped negation where the statement restates the evidence
clause in its words; a denial in other words ("The Nile is not Africa's longest river." against
"The Nile, about 6,650 km long, is the longest river in Africa.") escapes them, and the calibrated
verifier weighs its many shared words as support. Here the statement's one negation is taken out
(``affirmative``) and the verifier asks whether the evidence supports that: where it does, and
strongly, the statement says the opposite of what the evidence says.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from ragpipe.core.evidence.agreement import opening_reply, words
from ragpipe.core.evidence.antonyms import stems_in
from ragpipe.core.evidence.features import FEATURES, statement_features
from ragpipe.core.evidence.facts import negated
from ragpipe.core.evidence.polarity import aligned_with, clauses_of
from ragpipe.core.text import is_chinese, pos_tags, split_sentences

# How sure the verifier must be that the evidence states the affirmative: the suite's bar for a faithful answer.
AFFIRMED = 0.8

_EN_NOT = re.compile(r"\b(is|are|was|were|will|would|can|could|must|should|may|do|does|did|has|have|had)\s+not\b"
                     r"|\b(is|are|was|were|do|does|did|has|have|had|could|would|should)n['’]t\b"
                     r"|\b(?P<can>cannot|can['’]t|can\s+not)\b|\b(?P<will>won['’]t)\b", re.I)
# A denial that is a word of its own: 不 before a verb, 没有 / 没 / 未. Not 不得 (a prohibition: modality's),
# nor a word whose 不 is no denial (不过, 不断, 不少, …: facts.negated reads none in those).
_ZH_DENIAL = re.compile(r"^(?:不(?!得|再|满|足|到|超过|高于|低于|少于|多于)|没有|没|未)(?=[\u4e00-\u9fff]|$)")
# Words that deny as "not" does, or limit: where the evidence sentence has one, its denial may be the statement's
# in other words ("不收费" / "免费", "not allowed" / "prohibited", "did not rise" / "fell"), so the rule keeps off.
_DENYING = re.compile(r"\b(?:forbidden|prohibited|banned|avoid\w*|exclud\w*|exempt\w*|waiv\w*|free|unable|fail\w*|lack\w*|without|except|"
                      r"only|unchanged|neither|nor|instead|rather)\b|禁|免|避免|停止|暂停|拒|仅|只|除|而是|改为", re.I)
_CONTRADICTED = FEATURES.index("contradicted")
_PRICED = {"charg", "收费"}  # what stems_in reads in any stated price ("costs $5"): no opposite of "is $5"


def affirmative(statement: str) -> str | None:
    """The statement with its one negation taken out ("is not" → "is", "cannot" → "can", 不可以 → 可以,
    没有 → 有), or None where it has none, more than one, or one of another form (never, no, without, 无, 非)."""
    if not negated(statement):
        return None
    found = None
    if is_chinese(statement):
        at = 0
        tagged = [(w, flag) for w, flag in pos_tags(statement)]
        tokens = [w for w, _ in tagged]
        for i, word in enumerate(tokens):
            denial = _ZH_DENIAL.match(statement[at:]) if word[:1] in "不没未" else None  # read on: 不 + 超过 is a bound
            after = tagged[i + 1] if i + 1 < len(tagged) else ("", "x")
            if denial and denial.group(0) in ("没有", "没") and len(word) == len(denial.group(0)) and after[1].startswith(("n", "r")):
                break  # 没有球队…, 没有液态水: "no such thing", not the denial of a verb
            if denial:
                found = statement[:at] + ("有" if denial.group(0) == "没有" else "") + statement[at + len(denial.group(0)):]
                break
            at += len(word)
    else:
        match = _EN_NOT.search(statement)
        if match:
            verb = "can" if match.group("can") else "will" if match.group("will") else match.group(1) or match.group(2)
            found = statement[:match.start()] + (verb.capitalize() if match.group(0)[0].isupper() else verb.lower()) \
                + statement[match.end():]
    return found if found and not negated(found) else None


def _speaks_plainly(affirmed: str, sentences: list[str]) -> bool:
    """The evidence sentence that holds most of the affirmative's words affirms plainly: no negation, no word that
    denies or limits, and no word of the antonym lexicon that the affirmative lacks ("fell" where it says "rise":
    the statement's denial may be that word's)."""
    terms = list(dict.fromkeys(words(affirmed)))
    aligned = aligned_with(terms, sentences, [words(s) for s in sentences])
    stated = stems_in(affirmed)
    return bool(aligned) and not any(negated(sentences[i]) or _DENYING.search(sentences[i])
                                     or stems_in(sentences[i]) - stated - _PRICED for i in aligned)


def deny_supported(embedder, calibration, statements: Sequence[str], rows: np.ndarray, notes: list[dict],
                   evidence: Sequence[str], question: str = "") -> None:
    """Mark as contradicted (in ``rows`` and ``notes``, in place) each one-clause statement whose one negation
    taken out leaves a claim the verifier finds supported (≥ AFFIRMED) by an evidence sentence that affirms it
    plainly. A reply that opens with its own yes or no ("No, …", "不可以，…") is left to the reply rules."""
    sentences = [s for e in evidence if e for s in split_sentences(e)]
    found = {}
    for i, statement in enumerate(statements):
        if rows[i, _CONTRADICTED] or len(clauses_of(statement)) != 1 or opening_reply(statement, question):
            continue
        affirmed = affirmative(statement)
        if affirmed and _speaks_plainly(affirmed, sentences):
            found[i] = affirmed
    if not found:
        return
    affirmed_rows, _ = statement_features(embedder, list(found.values()), evidence, False, question)
    for (i, affirmed), p in zip(found.items(), calibration.probability(affirmed_rows)):
        if p >= AFFIRMED:
            rows[i, _CONTRADICTED] = 1.0
            notes[i]["contradiction"] = (f"证据支持“{affirmed}”，陈述却否定了它" if is_chinese(affirmed)
                                         else f"the evidence supports \"{affirmed}\", which the statement denies")
