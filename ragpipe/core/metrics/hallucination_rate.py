import math

from ragpipe.core.metrics.base import ENTITY_JUDGE, STATEMENT_JUDGE, Metric, MetricResult, Toolkit, Unmeasurable
from ragpipe.core.metrics.entity_coverage import require_graph
from ragpipe.core.metrics.unverified_entity_ratio import penalised_faithfulness
from ragpipe.core.schemas import EvalCase


def compute(case: EvalCase, kit: Toolkit) -> MetricResult:
    faithfulness = kit.result("faithfulness", case)
    refusal = faithfulness.details.get("refusal", False)
    if math.isnan(faithfulness.value) and not refusal:
        raise Unmeasurable(f"faithfulness unmeasured: {faithfulness.error}")
    require_graph(kit)  # with a graph configured, leaving the entity term out would change the scale
    unverified = kit.result("unverified_entity_ratio", case)
    # The overall score feeds its faithfulness dimension, after the 0.1 penalty, into the hallucination rate.
    faithful = penalised_faithfulness(faithfulness.value, unverified, kit)
    weight = kit.config.unverified_penalty["hallucination"]
    entity_term = 0.0 if math.isnan(unverified.value) else weight * unverified.value
    base = 0.0 if refusal else 1 - faithful  # a refusal asserts nothing, so invents nothing
    value = min(1.0, base + entity_term)
    high = kit.config.thresholds["high_risk_hallucination"]
    return MetricResult(value, {
        "base": base, "refusal": refusal, "entity_term": entity_term,
        "entity_term_note": unverified.error if math.isnan(unverified.value) else None,
        "risk_level": "高风险" if value > high else "低风险",
    })


METRIC = Metric(
    name="hallucination_rate",
    definition=("The overall score's composite: (1 − faithfulness dimension) + 0.5 × unverified-entity ratio, capped at 1, "
                "where the faithfulness dimension is faithfulness less 0.1 × unverified-entity ratio (as in "
                "overall_score). Without a knowledge graph the entity terms are left out (said in the details). "
                "An answer that only declines (faithfulness NaN, \"the answer declines to answer\") invents "
                "nothing: its first term is 0. "
                "Lower is better."),
    reads=("answer", "retrieved_contexts"),
    higher_is_better=False,
    nan_when="faithfulness is unmeasured (other than for a refusal), or the configured knowledge graph could not be read",
    compute=compute,
    judge=STATEMENT_JUDGE + ENTITY_JUDGE,
)
