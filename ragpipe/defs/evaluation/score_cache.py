"""Per-question score results kept by what they were computed from (the question, the
answer, its contexts, the metric, the scores' code version, the evaluation settings, the
scoring mode, the embedder, the judge model and the graph snapshot), so that scoring a
partition again computes only the questions whose inputs changed, and a step killed
half-way keeps the rows it finished."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ragpipe.core.cache import Cache
from ragpipe.core.config import config_path
from ragpipe.core.schemas import EvalCase
from ragpipe.defs.code_versions import code_version as code_version_of


def code_version() -> str:
    """The scores' code version (``code_versions``): a change there re-scores everything; a
    change to the report, the verdict, the diagnosis or the labels re-scores nothing."""
    return code_version_of("scores")


def scoring_version() -> str:
    """The scores' code version and the evaluation settings in use (a custom
    RAGPIPE_EVAL_CONFIG lies outside the core): a change in either re-scores everything."""
    settings = hashlib.sha256(config_path().read_bytes()).hexdigest()[:16]
    return f"{code_version()}:{settings}"


class ScoreCache:
    """``setting``: what, besides a question's own inputs, its scores depend on."""

    def __init__(self, directory: Path, setting: dict):
        self.cache = Cache(directory)  # in PostgreSQL when configured: every worker sees every row
        self.setting = {**setting, "code": scoring_version()}

    def key(self, metric: str, case: EvalCase) -> str:
        # ASCII JSON: an answer with a lone surrogate still has a key
        inputs = json.dumps([self.setting, metric, case.model_dump()], sort_keys=True)
        return hashlib.sha256(inputs.encode()).hexdigest()

    def get(self, metric: str, case: EvalCase) -> dict | None:
        return self.cache.get(self.key(metric, case))

    def put(self, metric: str, case: EvalCase, row: dict) -> None:
        self.cache.put(self.key(metric, case), row)

    def close(self) -> None:
        self.cache.close()
