"""`ragpipe bench perf --dagster`: what Dagster adds around the metric calls. `ragpipe run`
on the sample project (fresh output dir and Dagster home, warm embedding cache), its runs'
step times from the event log, and the same metric calls without Dagster."""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from unittest import mock

from ragpipe.bench import loadavg_text
from ragpipe.defs.runner import EXIT_BLOCKED

PROJECT_DIR = Path(__file__).resolve().parents[2]


def step_seconds(home: Path) -> tuple[int, float]:
    """Runs in a Dagster home and the summed wall time of their steps (the asset bodies with
    their Parquet reads and writes), from each run's STEP_START to its end event."""
    import dagster as dg

    ends = {dg.DagsterEventType.STEP_SUCCESS, dg.DagsterEventType.STEP_FAILURE}
    total, runs = 0.0, 0
    # The storage follows DAGSTER_HOME (ragpipe.defs.instance), so point it at this home.
    with mock.patch.dict(os.environ, {"DAGSTER_HOME": str(home)}):
        instance = dg.DagsterInstance.from_config(str(home))
    with instance:
        for run in instance.get_runs():
            runs += 1
            started: dict[str, float] = {}
            for entry in instance.all_logs(run.run_id, of_type={dg.DagsterEventType.STEP_START, *ends}):
                if entry.dagster_event.event_type == dg.DagsterEventType.STEP_START:
                    started[entry.step_key] = entry.timestamp
                elif entry.step_key in started:
                    total += entry.timestamp - started.pop(entry.step_key)
    return runs, total


def dagster_overhead(args) -> None:
    """`ragpipe run` on the sample project (fresh output dir and Dagster home, warm embedding
    cache) against the same metric calls without Dagster, on the cases that run produced."""
    import shutil

    import pandas as pd

    from ragpipe.core.evidence.embeddings import Embedder
    from ragpipe.core.metrics import REGISTRY, Toolkit
    from ragpipe.defs.evaluation.assets import build_cases

    work = Path(tempfile.mkdtemp(prefix="ragpipe-perf-"))
    project = work / "project"
    project.mkdir()
    for item in ("data", "dagster.yaml", "workspace.yaml"):
        source = PROJECT_DIR / item
        (shutil.copytree if source.is_dir() else shutil.copy)(source, project / item)
    cache = work / "cache"

    def run(tag: str) -> tuple[float, float, Path]:
        out = work / f"out-{tag}"
        env = {**os.environ, "RAGPIPE_OUTPUT_DIR": str(out), "RAGPIPE_CACHE_DIR": str(cache),
               "DAGSTER_HOME": str(work / f"home-{tag}")}
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "ragpipe.cli", "run", "--project-dir", str(project)],
                              env=env, capture_output=True, text=True)
        seconds = time.perf_counter() - started
        if done.returncode not in (0, EXIT_BLOCKED):  # a blocking check failing still means every run finished
            raise RuntimeError(f"ragpipe run failed:\n{done.stderr[-2000:]}")
        found = re.search(r"runs succeeded in ([\d.]+) s", done.stdout)
        return seconds, float(found.group(1)) if found else math.nan, out / "warehouse"

    run("warm")  # fills the embedding cache (and is not timed)
    graph_seconds, materialize_seconds, warehouse = run("timed")
    graph_load = os.getloadavg()
    runs, steps = step_seconds(work / "home-timed")
    cases = []
    for responses in sorted((warehouse / "rag_responses").rglob("*.parquet")):
        dataset = responses.stem.split("|")[-1]
        questions = next((warehouse / "question_set").rglob(f"{dataset}.parquet"))
        cases += build_cases(pd.read_parquet(questions), pd.read_parquet(responses))
    names = list(REGISTRY)
    started = time.perf_counter()
    kit = Toolkit(Embedder(args.backend, cache / f"embeddings-{args.backend}.sqlite"))
    kit.prefetch(cases, names)
    for name in names:  # as the scores asset runs them: metric by metric over the cases
        for case in cases:
            kit.result(name, case)
    core_seconds = time.perf_counter() - started
    print(f"\nDagster overhead: `ragpipe run` on the sample project ({len(cases)} question × bot version cases, "
          f"every asset incl. bot answers and HTML reports), fresh output dir, warm embedding cache")
    print(f"  graph wall time {graph_seconds:.1f} s from process start to exit, {materialize_seconds:.1f} s of it "
          f"materializing ({loadavg_text(graph_load)})")
    print(f"  inside the {runs} runs' steps (asset bodies with their Parquet I/O) {steps:.1f} s; Dagster's own "
          f"bookkeeping around them {materialize_seconds - steps:.1f} s: materializing / steps = "
          f"{materialize_seconds / steps if steps else math.nan:.2f}")
    print(f"  the scores steps' metric calls without Dagster {core_seconds:.2f} s ({loadavg_text(os.getloadavg())})")
    print(f"  ratio graph / metric calls = {graph_seconds / core_seconds:.1f} (materializing only: "
          f"{materialize_seconds / core_seconds:.1f}); the graph also generates questions, asks the bots, "
          "checks and writes reports")
    shutil.rmtree(work, ignore_errors=True)
