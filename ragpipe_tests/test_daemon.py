"""End to end with dagster-daemon. On a real PostgreSQL instance each event launches its
set of runs once: after `ragpipe run`, starting the daemon with nothing changed launches
nothing; a new bot config, a changed one and a `ragpipe backfill` over three versions each
launch exactly their runs, and nothing more once the sensors have looked again. Runs whose
process was killed end failed and run again instead of blocking the queue. The daemon and
every process it started are gone after each test."""

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import dagster as dg
import pytest

from ragpipe.defs.automation import nightly_newest_versions, weekly_full_reevaluation
from ragpipe.defs.definitions import build_defs
from ragpipe.defs.evaluation.assets import JUDGE_POOL
from ragpipe.core.verdict import REGRESSION_CHECK
from ragpipe.defs.instance import prepare_dagster_home
from ragpipe.defs.runner import materialize_all
from ragpipe_tests.conftest import REPO, trim_questions
from ragpipe_tests.pg_server import postgres_cluster

# The daemon scenarios wait on events, not budgets; this only ends a hang, and leaves a loaded
# machine (the suite beside two CPU burners) room that pytest-timeout's 1200 s does not.
pytestmark = pytest.mark.timeout(3600)
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
    states = {s.instigator_name: s for s in instance.all_instigator_state() if s.instigator_name in sensors}
    return all(name in states and len([t for t in instance.get_ticks(states[name].instigator_origin_id,
                                                                     states[name].selector_id, after=quiet_from)
                                       if t.status.value in DONE_TICKS]) >= QUIET_TICKS
               for name in sensors)


DONE_TICKS = {"SKIPPED", "SUCCESS", "FAILURE"}  # a tick still STARTED has not looked yet


