"""A run whose process died is failed and asked for again, once, whoever failed it. One that
died on another machine (shared PostgreSQL storage) is found by its stopped heartbeat: its
lock file lies on that machine, out of reach."""

import os
import subprocess
import sys
import textwrap
import time

import dagster as dg

from ragpipe.defs import liveness
from ragpipe.defs.instance import POSTGRES_STORAGE
from ragpipe_tests.pg_server import postgres_cluster

# A process executes a run that waits for ever, beating every 0.2 s (ELSEWHERE: claiming to be another host).
STUCK = textwrap.dedent("""
    import time
    import dagster as dg
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
ELSEWHERE = 'import socket\nsocket.gethostname = lambda: "elsewhere"\n' + STUCK


def started_run(instance: dg.DagsterInstance, child: subprocess.Popen, log) -> dg.DagsterRun:
    """The run the child process executes, once it has started. Polled with no wall-clock budget,
    which a loaded machine can spend: the child's end fails the test, pytest-timeout a hang."""
    while not (runs := instance.get_run_records(dg.RunsFilter(statuses=[dg.DagsterRunStatus.STARTED]))):
        assert child.poll() is None, f"the process ended:\n{log.read_text()}"
        time.sleep(0.1)
    return runs[0].dagster_run


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
                run = started_run(instance, child, log)
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


def test_a_dead_run_another_process_failed_is_still_asked_for_again(tmp_path, monkeypatch):
    """`ragpipe run` fails the dead runs it finds before it starts; the sensor, ticking later,
    finds no STARTED run left, yet asks for that run again (before: never)."""
    (tmp_path / "dagster.yaml").write_text("telemetry:\n  enabled: false\n")
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path))
    log = tmp_path / "stuck.log"
    child = subprocess.Popen([sys.executable, "-c", STUCK], stdout=log.open("wb"), stderr=subprocess.STDOUT)
    try:
        with dg.DagsterInstance.get() as instance:
            run = started_run(instance, child, log)
            child.kill()
            child.wait()
            assert [r.run_id for r in liveness.fail_dead_runs(instance)] == [run.run_id]  # what `ragpipe run` does

            result = liveness.dead_run_sensor(dg.build_sensor_context(instance=instance))
            assert [(r.job_name, r.run_key) for r in result.run_requests] == [("stuck", f"dead:{run.run_id}")]
            assert liveness.LOCK_TAG not in result.run_requests[0].tags
            assert liveness.DIED_TAG not in result.run_requests[0].tags
    finally:
        child.kill()
        child.wait()
