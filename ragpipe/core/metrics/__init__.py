"""The metric registry: the single list the score assets, the CLI and the reports use.
Adding a metric is one module with a ``METRIC`` and one line here."""

from ragpipe.core.metrics import (
    answer_correctness,
    answer_relevancy,
    context_precision,
    context_recall,
    context_relevance,
    context_sufficiency,
    entity_coverage,
    factual_correctness,
    faithfulness,
    hallucination_rate,
    llm_judge,
    noise_sensitivity,
    overall_score,
    rubric_1_10,
    semantic_similarity,
    unverified_entity_ratio,
)
from ragpipe.core.metrics.base import Metric, MetricResult, Toolkit, Unmeasurable

REGISTRY: dict[str, Metric] = {
    m.METRIC.name: m.METRIC
    for m in (
        # seed 001
        faithfulness, context_relevance, context_recall, context_precision, answer_relevancy, answer_correctness,
        # seed 004
        noise_sensitivity, factual_correctness, semantic_similarity,
        # seed 000
        entity_coverage, context_sufficiency, unverified_entity_ratio, hallucination_rate, overall_score,
        # seeds 002 and 003 (LLM only)
        llm_judge, rubric_1_10,
    )
}

__all__ = ["REGISTRY", "Metric", "MetricResult", "Toolkit", "Unmeasurable"]
