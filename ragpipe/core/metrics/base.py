"""What every metric shares: its description, its result, and the per-sample toolkit
(statements decomposed once, embeddings cached) that metrics draw evidence from."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable

from ragpipe.core.embeddings import Embedder
from ragpipe.core.evidence import OfflineVerifier
from ragpipe.core.schemas import EvalCase, Verdict
from ragpipe.core.text import split_statements


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


class Toolkit:
    """Per-run evidence tools shared by the metrics: statements decomposed once per text,
    and statement verification, offline (lexical, numeric and embedding evidence)."""

    def __init__(self, embedder: Embedder):
        self.embedder = embedder
        self.verifier = OfflineVerifier(embedder)

    def relatedness(self, cosine):
        return self.verifier.relatedness(cosine)

    @staticmethod
    @lru_cache(maxsize=4096)
    def statements(text: str) -> tuple[str, ...]:
        """Atomic statements of a text, decomposed once and shared by every metric."""
        return tuple(split_statements(text or ""))

    def verify(self, statements, evidence: list[str]) -> list[Verdict]:
        return self.verifier.verify(statements, evidence)


def supported_share(kit: Toolkit, text: str, evidence: list[str], empty_reason: str) -> MetricResult:
    """Share of the text's statements that the evidence supports, with every verdict."""
    statements = kit.statements(text)
    if not statements:
        return MetricResult.unmeasured(empty_reason)
    verdicts = kit.verify(statements, evidence)
    return MetricResult(sum(v.supported for v in verdicts) / len(verdicts),
                        {"statements": [v.as_dict() for v in verdicts]})
