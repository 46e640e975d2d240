"""The one cache behind everything ragpipe must not compute or ask twice: the embeddings,
the judge's responses and the HTTP bots' answers.

Stored in PostgreSQL when one is configured (RAGPIPE_CACHE_URL, else the Dagster instance's
DAGSTER_PG_* variables), so that every machine of a cluster shares it; otherwise in a local
directory managed by diskcache (SQLite underneath). Both are safe across threads and
processes, commit every write (or batch of writes, ``put_many``) on its own, so a process
killed midway (kill -9) loses none of the entries written before, and never evict: an
answer is never dropped to make room. Batches matter: on loopback PostgreSQL one committed
INSERT costs milliseconds, so the scores step writes and reads its rows in batches
(docs/cache.md has the figures).

A PostgreSQL cache rides out a server restart: an operation that finds the connection
broken reconnects and tries again, for up to OUTAGE_S seconds, before it raises
CacheUnavailable, an error that names the cache, never its caller's bot or judge.

Keys are strings. Values are bytes, kept as they are (embedding vectors), or anything
JSON can hold, stored as ASCII JSON, so that any Python string survives the round trip,
a lone surrogate ("\\ud800") included; nothing is pickled."""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote, urlsplit

import diskcache

from ragpipe.core.secrets import MASK, connection_secrets

OUTAGE_S = 60.0  # how long a PostgreSQL cache waits for its server to come back
T = TypeVar("T")
_BATCH = 1000  # keys per statement: bounded, so no statement grows with the evaluation


class CacheUnavailable(Exception):
    """The cache's store could not be reached for OUTAGE_S seconds: the cache failed,
    not what it caches for."""


def cache_url() -> str | None:
    """The PostgreSQL database of the caches, or None for local directories."""
    if url := os.environ.get("RAGPIPE_CACHE_URL"):
        return url
    env = os.environ.get
    if not env("DAGSTER_PG_HOST"):
        return None
    user = quote(env("DAGSTER_PG_USER", ""), safe="") + (":" + quote(env("DAGSTER_PG_PASSWORD"), safe="")
                                                          if env("DAGSTER_PG_PASSWORD") else "")
    return f"postgresql://{user}@{env('DAGSTER_PG_HOST')}:{env('DAGSTER_PG_PORT', '5432')}/{env('DAGSTER_PG_DB', '')}"


class Cache:
    """A cache named by its directory: in PostgreSQL its name (the last part) keys a
    namespace of one shared table, so every machine finds what any other stored."""

    def __init__(self, directory: str | Path):
        self.directory = Path(directory)
        url = cache_url()
        self._store = PostgresStore(url, self.directory.name) if url else DiskStore(
            str(self.directory), eviction_policy="none", size_limit=2**62)

    def get(self, key: str) -> Any | None:
        """The value under ``key``, or None."""
        return _decode(self._store.get(key))

    def get_many(self, keys: Iterable[str]) -> dict[str, Any]:
        """The values under ``keys`` that are stored, by key, read in batches."""
        return {key: _decode(raw) for key, raw in self._store.get_many(list(dict.fromkeys(keys))).items()}

    def put(self, key: str, value: Any) -> None:
        self._store.set(key, _encode(value))

    def put_many(self, items: Iterable[tuple[str, Any]]) -> None:
        """Several values, in batches each committed whole (the last value of a repeated key wins)."""
        self._store.set_many({key: _encode(value) for key, value in items})

    def transact(self) -> AbstractContextManager:
        """A transaction across processes, for a read-modify-write."""
        return self._store.transact()

    def items(self) -> Iterator[tuple[str, Any]]:
        keys = list(self._store.iterkeys())
        for start in range(0, len(keys), _BATCH):
            yield from self.get_many(keys[start:start + _BATCH]).items()

    def __len__(self) -> int:
        return len(self._store)

    def clear(self) -> None:
        self._store.clear()

    def close(self) -> None:
        self._store.close()


class DiskStore(diskcache.Cache):
    """diskcache.Cache with the batch operations of PostgresStore; a batch of writes is one
    SQLite transaction (reads take no lock: a transaction would hold off writers)."""

    def get_many(self, keys: list[str]) -> dict[str, bytes | str]:
        found = {key: self.get(key) for key in keys}
        return {key: value for key, value in found.items() if value is not None}

    def set_many(self, items: dict[str, bytes | str]) -> None:
        with self.transact():
            for key, value in items.items():
                self.set(key, value)


def _server_of(url: str) -> str:
    try:
        parts = urlsplit(url)
        return f"{parts.hostname}:{parts.port or 5432}{parts.path}" if parts.hostname else "PostgreSQL"
    except ValueError:  # a URL that does not parse: libpq says so when it connects (without the password)
        return "PostgreSQL"


def _connect(psycopg2, url: str):
    """A connection; an error without the URL's password (libpq quotes a URL it cannot parse)."""
    try:
        return psycopg2.connect(url)
    except psycopg2.Error as exc:
        failure = exc
    message = str(failure)
    for secret in connection_secrets(url):
        message = message.replace(secret, MASK)
    raise type(failure)(message)  # outside the except: no context that quotes the password


