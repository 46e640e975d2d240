"""A run whose process died on another machine (shared PostgreSQL storage) is found by its
stopped heartbeat: its lock file lies on that machine, out of reach."""

import os
import subprocess
import sys
import textwrap
import time

import dagster as dg

from ragpipe.defs import liveness
from ragpipe.defs.instance import POSTGRES_STORAGE
from ragpipe_tests.pg_server import postgres_cluster

# A process that claims to be another host executes a run that waits for ever, beating every 0.2 s.
ELSEWHERE = textwrap.dedent("""
    import socket, time
    import dagster as dg
    socket.gethostname = lambda: "elsewhere"
    from ragpipe.defs import liveness
    liveness.HEARTBEAT_S = 0.2

    @dg.op
    def wait_for_ever():
        time.sleep(600)

    @dg.job
    def stuck():
        wait_for_ever()

    with dg.DagsterInstance.get() as instance, liveness.held_run_lock(instance) as (run_id, tags):
        stuck.execute_in_process(instance=instance, run_id=run_id, tags=tags)
""")


def wait_for(what: str, found, deadline_s: float = 120):
    deadline = time.monotonic() + deadline_s
    while not (value := found()):
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)
    return value


def test_a_run_of_another_host_is_failed_once_its_heartbeat_stops_not_before(tmp_path, monkeypatch):
    # Two machines: each its own Dagster home, one PostgreSQL storage.
    homes = {name: tmp_path / name for name in ("here", "elsewhere")}
    for home in homes.values():
        home.mkdir()
        (home / "dagster.yaml").write_text(POSTGRES_STORAGE.read_text() + "telemetry:\n  enabled: false\n")
    monkeypatch.setattr(liveness, "HEARTBEAT_STALE_S", 2.0)
    with postgres_cluster() as (host, port, user, db):
        for name, value in {"HOST": host, "PORT": str(port), "USER": user, "PASSWORD": "", "DB": db}.items():
            monkeypatch.setenv(f"DAGSTER_PG_{name}", value)
        monkeypatch.setenv("DAGSTER_HOME", str(homes["here"]))
        log = tmp_path / "elsewhere.log"
        child = subprocess.Popen([sys.executable, "-c", ELSEWHERE], stdout=log.open("wb"), stderr=subprocess.STDOUT,
                                 env={**os.environ, "DAGSTER_HOME": str(homes["elsewhere"])})
        try:
            with dg.DagsterInstance.get() as instance:
                def started() -> list[dg.DagsterRun]:
                    assert child.poll() is None, f"the other host's process ended:\n{log.read_text()}"
                    return [r.dagster_run for r in instance.get_run_records(
                        dg.RunsFilter(statuses=[dg.DagsterRunStatus.STARTED]))]

                run = wait_for("the other host's run to start", started)[0]
                assert run.tags[liveness.LOCK_TAG].startswith("elsewhere:")
                time.sleep(3 * liveness.HEARTBEAT_STALE_S)  # alive for longer than the limit: its beats keep it
                assert liveness.fail_dead_runs(instance) == []
                assert instance.get_run_by_id(run.run_id).status == dg.DagsterRunStatus.STARTED

                child.kill()
                child.wait()
                assert liveness.fail_dead_runs(instance) == [], "a heartbeat less than the limit old still counts"
                time.sleep(liveness.HEARTBEAT_STALE_S + 0.5)
                assert [r.run_id for r in liveness.fail_dead_runs(instance)] == [run.run_id]
                assert instance.get_run_by_id(run.run_id).status == dg.DagsterRunStatus.FAILURE
                failure = instance.all_logs(run.run_id, of_type=dg.DagsterEventType.RUN_FAILURE)[0]
                assert "heartbeat on elsewhere stopped" in failure.dagster_event.message
        finally:
            child.kill()
            child.wait()
