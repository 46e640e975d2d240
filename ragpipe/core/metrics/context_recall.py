from ragpipe.core.metrics.base import Metric, MetricResult, Toolkit
from ragpipe.core.schemas import EvalCase


def compute(case: EvalCase, kit: Toolkit) -> MetricResult:
    statements = kit.statements(case.ground_truth_answer)
    if not statements:
        return MetricResult.unmeasured("the ground-truth answer makes no statement")
    verdicts = kit.verify(statements, case.retrieved_contexts)
    supported = sum(v.supported for v in verdicts)
    return MetricResult(supported / len(verdicts), {"statements": [v.as_dict() for v in verdicts]})


METRIC = Metric(
    name="context_recall",
    definition="Share of the ground-truth answer's statements that the retrieved contexts support.",
    reads=("ground_truth_answer", "retrieved_contexts"),
    higher_is_better=True,
    nan_when="no ground-truth answer, no retrieved contexts, or the bot failed",
    compute=compute,
)
