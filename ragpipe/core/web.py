"""What every ragpipe web app (the evaluation service, the labelling page, the report site)
puts in front of its routes: one ASGI middleware, ``Guard``, and the uvicorn settings they
are served with.

In order, a request is refused
- 400 when its Host header names no allowed host (a DNS-rebinding page reaches a loopback
  server under its own name; by default only loopback names are allowed);
- 403 when it is a write (not GET, HEAD or OPTIONS) from another site: its Origin names
  another host, or the browser says ``Sec-Fetch-Site: cross-site``/``same-site``;
- 415 when a write's body is not JSON: a page of another site can send ``text/plain`` or a
  form without asking first, but ``application/json`` makes the browser ask (CORS), and no
  ragpipe app answers yes;
- 413 when its body is over ``max_body_bytes``: by Content-Length before reading, else
  while it streams in;
- 408 when its body is not all in within ``body_seconds`` (a client declaring 100 kB and
  sending 1 byte no longer holds its connection).
The body read here is handed to the app as it came. A refusal is the service's JSON shape,
``{"errors": [{"field": …, "message": …}]}``.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Iterable
from urllib.parse import urlsplit

import anyio

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
# uvicorn: connections served at once (more get 503) and seconds an idle keep-alive connection is kept
UVICORN_LIMITS = {"limit_concurrency": 200, "timeout_keep_alive": 5}


def allowed_hosts(bind_host: str, extra: Iterable[str] = ()) -> tuple[str, ...]:
    """The loopback names, the address the server listens on (as the URL it prints names
    it, 0.0.0.0 too) and ``extra`` names (those clients use to reach it beyond loopback)."""
    return tuple(dict.fromkeys(h.lower().strip("[]") for h in (*LOOPBACK_NAMES, bind_host, *extra)))


def host_name(value: str) -> str:
    """``example.com:8766`` → ``example.com``, ``[::1]:8766`` → ``::1``."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:].partition("]")[0]
    try:  # a bare IPv6 address has colons but no port
        return str(ipaddress.IPv6Address(value))
    except ValueError:
        return value.rpartition(":")[0] if ":" in value else value


def refusal(status: int, field: str, message: str) -> tuple[int, bytes]:
    return status, json.dumps({"errors": [{"field": field, "message": message}]}).encode()


class Guard:
    """The checks of the module docstring, before the app sees the request."""

    def __init__(self, app, hosts: Iterable[str] = LOOPBACK_NAMES, max_body_bytes: int = 2_000_000,
                 body_seconds: float = 10.0):
        self.app, self.hosts = app, {h.lower().strip("[]") for h in hosts}
        self.max_body_bytes, self.body_seconds = max_body_bytes, body_seconds

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        problem = self.check(scope["method"], headers)
        if problem is None and scope["method"] not in SAFE_METHODS:
            problem, body = await self.read_body(headers, receive)
            if problem is None:
                receive = replay(body, receive)
        if problem is not None:
            status, content = problem
            await send({"type": "http.response.start", "status": status, "headers": [
                (b"content-type", b"application/json"), (b"content-length", str(len(content)).encode()),
                (b"connection", b"close")]})
            await send({"type": "http.response.body", "body": content})
            return
        await self.app(scope, receive, send)

    def check(self, method: str, headers: dict[str, str]) -> tuple[int, bytes] | None:
        host = host_name(headers.get("host", ""))
        if host not in self.hosts:
            return refusal(400, "Host", f"{host or '(none)'!r} is not a host this server answers to "
                                        f"({', '.join(sorted(self.hosts))}; the command's --allow-host adds one)")
        if method in SAFE_METHODS:
            return None
        origin = headers.get("origin")
        if origin is not None and (urlsplit(origin).netloc.lower() != headers["host"].strip().lower()):
            return refusal(403, "Origin", f"a write from another site ({origin}) is refused")
        if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
            return refusal(403, "Origin", "a write from another site is refused")
        if headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
            return refusal(415, "Content-Type", "send the body as application/json")
        return None

    async def read_body(self, headers: dict[str, str], receive) -> tuple[tuple[int, bytes] | None, bytes]:
        limit = self.max_body_bytes
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            return refusal(413, "body", f"{int(declared):,} bytes, more than the limit of {limit:,}"), b""
        chunks, size = [], 0
        with anyio.move_on_after(self.body_seconds):
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return refusal(400, "body", "the client went away"), b""
                size += len(message.get("body", b""))
                if size > limit:
                    return refusal(413, "body", f"more than the limit of {limit:,} bytes"), b""
                chunks.append(message.get("body", b""))
                if not message.get("more_body", False):
                    return None, b"".join(chunks)
        return refusal(408, "body", f"not received within {self.body_seconds:g} s"), b""


def replay(body: bytes, receive):
    """A ``receive`` that gives ``body`` once, then what the client sends (its disconnect)."""
    sent = False

    async def receive_again():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return receive_again
