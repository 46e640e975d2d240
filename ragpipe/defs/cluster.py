"""Runs and rows on a Dask cluster. RAGPIPE_DASK_SCHEDULER names the cluster: the address of
a running scheduler (tcp://host:8786), or ``local`` for a local cluster of
RAGPIPE_DASK_WORKERS processes (default 2). With it, dagster-dask's executor runs every step
of a run as a Dask task, so the steps of runs and the partitions of a backfill spread over
the workers, and the scores step splits its rows into chunks of RAGPIPE_DASK_CHUNK_ROWS
(default 32) that the workers score at once. Unset, a run's steps share one process. A run
whose cluster has had no worker for RAGPIPE_DASK_NO_WORKERS_S seconds (default 120) fails
and says so, instead of waiting for one forever."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, nullcontext
from functools import lru_cache
from pathlib import Path

import dagster as dg
import distributed
# Not public API: how dagster-dask's own executor (subclassed below) lets a terminated run
# stop waiting on its futures; Dagster 1.13 exposes no public way to observe the interrupt.
from dagster._core.errors import raise_execution_interrupts
from dagster._utils import iterate_with_context
from dagster_dask.executor import DaskExecutor, get_dask_resource_requirements, query_on_dask_worker

from ragpipe.core.evidence.embeddings import Embedder
from ragpipe.core.metrics import Toolkit
from ragpipe.core.schemas import EvalCase

LOCAL = "local"


def dask_scheduler() -> str:
    """The one place RAGPIPE_DASK_SCHEDULER is read: the scheduler's address, ``local`` for a
    cluster started here, or "" off Dask. Read when the definitions load (the executor, the
    pools and the run tags are fixed then), so it is not a resource."""
    return os.environ.get("RAGPIPE_DASK_SCHEDULER", "")


def dask_cluster() -> dict | None:
    """dagster-dask's ``cluster`` config from the environment, or None."""
    scheduler = dask_scheduler()
    if not scheduler:
        return None
    if scheduler == LOCAL:
        return {"local": {"n_workers": int(os.environ.get("RAGPIPE_DASK_WORKERS", "2"))}}
    return {"existing": {"address": scheduler}}


class NoWorkersError(RuntimeError):
    """The cluster has had no worker for too long: its tasks would wait forever."""


def results_as_completed(client: distributed.Client, futures: Iterable[distributed.Future],
                         what: str) -> Iterator[tuple[distributed.Future, object]]:
    """(future, result) as each of ``futures`` finishes. Raises NoWorkersError once the
    cluster has had no worker for RAGPIPE_DASK_NO_WORKERS_S seconds: Dask would keep the
    tasks waiting for one forever, and the run would hang instead of failing."""
    limit = float(os.environ.get("RAGPIPE_DASK_NO_WORKERS_S", "120"))
    pending, alone_since = set(futures), None
    while pending:
        try:
            with client.as_current():  # distributed.wait asks the current client
                done, pending = distributed.wait(pending, timeout=min(limit, 5), return_when="FIRST_COMPLETED")
        except TimeoutError:
            done = set()
        for future in done:
            yield future, future.result()
        if done or client.nthreads():
            alone_since = None
        elif alone_since is None:
            alone_since = time.monotonic()
        elif time.monotonic() - alone_since >= limit:
            raise NoWorkersError(f"Dask scheduler {client.scheduler.address} has had no worker for {limit:.0f} s "
                                 f"(RAGPIPE_DASK_NO_WORKERS_S): {len(pending)} task(s) of {what} not run")


def run_step(dependencies, recon_job, run_id: str, run_config, step_key: str, instance_ref, known_state):
    """Runs on a worker: one step of a run, the run read back by its id. dagster-dask hands
    Dask the run itself, and Dask walks a task's arguments into their fields: a run with a
    partitions subset (every run the daemon launches for a dynamic partition) fails there."""
    with dg.DagsterInstance.from_ref(instance_ref) as instance:
        run = instance.get_run_by_id(run_id)
    return query_on_dask_worker(dependencies, recon_job, run, run_config, [step_key], instance_ref, known_state)


class RunDaskExecutor(DaskExecutor):
    """dagster-dask's executor with Dask task keys of their run (``<job>.<step>.<run id>``,
    not ``<job>.<step>``: two runs of one job on one scheduler shared tasks, and the later
    one ended SUCCESS with the other's results and none of its own steps run), the run
    passed by its id, and a bounded wait for workers."""

    def execute(self, plan_context, execution_plan):
        if not plan_context.instance.is_persistent:
            raise dg.DagsterInvariantViolationError("Dask execution requires a persistent DagsterInstance")
        run = plan_context.dagster_run
        local = self.cluster_type != "existing"
        instance_ref = plan_context.instance.get_ref()
        with distributed.LocalCluster(**self.build_dict(run.job_name)) if local \
                else nullcontext(self.cluster_configuration["address"]) as cluster, distributed.Client(cluster) as client:
            futures = {}
            for level in execution_plan.get_steps_to_execute_by_level():
                for step in level:
                    upstream = [futures[key] for step_input in step.step_inputs for key in step_input.dependency_keys]
                    futures[step.key] = client.submit(
                        run_step, upstream, plan_context.reconstructable_job, run.run_id, plan_context.run_config,
                        step.key, instance_ref, execution_plan.known_state, key=f"{run.job_name}.{step.key}.{run.run_id}",
                        resources=get_dask_resource_requirements(step.tags))
            # As dagster-dask does: a run terminated meanwhile stops waiting.
            for _, events in iterate_with_context(raise_execution_interrupts,
                                                  results_as_completed(client, futures.values(), f"run {run.run_id}")):
                yield from events


