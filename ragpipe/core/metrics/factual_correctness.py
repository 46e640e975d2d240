from ragpipe.core.metrics.base import STATEMENT_JUDGE, Metric, MetricResult, Toolkit
from ragpipe.core.schemas import EvalCase


def claim_agreement(kit: Toolkit, answer: str, reference: str) -> dict:
    """Answer claims checked against the reference and reference claims against the answer:
    true positives, false positives, false negatives, and every verdict."""
    claims = kit.verify(kit.statements(answer), [reference])
    recalled = kit.verify(kit.statements(reference), [answer])
    tp = sum(v.supported for v in claims)
    return {"tp": tp, "fp": len(claims) - tp, "fn": sum(not v.supported for v in recalled),
            "claims": [v.as_dict() for v in claims], "reference": [v.as_dict() for v in recalled]}


def compute(case: EvalCase, kit: Toolkit) -> MetricResult:
    if not kit.statements(case.ground_truth_answer):
        return MetricResult.unmeasured("the ground-truth answer makes no statement")
    agreement = claim_agreement(kit, case.answer, case.ground_truth_answer)
    tp, fp, fn = agreement["tp"], agreement["fp"], agreement["fn"]
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return MetricResult(f1, {"precision": precision, "recall": recall, **agreement})


METRIC = Metric(
    name="factual_correctness",
    definition=("Claim-level F1 of the answer against the ground-truth answer (precision: answer "
                "claims the reference supports; recall: reference claims the answer states)."),
    reads=("answer", "ground_truth_answer"),
    higher_is_better=True,
    nan_when="no answer, no ground-truth answer, or the bot failed",
    compute=compute,
    judge=STATEMENT_JUDGE,
)
