"""The only places ragpipe calls the Dagster instance's storage directly, gathered so that
the reasons stand in one place: Dagster 1.13 has no public API for any of them.

- ``initialize_pool``: a pool's slots at dagster.yaml's default limit, before any run
  claims one. Dagster creates them on the first claim, and two runs claiming at once both
  count no slots (see ``instance.give_pools_their_slots``); `dagster instance concurrency
  set` writes through the same storage.
- ``free_pool_slots``: the slots a run whose process was killed still holds. Dagster's
  daemon frees them (run_monitoring.free_slots_after_run_end_seconds), but `ragpipe run`
  works without a daemon.
- ``put_value`` and ``get_value``: a small key-value store that every host of the instance
  shares (the run storage's cursor table, where Dagster's daemons keep their cursors): the
  heartbeats of runs on other machines. A run tag would do too, but would change on every
  run page every 30 s."""

from __future__ import annotations

import dagster as dg


def initialize_pool(instance: dg.DagsterInstance, pool: str) -> None:
    """Gives ``pool`` the default limit's slots unless it has slots already."""
    storage = instance.event_log_storage
    if pool not in storage.get_concurrency_keys():
        storage.initialize_concurrency_limit_to_default(pool)


def free_pool_slots(instance: dg.DagsterInstance, run_id: str) -> None:
    if instance.event_log_storage.supports_global_concurrency_limits:
        instance.event_log_storage.free_concurrency_slots_for_run(run_id)


def put_value(instance: dg.DagsterInstance, key: str, value: str) -> None:
    instance.run_storage.set_cursor_values({key: value})


def get_value(instance: dg.DagsterInstance, key: str) -> str | None:
    return instance.run_storage.get_cursor_values({key}).get(key)
