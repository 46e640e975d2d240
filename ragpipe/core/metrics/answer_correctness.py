from ragpipe.core.metrics.base import Metric, MetricResult, Toolkit
from ragpipe.core.schemas import EvalCase


def compute(case: EvalCase, kit: Toolkit) -> MetricResult:
    reference = kit.statements(case.ground_truth_answer)
    if not reference:
        return MetricResult.unmeasured("the ground-truth answer makes no statement")
    claims = kit.statements(case.answer)
    claim_verdicts = kit.verify(claims, [case.ground_truth_answer])
    reference_verdicts = kit.verify(reference, [case.answer])
    tp = sum(v.supported for v in claim_verdicts)
    fp = len(claim_verdicts) - tp
    fn = sum(not v.supported for v in reference_verdicts)
    value = tp / (tp + 0.5 * (fp + fn)) if tp else 0.0
    return MetricResult(value, {
        "tp": tp, "fp": fp, "fn": fn,
        "claims": [v.as_dict() for v in claim_verdicts],
        "reference": [v.as_dict() for v in reference_verdicts],
    })


METRIC = Metric(
    name="answer_correctness",
    definition=("Claim-level F1 between the answer and the ground-truth answer: answer statements the "
                "reference supports are true positives, the others false positives; reference statements "
                "the answer misses are false negatives. A conflicting number is never support."),
    reads=("answer", "ground_truth_answer"),
    higher_is_better=True,
    nan_when="no answer, no ground-truth answer, or the bot failed",
    compute=compute,
)
