"""End to end on a real PostgreSQL instance with dagster-daemon: a new bot config dropped
into data/bots/ is evaluated on every dataset with no click, and `ragpipe backfill`
re-evaluates all three bot versions of one dataset through the daemon's run queue."""

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import dagster as dg
import pytest

from ragpipe.defs.definitions import build_defs
from ragpipe.defs.instance import prepare_dagster_home
from ragpipe.defs.runner import materialize_all
from ragpipe_tests.conftest import REPO
from ragpipe_tests.pg_server import postgres_cluster

DEADLINE_S = 900


@pytest.fixture
def pg_env(project, monkeypatch):
    with postgres_cluster() as (host, port, user, db):
        for name, value in {"HOST": host, "PORT": str(port), "USER": user, "PASSWORD": "", "DB": db}.items():
            monkeypatch.setenv(f"DAGSTER_PG_{name}", value)
        monkeypatch.setenv("RAGPIPE_PROJECT_DIR", str(project))
        yield


V3 = """name: refbot
version: v3
kind: reference
description: a third version, so that the backfill spans three
retrieval:
  method: embedding
  top_k: 3
answer:
  max_sentences: 2
"""


def wait_for(done, daemon, project, what: str, since: float) -> float:
    """Poll until done() while the daemon lives; the seconds it took."""
    while not done():
        assert daemon.poll() is None, "dagster-daemon exited:\n" + (project / "daemon.log").read_text()[-3000:]
        assert time.monotonic() - since < DEADLINE_S, \
            f"no {what} after {DEADLINE_S} s:\n" + (project / "daemon.log").read_text()[-3000:]
        time.sleep(2)
    return time.monotonic() - since


def backfill_runs(instance) -> list:
    return [r for r in instance.get_runs(filters=dg.RunsFilter(job_name="evaluate_bot_version"))
            if "dagster/backfill" in r.tags]


def test_new_bot_config_and_a_backfill_are_run_by_the_daemon(project, pg_env):
    (project / "data" / "bots" / "refbot@v2.yaml").rename(project / "refbot@v2.yaml")  # dropped in later
    (project / "data" / "bots" / "refbot@v3.yaml").write_text(V3, encoding="utf-8")
    prepare_dagster_home(project)
    with dg.DagsterInstance.get() as instance:
        outcomes = materialize_all(build_defs(project), instance, progress=lambda _: None)
    assert all(o.success for o in outcomes)

    log = (project / "daemon.log").open("w")  # a file, not a pipe: an unread pipe would block the daemon
    daemon = subprocess.Popen(
        [str(Path(sys.executable).parent / "dagster-daemon"), "run", "-w", str(REPO / "workspace.yaml")],
        cwd=project, env=os.environ.copy(), stdout=log, stderr=subprocess.STDOUT)
    try:
        dropped = time.monotonic()
        shutil.move(project / "refbot@v2.yaml", project / "data" / "bots" / "refbot@v2.yaml")
        expected = [project / ".ragpipe" / "reports" / d / "refbot@v2" / "diagnosis.html"
                    for d in ("policy_zh", "product_en")]
        elapsed = wait_for(lambda: all(p.exists() for p in expected), daemon, project, "reports", dropped)
        print(f"\nnew bot config → reports for every dataset in {elapsed:.0f} s (daemon, PostgreSQL instance)")

        started = time.monotonic()
        cli = subprocess.run([str(Path(sys.executable).parent / "ragpipe"), "backfill", "--dataset", "product_en",
                              "--project-dir", str(project)], cwd=project, env=os.environ.copy(),
                             capture_output=True, text=True, timeout=300)
        assert cli.returncode == 0, cli.stdout + cli.stderr
        with dg.DagsterInstance.get() as instance:
            runs = backfill_runs(instance)
            assert {r.tags["dagster/partition"] for r in runs} == {
                f"refbot@{v}|product_en" for v in ("v1", "v2", "v3")}
            finished = wait_for(lambda: all(r.is_finished for r in backfill_runs(instance)),
                                daemon, project, "finished backfill", started)
            print(f"backfill of 3 bot versions on product_en: {finished:.0f} s")
            assert all(r.status == dg.DagsterRunStatus.SUCCESS for r in backfill_runs(instance))
    finally:
        daemon.terminate()
        try:
            daemon.wait(timeout=30)
        except subprocess.TimeoutExpired:
            daemon.kill()
        log.close()
    with dg.DagsterInstance.get() as instance:
        runs = instance.get_runs(filters=dg.RunsFilter(tags={"dagster/partition/bot": "refbot@v2"}))
        # Automation may have queued a run just before the daemon stopped: judge the finished ones.
        assert runs and all(r.status == dg.DagsterRunStatus.SUCCESS for r in runs if r.is_finished), \
            [(r.job_name, r.tags.get("dagster/partition"), r.status) for r in runs]
        assert {"refbot@v2|policy_zh", "refbot@v2|product_en"} <= instance.get_materialized_partitions(
            dg.AssetKey("diagnosis_report"))
