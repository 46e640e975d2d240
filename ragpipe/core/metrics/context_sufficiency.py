from ragpipe.core.entities import covered
from ragpipe.core.metrics.base import Metric, MetricResult, Toolkit
from ragpipe.core.schemas import EvalCase


def compute(case: EvalCase, kit: Toolkit) -> MetricResult:
    required = kit.entities(case.question)
    if not required:
        return MetricResult.unmeasured("the question names no entity")
    joined = "\n".join(case.retrieved_contexts)
    hit, missing = covered(required, kit.entities(joined), joined)
    return MetricResult(len(hit) / len(required), {"question_entities": required, "covered_entities": hit,
                                                   "uncovered_entities": missing})


METRIC = Metric(
    name="context_sufficiency",
    definition="Share of the question's entities that the retrieved contexts cover.",
    reads=("question", "retrieved_contexts"),
    higher_is_better=True,
    nan_when="no retrieved contexts, the bot failed, or the question names no entity",
    compute=compute,
)
