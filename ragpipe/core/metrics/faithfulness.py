import math

from ragpipe.core.evidence.support import declines
from ragpipe.core.metrics.base import STATEMENT_JUDGE, Metric, MetricResult, Toolkit, supported_share
from ragpipe.core.schemas import EvalCase
from ragpipe.core.text import is_chinese

DECLINES = "the answer declines to answer"


def compute(case: EvalCase, kit: Toolkit) -> MetricResult:
    if declines(kit.statements(case.answer)):
        return MetricResult.unmeasured(DECLINES, refusal=True)
    result = supported_share(kit, case.answer, case.retrieved_contexts,
                             "the answer makes no statement the contexts can check (bare reply or empty)")
    if kit.mode == "offline" and not math.isnan(result.value):
        # The thresholds are fitted to the offline verifier's probabilities, per language:
        # the same share means less in Chinese, whose paraphrases share fewer words.
        language = "zh" if is_chinese(case.answer) else "en"
        threshold = kit.verifier.calibration.hallucination_threshold(language)
        result.details.update(language=language, hallucination_threshold=threshold,
                              hallucinated=result.value < threshold)
    return result


METRIC = Metric(
    name="faithfulness",
    definition=("Expected share of the answer's atomic statements that the retrieved contexts support: the mean "
                "of each statement's calibrated support probability (lexical, numeric, name, negation and "
                "embedding evidence, weighed by the offline verifier). Refusal sentences (\"the documents do not say…\", "
                "\"资料中没有相关信息\") assert nothing and are not checked; an answer that only declines is NaN "
                "with the reason \"the answer declines to answer\" and is never flagged (whether declining was "
                "right is answer_correctness's call). Offline, an answer is flagged as hallucinated "
                "(details.hallucinated) when the value is below its language's threshold "
                "(calibration.json faithfulness_hallucination_thresholds, chosen out of fold)."),
    reads=("answer", "retrieved_contexts"),
    higher_is_better=True,
    nan_when=("no answer, no retrieved contexts, the bot failed, the answer declines to answer (a refusal), or it "
              "makes no statement the contexts can check (only a bare reply such as \"Yes.\")"),
    compute=compute,
    judge=STATEMENT_JUDGE,
)
