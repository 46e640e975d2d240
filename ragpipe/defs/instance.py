"""The Dagster instance of a project: $DAGSTER_HOME/dagster.yaml, written from the project's
dagster.yaml. Storage follows the environment: SQLite under $DAGSTER_HOME/storage
(Dagster's default), or PostgreSQL (postgres_storage.yaml) when DAGSTER_PG_HOST is set."""

from __future__ import annotations

import os
import re
import shlex
import sys
from pathlib import Path

import yaml

POSTGRES_STORAGE = Path(__file__).with_name("postgres_storage.yaml")


def instance_config(project_dir: Path) -> dict:
    """The project's dagster.yaml, with PostgreSQL storage when DAGSTER_PG_HOST is set and
    the file names no storage itself."""
    config = yaml.safe_load((project_dir / "dagster.yaml").read_text(encoding="utf-8")) or {}
    if os.environ.get("DAGSTER_PG_HOST") and "storage" not in config:
        config |= yaml.safe_load(POSTGRES_STORAGE.read_text(encoding="utf-8"))
    return config


def prepare_dagster_home(project_dir: Path) -> Path:
    """Point DAGSTER_HOME (default <project>/.dagster_home) at the project's instance config."""
    home = Path(os.environ.get("DAGSTER_HOME") or project_dir / ".dagster_home").resolve()
    home.mkdir(parents=True, exist_ok=True)
    target = home / "dagster.yaml"
    if target.resolve() != (project_dir / "dagster.yaml").resolve():  # a home inside the project keeps its own
        target.write_text(yaml.safe_dump(instance_config(project_dir), sort_keys=False), encoding="utf-8")
    os.environ["DAGSTER_HOME"] = str(home)
    return home


# Settings a code location reads when it loads the definitions or runs a step; the UI
# command carries those set now, so the UI opens the instance and outputs the runs used.
CARRIED = ("RAGPIPE_", "DAGSTER_PG_")
SECRET = re.compile(r"KEY|PASSWORD|TOKEN|SECRET|^RAGPIPE_BOT_")


def ui_command(project_dir: Path, home: Path) -> str:
    """The shell line that opens the Dagster UI on this project's runs: DAGSTER_HOME, the
    project folder and every RAGPIPE_* and DAGSTER_PG_* variable set now. A secret is passed
    on by name ("$DAGSTER_PG_PASSWORD"), never written out."""
    env = {"DAGSTER_HOME": str(home), "RAGPIPE_PROJECT_DIR": str(project_dir)}
    env |= {k: v for k, v in sorted(os.environ.items()) if k.startswith(CARRIED) and k not in env}
    assignments = [f'{k}="${k}"' if SECRET.search(k) else f"{k}={shlex.quote(v)}" for k, v in env.items()]
    dagster = Path(sys.executable).parent / "dagster"
    return " ".join([*assignments, shlex.quote(str(dagster)), "dev", "-w",
                     shlex.quote(str(project_dir / "workspace.yaml"))])
