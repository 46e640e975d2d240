"""A loopback OpenAI-compatible chat-completions server for the tests, scripted per test.

The test supplies ``route``: it gets each recorded request and returns the reply, as a
``Reply`` (status, raw body, delay, usage …), a ``str`` (the message content) or a
``dict``/``list`` (sent as JSON content). ``reject_response_format`` makes the server
answer HTTP 400 to any request carrying ``response_format``, like servers without
structured output. Every request is recorded in ``requests``.
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
        rf = self.body.get("response_format")
        return rf["json_schema"]["name"] if rf else None

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


@dataclass
class OpenAIServer:
    route: Route | None = None
    reject_response_format: bool = False
    requests: list[Recorded] = field(default_factory=list)

    def __post_init__(self):
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        assert self._httpd is not None, "server not started"
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def start(self) -> "OpenAIServer":
        server = self

        class Handler(BaseHTTPRequestHandler):
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
                if self.path != "/v1/chat/completions":
                    return self._send(404, {"error": {"message": f"no such path {self.path}"}})
                if server.reject_response_format and "response_format" in body:
                    return self._send(400, {"error": {"message": "response_format is not supported",
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
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.raw is not None:
                    return self._send(reply.status, reply.raw)
                if reply.status != 200:
                    return self._send(reply.status, {"error": {"message": reply.content or "error"}})
                return self._send(200, {
                    "id": f"chatcmpl-{len(server.requests)}",
                    "object": "chat.completion",
                    "model": body.get("model"),
                    "choices": [{"index": 0, "finish_reason": reply.finish_reason,
                                 "message": {"role": "assistant", "content": reply.content}}],
                    "usage": {"prompt_tokens": reply.usage[0], "completion_tokens": reply.usage[1],
                              "total_tokens": sum(reply.usage)},
                })

            def _send(self, status: int, payload):
                data = payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False)
                encoded = data.encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(encoded)))
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
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._thread.join(timeout=5)
            self._httpd = None

    def __enter__(self) -> "OpenAIServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def calls(self, schema_or_prompt: str | None = None) -> list[Recorded]:
        """Requests so far, optionally only those whose response_format names this prompt."""
        with self._lock:
            return [r for r in self.requests if schema_or_prompt is None or r.schema_name == schema_or_prompt]
