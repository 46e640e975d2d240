"""Instance storage chosen by the environment, so one dagster.yaml serves both set-ups:
PostgreSQL when DAGSTER_PG_HOST is set (DAGSTER_PG_PORT, _USER, _PASSWORD, _DB), else
SQLite under $DAGSTER_HOME/storage."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from dagster._core.storage.base_storage import DagsterStorage
from dagster._serdes import ConfigurableClass, ConfigurableClassData


class EnvironmentSelectedStorage(DagsterStorage, ConfigurableClass):
    """Only a factory: ``from_config_value`` returns Dagster's own PostgreSQL or SQLite storage."""

    @classmethod
    def config_type(cls):
        return {}

    @classmethod
    def from_config_value(cls, inst_data: ConfigurableClassData | None, config_value) -> DagsterStorage:
        if os.environ.get("DAGSTER_PG_HOST"):
            from dagster_postgres import DagsterPostgresStorage
            from dagster_postgres.utils import get_conn_string

            url = get_conn_string(
                username=os.environ.get("DAGSTER_PG_USER", "postgres"),
                password=os.environ.get("DAGSTER_PG_PASSWORD", ""),
                hostname=os.environ["DAGSTER_PG_HOST"],
                port=os.environ.get("DAGSTER_PG_PORT", "5432"),
                db_name=os.environ.get("DAGSTER_PG_DB", "dagster"),
                # SQLAlchemy 2.1 maps plain postgresql:// to psycopg 3, which dagster-postgres
                # does not install (and which breaks the daemon's NOTIFY).
                scheme="postgresql+psycopg2",
            )
            return DagsterPostgresStorage(url, inst_data=inst_data)
        from dagster._core.storage.sqlite_storage import DagsterSqliteStorage

        # `dagster dev` and `dg` without DAGSTER_HOME use a throwaway home; keep the runs in
        # the project's .dagster_home instead, where `ragpipe run` puts them.
        home = os.environ.get("DAGSTER_HOME") or os.path.join(os.getcwd(), ".dagster_home")
        return DagsterSqliteStorage.from_local(os.path.join(home, "storage"), inst_data=inst_data)


def prepare_dagster_home(project_dir: Path) -> Path:
    """Point DAGSTER_HOME (default <project>/.dagster_home) at a copy of dagster.yaml."""
    home = Path(os.environ.get("DAGSTER_HOME") or project_dir / ".dagster_home").resolve()
    home.mkdir(parents=True, exist_ok=True)
    source, target = project_dir / "dagster.yaml", home / "dagster.yaml"
    if source.resolve() != target.resolve():
        shutil.copyfile(source, target)
    os.environ["DAGSTER_HOME"] = str(home)
    return home
