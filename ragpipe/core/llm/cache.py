"""A content-addressed cache of chat completions on disk, so that a re-run or a resumed
run makes no repeat calls.

The key is the SHA-256 of the request that determines the reply: model, messages (the
rendered prompt, and for a re-ask the conversation so far), temperature, seed,
max_tokens and response_format, plus an optional namespace. Neither the base URL nor
any header is part of it, so the API key never reaches the key or the file; a namespace
separates two servers that report the same model name. The value is what the client
uses of the reply: its text, finish reason and token usage.

One SQLite file (``llm-cache.sqlite`` in the cache directory) in WAL mode, so several
processes (Dagster's multiprocess executor) can share it. Every ``put`` commits on its
own, so a process killed midway (kill -9) loses none of the entries written before; the
HTTP bots keep their answers in a file of the same kind (``answers.sqlite``).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

FILE_NAME = "llm-cache.sqlite"


def request_key(payload: dict[str, Any], namespace: str = "") -> str:
    """The content address of a chat-completion request (see the module docstring)."""
    material = {k: payload.get(k) for k in ("model", "messages", "temperature", "seed", "max_tokens",
                                            "response_format")}
    material["namespace"] = namespace
    canonical = json.dumps(material, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class LLMCache:
    """Responses by request key in ``<directory>/llm-cache.sqlite``; safe across threads
    and processes. ``get`` and ``put`` never raise on a busy database for long: SQLite
    waits up to 30 s for another writer."""

    def __init__(self, directory: str | Path, file_name: str = FILE_NAME):
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.path = self.directory / file_name
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, timeout=30, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, model TEXT NOT NULL, "
                         "value TEXT NOT NULL, created REAL NOT NULL)")

    def get(self, key: str) -> dict | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM responses WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def put(self, key: str, value: dict, model: str = "") -> None:
        data = json.dumps(value, ensure_ascii=False)
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO responses (key, model, value, created) VALUES (?, ?, ?, ?)",
                             (key, model, data, time.time()))

    def __len__(self) -> int:
        with self._lock:
            return self._db.execute("SELECT COUNT(*) FROM responses").fetchone()[0]

    def clear(self) -> None:
        with self._lock:
            self._db.execute("DELETE FROM responses")

    def close(self) -> None:
        with self._lock:
            self._db.close()
