"""A loopback RAG bot over HTTP for the tests and `ragpipe bench faults`: it answers
``POST /ask`` (``{"question", "question_id", "dataset"}``) with the reference bot (BM25,
top 3) over the dataset's corpus, as ``{"answer", "contexts", "ids"}``, and injects
faults into a share of the requests: HTTP 500, a reply held past the client's timeout,
truncated JSON, garbage bytes. A further share of the successful replies is slow but
in time. Whether a request fails is drawn from (seed, question id, how many times that
question was asked before), so a run is reproducible and a retry gets a fresh draw.

With ``api_key`` set, a request without ``Authorization: Bearer <key>`` gets 401. Its 500
replies echo the request's headers, as careless servers do, so that the tests see
that ragpipe redacts what a server quotes back.

It counts per question: requests, faults injected and answers served (``answered``), so
a test can tell a repeat call for a question that already had its answer. ``suffix`` is
appended to every answer: a test changes it to change the bot behind an unchanged config.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx

FAULTS = ("http_500", "timeout", "truncated_json", "garbage")


@dataclass
class BotServer:
    datasets_dir: Path
    api_key: str | None = None
    failure_rate: float = 0.2
    slow_rate: float = 0.1
    seed: int = 0
    hold: float = 1.0  # seconds a "timeout" fault holds its reply: longer than the client waits
    slow: float = 0.2  # seconds a slow reply takes: shorter than the client waits
    suffix: str = ""  # appended to every answer
    requests: Counter = field(default_factory=Counter)  # question id -> requests
    answered: Counter = field(default_factory=Counter)  # question id -> answers served
    injected: Counter = field(default_factory=Counter)  # fault -> times
    rejected: int = 0  # requests without the key
    in_flight: int = 0  # requests being answered now
    most_in_flight: int = 0  # the most at any one time

    def __post_init__(self):
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._bots: dict = {}
        self._httpd: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/ask"

    def _bot(self, dataset: str):
        from ragpipe.core.inputs.bot_config import BotConfig
        from ragpipe.core.inputs.bots import ReferenceBot
        from ragpipe.core.inputs.corpus import load_corpus

        with self._lock:
            if dataset not in self._bots:
                config = BotConfig(name="server", version="bm25", kind="reference",
                                   retrieval={"method": "bm25", "top_k": 3})
                self._bots[dataset] = ReferenceBot(config, load_corpus(self.datasets_dir / dataset), None)
            return self._bots[dataset]

    def fault_of(self, question_id: str, attempt: int) -> str | None:
        draw = random.Random(f"{self.seed}|{question_id}|{attempt}")
        if draw.random() < self.failure_rate:
            return draw.choice(FAULTS)
        return "slow" if draw.random() < self.slow_rate else None

    def start(self) -> "BotServer":
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                with server._lock:
                    server.in_flight += 1
                    server.most_in_flight = max(server.most_in_flight, server.in_flight)
                try:
                    self._answer()
                finally:
                    with server._lock:
                        server.in_flight -= 1

            def _answer(self):
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                auth = self.headers.get("Authorization", "")
                if server.api_key and auth != f"Bearer {server.api_key}":
                    with server._lock:
                        server.rejected += 1
                    return self._send(401, b'{"error": "missing or wrong API key"}')
                try:
                    body = json.loads(raw)
                    qid, question, dataset = body["question_id"], body["question"], body["dataset"]
                except (ValueError, KeyError, TypeError):
                    return self._send(400, b'{"error": "expected question_id, question, dataset"}')
                with server._lock:
                    attempt = server.requests[qid]
                    server.requests[qid] += 1
                    fault = server.fault_of(qid, attempt)
                    if fault in FAULTS:
                        server.injected[fault] += 1
                if fault == "http_500":
                    return self._send(500, json.dumps({"error": f"internal error, request had {auth}, headers "
                                                                f"{dict(self.headers)}"}).encode())
                if fault == "timeout":
                    server._stopping.wait(server.hold)
                    return self._send(504, b'{"error": "late"}')
                if fault == "slow":
                    time.sleep(server.slow)
                answer = server._bot(dataset).ask(qid, question)
                reply = json.dumps({"answer": answer.answer + server.suffix, "contexts": answer.retrieved_contexts,
                                    "ids": answer.retrieved_ids}, ensure_ascii=False).encode()
                if fault == "truncated_json":
                    return self._send(200, reply[: len(reply) // 2])
                if fault == "garbage":
                    return self._send(200, b"\x00\xff<html>Bad Gateway</html>")
                with server._lock:
                    server.answered[qid] += 1
                return self._send(200, reply)

            def _send(self, status: int, data: bytes):
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                try:
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up on a held reply
                    pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> "BotServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def total(self) -> int:
        with self._lock:
            return sum(self.requests.values())

    def bot_yaml(self, name: str = "httpbot", version: str = "v1", timeout: float = 0.5, **extra) -> str:
        """A bot config for this server (``api_key_env: RAGPIPE_BOT_REFBOT_KEY`` when it wants a key)."""
        http = {"endpoint": self.url, "request": {"question": "{question}", "question_id": "{question_id}",
                                                   "dataset": "{dataset}"},
                "response": {"answer": "answer", "contexts": "contexts", "context_ids": "ids"},
                "timeout": timeout, "max_retries": 4, "backoff_base": 0.05, "concurrency": 4,
                **({"api_key_env": "RAGPIPE_BOT_REFBOT_KEY"} if self.api_key else {})}
        return json.dumps({"name": name, "version": version, "kind": "http", "http": http, **extra}, indent=2)


def answer_with(bot, handler) -> None:
    """Send an HttpBot's requests to ``handler(request) -> httpx.Response`` instead of the
    network: its answer (the body a server would stream) goes through the bot's transport."""
    def handle(request: httpx.Request) -> httpx.Response:
        reply = handler(request)
        return httpx.Response(reply.status_code, headers=reply.headers, stream=httpx.ByteStream(reply.content))
    bot._transport._http = httpx.AsyncClient(transport=httpx.MockTransport(handle),
                                             headers=bot._transport._http.headers)
