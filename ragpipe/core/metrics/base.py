"""What every metric shares: its description, its result, and the per-sample toolkit
(statements decomposed once, embeddings cached) that metrics draw evidence from."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ragpipe.core.config import EvaluationConfig, load_config
from ragpipe.core.evidence.embeddings import Embedder
from ragpipe.core.evidence.entities import GraphEntities, extract_entities
from ragpipe.core.evidence.support import OfflineVerifier, claims, context_claims, expected_share
from ragpipe.core.judged.prefetch import JudgeUse
from ragpipe.core.judged.prompts import ANSWER_ANALYSIS, DECOMPOSE, ENTITIES, ENTITIES_BATCH, VERIFY, VERIFY_BATCH
from ragpipe.core.llm.settings import LLMError
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


# What the metrics built on statements (decomposed, then verified) and on entities ask.
STATEMENT_JUDGE = JudgeUse(("analysis", "verify"), (ANSWER_ANALYSIS, DECOMPOSE, VERIFY_BATCH, VERIFY))
ENTITY_JUDGE = JudgeUse(("entities",), (ENTITIES_BATCH, ENTITIES))


@dataclass(frozen=True)
class Metric:
    name: str
    definition: str
    reads: tuple[str, ...]  # EvalCase fields, as in the metric definitions' table
    higher_is_better: bool
    nan_when: str
    compute: Callable[[EvalCase, "Toolkit"], MetricResult]
    value_range: tuple[float, float] = (0.0, 1.0)
    llm_only: bool = False  # judges: no offline method exists
    judge: JudgeUse = JudgeUse()  # what its LLM mode asks of the judge (nothing: offline only)

    def score(self, case: EvalCase, toolkit: "Toolkit") -> MetricResult:
        if case.bot_error and {"answer", "retrieved_contexts"} & set(self.reads):
            return MetricResult.unmeasured(f"bot error: {case.bot_error}")
        missing = [f for f in self.reads if not getattr(case, f)]
        if missing:
            return MetricResult.unmeasured(f"missing {', '.join(missing)}")
        try:
            return self.compute(case, toolkit)
        except (Unmeasurable, LLMError) as exc:
            return MetricResult.unmeasured(str(exc))


class Unmeasurable(Exception):
    """A metric cannot measure this sample (e.g. no LLM configured, the LLM failed); the
    value becomes NaN with this reason."""


class Toolkit:
    """Per-run evidence tools shared by the metrics: statements and entities extracted once
    per text, statement verification, the knowledge-graph entities and the settings.

    Offline by default (lexical, numeric and embedding evidence); with ``llm`` (an object
    offering decompose, verify, extract_entities, context_relevance, answer_questions,
    judge_1_5 and rubric_1_10), the same metrics run in LLM mode.
    """

    def __init__(self, embedder: Embedder, graph: GraphEntities | None = None,
                 config: EvaluationConfig | None = None, llm=None):
        self.embedder = embedder
        self.verifier = OfflineVerifier(embedder)
        self.graph = graph
        self.config = config or load_config()
        self.llm = llm
        if llm is not None and hasattr(llm, "statement_filters"):
            llm.statement_filters = (claims, context_claims)  # prefetch then verifies the lists the metrics verify
        self.mode = "llm" if llm is not None else "offline"
        self._statements: dict[str, tuple[str, ...]] = {}
        self._entities: dict[str, list[str]] = {}
        self._verdicts: dict[tuple, list[Verdict]] = {}
        self._results: dict[tuple[str, int], tuple[EvalCase, MetricResult]] = {}

    def prefetch(self, cases: Iterable[EvalCase], metrics: Iterable[str]) -> int:
        """Embed every text the metrics will compare, for all cases, in one batched pass
        before scoring: one big encode of the unique texts instead of hundreds of small
        ones. Which texts: a dry run of the same metrics whose embedder only records its
        inputs, so no metric needs to declare them (a text it missed is embedded lazily, as
        before; values do not depend on it). Offline mode only: in LLM mode the dry run
        would call the judge. Returns the number of vectors added to the cache."""
        if self.llm is not None:
            return 0
        recorded = self._dry_run(cases, metrics)
        return self.embedder.prefetch(recorded.texts) + self.embedder.prefetch(recorded.queries, query=True)

    def texts_to_embed(self, cases: Iterable[EvalCase], metrics: Iterable[str]) -> tuple[list[str], list[str]]:
        """The unique texts the metrics will embed for these cases: as passages, and as queries."""
        recorded = self._dry_run(cases, metrics)
        return list(recorded.texts), list(recorded.queries)

    def _dry_run(self, cases: Iterable[EvalCase], metrics: Iterable[str]) -> "_RecordingEmbedder":
        """The metrics run on an embedder that only records its inputs (offline mode)."""
        from ragpipe.core.metrics import REGISTRY

        recorder = _RecordingEmbedder(self.embedder.backend)
        dry = Toolkit(recorder, graph=self.graph, config=self.config)
        dry.verifier._calibration = self.verifier._calibration
        dry._statements, dry._entities = self._statements, self._entities  # pure text work: shared
        metrics = list(metrics)
        for case in cases:
            for name in metrics:
                REGISTRY[name].score(case, dry)
            dry._verdicts.clear()  # dummy verdicts: never reused, and not kept
            dry._results.clear()
        return recorder

    def relatedness(self, cosine):
        return self.verifier.relatedness(cosine)

    def statements(self, text: str | None) -> tuple[str, ...]:
        """Atomic statements of a text, decomposed once and shared by every metric."""
        text = text or ""
        if text not in self._statements:
            found = self.llm.decompose(text) if self.llm is not None and text.strip() else split_statements(text)
            self._statements[text] = tuple(found)
        return self._statements[text]

    def verify(self, statements, evidence: list[str], question: str = "") -> list[Verdict]:
        """Verdicts, memoised: faithfulness, noise_sensitivity and hallucination_rate ask the same.
        Offline, the question tells which of a statement's words are new (its informative coverage)."""
        key = (tuple(statements), tuple(evidence), question if self.llm is None else "")
        if key not in self._verdicts:
            self._verdicts[key] = (self.llm.verify(list(statements), list(evidence)) if self.llm is not None
                                   else self.verifier.verify(statements, evidence, question=question))
        return self._verdicts[key]

    def entities(self, text: str | None) -> list[str]:
        text = text or ""
        if text not in self._entities:
            self._entities[text] = (self.llm.extract_entities(text) if self.llm is not None
                                    else extract_entities(text, self.graph))
        return self._entities[text]

    def require_llm(self):
        if self.llm is None:
            raise Unmeasurable("needs an LLM judge; none is configured")
        return self.llm

    def forget(self, case: EvalCase) -> None:
        """Drop what was kept for composites of this case (its results, and the verdicts),
        once its scores are out, so that bulk scoring does not hold every row's details."""
        for key in [k for k, (kept, _) in self._results.items() if kept is case]:
            del self._results[key]
        self._verdicts.clear()

    def skip(self, metric: str, case: EvalCase, reason: str) -> None:
        """Leave ``metric`` unmeasured for this case, with the reason, without computing it
        (a time budget ran out): composites that read it see NaN and the reason."""
        self._results[(metric, id(case))] = (case, MetricResult.unmeasured(reason))

    def result(self, metric: str, case: EvalCase) -> MetricResult:
        """Another metric's result for the same case, computed once (composites use it)."""
        from ragpipe.core.metrics import REGISTRY

        key = (metric, id(case))
        cached = self._results.get(key)
        if cached is None or cached[0] is not case:  # ids are reused once a case is freed
            cached = self._results[key] = (case, REGISTRY[metric].score(case, self))
        return cached[1]


