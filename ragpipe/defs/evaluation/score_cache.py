"""Per-question score results kept by what they were computed from (the question, the
answer, its contexts, the metric, the evaluation core's code, the evaluation settings, the
scoring mode, the embedder, the judge model and the graph snapshot), so that scoring a
partition again computes only the questions whose inputs changed, and a step killed
half-way keeps the rows it finished."""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

import ragpipe.core
from ragpipe.core.cache import Cache
from ragpipe.core.config import config_path
from ragpipe.core.schemas import EvalCase


@lru_cache(maxsize=1)
def code_version() -> str:
    """A hash of the evaluation core's code and data files: a change there re-scores everything."""
    root = Path(ragpipe.core.__file__).parent
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.suffix in {".py", ".json", ".yaml"}):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def scoring_version() -> str:
    """The core's code and data files and the evaluation settings in use (a custom
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
