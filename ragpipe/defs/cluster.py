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
from collections.abc import Callable
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

import dagster as dg

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


def executor_from_env() -> dg.ExecutorDefinition:
    cluster = dask_cluster()
    if cluster is None:
        return dg.in_process_executor  # runs are small: steps share one process instead of paying an import each
    from ragpipe.defs.dask_executor import RunDaskExecutor  # dask and dagster-dask cost every process seconds to import

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
        import distributed  # only runs on Dask import it (seconds per process)

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
        from ragpipe.defs.dask_executor import results_as_completed

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
