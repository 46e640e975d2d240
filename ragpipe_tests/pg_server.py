"""A throwaway PostgreSQL 15 cluster on loopback, started and stopped by the tests."""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

from ragpipe_tests.tier import require_slow_tier

PG_BIN = Path(os.environ.get("RAGPIPE_PG_BIN", "/usr/lib/postgresql/15/bin"))
_PG_CTL: dict[int, Callable[..., None]] = {}  # port -> pg_ctl of the cluster serving it


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def postgres_cluster():
    """Yields (host, port, user, database). PostgreSQL refuses to run as root, so as root
    the server runs as the `postgres` system user."""
    require_slow_tier("PostgreSQL")
    if not (PG_BIN / "initdb").exists():
        raise RuntimeError(f"PostgreSQL server binaries not found in {PG_BIN} (set RAGPIPE_PG_BIN)")
    root = Path(tempfile.mkdtemp(prefix="ragpipe-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        os.chown(root, user.pw_uid, user.pw_gid)
        as_user = ["runuser", "-u", "postgres", "--"]
    data, port = root / "data", free_port()
    run = lambda *cmd: subprocess.run([*as_user, *cmd], check=True, capture_output=True, text=True)  # noqa: E731
    _PG_CTL[port] = lambda *args: run(str(PG_BIN / "pg_ctl"), "-D", str(data), "-l", str(root / "server.log"),
                                      "-w", *args, "-o", f"-p {port} -k {root} -c listen_addresses=127.0.0.1")
    try:
        run(str(PG_BIN / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8")
        _PG_CTL[port]("start")
        run(str(PG_BIN / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "dagster")
        yield "127.0.0.1", port, "postgres", "dagster"
    finally:
        if (data / "postmaster.pid").exists():
            subprocess.run([*as_user, str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
                           capture_output=True)
        shutil.rmtree(root, ignore_errors=True)
        _PG_CTL.pop(port, None)


def stop_server(port: int) -> None:
    """Stops the server of a running postgres_cluster (its connections are cut)."""
    _PG_CTL[port]("-m", "fast", "stop")


def start_server(port: int) -> None:
    _PG_CTL[port]("start")