class PostgresStore:
    """The part of diskcache.Cache's interface that Cache uses, over one table in
    PostgreSQL: a value is bytes (``raw``) or JSON text (``text``). A transaction holds an
    advisory lock on the namespace, so read-modify-writes of two processes do not interleave.
    Outside a transaction every statement commits on its own, so one that found the
    connection broken is tried again on a new one (``_retried``)."""

    def __init__(self, url: str, namespace: str):
        import psycopg2  # only where a PostgreSQL cache is configured
        from psycopg2.extras import execute_values

        self._connect, self.namespace, self._execute_values = lambda: _connect(psycopg2, url), namespace, execute_values
        self._broken = (psycopg2.OperationalError, psycopg2.InterfaceError)  # the server or the connection went away
        self._where = _server_of(url)  # messages name the server, never the password
        self._lock, self._depth, self._pid, self._db = threading.RLock(), 0, None, None

        def create(cur) -> None:
            cur.execute("SELECT pg_advisory_lock(hashtext('ragpipe_cache'))")  # two processes creating it at once
            cur.execute("CREATE TABLE IF NOT EXISTS ragpipe_cache (namespace text, key text, raw bytea, text text, "
                        "PRIMARY KEY (namespace, key))")
            cur.execute("SELECT pg_advisory_unlock(hashtext('ragpipe_cache'))")
        self._retried(create)

    @contextmanager
    def _cursor(self):
        with self._lock:
            if self._db is None or self._pid != os.getpid():  # a connection is not shared with a forked process
                self._db, self._pid = self._connect(), os.getpid()
                self._db.autocommit = True
            try:
                with self._db.cursor() as cur:
                    yield cur
            except self._broken:
                if self._db.closed:  # the connection is lost (not, say, a deadlock): the next statement connects again
                    self._drop()
                raise

    def _drop(self) -> None:
        try:
            self._db.close()
        except self._broken:
            pass
        self._db = None

    def _retried(self, statements: Callable[[Any], T], again: bool = True) -> T:
        """``statements(cursor)``, again on a new connection while the server is away, for up
        to OUTAGE_S seconds. Inside a transaction, or its COMMIT (``again=False``), nothing
        is tried again: the statements before the break are gone with the connection."""
        deadline, pause = time.monotonic() + OUTAGE_S, 0.1
        while True:
            try:
                with self._cursor() as cur:
                    return statements(cur)
            except self._broken as exc:
                if self._db is not None:  # the server answered: an error of the statement, not an outage
                    raise
                if not again or self._depth or time.monotonic() + pause > deadline:
                    raise CacheUnavailable(f"the cache {self.namespace!r} at {self._where} is unreachable"
                                           f"{f' for {OUTAGE_S:.0f} s' if again and not self._depth else ''}: "
                                           f"{str(exc).strip()}") from None
                time.sleep(pause)
                pause = min(2 * pause, 2.0)

    @contextmanager
    def transact(self):
        with self._lock:
            if self._depth == 0:
                self._retried(lambda cur: (cur.execute("BEGIN"), cur.execute(
                    "SELECT pg_advisory_xact_lock(hashtext(%s))", (self.namespace,))))
            self._depth += 1
            try:
                yield
            except BaseException:
                self._depth -= 1
                if self._depth == 0 and self._db is not None:  # None: the connection broke, and the transaction with it
                    try:
                        with self._cursor() as cur:
                            cur.execute("ROLLBACK")
                    except self._broken:
                        pass
                raise
            self._depth -= 1
            if self._depth == 0:
                self._retried(lambda cur: cur.execute("COMMIT"), again=False)

    def get(self, key: str) -> bytes | str | None:
        return self.get_many([key]).get(key)

    def get_many(self, keys: list[str]) -> dict[str, bytes | str]:
        def select(cur) -> dict[str, bytes | str]:
            found = {}
            for start in range(0, len(keys), _BATCH):
                cur.execute("SELECT key, raw, text FROM ragpipe_cache WHERE namespace = %s AND key = ANY(%s)",
                            (self.namespace, keys[start:start + _BATCH]))
                found.update((key, bytes(raw) if raw is not None else text) for key, raw, text in cur.fetchall())
            return found
        return self._retried(select)

    def set(self, key: str, value: bytes | str) -> None:
        self.set_many({key: value})

    def set_many(self, items: dict[str, bytes | str]) -> None:
        rows = [(self.namespace, key, *((value, None) if isinstance(value, bytes) else (None, value)))
                for key, value in items.items()]
        if rows:  # one statement per _BATCH rows; tried again whole: an upsert can be repeated
            self._retried(lambda cur: self._execute_values(
                cur, "INSERT INTO ragpipe_cache VALUES %s ON CONFLICT (namespace, key) "
                     "DO UPDATE SET raw = EXCLUDED.raw, text = EXCLUDED.text", rows, page_size=_BATCH))

    def iterkeys(self) -> Iterator[str]:
        def select(cur) -> list[str]:
            cur.execute("SELECT key FROM ragpipe_cache WHERE namespace = %s ORDER BY key", (self.namespace,))
            return [row[0] for row in cur.fetchall()]
        return iter(self._retried(select))

    def __len__(self) -> int:
        def count(cur) -> int:
            cur.execute("SELECT count(*) FROM ragpipe_cache WHERE namespace = %s", (self.namespace,))
            return cur.fetchone()[0]
        return self._retried(count)

    def clear(self) -> None:
        self._retried(lambda cur: cur.execute("DELETE FROM ragpipe_cache WHERE namespace = %s", (self.namespace,)))

    def close(self) -> None:
        with self._lock:
            if self._db is not None and self._pid == os.getpid():
                self._drop()
            self._db, self._pid = None, None


def _encode(value: Any) -> bytes | str:
    return value if isinstance(value, bytes) else json.dumps(value)  # ensure_ascii: lone surrogates survive


def _decode(raw: bytes | str | None) -> Any | None:
    if raw is None or isinstance(raw, bytes):
        return raw
    return json.loads(raw)
