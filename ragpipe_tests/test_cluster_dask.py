"""Runs and rows on a real Dask cluster: a scheduler and two worker processes on 127.0.0.1,
the PostgreSQL instance (and caches) the tests start. A backfill over two bot versions of
the sample project runs its steps and its score rows on both workers, one worker is killed
(kill -9) while the second partition scores, and every value equals the in-process run's."""

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import dagster as dg
import distributed
import pandas as pd
import pytest

from ragpipe.core.metrics import REGISTRY
from ragpipe.defs.cluster import DaskResource, dask_cluster, executor_from_env
from ragpipe.defs.definitions import build_defs
from ragpipe.defs.instance import prepare_dagster_home
from ragpipe.defs.partitions import evaluations, sync_partitions
from ragpipe.defs.runner import materialize_all
from ragpipe_tests.conftest import REPO
from ragpipe_tests.pg_server import free_port, postgres_cluster

# v2 under a name of its own: compared with no baseline, no quality gate holds its run back.
DATASET, BOTS = "product_en", ["refbot@v1", "hybridbot@v2"]
DEADLINE_S = 600


def warehouse_scores(output_dir, bot: str) -> dict[str, pd.DataFrame]:
    return {name: pd.read_parquet(output_dir / "warehouse" / "scores" / name / bot / f"{DATASET}.parquet")
            for name in REGISTRY}


