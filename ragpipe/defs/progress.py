"""Progress of the evaluation steps, carried by the run's own event log so that it reaches
the caller from whatever process executes a step: a step reports ``AssetObservation``s
with ``done`` and ``total`` (about 20 per step), and a caller such as `ragpipe eval`
follows the run's observations in the instance while the run executes."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import dagster as dg

Listener = Callable[[str, int, int], None]  # step (asset key), done, total
REPORTS_PER_STEP = 20


def report_progress(context: dg.AssetExecutionContext, asset_key: list[str], done: int, total: int) -> None:
    if done == total or done % max(1, total // REPORTS_PER_STEP) == 0:
        context.log_event(dg.AssetObservation(asset_key=asset_key, partition=context.partition_key,
                                              metadata={"done": done, "total": total}))


@contextmanager
def following(instance: dg.DagsterInstance, run_id: str, listener: Listener, interval: float = 0.5) -> Iterator[None]:
    """Calls ``listener`` with each progress observation of the run until the block ends."""
    stop = threading.Event()

    def follow() -> None:
        cursor = None
        while True:
            last = stop.wait(interval)  # set once the run ended: read its last reports, then stop
            connection = instance.get_records_for_run(run_id, cursor=cursor,
                                                      of_type=dg.DagsterEventType.ASSET_OBSERVATION)
            cursor = connection.cursor
            for record in connection.records:
                observation = record.event_log_entry.asset_observation
                if observation is not None and {"done", "total"} <= set(observation.metadata):
                    listener(observation.asset_key.to_user_string(), observation.metadata["done"].value,
                             observation.metadata["total"].value)
            if last:
                return

    thread = threading.Thread(target=follow, name=f"progress-{run_id}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
