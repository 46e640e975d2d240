"""The Dagster instance of a project: $DAGSTER_HOME/dagster.yaml, written from the project's
dagster.yaml. Storage follows the environment: SQLite under $DAGSTER_HOME (sqlite_storage.yaml:
Dagster's files, its pool claims made safe across processes), or PostgreSQL
(postgres_storage.yaml) when DAGSTER_PG_HOST is set."""

from __future__ import annotations

import os
from pathlib import Path

import yaml

SQLITE_STORAGE = Path(__file__).with_name("sqlite_storage.yaml")
POSTGRES_STORAGE = Path(__file__).with_name("postgres_storage.yaml")


def instance_config(project_dir: Path) -> dict:
    """The project's dagster.yaml, with PostgreSQL storage when DAGSTER_PG_HOST is set and
    SQLite storage otherwise, unless the file names a storage itself."""
    config = yaml.safe_load((project_dir / "dagster.yaml").read_text(encoding="utf-8")) or {}
    if "storage" not in config:
        storage = POSTGRES_STORAGE if os.environ.get("DAGSTER_PG_HOST") else SQLITE_STORAGE
        config |= yaml.safe_load(storage.read_text(encoding="utf-8"))
    return config


def prepare_dagster_home(project_dir: Path) -> Path:
    """Point DAGSTER_HOME (default <project>/.dagster_home) at the project's instance config."""
    home = Path(os.environ.get("DAGSTER_HOME") or project_dir / ".dagster_home").resolve()
    home.mkdir(parents=True, exist_ok=True)
    target = home / "dagster.yaml"
    if target.resolve() != (project_dir / "dagster.yaml").resolve():  # a home inside the project keeps its own
        target.write_text(yaml.safe_dump(instance_config(project_dir), sort_keys=False), encoding="utf-8")
    os.environ["DAGSTER_HOME"] = str(home)
    import dagster as dg

    with dg.DagsterInstance.get() as instance:
        give_pools_their_slots(instance)
    return home


def give_pools_their_slots(instance) -> None:
    """Creates the endpoint pools' slots (dagster.yaml's default limit) for a pool that has
    none yet. Dagster creates them on a pool's first claim, and two runs claiming at that
    same moment both counted no slots and added one each: two runs at once on a one-slot
    pool (seen once in the pools test). Called before `ragpipe` runs anything and on each
    tick of the daemon's sensor. A limit set with `dagster instance concurrency set` is kept."""
    from ragpipe.defs.evaluation.assets import BOT_POOL, JUDGE_POOL
    from ragpipe.defs.instance_storage import initialize_pool

    for pool in (BOT_POOL, JUDGE_POOL):
        initialize_pool(instance, pool)
