"""Prepare $DAGSTER_HOME from the project's dagster.yaml (see the comment at its top)."""

from __future__ import annotations

import os
from pathlib import Path

import yaml


def prepare_dagster_home(project_dir: Path) -> Path:
    home = Path(os.environ.get("DAGSTER_HOME") or project_dir / ".dagster_home").resolve()
    home.mkdir(parents=True, exist_ok=True)
    config = yaml.safe_load((project_dir / "dagster.yaml").read_text(encoding="utf-8"))
    if not os.environ.get("DAGSTER_PG_HOST"):
        config.pop("storage", None)  # SQLite under $DAGSTER_HOME
    target = home / "dagster.yaml"
    text = yaml.safe_dump(config, sort_keys=False)
    if not target.exists() or target.read_text(encoding="utf-8") != text:
        target.write_text(text, encoding="utf-8")
    os.environ["DAGSTER_HOME"] = str(home)
    return home
