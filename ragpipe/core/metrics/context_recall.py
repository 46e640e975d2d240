from ragpipe.core.metrics.base import STATEMENT_JUDGE, Metric, MetricResult, Toolkit, supported_share
from ragpipe.core.schemas import EvalCase


def compute(case: EvalCase, kit: Toolkit) -> MetricResult:
    return supported_share(kit, case.ground_truth_answer, case.retrieved_contexts,
                           "the ground-truth answer makes no statement the contexts can check", case.question)


METRIC = Metric(
    name="context_recall",
    definition="Share of the ground-truth answer's statements that the retrieved contexts support.",
    reads=("ground_truth_answer", "retrieved_contexts"),
    higher_is_better=True,
    nan_when=("no ground-truth answer, no retrieved contexts, the bot failed, or the ground-truth answer makes "
              "no statement the contexts can check"),
    compute=compute,
    judge=STATEMENT_JUDGE,
)
