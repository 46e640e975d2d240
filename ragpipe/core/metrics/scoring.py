"""Score evaluation cases with registered metrics, outside Dagster (CLI, API, benchmarks)."""

from __future__ import annotations

from collections.abc import Iterable

from ragpipe.core.metrics import REGISTRY, MetricResult, Toolkit
from ragpipe.core.schemas import EvalCase, InputError


# A row's field names, ragpipe's own, RAGAS's and DeepEval's (LLMTestCase), to EvalCase's;
# where a row gives one field under several names, the first name here wins.
ROW_FIELDS = {
    "id": "question_id", "question_id": "question_id",
    "question": "question", "user_input": "question", "input": "question",
    "answer": "answer", "response": "answer", "actual_output": "answer",
    "retrieved_contexts": "retrieved_contexts", "retrieval_context": "retrieved_contexts",
    "retrieved_ids": "retrieved_ids",
    "ground_truth_answer": "ground_truth_answer", "ground_truth": "ground_truth_answer",
    "reference": "ground_truth_answer", "expected_output": "ground_truth_answer",
    "ground_truth_contexts": "ground_truth_contexts", "reference_contexts": "ground_truth_contexts",
    "context": "ground_truth_contexts",  # DeepEval's ideal retrieval results
}
# Keys of the benchmark format that describe a row without being scored.
ROW_LABELS = {"dataset", "subset", "language", "human_label", "label_source"}
TEXT_FIELDS = ("question_id", "question", "answer", "ground_truth_answer")


def case_from_row(row: dict, index: int = 0) -> EvalCase:
    """A row in the benchmark format (../shared/benchmarks/README.md) or EvalCase's own."""
    return read_row(row, index)[0]


def read_row(row: dict, index: int = 0, where: str = "row") -> tuple[EvalCase, dict[str, str]]:
    """The case a row describes, in the benchmark format (../shared/benchmarks/README.md),
    EvalCase's own names, RAGAS's or DeepEval's; and, per key that is not scored, why (a
    key no vocabulary knows, or a second name for a field given another value). An
    InputError (``where`` and ``index`` naming the file and line) for a value of the wrong type."""
    values: dict[str, object] = {}
    given_as: dict[str, str] = {}
    ignored: dict[str, str] = {}
    for key, field in ROW_FIELDS.items():
        value = row.get(key)
        if value is None:
            continue
        if field in TEXT_FIELDS:
            if isinstance(value, bool) or not isinstance(value, (str, int)):
                raise InputError(where, key, f"expected text, got {type(value).__name__}", index)
            value = str(value)
        elif not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
            raise InputError(where, key, f"expected a list of strings, got {type(value).__name__}"
                             + (" of other values" if isinstance(value, list) else ""), index)
        if field in values:
            if value != values[field]:
                ignored[key] = f"field {key!r} is ignored: {given_as[field]!r} gives {field} another value"
            continue
        values[field], given_as[field] = value, key
    ignored.update({key: f"unknown field {key!r} is ignored" for key in row
                    if key not in ROW_FIELDS and key not in ROW_LABELS})
    return EvalCase(**{"question_id": str(index), "question": "", **values}), ignored


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
