"""The metric registry: the single list the score assets, the CLI and the reports use.
Adding a metric is one module with a ``METRIC`` and one line here."""

from ragpipe.core.metrics import (
    answer_correctness,
    answer_relevancy,
    context_precision,
    context_recall,
    faithfulness,
)
from ragpipe.core.metrics.base import Metric, MetricResult, Toolkit

REGISTRY: dict[str, Metric] = {
    m.METRIC.name: m.METRIC
    for m in (faithfulness, answer_relevancy, context_precision, context_recall, answer_correctness)
}

__all__ = ["REGISTRY", "Metric", "MetricResult", "Toolkit"]
