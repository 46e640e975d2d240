"""Runs never stay STARTED after their process died, so they never hold one of the queued
coordinator's slots for ever.

- A run the daemon launched runs in a worker process of its code server: when the worker
  dies the code server marks the run failed, and run retries (dagster.yaml) launch it again.
- A run that `ragpipe run` or `eval` executes in its own process holds a lock file for as
  long as that process lives. ``dead_run_sensor`` marks a STARTED run whose lock is free
  (the process was killed) failed; `ragpipe run` and `eval` fail such runs before they start,
  freeing the pool slots a killed step held. Whoever failed it, the run carries DIED_TAG, and
  the sensor asks for it again, once. Only the machine
  that holds a lock can tell whether it is free, so the process also writes a heartbeat into
  the instance's storage every 30 s: a run of another host (sharing the PostgreSQL storage)
  counts as dead when its heartbeat is 5 minutes old.
- Run monitoring (dagster.yaml) fails runs stuck starting and cancels runs stuck cancelling.
"""

from __future__ import annotations

import socket
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

import dagster as dg
from filelock import lock_descriptor

from ragpipe.defs.evaluation.assets import REASK_TAG
from ragpipe.defs.instance_storage import free_pool_slots, get_value, put_value
from ragpipe.defs.jobs import dataset_job, evaluation_job, labels_job, leaderboard_job

LOCK_TAG = "ragpipe/lock"  # "<host>:<lock file>" of the process executing the run
DIED_TAG = "ragpipe/died"  # "true" on a run failed because its process died
DIMENSION_TAG = "dagster/partition/"  # Dagster's tag prefix for one dimension of a multi-partition


HEARTBEAT_S = 30
# Generous against a step that holds the GIL for long and against clock skew between hosts.
HEARTBEAT_STALE_S = 300


def _heartbeat_key(run_id: str) -> str:
    return f"ragpipe/heartbeat/{run_id}"


def _beat(instance: dg.DagsterInstance, run_id: str, stop: threading.Event) -> None:
    while True:
        try:
            put_value(instance, _heartbeat_key(run_id), str(time.time()))
        except Exception:  # storage briefly unreachable: the next beat tries again
            pass
        if stop.wait(HEARTBEAT_S):
            return


@contextmanager
def held_run_lock(instance: dg.DagsterInstance) -> Iterator[tuple[str, dict[str, str]]]:
    """A run id and the tags to execute it with in this process; the lock is released when
    the block ends or the process dies, however it dies, and the heartbeat stops with it."""
    run_id = str(uuid.uuid4())
    path = Path(instance.root_directory) / "run_locks" / f"{run_id}.lock"
    path.parent.mkdir(parents=True, exist_ok=True)
    stop = threading.Event()
    heart = threading.Thread(target=_beat, args=(instance, run_id, stop), name="ragpipe-heartbeat", daemon=True)
    with path.open("w") as handle:
        lock_descriptor(handle.fileno())
        heart.start()
        try:
            yield run_id, {LOCK_TAG: f"{socket.gethostname()}:{path}"}
        finally:
            stop.set()
            heart.join(timeout=10)  # a storage that hangs does not hold the run up
            path.unlink(missing_ok=True)


def _death(instance: dg.DagsterInstance, run_id: str, tag: str) -> str | None:
    """How we know the process executing the run died; None while it may live."""
    host, _, path = tag.partition(":")
    if host != socket.gethostname():
        beat = get_value(instance, _heartbeat_key(run_id))
        if beat is None:  # a run of a ragpipe older than heartbeats: nothing tells
            return None
        age = time.time() - float(beat)
        return f"its heartbeat on {host} stopped {age:.0f} s ago" if age > HEARTBEAT_STALE_S else None
    try:
        with open(path, "a") as handle:
            if not lock_descriptor(handle.fileno(), blocking=False):
                return None
    except FileNotFoundError:
        return "its run lock was released"  # the run status is checked again below
    Path(path).unlink(missing_ok=True)
    return "its run lock was free"


def _partition_key(run: dg.DagsterRun) -> str | dg.MultiPartitionKey | None:
    dimensions = {k.removeprefix(DIMENSION_TAG): v for k, v in run.tags.items() if k.startswith(DIMENSION_TAG)}
    return dg.MultiPartitionKey(dimensions) if dimensions else run.tags.get("dagster/partition")


def fail_dead_runs(instance: dg.DagsterInstance) -> list[dg.DagsterRun]:
    """Marks failed the STARTED runs whose process died, and frees the pool
    slots they held (a killed step never gives its slot back, and every later run of that
    pool would wait for it)."""
    dead = []
    for record in instance.get_run_records(dg.RunsFilter(statuses=[dg.DagsterRunStatus.STARTED])):
        tag = record.dagster_run.tags.get(LOCK_TAG)
        if not tag or not (death := _death(instance, record.dagster_run.run_id, tag)):
            continue
        run = instance.get_run_by_id(record.dagster_run.run_id)
        if run is None or run.status != dg.DagsterRunStatus.STARTED:  # it ended before its process did
            continue
        instance.add_run_tags(run.run_id, {DIED_TAG: "true"})  # before the failure, which the sensor looks for
        instance.report_run_failed(run, f"the process executing this run died ({death})")
        free_pool_slots(instance, run.run_id)
        dead.append(run)
    return dead


# The sensor looks at the runs failed since its last tick, less this margin: a run failed
# by another process may be stored a little after the tick that would have seen it.
LOOKBACK_S = 300


@dg.sensor(jobs=[dataset_job, evaluation_job, labels_job, leaderboard_job],
           default_status=dg.DefaultSensorStatus.RUNNING, minimum_interval_seconds=15)
def dead_run_sensor(context: dg.SensorEvaluationContext):
    """Fails the runs whose `ragpipe run` process died, and asks again, once, for each run that
    died, whoever failed it (a `ragpipe run` fails another's dead runs before it starts)."""
    fail_dead_runs(context.instance)
    ticked = time.time()
    since = float(context.cursor) - LOOKBACK_S if context.cursor else None
    died = context.instance.get_run_records(dg.RunsFilter(
        statuses=[dg.DagsterRunStatus.FAILURE], tags={DIED_TAG: "true"},
        updated_after=datetime.fromtimestamp(since, timezone.utc) if since else None))
    requests = []
    for run in (record.dagster_run for record in died):
        run_key = f"dead:{run.run_id}"
        if context.instance.get_run_records(dg.RunsFilter(tags={"dagster/run_key": run_key}), limit=1):
            continue  # asked for on an earlier tick
        context.log.warning(f"run {run.run_id} ({run.job_name} [{run.tags.get('dagster/partition')}]) died with "
                            "its process: asked for again")
        # Without the re-ask tag: the new run continues the dead run's answer round instead of
        # opening another one, so it asks only what the dead run got no answer to.
        tags = {k: v for k, v in run.tags.items()
                if k.startswith("ragpipe/") and k not in (LOCK_TAG, REASK_TAG, DIED_TAG)}
        requests.append(dg.RunRequest(job_name=run.job_name, partition_key=_partition_key(run), tags=tags,
                                      run_key=run_key))
    return dg.SensorResult(run_requests=requests, cursor=str(ticked),
                           skip_reason=None if requests else dg.SkipReason("no run whose process died"))
