"""A loopback OpenAI-compatible chat-completions server for the tests and `ragpipe bench llm-calls`, scripted per use.

The test supplies ``route``: it gets each recorded request and returns the reply, as a
``Reply`` (status, raw body, headers, delay, hang, usage …), a ``str`` (the message
content) or a ``dict``/``list`` (sent as JSON content). ``reject_response_format`` makes
the server refuse (``reject_status``, 400 by default) requests carrying
``response_format`` (or only the ``json_schema`` type, like llama-cpp-python, which
answers 500), like servers without structured output; ``latency`` delays every reply (the benchmark's 100 ms).
Every request is recorded in ``requests``, so a test can count what reached the server.

Failures to script: malformed JSON or out-of-range scores (as content), ``Reply(status=
429, headers={"Retry-After": "1"})``, ``Reply(status=500)``, ``Reply(hang=True)`` (no
reply until the server stops), and ``script(...)`` to answer the n-th request with the
n-th reply.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Reply:
    content: str | None = None
    status: int = 200
    raw: str | None = None  # sent verbatim as the body, instead of a chat-completion envelope
    delay: float = 0.0
    usage: tuple[int, int] = (11, 7)  # prompt_tokens, completion_tokens
    finish_reason: str = "stop"
    headers: dict[str, str] = field(default_factory=dict)
    hang: bool = False  # never reply (until the server stops): the client must time out


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]
    body: dict

    @property
    def messages(self) -> list[dict]:
        return self.body.get("messages", [])

    @property
    def prompt(self) -> str:
        """The first user message: the rendered prompt."""
        return next(m["content"] for m in self.messages if m["role"] == "user")

    @property
    def schema_name(self) -> str | None:
        """The prompt name a json_schema response_format carries (None otherwise)."""
        rf = self.body.get("response_format")
        return rf["json_schema"]["name"] if rf and rf.get("type") == "json_schema" else None

    @property
    def response_format_type(self) -> str | None:
        rf = self.body.get("response_format")
        return rf.get("type") if rf else None

    def fenced(self, label: str) -> str | None:
        """The material inside ``<<<BEGIN label>>> … <<<END label>>>`` in the prompt."""
        m = re.search(rf"^<<<BEGIN {re.escape(label)}>>>\n(.*?)\n<<<END {re.escape(label)}>>>$", self.prompt,
                      re.S | re.M)
        return m.group(1) if m else None

    def fenced_items(self, label: str) -> list[str]:
        items = []
        while (item := self.fenced(f"{label} {len(items) + 1}")) is not None:
            items.append(item)
        return items


Route = Callable[[Recorded], "Reply | str | dict | list"]


def script(*replies, then: "Route | None" = None) -> Route:
    """A route that answers the n-th request with the n-th reply; after the last one,
    with ``then(request)`` when given, else with the last reply again. A reply may be a
    callable of the request (e.g. ``fake_llm``)."""
    pending = list(replies)
    lock = threading.Lock()
    last = [replies[-1] if replies else None]

    def route(req: Recorded):
        with lock:
            reply = pending.pop(0) if pending else (then if then is not None else last[0])
        return reply(req) if callable(reply) else reply
    return route


@dataclass
class OpenAIServer:
    route: Route | None = None
    reject_response_format: bool | str = False  # True: every type; "json_schema": that type only
    reject_status: int = 400  # llama-cpp-python answers 500, naming response_format
    latency: float = 0.0  # seconds added to every reply
    requests: list[Recorded] = field(default_factory=list)
    most_in_flight: int = 0  # the most replies delayed at once: how concurrently the client asked

    def __post_init__(self):
        self._lock = threading.Lock()
        self._in_flight = 0
        self._stopping = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        assert self._httpd is not None, "server not started"
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def start(self) -> "OpenAIServer":
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as real servers

            def log_message(self, *args):  # keep test output quiet
                pass

            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                try:
                    body = json.loads(raw)
                except ValueError:
                    return self._send(400, {"error": {"message": "request body is not JSON"}})
                recorded = Recorded(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                with server._lock:
                    server.requests.append(recorded)
                if self.path.partition("?")[0] != "/v1/chat/completions":
                    return self._send(404, {"error": {"message": f"no such path {self.path}"}})
                rf = body.get("response_format")
                if rf and (server.reject_response_format is True or server.reject_response_format == rf.get("type")):
                    return self._send(server.reject_status, {"error": {
                        "message": f"response_format type {rf.get('type')!r} is not supported",
                        "type": "invalid_request_error"}})
                if server.route is None:
                    return self._send(500, {"error": {"message": "no route scripted"}})
                try:
                    reply = server.route(recorded)
                except Exception as exc:  # a bug in the test's route shows up as a 500
                    return self._send(500, {"error": {"message": f"route failed: {exc!r}"}})
                if not isinstance(reply, Reply):
                    content = reply if isinstance(reply, str) else json.dumps(reply, ensure_ascii=False)
                    reply = Reply(content=content)
                if reply.hang:
                    server._stopping.wait()
                    return
                if reply.delay or server.latency:
                    with server._lock:
                        server._in_flight += 1
                        server.most_in_flight = max(server.most_in_flight, server._in_flight)
                    time.sleep(reply.delay + server.latency)
                    with server._lock:
                        server._in_flight -= 1
                if reply.raw is not None:
                    return self._send(reply.status, reply.raw, reply.headers)
                if reply.status != 200:
                    return self._send(reply.status, {"error": {"message": reply.content or "error"}}, reply.headers)
                return self._send(200, {
                    "id": f"chatcmpl-{len(server.requests)}",
                    "object": "chat.completion",
                    "model": body.get("model"),
                    "choices": [{"index": 0, "finish_reason": reply.finish_reason,
                                 "message": {"role": "assistant", "content": reply.content}}],
                    "usage": {"prompt_tokens": reply.usage[0], "completion_tokens": reply.usage[1],
                              "total_tokens": sum(reply.usage)},
                })

            def _send(self, status: int, payload, headers: dict[str, str] | None = None):
                data = payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False)
                encoded = data.encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(encoded)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                try:
                    self.wfile.write(encoded)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout tests)
                    pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02},
                                        name="openai-test-server", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # release hanging handlers
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._thread.join(timeout=5)
            self._httpd = None

    def __enter__(self) -> "OpenAIServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def count(self) -> int:
        """Requests that reached the server so far."""
        with self._lock:
            return len(self.requests)

    def reset(self) -> None:
        with self._lock:
            self.requests.clear()

    def calls(self, schema_or_prompt: str | None = None) -> list[Recorded]:
        """Requests so far, optionally only those whose response_format names this prompt."""
        with self._lock:
            return [r for r in self.requests if schema_or_prompt is None or r.schema_name == schema_or_prompt]