@pytest.fixture
def cluster(project, monkeypatch):
    """PostgreSQL, then a Dask scheduler and two workers (no nanny: a killed worker stays
    dead) started with the environment a run needs; yields the client and {address: pid}."""
    with postgres_cluster() as (host, port, user, db):
        for name, value in {"HOST": host, "PORT": str(port), "USER": user, "PASSWORD": "", "DB": db}.items():
            monkeypatch.setenv(f"DAGSTER_PG_{name}", value)
        address = f"tcp://127.0.0.1:{free_port()}"
        monkeypatch.setenv("RAGPIPE_DASK_SCHEDULER", address)
        monkeypatch.setenv("RAGPIPE_DASK_CHUNK_ROWS", "3")
        monkeypatch.setenv("RAGPIPE_OUTPUT_DIR", str(project / "cluster"))
        monkeypatch.setenv("RAGPIPE_PROJECT_DIR", str(project))
        started = []

        def start(module: str, *args: str) -> None:
            log = (project / f"dask-{len(started)}.log").open("w")
            started.append(subprocess.Popen([sys.executable, "-m", f"distributed.cli.{module}", *args], cwd=project,
                                            env=os.environ.copy(), stdout=log, stderr=subprocess.STDOUT))

        try:
            start("dask_scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1], "--no-dashboard")
            for name in ("w1", "w2"):
                start("dask_worker", address, "--name", name, "--nthreads", "1", "--no-nanny", "--host", "127.0.0.1",
                      "--no-dashboard")
            with distributed.Client(address, timeout=120) as client:
                client.wait_for_workers(2, timeout=300)
                yield client, client.run(os.getpid)
        finally:
            for process in started:
                process.kill()
                process.wait()


def run_partition(bot: str) -> bool:
    """Executes the evaluation of ``bot`` on the Dask executor, as a run worker would: in a
    process of its own that starts with the cluster's environment."""
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        return pool.apply(execute_partition, (bot,))


def execute_partition(bot: str) -> bool:
    from ragpipe.defs import definitions

    tags = evaluations.get_tags_for_partition_key(dg.MultiPartitionKey({"dataset": DATASET, "bot": bot}))
    with dg.DagsterInstance.get() as instance, \
            dg.execute_job(dg.reconstructable(definitions.evaluation_job_def), instance, tags=tags) as result:
        return result.success


def evaluate_in_process(project, **only) -> None:
    """The reference the cluster's values must equal: refbot@v2 renamed hybridbot@v2 (two
    bots, so each has its own baseline), evaluated in one process with local caches, into
    ``<project>/in_process``."""
    bots = project / "data" / "bots"
    (bots / "hybridbot@v2.yaml").write_text((bots / "refbot@v2.yaml").read_text(encoding="utf-8").replace(
        "name: refbot", "name: hybridbot"), encoding="utf-8")
    (bots / "refbot@v2.yaml").unlink()
    with pytest.MonkeyPatch.context() as in_process:
        for name in ("DAGSTER_PG_HOST", "RAGPIPE_DASK_SCHEDULER"):
            in_process.delenv(name)
        in_process.setenv("RAGPIPE_OUTPUT_DIR", str(project / "in_process"))
        with dg.DagsterInstance.ephemeral() as instance:
            outcomes = materialize_all(build_defs(project), instance, progress=lambda _: None, **only)
    assert all(o.success for o in outcomes), [o.error for o in outcomes]


def test_backfill_on_two_workers_equals_in_process_and_survives_a_killed_worker(project, cluster):
    client, pids = cluster
    evaluate_in_process(project, only_datasets=[DATASET], only_bots=BOTS)
    expected = {bot: warehouse_scores(project / "in_process", bot) for bot in BOTS}

    prepare_dagster_home(project)
    defs = build_defs(project)
    with dg.DagsterInstance.get() as instance:
        assert type(instance.run_storage).__name__ == "PostgresRunStorage"
        sync_partitions(instance, project / "data")
        assert defs.resolve_job_def("prepare_dataset").execute_in_process(instance=instance,
                                                                          partition_key=DATASET).success
        with distributed.get_task_stream(client) as stream:
            assert run_partition(BOTS[0])
        workers = {task["worker"] for task in stream.data}
        chunk_workers = {task["worker"] for task in stream.data if "score_chunk" in str(task["key"])}
        assert workers == set(pids) and chunk_workers == set(pids), (workers, chunk_workers)

        # The second partition: kill -9 the worker that runs its scores step once it started.
        outcome = {}
        runner = threading.Thread(target=lambda: outcome.update(success=run_partition(BOTS[1])))
        runner.start()
        os.kill(wait_for_scores_step(instance, BOTS[1], set(pids.values())), signal.SIGKILL)
        runner.join(timeout=DEADLINE_S)
        assert outcome == {"success": True}
        assert len(client.scheduler_info()["workers"]) == 1  # the other worker finished the run

    for bot in BOTS:
        for name, frame in warehouse_scores(project / "cluster", bot).items():
            columns = ["question_id", "value", "error"]
            pd.testing.assert_frame_equal(frame[columns], expected[bot][name][columns], check_exact=True,
                                          obj=f"{name} of {bot}")
            # The same details; lists of names may come in another order in another process
            # (set iteration follows the process's string hash seed).
            assert [canonical(json.loads(d)) for d in frame["details"]] == [
                canonical(json.loads(d)) for d in expected[bot][name]["details"]], f"{name} of {bot}"


def canonical(value):
    if isinstance(value, dict):
        return {k: canonical(v) for k, v in value.items()}
    if isinstance(value, list):
        items = [canonical(v) for v in value]
        return sorted(items, key=json.dumps) if all(isinstance(v, str) for v in items) else items
    return value


def wait_for_scores_step(instance, bot: str, worker_pids: set[int]) -> int:
    """The pid of the worker process that started the scores step of the run of ``bot``."""
    started = time.time()
    while time.time() - started < DEADLINE_S:
        for record in instance.get_run_records(dg.RunsFilter(tags={"dagster/partition": f"{bot}|{DATASET}"})):
            for entry in instance.all_logs(record.dagster_run.run_id, of_type=dg.DagsterEventType.STEP_START):
                if entry.step_key == "scores" and entry.dagster_event.pid in worker_pids:
                    return entry.dagster_event.pid
        time.sleep(0.5)
    raise AssertionError(f"the scores step of {bot} did not start within {DEADLINE_S} s")


def test_the_executor_follows_the_environment(monkeypatch):
    monkeypatch.delenv("RAGPIPE_DASK_SCHEDULER", raising=False)
    assert executor_from_env() is dg.in_process_executor and not DaskResource.from_env().configured
    monkeypatch.setenv("RAGPIPE_DASK_SCHEDULER", "tcp://10.0.0.5:8786")
    assert dask_cluster() == {"existing": {"address": "tcp://10.0.0.5:8786"}} and executor_from_env().name == "dask"
    monkeypatch.setenv("RAGPIPE_DASK_SCHEDULER", "local")
    monkeypatch.setenv("RAGPIPE_DASK_WORKERS", "3")
    assert dask_cluster() == {"local": {"n_workers": 3}}
    assert DaskResource.from_env().configured


def test_on_dask_the_run_queue_lets_one_run_at_a_time_use_a_scheduler(tmp_path):
    """Each job's runs carry the scheduler (read where the definitions load), and the
    instance that `ragpipe run` writes queues a second run with the same value."""
    script = textwrap.dedent("""
        from pathlib import Path
        import dagster as dg
        from ragpipe.defs.definitions import build_defs
        from ragpipe.defs.instance import prepare_dagster_home
        prepare_dagster_home(Path("."))
        with dg.DagsterInstance.get() as instance:
            print(instance.get_concurrency_config().run_queue_config.tag_concurrency_limits)
        defs = build_defs()
        print([defs.resolve_job_def(name).run_tags.get("ragpipe/dask") for name in
               ("prepare_dataset", "evaluate_bot_version", "rank_bot_versions")])
    """)
    outputs = {}
    for scheduler in ("tcp://10.0.0.5:8786", ""):
        env = {**os.environ, "RAGPIPE_DASK_SCHEDULER": scheduler, "DAGSTER_HOME": str(tmp_path / f"home{len(outputs)}")}
        done = subprocess.run([sys.executable, "-c", script], cwd=REPO, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        outputs[scheduler] = done.stdout.splitlines()
    limit = "[{'key': 'ragpipe/dask', 'value': {'applyLimitPerUniqueValue': True}, 'limit': 1}]"
    assert outputs["tcp://10.0.0.5:8786"] == [limit, str(["tcp://10.0.0.5:8786"] * 3)]
    assert outputs[""] == [limit, str([None] * 3)]
