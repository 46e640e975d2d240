"""Score evaluation cases with registered metrics, outside Dagster (CLI, API, benchmarks)."""

from __future__ import annotations

from collections.abc import Iterable

from ragpipe.core.metrics import REGISTRY, MetricResult, Toolkit
from ragpipe.core.schemas import EvalCase


def case_from_row(row: dict, index: int = 0) -> EvalCase:
    """A row in the benchmark format (../shared/benchmarks/README.md) or EvalCase's own."""
    return EvalCase(
        question_id=str(row.get("id") or row.get("question_id") or index),
        question=row.get("question") or "",
        ground_truth_answer=row.get("ground_truth_answer"),
        ground_truth_contexts=row.get("ground_truth_contexts") or [],
        answer=row.get("answer"),
        retrieved_contexts=row.get("retrieved_contexts") or [],
        retrieved_ids=row.get("retrieved_ids") or [],
    )


def score_case(case: EvalCase, toolkit: Toolkit, metrics: Iterable[str] | None = None) -> dict[str, MetricResult]:
    try:
        return {name: toolkit.result(name, case) for name in (metrics or REGISTRY)}
    finally:
        toolkit.forget(case)


def score_cases(cases: list[EvalCase], toolkit: Toolkit,
                metrics: Iterable[str] | None = None) -> list[dict[str, MetricResult]]:
    """Every case, after one batched prefetch of all the embeddings the metrics need."""
    names = list(metrics or REGISTRY)
    toolkit.prefetch(cases, names)
    return [score_case(case, toolkit, names) for case in cases]