def group_members(pgid: int) -> list[str]:
    """Command lines of the live (not zombie) processes of a process group."""
    members = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if fields[0] != "Z" and int(fields[2]) == pgid:
                members.append((stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode().strip())
        except (OSError, IndexError, ValueError):
            continue  # the process ended while we looked
    return members


@pytest.fixture
def daemon(project, monkeypatch):
    """Starts dagster-daemon in the project, in a process group of its own, with the
    schedules stopped, and gives its process. Afterwards stops the whole group (the daemon, its code server and their run
    workers) and checks that none of it survives."""
    monkeypatch.setenv("RAGPIPE_PROJECT_DIR", str(project))  # the code server's definitions read the project
    started = []

    def start() -> subprocess.Popen:
        # The schedules stay off: a test that runs across 02:00 UTC would get the nightly runs too.
        for schedule in (nightly_newest_versions, weekly_full_reevaluation):
            subprocess.run([str(Path(sys.executable).parent / "dagster"), "schedule", "stop", schedule.name,
                            "-w", str(REPO / "workspace.yaml")], cwd=project, env=os.environ.copy(),
                           check=True, capture_output=True, timeout=300)
        log = (project / "daemon.log").open("w")  # a file, not a pipe: an unread pipe would block the daemon
        process = subprocess.Popen(
            [str(Path(sys.executable).parent / "dagster-daemon"), "run", "-w", str(REPO / "workspace.yaml")],
            cwd=project, env=os.environ.copy(), stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        started.append((process, log))
        return process

    yield start
    for process, log in started:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        deadline = time.time() + 60
        while (survivors := group_members(process.pid)) and time.time() < deadline:
            time.sleep(1)
        if survivors:
            os.killpg(process.pid, signal.SIGKILL)
        log.close()
        assert not survivors, f"processes of the daemon survived it: {survivors}"


def held_back_by_gate(instance, run_id: str) -> bool:
    """A run that failed because the blocking regression check failed (a finding, not a fault)."""
    return any(not e.dagster_event.event_specific_data.passed
               and e.dagster_event.event_specific_data.asset_check_key.name == REGRESSION_CHECK
               for e in instance.all_logs(run_id, of_type=dg.DagsterEventType.ASSET_CHECK_EVALUATION))


def new_runs(instance, before: set[str]) -> list[str]:
    return sorted(f"{r.job_name} [{r.tags.get('dagster/partition')}]"
                  for r in instance.get_runs() if r.run_id not in before)


def test_each_event_launches_its_runs_once(project, pg_env, daemon):
    for dataset in ("policy_zh", "product_en"):  # the test counts runs: small evaluations will do
        trim_questions(project / "data" / "datasets" / dataset, 6)
    (project / "data" / "bots" / "refbot@v2.yaml").rename(project / "refbot@v2.yaml")  # dropped in later
    (project / "data" / "bots" / "refbot@v3.yaml").write_text(V3, encoding="utf-8")
    prepare_dagster_home(project)
    defs = build_defs(project)
    sensors = [s.name for s in defs.sensors]
    with dg.DagsterInstance.get() as instance:
        outcomes = materialize_all(defs, instance, progress=lambda _: None)
    assert all(o.success or o.blocked for o in outcomes), [o.error for o in outcomes]

    process = daemon()
    counts = {}

    def scenario(name: str, event, expected: list[str]) -> None:
        with dg.DagsterInstance.get() as instance:
            before = {r.run_id for r in instance.get_runs()}
            started = time.time()
            event()
            while not settled(instance, sensors, started):
                # Settled is an event (every run ended, then quiet ticks): no wall-clock budget here.
                assert process.poll() is None, "dagster-daemon exited:\n" + (project / "daemon.log").read_text()[-3000:]
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
        print(f"run counts per scenario: {counts}; daemon session {time.time() - test_started:.0f} s")
    with dg.DagsterInstance.get() as instance:
        assert {"refbot@v2|policy_zh", "refbot@v2|product_en"} <= instance.get_materialized_partitions(
            dg.AssetKey("diagnosis_report"))


WORKER_PID = re.compile(r"Started process for run \(pid: (\d+)\)")  # the code server's engine event


def wait_for(what: str, condition, daemon_process=None, log: Path | None = None, poll_s: float = 2):
    """Poll until ``condition()`` holds: no wall-clock budget, which a loaded machine can spend
    (the test fails if the daemon exits, and pytest-timeout ends a hang). A condition that
    can become impossible waits for a terminal state and its caller asserts the outcome."""
    while not (found := condition()):
        assert daemon_process is None or daemon_process.poll() is None, \
            f"dagster-daemon exited while waiting for {what}:\n" + (log.read_text()[-3000:] if log else "")
        time.sleep(poll_s)
    return found


def status(instance, run_id: str) -> dg.DagsterRunStatus:
    return instance.get_run_by_id(run_id).status


def test_killed_runs_end_failed_and_run_again(project, daemon):
    """Two `ragpipe run`s killed while they execute a run each: their runs would stay STARTED
    and hold the coordinator's two slots. Under the daemon they end failed and run again.
    Then the run worker of a run the daemon launched is killed: that run ends failed and its
    retry succeeds."""
    (project / "data" / "bots" / "refbot@v2.yaml").unlink()  # fewer runs: one bot version per dataset
    for dataset in ("policy_zh", "product_en"):  # shorter runs: the retry waits for another run's scores
        trim_questions(project / "data" / "datasets" / dataset, 6)
    prepare_dagster_home(project)
    ragpipe = str(Path(sys.executable).parent / "ragpipe")
    datasets = ("policy_zh", "product_en")
    logs = {dataset: project / f"run-{dataset}.log" for dataset in datasets}
    cli = {dataset: subprocess.Popen([ragpipe, "run", "--dataset", dataset, "--project-dir", str(project)],
                                     cwd=project, env=os.environ.copy(), stdout=logs[dataset].open("wb"),
                                     stderr=subprocess.STDOUT)
           for dataset in datasets}
    with dg.DagsterInstance.get() as instance:
        def started(dataset: str) -> list[str]:
            return [r.dagster_run.run_id for r in instance.get_run_records(
                dg.RunsFilter(statuses=[dg.DagsterRunStatus.STARTED]))
                if dataset in r.dagster_run.tags.get("dagster/partition", "")]

        # Each process is killed while one of its runs executes (a run takes seconds, a poll
        # milliseconds), whenever that is: on a loaded machine one may finish before the other starts.
        dead = []

        def kill_inside_a_run() -> bool:
            for dataset in [d for d in datasets if cli[d].returncode is None]:
                if started(dataset):
                    cli[dataset].kill()
                    cli[dataset].wait()
                    dead.extend(started(dataset))  # still STARTED now that its process is gone
                else:
                    assert cli[dataset].poll() is None, \
                        f"`ragpipe run --dataset {dataset}` ended before a poll saw it run:\n{logs[dataset].read_text()}"
            return all(process.returncode is not None for process in cli.values())

        wait_for("each `ragpipe run` killed while executing a run", kill_inside_a_run, poll_s=0.2)
        assert len(dead) == 2, "one run of each process was executing when it was killed"

        process, log = daemon(), project / "daemon.log"
        wait_for("the killed runs marked finished",
                 lambda: all(instance.get_run_by_id(run_id).is_finished for run_id in dead), process, log=log)
        assert [status(instance, run_id) for run_id in dead] == [dg.DagsterRunStatus.FAILURE] * len(dead)
        # dead_run_sensor asks for each once; Dagster's run retries cannot re-launch a run
        # executed in another process, so that is the only new run for it.
        wait_for("each killed run asked for again", lambda: all(
            instance.get_run_records(dg.RunsFilter(tags={"dagster/run_key": f"dead:{run_id}"})) for run_id in dead),
            process, log=log)

        # A worker killed after its run's last step has nothing left to retry (Dagster then rightly
        # launches no retry), and a run of this sample takes about a second. So the test holds the
        # judge pool's one slot: a launched run answers, then waits in its scores step, unfinished,
        # until the kill. (Not the bot pool: the queue starts no run whose first step's pool is full.)
        storage, holder = instance.event_log_storage, ("ragpipe-test-holder", "hold")
        wait_for("the judge pool's slot held by the test",
                 lambda: storage.claim_concurrency_slot(JUDGE_POOL, *holder).is_claimed, process, log=log)

        def worker_of_a_run_waiting_for_the_slot():
            for step in storage.get_concurrency_info(JUDGE_POOL).pending_steps:
                if step.assigned_timestamp is None and status(instance, step.run_id) == dg.DagsterRunStatus.STARTED:
                    for entry in instance.all_logs(step.run_id, of_type=dg.DagsterEventType.ENGINE_EVENT):
                        if found := WORKER_PID.search(entry.message or ""):
                            return step.run_id, int(found.group(1))
            return None

        killed, pid = wait_for("a launched run waiting for the judge pool's slot", worker_of_a_run_waiting_for_the_slot,
                               process, log=log)
        os.kill(pid, signal.SIGKILL)
        wait_for("the run of the killed worker marked finished",
                 lambda: instance.get_run_by_id(killed).is_finished, process, log=log)
        assert status(instance, killed) == dg.DagsterRunStatus.FAILURE
        storage.free_concurrency_slot_for_step(*holder)

        def finished_retry():
            run = instance.get_run_by_id(killed)
            assert run.tags.get("dagster/will_retry") != "false", "no retry: " + "; ".join(
                e.message for e in instance.all_logs(killed, of_type=dg.DagsterEventType.ENGINE_EVENT))
            return [r.dagster_run for r in instance.get_run_records(dg.RunsFilter(tags={"dagster/parent_run_id": killed}))
                    if r.dagster_run.is_finished]

        retry = wait_for("its retry finished", finished_retry, process, log=log)
        assert retry[0].status == dg.DagsterRunStatus.SUCCESS, log.read_text()[-3000:]
        assert retry[0].tags.get("dagster/partition") == instance.get_run_by_id(killed).tags.get("dagster/partition")
        asked_again = [[r for r in instance.get_run_records(dg.RunsFilter(tags={"dagster/run_key": f"dead:{run_id}"}))
                        if "dagster/parent_run_id" not in r.dagster_run.tags] for run_id in dead]  # not retries
        assert [len(runs) for runs in asked_again] == [1] * len(dead)
