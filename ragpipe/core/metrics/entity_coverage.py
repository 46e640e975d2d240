from ragpipe.core.evidence.entities import covered
from ragpipe.core.metrics.base import ENTITY_JUDGE, Metric, MetricResult, Toolkit, Unmeasurable
from ragpipe.core.schemas import EvalCase


def require_graph(kit: Toolkit) -> None:
    """A configured graph that could not be read makes what depends on it unmeasured:
    a number computed without it would silently mean something else."""
    if kit.graph is not None and kit.graph.error:
        raise Unmeasurable(kit.graph.error)


def question_entity_share(kit: Toolkit, question: str, text: str, missing_key: str) -> MetricResult:
    """Share of the question's entities that ``text`` covers (the overall score's coverage formula)."""
    if kit.llm is None:  # offline extraction finds entities through the graph's names and aliases
        require_graph(kit)
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
    definition="Share of the question's entities (policies, agencies, places, law articles, industries: names, not numbers) the answer covers.",
    reads=("question", "answer"),
    higher_is_better=True,
    nan_when="no answer, the bot failed, the question names no entity, or (offline) the configured knowledge graph could not be read",
    compute=compute,
    judge=ENTITY_JUDGE,
)
