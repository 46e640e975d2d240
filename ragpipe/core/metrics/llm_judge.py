from ragpipe.core.judged.prompts import JUDGE_1_5, JUDGE_AND_RUBRIC
from ragpipe.core.metrics.base import JudgeUse, Metric, MetricResult, Toolkit
from ragpipe.core.schemas import EvalCase


def compute(case: EvalCase, kit: Toolkit) -> MetricResult:
    score, reasoning = kit.require_llm().judge_1_5(case.question, case.ground_truth_answer, case.answer)
    return MetricResult(float(score), {"reasoning": reasoning})


METRIC = Metric(
    name="llm_judge",
    definition=("The LLM judge: 1 (wrong, hallucinated or refused) to 5 (fully correct, grounded, "
                "complete, fluent) against the ground-truth answer, with the judge's reasoning."),
    reads=("question", "answer", "ground_truth_answer"),
    higher_is_better=True,
    nan_when="no LLM configured, the judge's output stays invalid after one re-ask, or a field is missing",
    compute=compute,
    llm_only=True,
    value_range=(1.0, 5.0),
    judge=JudgeUse(("judges",), (JUDGE_AND_RUBRIC, JUDGE_1_5)),
)
