from ragpipe.core.entities import extract_entities, is_numeric, outermost
from ragpipe.core.metrics.base import Metric, MetricResult, Toolkit, Unmeasurable
from ragpipe.core.metrics.entity_coverage import require_graph
from ragpipe.core.schemas import EvalCase


def compute(case: EvalCase, kit: Toolkit) -> MetricResult:
    if kit.graph is None:
        raise Unmeasurable("no knowledge-graph entities for this dataset")
    require_graph(kit)
    # Only names a graph could hold count; numbers and dates are faithfulness's business.
    found = kit.entities(case.answer) if kit.llm is not None else extract_entities(case.answer, kit.graph, proper_only=True)
    named = outermost([e for e in found if not is_numeric(e)])
    unverified = [e for e in named if kit.graph.canonical(e) is None and not kit.graph.find_in(e)]
    value = len(unverified) / len(named) if named else 0.0
    return MetricResult(value, {"answer_entities": named, "unverified_entities": unverified})


METRIC = Metric(
    name="unverified_entity_ratio",
    definition=("Share of the answer's named entities that the knowledge graph does not know "
                "(seed 000's unmatched ratio); 0 when the answer names none. Lower is better."),
    reads=("answer",),
    higher_is_better=False,
    nan_when="no answer, the bot failed, the dataset has no knowledge graph, or the configured graph could not be read",
    compute=compute,
)
