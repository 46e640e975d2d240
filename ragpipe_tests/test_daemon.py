"""End to end on a real PostgreSQL instance with dagster-daemon: a new bot config dropped
into data/bots/ is evaluated on every dataset with no click."""

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


def test_new_bot_config_is_evaluated_by_the_daemon(project, pg_env):
    (project / "data" / "bots" / "refbot@v2.yaml").rename(project / "refbot@v2.yaml")  # dropped in later
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
        while not all(p.exists() for p in expected):
            assert daemon.poll() is None, "dagster-daemon exited:\n" + (project / "daemon.log").read_text()[-3000:]
            assert time.monotonic() - dropped < DEADLINE_S, \
                f"no reports after {DEADLINE_S} s:\n" + (project / "daemon.log").read_text()[-3000:]
            time.sleep(2)
        elapsed = time.monotonic() - dropped
        print(f"\nnew bot config → reports for every dataset in {elapsed:.0f} s (daemon, PostgreSQL instance)")
    finally:
        daemon.terminate()
        try:
            daemon.wait(timeout=30)
        except subprocess.TimeoutExpired:
            daemon.kill()
        log.close()
    with dg.DagsterInstance.get() as instance:
        runs = instance.get_runs(filters=dg.RunsFilter(tags={"dagster/partition/bot": "refbot@v2"}))
        assert runs and all(r.status == dg.DagsterRunStatus.SUCCESS for r in runs)
        assert {"refbot@v2|policy_zh", "refbot@v2|product_en"} <= instance.get_materialized_partitions(
            dg.AssetKey("diagnosis_report"))
