"""End to end on a real PostgreSQL instance with dagster-daemon: each event launches its
set of runs once. After `ragpipe run`, starting the daemon with nothing changed launches
nothing; a new bot config, a changed one and a `ragpipe backfill` over three versions each
launch exactly their runs, and nothing more once the sensors have looked again."""

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import dagster as dg
import pytest
from dagster._core.scheduler.instigation import InstigatorType, TickStatus

from ragpipe.defs.definitions import build_defs
from ragpipe.defs.evaluation.assets import REGRESSION_CHECK
from ragpipe.defs.instance import prepare_dagster_home
from ragpipe.defs.runner import materialize_all
from ragpipe_tests.conftest import REPO
from ragpipe_tests.pg_server import postgres_cluster

DEADLINE_S = 900  # per scenario
QUIET_TICKS = 2  # ticks of every sensor after the last run ended, with no new run


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

EVALUATE, RANK = "evaluate_bot_version", "rank_bot_versions"


def settled(instance, sensors: list[str], since: float) -> bool:
    """No run is unfinished, and every sensor finished QUIET_TICKS ticks that began after
    the last run ended (and after `since`): the sensors have seen the end state."""
    records = instance.get_run_records()
    if any(not r.dagster_run.is_finished for r in records):
        return False
    quiet_from = max([since, *(r.end_time or 0 for r in records)])
    states = {s.instigator_name: s for s in instance.all_instigator_state(instigator_type=InstigatorType.SENSOR)}
    done = [TickStatus.SKIPPED, TickStatus.SUCCESS, TickStatus.FAILURE]
    return all(name in states and len(instance.get_ticks(states[name].instigator_origin_id, states[name].selector_id,
                                                         after=quiet_from, statuses=done)) >= QUIET_TICKS
               for name in sensors)


def held_back_by_gate(instance, run_id: str) -> bool:
    """A run that failed because the blocking regression check failed (a finding, not a fault)."""
    return any(not e.dagster_event.event_specific_data.passed
               and e.dagster_event.event_specific_data.asset_check_key.name == REGRESSION_CHECK
               for e in instance.all_logs(run_id, of_type=dg.DagsterEventType.ASSET_CHECK_EVALUATION))


def new_runs(instance, before: set[str]) -> list[str]:
    return sorted(f"{r.job_name} [{r.tags.get('dagster/partition')}]"
                  for r in instance.get_runs() if r.run_id not in before)


def test_each_event_launches_its_runs_once(project, pg_env):
    (project / "data" / "bots" / "refbot@v2.yaml").rename(project / "refbot@v2.yaml")  # dropped in later
    (project / "data" / "bots" / "refbot@v3.yaml").write_text(V3, encoding="utf-8")
    prepare_dagster_home(project)
    defs = build_defs(project)
    sensors = [s.name for s in defs.sensors]
    with dg.DagsterInstance.get() as instance:
        outcomes = materialize_all(defs, instance, progress=lambda _: None)
    assert all(o.success or o.blocked for o in outcomes), [o.error for o in outcomes]

    log = (project / "daemon.log").open("w")  # a file, not a pipe: an unread pipe would block the daemon
    daemon = subprocess.Popen(
        [str(Path(sys.executable).parent / "dagster-daemon"), "run", "-w", str(REPO / "workspace.yaml")],
        cwd=project, env=os.environ.copy(), stdout=log, stderr=subprocess.STDOUT)
    counts = {}

    def scenario(name: str, event, expected: list[str]) -> None:
        with dg.DagsterInstance.get() as instance:
            before = {r.run_id for r in instance.get_runs()}
            started = time.time()
            event()
            while not settled(instance, sensors, started):
                assert daemon.poll() is None, "dagster-daemon exited:\n" + (project / "daemon.log").read_text()[-3000:]
                assert time.time() - started < DEADLINE_S, \
                    f"{name}: not settled after {DEADLINE_S} s; runs so far {new_runs(instance, before)}"
                time.sleep(3)
            runs = new_runs(instance, before)
            counts[name] = len(runs)
            print(f"\n{name}: {len(runs)} runs in {time.time() - started:.0f} s: {runs}")
            assert runs == sorted(expected), f"{name}: expected {len(expected)} runs, got {len(runs)}: {runs}"
            failed = [r.run_id for r in instance.get_runs(filters=dg.RunsFilter(statuses=[dg.DagsterRunStatus.FAILURE]))
                      if not held_back_by_gate(instance, r.run_id)]
            assert not failed, f"{name}: runs failed: {failed}"

    def change_v2() -> None:
        config = project / "data" / "bots" / "refbot@v2.yaml"
        config.write_text(config.read_text(encoding="utf-8").replace("top_k: 4", "top_k: 5"), encoding="utf-8")

    def backfill() -> None:
        cli = subprocess.run([str(Path(sys.executable).parent / "ragpipe"), "backfill", "--dataset", "product_en",
                              "--project-dir", str(project)], cwd=project, env=os.environ.copy(),
                             capture_output=True, text=True, timeout=300)
        assert cli.returncode == 0, cli.stdout + cli.stderr

    both = [f"{RANK} [policy_zh]", f"{RANK} [product_en]"]
    test_started = time.time()
    try:
        scenario("daemon start, nothing changed", lambda: None, [])
        scenario("new bot config", lambda: shutil.move(project / "refbot@v2.yaml", project / "data" / "bots"),
                 [f"{EVALUATE} [refbot@v2|policy_zh]", f"{EVALUATE} [refbot@v2|product_en]", *both])
        scenario("changed bot config", change_v2,
                 [f"{EVALUATE} [refbot@v2|policy_zh]", f"{EVALUATE} [refbot@v2|product_en]", *both])
        scenario("backfill of 3 versions", backfill,
                 [f"{EVALUATE} [refbot@{v}|product_en]" for v in ("v1", "v2", "v3")] + [f"{RANK} [product_en]"])
    finally:
        daemon.terminate()
        try:
            daemon.wait(timeout=30)
        except subprocess.TimeoutExpired:
            daemon.kill()
        log.close()
        print(f"run counts per scenario: {counts}; daemon session {time.time() - test_started:.0f} s")
    with dg.DagsterInstance.get() as instance:
        assert {"refbot@v2|policy_zh", "refbot@v2|product_en"} <= instance.get_materialized_partitions(
            dg.AssetKey("diagnosis_report"))
