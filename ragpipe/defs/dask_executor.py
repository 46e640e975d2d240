"""dagster-dask's executor for runs on a Dask cluster (``ragpipe.defs.cluster`` says when), and the wait for
results that fails a run whose cluster has no worker. A module of its own: dask, distributed and dagster-dask take
seconds to import, and only runs on Dask need them."""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Iterator
from contextlib import nullcontext

import dagster as dg
import distributed
# Not public API: how dagster-dask's own executor (subclassed below) lets a terminated run
# stop waiting on its futures; Dagster 1.13 exposes no public way to observe the interrupt.
from dagster._core.errors import raise_execution_interrupts
from dagster._utils import iterate_with_context
from dagster_dask.executor import DaskExecutor, get_dask_resource_requirements, query_on_dask_worker


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
