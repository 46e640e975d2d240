"""Each asset's code version (Dagster's ``code_version``): a hash of the core's files its
values can come from, so that a change marks stale only the assets it touches.

The import contracts of pyproject.toml keep the metrics, the evidence and the judge below
the verdict, the diagnosis, the labels and the reports: a score's code is the core without
those layers. Editing a chart or a page label therefore leaves every score fresh, and the
score cache and the sensor (which key on the scores' version) re-run no evaluation; the
assets built on the scores take the whole core's version."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

import ragpipe.core

# The core's layers that only read scores (see the layers contract in pyproject.toml).
ABOVE_THE_SCORES = frozenset({"report", "verdict.py", "diagnosis", "labels"})
SOURCE_SUFFIXES = frozenset({".py", ".json", ".yaml", ".j2", ".js", ".css", ".html"})


def files_hash(core: Path, files: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in files:
        digest.update(str(path.relative_to(core)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def code_versions(core: Path | None = None) -> dict[str, str]:
    """``scores``: the hash of the core (the installed one unless named) but the layers
    above the scores; ``reports``: of the whole core (what the aggregates, checks, labels
    and pages are computed with)."""
    core = core or Path(ragpipe.core.__file__).parent
    files = sorted(p for p in core.rglob("*")
                   if p.suffix in SOURCE_SUFFIXES and p.is_file() and "__pycache__" not in p.parts)
    scores = [p for p in files if p.relative_to(core).parts[0] not in ABOVE_THE_SCORES]
    return {"scores": files_hash(core, scores), "reports": files_hash(core, files)}


@cache
def code_version(part: str) -> str:
    """This installation's version of ``part`` (scores or reports)."""
    return code_versions()[part]
