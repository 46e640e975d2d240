from ragpipe.core.evidence.entities import covered, is_quantity
from ragpipe.core.evidence.refusals import says_unanswerable
from ragpipe.core.evidence.agreement import elliptical
from ragpipe.core.metrics.base import ENTITY_JUDGE, Metric, MetricResult, Toolkit, Unmeasurable
from ragpipe.core.schemas import EvalCase

_ELLIPSIS = "a bare value that names no entity and does not decline replies about the question's entities"


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


def elliptical_reply(kit: Toolkit, answer: str) -> bool:
    """A bare value that names no entity of its own and does not decline ("20%。" to
    "小型微利企业税率？"): it is about the question's entities without repeating them. A
    sentence that leaves them out ("Businesses can get up to $25,000."), or a refusal, is not."""
    return (elliptical(answer) and not says_unanswerable(kit.statements(answer))
            and not [e for e in kit.entities(answer) if not is_quantity(e)])


def compute(case: EvalCase, kit: Toolkit) -> MetricResult:
    result = question_entity_share(kit, case.question, case.answer, "missing_entities")
    if result.details.get("missing_entities") and elliptical_reply(kit, case.answer):
        required = result.details["question_entities"]
        return MetricResult(1.0, {"question_entities": required, "covered_entities": required, "missing_entities": [],
                                  "ellipsis": _ELLIPSIS})
    return result


METRIC = Metric(
    name="entity_coverage",
    definition=("Share of the question's entities (policies, agencies, places, law articles, industries: names, not "
                "numbers) the answer covers. A bare value (at most three words or eight Chinese characters) that names "
                "no entity and does not decline (\"20%。\" to \"小型微利企业税率？\") replies about the question's "
                "entities by ellipsis and covers them all; a sentence that leaves them out does not."),
    reads=("question", "answer"),
    higher_is_better=True,
    nan_when="no answer, the bot failed, the question names no entity, or (offline) the configured knowledge graph could not be read",
    compute=compute,
    judge=ENTITY_JUDGE,
)
