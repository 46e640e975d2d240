from ragpipe.core.evidence.agreement import in_context
from ragpipe.core.evidence.support import context_claims
from ragpipe.core.metrics.base import STATEMENT_JUDGE, Metric, MetricResult, Toolkit
from ragpipe.core.schemas import EvalCase


def compute(case: EvalCase, kit: Toolkit) -> MetricResult:
    # The statements faithfulness checks, so the contexts' verdicts are shared, not redone.
    statements = context_claims(kit.statements(case.answer))
    if not statements:
        return MetricResult.unmeasured("the answer makes no statement the contexts can check (refusal, bare reply or empty)")
    correct = kit.verify(statements, [in_context(case.question, case.ground_truth_answer)], case.question)
    grounded = kit.verify(statements, case.retrieved_contexts, case.question)
    # Wrong, yet taken from the retrieved contexts: the bot relayed noise.
    noisy = [c.statement for c, g in zip(correct, grounded) if not c.supported and g.supported]
    return MetricResult(len(noisy) / len(statements), {"noisy_statements": noisy, "statements": len(statements)})


METRIC = Metric(
    name="noise_sensitivity",
    definition=("Share of the answer's statements that are wrong by the ground-truth answer yet "
                "supported by a retrieved context: errors the bot took from noisy retrieval. Lower is better."),
    reads=("answer", "ground_truth_answer", "retrieved_contexts"),
    higher_is_better=False,
    nan_when="no answer, no ground-truth answer, no retrieved contexts, the bot failed, or no statement",
    compute=compute,
    judge=STATEMENT_JUDGE,
)
