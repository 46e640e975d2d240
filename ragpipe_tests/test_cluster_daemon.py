"""Daemon only, on a real Dask cluster (a scheduler and two worker processes on 127.0.0.1)
with PostgreSQL: nothing but `dagster-daemon run` and `ragpipe backfill` drive a fresh
project. The sensor prepares the dataset (a dynamically partitioned run, which dagster-dask
could not hand to Dask), evaluates both bot versions and ranks them; then a backfill over
both versions, launched at once, evaluates them again and ranks them. Every run succeeds
with each of its steps started and finished on a Dask worker, and the values equal the
in-process run's."""

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import dagster as dg
import pandas as pd
import pytest

from ragpipe.defs.definitions import build_defs
from ragpipe.defs.instance import prepare_dagster_home
from ragpipe_tests.conftest import trim_questions
from ragpipe_tests.test_cluster_dask import (BOTS, DATASET, cluster, evaluate_in_process,  # noqa: F401
                                             warehouse_scores)
from ragpipe_tests.test_daemon import daemon, new_runs, settled  # noqa: F401

# Waits on events (runs ended, quiet ticks); this only ends a hang, with room for a loaded machine.
pytestmark = pytest.mark.timeout(3600)
EVALUATE, PREPARE, RANK = "evaluate_bot_version", "prepare_dataset", "rank_bot_versions"
EVALUATION_STEPS = {"rag_responses", "scores", "aggregate_scores", "diagnosis_report"}


def leaderboard(output_dir) -> pd.DataFrame:
    return pd.read_parquet(output_dir / "warehouse" / "leaderboard" / f"{DATASET}.parquet")


def test_daemon_only_on_dask_prepares_evaluates_a_backfill_and_ranks(project, cluster, daemon):
    client, pids = cluster
    shutil.rmtree(project / "data" / "datasets" / "policy_zh")  # one dataset, six questions: runs, not scoring
    trim_questions(project / "data" / "datasets" / DATASET, 6)
    evaluate_in_process(project)

    prepare_dagster_home(project)
    sensors = [s.name for s in build_defs(project).sensors]
    process = daemon()
    evaluations = [f"{EVALUATE} [{bot}|{DATASET}]" for bot in BOTS]

    def scenario(name: str, event, expected: list[str]) -> list[dg.DagsterRun]:
        with dg.DagsterInstance.get() as instance:
            before, started = {r.run_id for r in instance.get_runs()}, time.time()
            event()
            while not settled(instance, sensors, started):
                assert process.poll() is None, "dagster-daemon exited:\n" + (project / "daemon.log").read_text()[-3000:]
                time.sleep(3)
            assert new_runs(instance, before) == sorted(expected), name
            runs = [r for r in instance.get_runs() if r.run_id not in before]
            for run in runs:
                assert run.status == dg.DagsterRunStatus.SUCCESS, f"{name}: {run.job_name} {run.tags}"
                events = {kind: instance.all_logs(run.run_id, of_type=kind)
                          for kind in (dg.DagsterEventType.STEP_START, dg.DagsterEventType.STEP_SUCCESS)}
                started_steps = {e.step_key for e in events[dg.DagsterEventType.STEP_START]}
                assert started_steps and started_steps == {e.step_key for e in events[dg.DagsterEventType.STEP_SUCCESS]}
                assert {e.dagster_event.pid for e in events[dg.DagsterEventType.STEP_START]} <= set(pids.values())
                if run.job_name == EVALUATE:
                    assert EVALUATION_STEPS <= started_steps, f"{name}: {run.run_id} ran {started_steps}"
            return runs

    def backfill() -> None:
        cli = subprocess.run([str(Path(sys.executable).parent / "ragpipe"), "backfill", "--dataset", DATASET,
                              "--project-dir", str(project)], cwd=project, capture_output=True, text=True, timeout=300)
        assert cli.returncode == 0, cli.stdout + cli.stderr

    scenario("a fresh project", lambda: None, [f"{PREPARE} [{DATASET}]", *evaluations, f"{RANK} [{DATASET}]"])
    backfilled = scenario("a backfill of both versions", backfill, [*evaluations, f"{RANK} [{DATASET}]"])
    # queued one at a time on the scheduler, as the sensor's runs are
    assert all(r.tags.get("ragpipe/dask") == os.environ["RAGPIPE_DASK_SCHEDULER"] for r in backfilled)

    for bot in BOTS:
        expected = warehouse_scores(project / "in_process", bot)
        for name, frame in warehouse_scores(project / "cluster", bot).items():
            columns = ["question_id", "value", "error"]
            pd.testing.assert_frame_equal(frame[columns], expected[name][columns], check_exact=True,
                                          obj=f"{name} of {bot}")
    columns = ["rank", "bot_version", "rank_score"]
    pd.testing.assert_frame_equal(leaderboard(project / "cluster")[columns], leaderboard(project / "in_process")[columns])
