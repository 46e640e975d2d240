from ragpipe.core.entities import covered
from ragpipe.core.metrics.base import Metric, MetricResult, Toolkit
from ragpipe.core.schemas import EvalCase


def compute(case: EvalCase, kit: Toolkit) -> MetricResult:
    required = kit.entities(case.question)
    if not required:
        return MetricResult.unmeasured("the question names no entity")
    hit, missing = covered(required, kit.entities(case.answer), case.answer)
    return MetricResult(len(hit) / len(required), {"question_entities": required, "covered_entities": hit,
                                                   "missing_entities": missing})


METRIC = Metric(
    name="entity_coverage",
    definition="Share of the question's entities (policies, agencies, places, articles, sectors, amounts) the answer covers.",
    reads=("question", "answer"),
    higher_is_better=True,
    nan_when="no answer, the bot failed, or the question names no entity",
    compute=compute,
)
