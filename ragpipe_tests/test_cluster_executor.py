"""The Dask executor on a local cluster with small jobs (ragpipe_tests/dask_jobs.py), each
run in a process of its own as a run worker would: a dynamically partitioned run executes,
two runs of one job at once each run their own steps, and a run on a cluster with no worker
fails with the reason instead of waiting forever."""

import multiprocessing

import dagster as dg
import distributed
import pytest

from ragpipe.defs.dask_executor import NoWorkersError, results_as_completed

STEP_S = 8  # the first step of a run: long enough for the other run to start meanwhile
STEPS = ["first", "second"]


@pytest.fixture
def start_cluster(tmp_path, monkeypatch):
    """Starts a local cluster of n worker processes (dagster is not thread-safe), with a
    persistent instance (DAGSTER_HOME) that the run processes share; the marks go to tmp_path."""
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "dagster.yaml").write_text("telemetry:\n  enabled: false\n", encoding="utf-8")
    monkeypatch.setenv("RAGPIPE_TEST_MARKS", str(tmp_path))
    clusters = []

    def start(workers: int) -> distributed.LocalCluster:
        clusters.append(distributed.LocalCluster(n_workers=workers, threads_per_worker=1, dashboard_address=":0"))
        monkeypatch.setenv("RAGPIPE_DASK_SCHEDULER", clusters[-1].scheduler_address)
        with dg.DagsterInstance.get() as instance:
            instance.add_dynamic_partitions("letters", ["a", "b"])
        return clusters[-1]

    yield start
    for cluster in clusters:
        cluster.close()


def run(job: str, partition: str) -> tuple[str, bool, str]:
    """Executes a job of dask_jobs for one partition; gives its run id, success and failure."""
    from ragpipe_tests import dask_jobs

    with dg.DagsterInstance.get() as instance, dg.execute_job(
            dg.reconstructable(getattr(dask_jobs, job)), instance, tags={"dagster/partition": partition}) as result:
        failures = [e.event_specific_data.error.message for e in result.all_events
                    if e.event_type == dg.DagsterEventType.RUN_FAILURE and e.event_specific_data.error]
        return result.run_id, result.success, "\n".join(failures)


def in_processes(calls: list[tuple[str, str]], timeout_s: float = 300) -> list[tuple[str, bool, str]]:
    with multiprocessing.get_context("spawn").Pool(len(calls)) as pool:
        return pool.starmap_async(run, calls).get(timeout=timeout_s)


def steps_run(folder, run_id: str, partition: str) -> list[str]:
    return sorted(p.name.rsplit(".", 1)[1] for p in folder.glob(f"{run_id}.{partition}.*"))


def test_a_dynamically_partitioned_run_executes(start_cluster, tmp_path):
    """Its run carries a partitions subset (as every run the daemon launches for
    prepare_dataset or rank_bot_versions): dagster-dask handed it to Dask, which failed on it."""
    start_cluster(1)
    [(run_id, success, failure)] = in_processes([("dynamic_job", "a")])
    assert success, failure
    assert steps_run(tmp_path, run_id, "a") == STEPS
    with dg.DagsterInstance.get() as instance:
        assert instance.get_run_by_id(run_id).partitions_subset is not None


def test_two_runs_of_one_job_at_once_each_execute_their_steps(start_cluster, tmp_path, monkeypatch):
    """Two runs of one job on one scheduler shared Dask task keys (<job>.<step>): the later
    one ended SUCCESS with the other's results and none of its own steps run."""
    start_cluster(2)
    monkeypatch.setenv("RAGPIPE_TEST_STEP_S", str(STEP_S))
    runs = in_processes([("static_job", "a"), ("static_job", "b")])
    for (run_id, success, failure), partition in zip(runs, "ab"):
        assert success, failure
        assert steps_run(tmp_path, run_id, partition) == STEPS, f"run {run_id} of {partition}"


def test_a_run_on_a_cluster_without_workers_fails_with_the_reason(start_cluster, tmp_path, monkeypatch):
    cluster = start_cluster(0)
    monkeypatch.setenv("RAGPIPE_DASK_NO_WORKERS_S", "3")
    [(run_id, success, failure)] = in_processes([("static_job", "a")], timeout_s=120)  # waited forever before
    assert not success and "has had no worker for 3 s" in failure and cluster.scheduler_address in failure
    assert steps_run(tmp_path, run_id, "a") == []
    with distributed.Client(cluster) as client, pytest.raises(NoWorkersError, match="2 task"):
        list(results_as_completed(client, [client.submit(len, "ab"), client.submit(len, "abc")], "a test"))
