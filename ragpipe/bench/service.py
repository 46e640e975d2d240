"""`ragpipe bench service`: the evaluation service under concurrent clients, offline.

Starts `ragpipe serve` in its own process on a free 127.0.0.1 port (a fresh embedding cache,
a token set), waits for /healthz, then ``--clients`` clients (10) send the benchmark rows
(Chinese and English, as `ragpipe bench latency` picks them), one answer per POST
/v1/evaluate, each client one request at a time. Prints p50, p95 and max of the wall time
per answer as the clients see it, the throughput, and the load average (other work on the
machine shows in the figures). Then the error answers for a malformed body, an oversize
body and a missing token, verbatim.

    ragpipe bench service [--clients 10] [--per-file 40] [--bench-dir DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import numpy as np

from ragpipe.bench.latency import DEFAULT_BENCH_DIR, load_rows

TOKEN = "bench-token-not-a-secret"
MAX_BODY = 2_000_000  # `ragpipe serve`'s default


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_service(port: int, cache: Path) -> subprocess.Popen:
    env = {**os.environ, "RAGPIPE_SERVICE_TOKEN": TOKEN, "RAGPIPE_CACHE_DIR": str(cache)}
    env.pop("RAGPIPE_LLM_BASE_URL", None)  # offline
    return subprocess.Popen([sys.executable, "-m", "ragpipe.cli", "serve", "--port", str(port), "--log-level",
                             "warning"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def wait_healthy(url: str, process: subprocess.Popen, timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"`ragpipe serve` exited with {process.returncode}: {process.stderr.read()}")
        try:
            if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"`ragpipe serve` did not answer /healthz within {timeout:.0f} s")


async def load(url: str, rows: list[dict], clients: int) -> tuple[list[float], float]:
    """Per-answer wall times (s) and the total wall time, ``clients`` at once."""
    queue: asyncio.Queue = asyncio.Queue()
    for row in rows:
        queue.put_nowait({"question": row["question"], "answer": row["answer"], "context": row["retrieved_contexts"]})
    timings: list[float] = []

    async def client() -> None:
        async with httpx.AsyncClient(base_url=url, timeout=600,  # a loaded machine queues answers for minutes
                                     headers={"Authorization": f"Bearer {TOKEN}"}) as http:
            while not queue.empty():
                item = queue.get_nowait()
                start = time.perf_counter()
                reply = await http.post("/v1/evaluate", json=item)
                timings.append(time.perf_counter() - start)
                reply.raise_for_status()

    start = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(clients)))
    return timings, time.perf_counter() - start


def error_answers(url: str) -> dict[str, httpx.Response]:
    auth = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
    item = {"question": "补贴多少？", "answer": "1万元。", "context": ["补贴1万元。"]}
    with httpx.Client(base_url=url, timeout=60) as http:
        return {
            "malformed body": http.post("/v1/evaluate", content=b'{"question": "q", "answer": ', headers=auth),
            "oversize body": http.post("/v1/evaluate", content=b"[" + b" " * MAX_BODY + b"]", headers=auth),
            "missing token": http.post("/v1/evaluate", json=item),
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ragpipe bench service")
    parser.add_argument("--bench-dir", type=Path, default=DEFAULT_BENCH_DIR)
    parser.add_argument("--per-file", type=int, default=40, help="rows taken from each benchmark file")
    parser.add_argument("--clients", type=int, default=10)
    args = parser.parse_args(argv)

    rows = load_rows(args.bench_dir, args.per_file)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="ragpipe-bench-service-") as cache:
        process = start_service(port, Path(cache))
        try:
            started = time.perf_counter()
            wait_healthy(url, process)
            print(f"`ragpipe serve` answered /healthz {time.perf_counter() - started:.1f} s after start "
                  f"(model loaded and warmed up)")
            timings, wall = asyncio.run(load(url, rows, args.clients))
            errors = error_answers(url)
        finally:
            process.terminate()
            process.wait(30)
    ms = np.array(timings) * 1000
    print(f"POST /v1/evaluate, offline, cold embedding cache, {len(rows)} answers, {args.clients} concurrent "
          f"clients, one answer per request:")
    print(f"  p50 {np.percentile(ms, 50):.0f} ms   p95 {np.percentile(ms, 95):.0f} ms   max {ms.max():.0f} ms   "
          f"{len(rows) / wall:.1f} answers/s   (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    for name, reply in errors.items():
        print(f"  {name}: HTTP {reply.status_code} {json.dumps(reply.json(), ensure_ascii=False)}")
    return 0
