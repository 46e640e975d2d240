from ragpipe.core.metrics.base import Metric, MetricResult, Toolkit, supported_share
from ragpipe.core.schemas import EvalCase


def compute(case: EvalCase, kit: Toolkit) -> MetricResult:
    return supported_share(kit, case.answer, case.retrieved_contexts,
                           "the answer makes no statement (refusal or empty)")


METRIC = Metric(
    name="faithfulness",
    definition="Share of the answer's atomic statements that the retrieved contexts support.",
    reads=("answer", "retrieved_contexts"),
    higher_is_better=True,
    nan_when="no answer, no retrieved contexts, the bot failed, or the answer makes no statement",
    compute=compute,
)