def executor_from_env() -> dg.ExecutorDefinition:
    cluster = dask_cluster()
    if cluster is None:
        return dg.in_process_executor  # runs are small: steps share one process instead of paying an import each
    ((kind, config),) = cluster.items()
    return dg.ExecutorDefinition(name="dask", requirements=dg.multiple_process_executor_requirements(),
                                 executor_creation_fn=lambda _: RunDaskExecutor(kind, config))


DASK_RUN_TAG = "ragpipe/dask"


def cluster_run_tags() -> dict[str, str]:
    """The tag that dagster.yaml's run queue lets one run at a time hold per scheduler; none
    off Dask. dagster-dask claims no pool slots, so endpoints stay within their limits only
    run by run."""
    scheduler = dask_scheduler()
    return {DASK_RUN_TAG: scheduler} if scheduler else {}


def endpoint_pool(name: str) -> str | None:
    """The pool of a step that calls an endpoint, or none on Dask: dagster-dask claims no
    pool slots. On Dask, runs go one at a time instead (``cluster_run_tags``)."""
    return None if dask_scheduler() else name


def score_row(toolkit: Toolkit, name: str, case: EvalCase) -> dict:
    """One question's stored result of one metric."""
    result = toolkit.result(name, case)
    value = None if result.value is None else float(result.value)  # a numpy scalar is no JSON
    return {"value": value, "details": json.dumps(result.details, ensure_ascii=False), "error": result.error}


@lru_cache(maxsize=2)
def worker_embedder(backend: str, cache_path: str) -> Embedder:
    """One embedder per worker process: the model loads once, not once per chunk."""
    return Embedder(backend, Path(cache_path))


def score_chunk(backend: str, cache_path: str, graph, names: list[str], cases: list[EvalCase]) -> list[dict]:
    """Runs on a worker: every metric of ``names`` for each case, as ``score_row`` gives it."""
    toolkit = Toolkit(worker_embedder(backend, cache_path), graph=graph)
    toolkit.prefetch(cases, names)
    return [{name: score_row(toolkit, name, case) for name in names} for case in cases]


class DaskResource(dg.ConfigurableResource):
    """The cluster the scores step hands its rows to; none when ``scheduler`` is empty."""

    scheduler: str = ""
    workers: int = 2  # of a local cluster
    chunk_rows: int = 32

    @classmethod
    def from_env(cls) -> "DaskResource":
        return cls(scheduler=dask_scheduler(),
                   workers=int(os.environ.get("RAGPIPE_DASK_WORKERS", "2")),
                   chunk_rows=int(os.environ.get("RAGPIPE_DASK_CHUNK_ROWS", "32")))

    @property
    def configured(self) -> bool:
        return bool(self.scheduler)

    @contextmanager
    def client(self):
        try:
            distributed.get_worker()
        except ValueError:  # not on a worker: a client of our own
            if self.scheduler == LOCAL:
                with distributed.LocalCluster(n_workers=self.workers, threads_per_worker=1) as cluster, \
                        distributed.Client(cluster) as client:
                    yield client
            else:
                with distributed.Client(self.scheduler) as client:
                    yield client
        else:  # a step the Dask executor runs: leave the worker's slot free while the chunks run
            with distributed.worker_client() as client:
                yield client

    def score(self, backend: str, cache_path: Path, graph, names: list[str], cases: list[EvalCase],
              keep: Callable[[str, EvalCase, dict], None]) -> dict[tuple[str, str], dict]:
        """The rows of ``cases`` for every metric of ``names``, scored in chunks on the
        cluster, by (metric, question id). ``keep`` gets each row as its chunk comes back,
        so a step killed midway keeps the chunks that finished."""
        if not cases or not names:
            return {}
        chunks = [cases[i:i + self.chunk_rows] for i in range(0, len(cases), self.chunk_rows)]
        rows = {}
        with self.client() as client:
            graph_future = client.scatter(graph, broadcast=True) if graph is not None else None
            futures = {client.submit(score_chunk, backend, str(cache_path), graph_future, names, chunk, pure=False): chunk
                       for chunk in chunks}
            for future, chunk_rows in results_as_completed(client, futures, "the scores step"):
                for case, case_rows in zip(futures[future], chunk_rows):
                    for name in names:
                        keep(name, case, case_rows[name])
                        rows[name, case.question_id] = case_rows[name]
        return rows
