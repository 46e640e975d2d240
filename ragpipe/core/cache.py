"""The one cache behind everything ragpipe must not compute or ask twice: the embeddings,
the judge's responses and the HTTP bots' answers.

Stored in PostgreSQL when one is configured (RAGPIPE_CACHE_URL, else the Dagster instance's
DAGSTER_PG_* variables), so that every machine of a cluster shares it; otherwise in a local
directory managed by diskcache (SQLite underneath). Both are safe across threads and
processes, commit every write on its own, so a process killed midway (kill -9) loses none
of the entries written before, and never evict: an answer is never dropped to make room.

Keys are strings. Values are bytes, kept as they are (embedding vectors), or anything
JSON can hold, stored as ASCII JSON, so that any Python string survives the round trip,
a lone surrogate ("\\ud800") included; nothing is pickled."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import diskcache

from ragpipe.core.secrets import MASK, connection_secrets


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
        self._store = PostgresStore(url, self.directory.name) if url else diskcache.Cache(
            str(self.directory), eviction_policy="none", size_limit=2**62)

    def get(self, key: str) -> Any | None:
        """The value under ``key``, or None."""
        return _decode(self._store.get(key))

    def put(self, key: str, value: Any) -> None:
        self._store.set(key, _encode(value))

    def put_many(self, items: Iterable[tuple[str, Any]]) -> None:
        """Several values in one transaction."""
        with self._store.transact():
            for key, value in items:
                self._store.set(key, _encode(value))

    def transact(self) -> AbstractContextManager:
        """A transaction across processes, for a read-modify-write."""
        return self._store.transact()

    def items(self) -> Iterator[tuple[str, Any]]:
        for key in self._store.iterkeys():
            value = self.get(key)
            if value is not None:
                yield key, value

    def __len__(self) -> int:
        return len(self._store)

    def clear(self) -> None:
        self._store.clear()

    def close(self) -> None:
        self._store.close()


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
    advisory lock on the namespace, so read-modify-writes of two processes do not interleave."""

    def __init__(self, url: str, namespace: str):
        import psycopg2  # only where a PostgreSQL cache is configured

        self._connect, self.namespace = lambda: _connect(psycopg2, url), namespace
        self._lock, self._depth, self._pid, self._db = threading.RLock(), 0, None, None
        with self._cursor() as cur:
            cur.execute("SELECT pg_advisory_lock(hashtext('ragpipe_cache'))")  # two processes creating it at once
            cur.execute("CREATE TABLE IF NOT EXISTS ragpipe_cache (namespace text, key text, raw bytea, text text, "
                        "PRIMARY KEY (namespace, key))")
            cur.execute("SELECT pg_advisory_unlock(hashtext('ragpipe_cache'))")

    @contextmanager
    def _cursor(self):
        with self._lock:
            if self._pid != os.getpid():  # a connection is not shared with a forked process
                self._db, self._pid = self._connect(), os.getpid()
                self._db.autocommit = True
            with self._db.cursor() as cur:
                yield cur

    @contextmanager
    def transact(self):
        with self._lock:
            if self._depth == 0:
                with self._cursor() as cur:
                    cur.execute("BEGIN")
                    cur.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (self.namespace,))
            self._depth += 1
            try:
                yield
            except BaseException:
                self._depth -= 1
                if self._depth == 0:
                    with self._cursor() as cur:
                        cur.execute("ROLLBACK")
                raise
            self._depth -= 1
            if self._depth == 0:
                with self._cursor() as cur:
                    cur.execute("COMMIT")

    def get(self, key: str) -> bytes | str | None:
        with self._cursor() as cur:
            cur.execute("SELECT raw, text FROM ragpipe_cache WHERE namespace = %s AND key = %s", (self.namespace, key))
            row = cur.fetchone()
        return None if row is None else bytes(row[0]) if row[0] is not None else row[1]

    def set(self, key: str, value: bytes | str) -> None:
        raw, text = (value, None) if isinstance(value, bytes) else (None, value)
        with self._cursor() as cur:
            cur.execute("INSERT INTO ragpipe_cache VALUES (%s, %s, %s, %s) ON CONFLICT (namespace, key) "
                        "DO UPDATE SET raw = EXCLUDED.raw, text = EXCLUDED.text", (self.namespace, key, raw, text))

    def iterkeys(self) -> Iterator[str]:
        with self._cursor() as cur:
            cur.execute("SELECT key FROM ragpipe_cache WHERE namespace = %s ORDER BY key", (self.namespace,))
            keys = [row[0] for row in cur.fetchall()]
        return iter(keys)

    def __len__(self) -> int:
        with self._cursor() as cur:
            cur.execute("SELECT count(*) FROM ragpipe_cache WHERE namespace = %s", (self.namespace,))
            return cur.fetchone()[0]

    def clear(self) -> None:
        with self._cursor() as cur:
            cur.execute("DELETE FROM ragpipe_cache WHERE namespace = %s", (self.namespace,))

    def close(self) -> None:
        with self._lock:
            if self._db is not None and self._pid == os.getpid():
                self._db.close()
            self._db, self._pid = None, None


def _encode(value: Any) -> bytes | str:
    return value if isinstance(value, bytes) else json.dumps(value)  # ensure_ascii: lone surrogates survive


def _decode(raw: bytes | str | None) -> Any | None:
    if raw is None or isinstance(raw, bytes):
        return raw
    return json.loads(raw)
