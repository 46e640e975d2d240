"""The one on-disk cache behind everything ragpipe must not compute or ask twice: the
embeddings, the judge's responses and the HTTP bots' answers.

A directory managed by diskcache (SQLite underneath): safe across threads and processes
(Dagster's multiprocess executor), every write committed on its own, so a process killed
midway (kill -9) loses none of the entries written before, and a reader never sees a
half-created file. Eviction is off: an answer is never dropped to make room.

Keys are strings. Values are bytes, kept as they are (embedding vectors), or anything
JSON can hold, stored as ASCII JSON, so that any Python string survives the round trip,
a lone surrogate ("\\ud800") included; nothing is pickled."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import diskcache


class DiskCache:
    def __init__(self, directory: str | Path):
        self.directory = Path(directory)
        self._cache = diskcache.Cache(str(self.directory), eviction_policy="none", size_limit=2**62)

    def get(self, key: str) -> Any | None:
        """The value under ``key``, or None."""
        return _decode(self._cache.get(key))

    def put(self, key: str, value: Any) -> None:
        self._cache.set(key, _encode(value))

    def put_many(self, items: Iterable[tuple[str, Any]]) -> None:
        """Several values in one transaction."""
        with self._cache.transact():
            for key, value in items:
                self._cache.set(key, _encode(value))

    def transact(self) -> AbstractContextManager:
        """A transaction across processes, for a read-modify-write."""
        return self._cache.transact()

    def items(self) -> Iterator[tuple[str, Any]]:
        for key in self._cache.iterkeys():
            value = self.get(key)
            if value is not None:
                yield key, value

    def __len__(self) -> int:
        return len(self._cache)

    def clear(self) -> None:
        self._cache.clear()

    def close(self) -> None:
        self._cache.close()


def import_sqlite_cache(cache: DiskCache, path: Path, table: str = "responses", value_column: str = "value",
                        decode: Callable[[Any], Any] = json.loads) -> sqlite3.Connection | None:
    """Copy the entries of a cache file in the SQLite format of earlier versions (a table
    of values by ``key``: JSON responses by default, raw vectors for the embeddings) into
    ``cache``, so that an upgrade computes and asks nothing again. Returns the open file
    for the caller's own tables (close it with ``retire``: the file is renamed
    ``*.imported``), or None when there is no such file."""
    if not path.is_file():
        return None
    db = sqlite3.connect(path, timeout=30)
    if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)).fetchone():
        cache.put_many((key, decode(value)) for key, value in db.execute(f"SELECT key, {value_column} FROM {table}"))
    return db


def retire(db: sqlite3.Connection, path: Path) -> None:
    """Close an imported file and rename it, so it is imported once."""
    db.close()
    try:
        path.rename(path.with_name(path.name + ".imported"))
    except FileNotFoundError:  # another process imported it at the same time
        pass


def _encode(value: Any) -> bytes | str:
    return value if isinstance(value, bytes) else json.dumps(value)  # ensure_ascii: lone surrogates survive


def _decode(raw: bytes | str | None) -> Any | None:
    if raw is None or isinstance(raw, bytes):
        return raw
    return json.loads(raw)
