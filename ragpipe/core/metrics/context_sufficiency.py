from ragpipe.core.metrics.base import ENTITY_JUDGE, Metric, MetricResult, Toolkit
from ragpipe.core.metrics.entity_coverage import question_entity_share
from ragpipe.core.schemas import EvalCase


def compute(case: EvalCase, kit: Toolkit) -> MetricResult:
    return question_entity_share(kit, case.question, "\n".join(case.retrieved_contexts), "uncovered_entities")


METRIC = Metric(
    name="context_sufficiency",
    definition="Share of the question's entities that the retrieved contexts cover.",
    reads=("question", "retrieved_contexts"),
    higher_is_better=True,
    nan_when="no retrieved contexts, the bot failed, the question names no entity, or (offline) the configured knowledge graph could not be read",
    compute=compute,
    judge=ENTITY_JUDGE,
)
