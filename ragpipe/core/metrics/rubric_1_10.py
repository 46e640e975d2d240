from ragpipe.core.judged.prompts import JUDGE_AND_RUBRIC, RUBRIC_1_10, RUBRIC_1_10_PURE_LLM
from ragpipe.core.metrics.base import JudgeUse, Metric, MetricResult, Toolkit
from ragpipe.core.schemas import EvalCase


def compute(case: EvalCase, kit: Toolkit) -> MetricResult:
    # Without retrieved documents the judge runs the rubric's pure-LLM mode.
    result = kit.require_llm().rubric_1_10(case.question, case.answer, case.retrieved_contexts or None)
    details = result.model_dump()
    return MetricResult(float(result.weighted_score), details)


METRIC = Metric(
    name="rubric_1_10",
    definition=("The rubric: accuracy (50 %), completeness (30 %) and clarity (20 %) each 1-10, fractions "
                "allowed; the value is the weighted score; is_passing when accuracy ≥ 7; with reason and "
                "suggestion. Judged against the first rubric.max_documents (5) retrieved documents, or without "
                "any (pure-LLM mode)."),
    reads=("question", "answer"),
    higher_is_better=True,
    nan_when="no LLM configured, the judge's output stays invalid after one re-ask, or no answer",
    compute=compute,
    llm_only=True,
    value_range=(1.0, 10.0),
    judge=JudgeUse(("judges",), (JUDGE_AND_RUBRIC, RUBRIC_1_10, RUBRIC_1_10_PURE_LLM)),
)
