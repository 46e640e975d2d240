"""Per-question score results kept by what they were computed from (the question, the
answer, its contexts, the metric, the scores' code version, the evaluation settings, the
scoring mode, the embedder, the judge model and the graph snapshot), so that scoring a
partition again computes only the questions whose inputs changed, and a step killed
half-way keeps the rows it finished but the last second's. Rows are read and written in
batches: one committed write per row capped a step at a few hundred rows a second on
PostgreSQL (docs/cache.md)."""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path

from ragpipe.core.cache import Cache
from ragpipe.core.config import config_path
from ragpipe.core.schemas import EvalCase
from ragpipe.defs.code_versions import code_version as code_version_of


def code_version() -> str:
    """The scores' code version (``code_versions``): a change there re-scores everything; a
    change to the core's other files (a report, a bot kind, the corpus reader) re-scores nothing."""
    return code_version_of("scores")


def scoring_version() -> str:
    """The scores' code version and the evaluation settings in use (a custom
    RAGPIPE_EVAL_CONFIG lies outside the core): a change in either re-scores everything."""
    settings = hashlib.sha256(config_path().read_bytes()).hexdigest()[:16]
    return f"{code_version()}:{settings}"


# A write batch is committed when it holds this many rows or is this old, whichever comes first.
FLUSH_ROWS, FLUSH_S = 1024, 1.0


class ScoreCache:
    """``setting``: what, besides a question's own inputs, its scores depend on. ``put``
    holds rows until FLUSH_ROWS or FLUSH_S; ``close`` writes the rest."""

    def __init__(self, directory: Path, setting: dict):
        self.cache = Cache(directory)  # in PostgreSQL when configured: every worker sees every row
        self.setting = {**setting, "code": scoring_version()}
        self._pending: dict[str, dict] = {}
        self._since = time.monotonic()

    def key(self, metric: str, case: EvalCase) -> str:
        # ASCII JSON: an answer with a lone surrogate still has a key
        inputs = json.dumps([self.setting, metric, case.model_dump()], sort_keys=True)
        return hashlib.sha256(inputs.encode()).hexdigest()

    def get_many(self, metrics: list[str], cases: list[EvalCase]) -> dict[str, list[dict | None]]:
        """Per metric, the stored row of each case in order (None where there is none)."""
        keys = {metric: [self.key(metric, case) for case in cases] for metric in metrics}
        found = self.cache.get_many(key for metric_keys in keys.values() for key in metric_keys)
        return {metric: [found.get(key) for key in metric_keys] for metric, metric_keys in keys.items()}

    def put(self, metric: str, case: EvalCase, row: dict) -> None:
        if not self._pending:
            self._since = time.monotonic()
        self._pending[self.key(metric, case)] = row
        if len(self._pending) >= FLUSH_ROWS or time.monotonic() - self._since >= FLUSH_S:
            self.flush()

    def flush(self) -> None:
        if self._pending:
            self.cache.put_many(self._pending.items())
            self._pending = {}

    def close(self) -> None:
        try:
            self.flush()
        finally:
            self.cache.close()
