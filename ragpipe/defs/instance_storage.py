"""The only places ragpipe calls the Dagster instance's storage directly, gathered so that
the reasons stand in one place: Dagster 1.13 has no public API for any of them.

- ``SqliteStorage`` and ``PostgresStorage``: Dagster's storages, except that a pool slot is
  taken only if it is still free when written. Dagster reads a free slot, then writes its
  claim over whatever is there, so two steps claiming at the same moment both got a
  one-slot pool: two runs sent an endpoint twice its concurrency (the pools test failed
  this way in CI; four processes claiming at once did it in 8 of 20 tries on SQLite and
  7 of 20 on PostgreSQL). sqlite_storage.yaml and postgres_storage.yaml name them.

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
import sqlalchemy as db
from dagster._core.storage.event_log import SqliteEventLogStorage
from dagster._core.storage.event_log.schema import ConcurrencySlotsTable
from dagster._core.storage.sqlite_storage import DagsterSqliteStorage
from dagster._utils.concurrency import ConcurrencySlotStatus
from dagster_postgres import DagsterPostgresStorage
from dagster_postgres.event_log import PostgresEventLogStorage


def claim_free_slot(storage, concurrency_key: str, run_id: str, step_key: str) -> ConcurrencySlotStatus:
    """A slot claim in one compare-and-set: the claim's write names the slot as free, so of two
    claims on one slot, the second writes nothing and waits (Dagster polls a blocked claim)."""
    slots = ConcurrencySlotsTable.c
    free = db.and_(slots.concurrency_key == concurrency_key, slots.step_key.is_(None), slots.deleted.is_(False))
    with storage.index_connection() as conn:
        for (slot_id,) in conn.execute(db.select(slots.id).where(free)).fetchall():
            claim = ConcurrencySlotsTable.update().values(run_id=run_id, step_key=step_key)
            if conn.execute(claim.where(db.and_(slots.id == slot_id, slots.step_key.is_(None)))).rowcount:
                return ConcurrencySlotStatus.CLAIMED
    return ConcurrencySlotStatus.BLOCKED


class _SqliteEventLogStorage(SqliteEventLogStorage):
    _claim_concurrency_slot = claim_free_slot


class _PostgresEventLogStorage(PostgresEventLogStorage):
    _claim_concurrency_slot = claim_free_slot


class _FreeSlotClaims:
    """Dagster builds a storage's event log itself; it is given the safe claim afterwards (its
    subclass adds no state, so changing its class is enough)."""

    event_log_class: type

    @classmethod
    def from_config_value(cls, inst_data, config_value):
        storage = super().from_config_value(inst_data, config_value)
        storage.event_log_storage.__class__ = cls.event_log_class
        return storage


class SqliteStorage(_FreeSlotClaims, DagsterSqliteStorage):
    event_log_class = _SqliteEventLogStorage


class PostgresStorage(_FreeSlotClaims, DagsterPostgresStorage):
    event_log_class = _PostgresEventLogStorage


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
