from ragpipe.core.entities import covered
from ragpipe.core.metrics.base import Metric, MetricResult, Toolkit
from ragpipe.core.schemas import EvalCase


def question_entity_share(kit: Toolkit, question: str, text: str, missing_key: str) -> MetricResult:
    """Share of the question's entities that ``text`` covers (seed 000's coverage formula)."""
    required = kit.entities(question)
    if not required:
        return MetricResult.unmeasured("the question names no entity")
    hit, missing = covered(required, kit.entities(text), text)
    return MetricResult(len(hit) / len(required), {"question_entities": required, "covered_entities": hit,
                                                   missing_key: missing})


def compute(case: EvalCase, kit: Toolkit) -> MetricResult:
    return question_entity_share(kit, case.question, case.answer, "missing_entities")


METRIC = Metric(
    name="entity_coverage",
    definition="Share of the question's entities (policies, agencies, places, articles, sectors, amounts) the answer covers.",
    reads=("question", "answer"),
    higher_is_better=True,
    nan_when="no answer, the bot failed, or the question names no entity",
    compute=compute,
)
