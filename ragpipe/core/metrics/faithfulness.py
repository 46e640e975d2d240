from ragpipe.core.metrics.base import Metric, MetricResult, Toolkit, supported_share
from ragpipe.core.schemas import EvalCase

# An answer is flagged as hallucinated when its faithfulness is below this. Fixed by
# scripts/train_calibration.py from training data only: the value that maximizes F1 for
# "hallucinated" on the out-of-fold faithfulness of the benchmark answers (RAGTruth,
# HaluEval); it is also stored in calibration.json and a test keeps the two equal. The
# script prints F1 at thresholds fixed without the scored rows (out-of-fold, cross-file).
FAITHFULNESS_HALLUCINATION_THRESHOLD = 0.953


def compute(case: EvalCase, kit: Toolkit) -> MetricResult:
    return supported_share(kit, case.answer, case.retrieved_contexts,
                           "the answer makes no statement the contexts can check (refusal, bare reply or empty)")


METRIC = Metric(
    name="faithfulness",
    definition=("Expected share of the answer's atomic statements that the retrieved contexts support: the mean "
                "of each statement's calibrated support probability (lexical, numeric, name, negation and "
                "embedding evidence; ragpipe.core.evidence). Below FAITHFULNESS_HALLUCINATION_THRESHOLD the "
                "answer is flagged as hallucinated."),
    reads=("answer", "retrieved_contexts"),
    higher_is_better=True,
    nan_when=("no answer, no retrieved contexts, the bot failed, or the answer makes no statement the contexts "
              "can check (a refusal, or only a bare reply such as \"Yes.\")"),
    compute=compute,
)