class _RecordingEmbedder:
    """Stands in for the Embedder in Toolkit.prefetch's dry run: notes every text (passages
    and queries apart) and answers with zero vectors."""

    def __init__(self, backend: str):
        self.backend = backend
        self.texts: dict[str, None] = {}  # insertion-ordered sets
        self.queries: dict[str, None] = {}

    def embed(self, texts: list[str], stack: bool = True, query: bool = False):
        (self.queries if query else self.texts).update(dict.fromkeys(texts))
        return np.zeros((len(texts), 1), dtype=np.float32) if stack else None

    def similarity(self, left: list[str], right: list[str], query: bool = False) -> np.ndarray:
        if not left or not right:  # the Embedder embeds nothing then either
            return np.zeros((len(left), len(right)), dtype=np.float32)
        (self.queries if query else self.texts).update(dict.fromkeys(left))
        self.texts.update(dict.fromkeys(right))
        return np.zeros((len(left), len(right)), dtype=np.float32)


def supported_share(kit: Toolkit, text: str, evidence: list[str], empty_reason: str, question: str = "") -> MetricResult:
    """Expected share of the text's statements that the evidence supports (the mean of
    their calibrated support probabilities), with every verdict. List markers left over
    from splitting an enumeration and bare replies ("Yes.") are not statements. Offline, a
    statement that is only a value ("20%。", "Canberra.") must sit where the question points
    (the verifier reads it with the question)."""
    statements = context_claims(kit.statements(text))
    if not statements:
        return MetricResult.unmeasured(empty_reason)
    verdicts = kit.verify(statements, evidence, question)
    return MetricResult(expected_share([v.score for v in verdicts]),
                        {"statements": [v.as_dict() for v in verdicts],
                         "supported": sum(v.supported for v in verdicts), "total": len(verdicts)})
