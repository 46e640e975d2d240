import math

from ragpipe.core.evidence.entities import is_quantity, normalize_entity, outermost, quantities, quantity_in
from ragpipe.core.metrics.base import ENTITY_JUDGE, Metric, MetricResult, Toolkit, Unmeasurable
from ragpipe.core.metrics.entity_coverage import require_graph
from ragpipe.core.schemas import EvalCase


def compute(case: EvalCase, kit: Toolkit) -> MetricResult:
    if kit.graph is None:
        raise Unmeasurable("no knowledge-graph entities for this dataset")
    require_graph(kit)
    # Names are checked against the graph; numbers, dates, amounts and durations against
    # the retrieved contexts, which is where a grounded answer takes them from.
    names = outermost([e for e in kit.entities(case.answer) if not is_quantity(e)])
    amounts = quantities(case.answer)
    contexts = "\n".join(case.retrieved_contexts)
    unverified = [e for e in names if kit.graph.canonical(e) is None and not kit.graph.find_in(e)
                  and not _inside_graph_name(e, kit)]
    unverified += [q for q in amounts if not quantity_in(q, contexts)]
    checked = len(names) + len(amounts)
    return MetricResult(len(unverified) / checked if checked else 0.0,
                        {"answer_entities": names, "answer_quantities": amounts, "unverified_entities": unverified})


METRIC = Metric(
    name="unverified_entity_ratio",
    definition=("Share of the answer's named entities that the knowledge graph does not know (the overall score's unmatched "
                "ratio), counting with them the numbers, dates, amounts and durations the retrieved contexts do "
                "not state; 0 when the answer names none. Lower is better."),
    reads=("answer", "retrieved_contexts"),
    higher_is_better=False,
    nan_when=("no answer, no retrieved contexts, the bot failed, the dataset has no knowledge graph, or the "
              "configured graph could not be read"),
    compute=compute,
    judge=ENTITY_JUDGE,
)


def _inside_graph_name(entity: str, kit: Toolkit) -> bool:
    """A name the graph holds as part of a longer one (小型微利企业 in 小型微利企业所得税优惠)."""
    key = normalize_entity(entity)
    return len(key) >= 4 and any(key in alias for alias in kit.graph.alias_to_name)


def penalised_faithfulness(faithfulness: float, unverified: MetricResult, kit: Toolkit) -> float:
    """The overall score's faithfulness dimension: max(0, faithfulness − 0.1 × unverified ratio); the
    ratio is left out when it is unmeasured (no graph)."""
    if math.isnan(faithfulness) or math.isnan(unverified.value):  # max(0, NaN) would be 0, not NaN
        return faithfulness
    return max(0.0, faithfulness - kit.config.unverified_penalty["faithfulness"] * unverified.value)
