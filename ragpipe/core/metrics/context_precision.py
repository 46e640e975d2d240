from ragpipe.core.metrics.base import Metric, MetricResult, Toolkit
from ragpipe.core.schemas import EvalCase


def compute(case: EvalCase, kit: Toolkit) -> MetricResult:
    if not case.retrieved_ids:
        return MetricResult.unmeasured("the bot returned no context ids to compare with the ground truth")
    relevant = set(case.ground_truth_contexts)
    hits, precisions = 0, []
    for rank, chunk_id in enumerate(case.retrieved_ids, start=1):
        if chunk_id in relevant:
            hits += 1
            precisions.append(hits / rank)
    value = sum(precisions) / hits if hits else 0.0
    return MetricResult(value, {"relevant_ranks": [r for r, c in enumerate(case.retrieved_ids, 1) if c in relevant],
                                "retrieved_ids": case.retrieved_ids})


METRIC = Metric(
    name="context_precision",
    definition=("Average precision of the ranking: mean of precision@k over the ranks k that hold a "
                "ground-truth context; 0 when none is retrieved. Relevant chunks ranked first score high."),
    reads=("ground_truth_contexts", "retrieved_contexts"),
    higher_is_better=True,
    nan_when="no ground-truth contexts, no retrieved contexts or ids, or the bot failed",
    compute=compute,
)
