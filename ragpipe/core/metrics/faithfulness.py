from ragpipe.core.metrics.base import Metric, MetricResult, Toolkit
from ragpipe.core.schemas import EvalCase


def compute(case: EvalCase, kit: Toolkit) -> MetricResult:
    statements = kit.statements(case.answer)
    if not statements:
        return MetricResult.unmeasured("the answer makes no statement (refusal or empty)")
    verdicts = kit.verify(statements, case.retrieved_contexts)
    supported = sum(v.supported for v in verdicts)
    return MetricResult(supported / len(verdicts), {"statements": [v.as_dict() for v in verdicts]})


METRIC = Metric(
    name="faithfulness",
    definition="Share of the answer's atomic statements that the retrieved contexts support.",
    reads=("answer", "retrieved_contexts"),
    higher_is_better=True,
    nan_when="no answer, no retrieved contexts, the bot failed, or the answer makes no statement",
    compute=compute,
)
