"""The HTTP transport the judge client and the HTTP bots share: a JSON POST under a
concurrency limit and a rate limit (aiolimiter), each request bounded by a total timeout
(connect, send and every read together: a server that drips its reply a byte at a time
cannot stretch it), transient failures (timeouts, connection errors, 429, 5xx, and
whatever the caller's ``accept`` calls transient) retried with exponential backoff and
jitter, honouring Retry-After (tenacity), and everything (attempts and waits) under one
overall deadline per call, so that retries × timeout cannot add up to hours.

``LoopThread`` runs the asynchronous transport for synchronous callers (the metrics and
the bots are synchronous): an event loop of its own in a daemon thread."""

from __future__ import annotations

import asyncio
import email.utils
import logging
import random
import threading
import time
import zlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import httpx
from aiolimiter import AsyncLimiter
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception_type, stop_after_attempt, wait_exponential

log = logging.getLogger(__name__)
T = TypeVar("T")
# The encodings a reply may come in (what the client asks for), and zlib's window bits for each.
WBITS = {"identity": None, "gzip": zlib.MAX_WBITS | 16, "x-gzip": zlib.MAX_WBITS | 16, "deflate": zlib.MAX_WBITS}
ACCEPT_ENCODING = "gzip, deflate"
DECODE_STEP = 1 << 16  # bytes one decompression step may yield
# A reply's body, decompressed, at most: a bot's answer and contexts within the input limits
# (limits.max_answer_chars, max_contexts × max_context_chars) or a judge's verdict fit many
# times over; past it the request fails, as no retry would get a smaller reply.
MAX_REPLY_BYTES = 16_000_000


class RequestFailed(Exception):
    """A request that got no usable reply. ``cause`` is a short label (``timeout``,
    ``connection``, ``HTTP 500`` …), ``detail`` says why, ``kind`` what failed: ``http``
    (not worth retrying), ``transport`` (transient, after the last retry), ``deadline``
    (the call's overall deadline passed) or ``protocol`` (a reply of the wrong shape)."""

    def __init__(self, cause: str, detail: str, kind: str = "http", retry_after: float | None = None):
        self.cause, self.detail, self.kind, self.retry_after = cause, detail, kind, retry_after
        super().__init__(detail)


class Transient(RequestFailed):
    """A failure worth asking again (timeouts, connection errors, 429, 5xx, a reply cut off)."""

    def __init__(self, cause: str, detail: str, retry_after: float | None = None):
        super().__init__(cause, detail, "transport", retry_after)


def retry_after_seconds(headers: httpx.Headers) -> float | None:
    """Seconds the server asks to wait: ``retry-after-ms`` (OpenAI), or ``Retry-After``
    as seconds or an HTTP date; None when absent or unreadable."""
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            return max(0.0, float(ms) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def check_status(response: httpx.Response, url: str, redact: Callable[[str], str] = str) -> None:
    """Raise for an HTTP error: 429 and 5xx are transient (with the server's Retry-After),
    any other 4xx is not. The body is redacted before it is cut: a cut key leaves no prefix."""
    status = response.status_code
    if status < 400:
        return
    problem = f"HTTP {status} from {url}: {' '.join(redact(response.text).split())[:300]}"
    if status == 429 or status >= 500:
        raise Transient(f"HTTP {status}", problem, retry_after_seconds(response.headers))
    raise RequestFailed(f"HTTP {status}", problem)


class Budget:
    """The overall deadline of one call, counted from its first request (waiting for a
    free slot does not eat it)."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.started: float | None = None

    def start(self) -> None:
        if self.started is None:
            self.started = time.monotonic()

    def remaining(self) -> float:
        return self.seconds if self.started is None else self.seconds - (time.monotonic() - self.started)


@dataclass(frozen=True)
class RetryPolicy:
    timeout: float  # seconds for one request, all of it
    deadline: float  # seconds for one call: every attempt and every wait
    max_retries: int
    backoff_base: float  # seconds before the first retry; doubles each retry
    backoff_max: float  # seconds between retries at most (Retry-After aside)


class Transport:
    """POSTs JSON within the limits and the policy (see the module docstring). Use it from
    one event loop. ``on_request`` and ``on_retry`` are called once per request sent and
    per retry (the callers' counters)."""

    def __init__(self, policy: RetryPolicy, headers: dict[str, str], concurrency: int,
                 requests_per_minute: int | None = None, rate_period: float = 60.0,
                 on_request: Callable[[], None] = lambda: None, on_retry: Callable[[], None] = lambda: None,
                 max_reply_bytes: int = MAX_REPLY_BYTES):
        self.policy, self.max_reply_bytes = policy, max_reply_bytes
        self._http = httpx.AsyncClient(headers={"Accept-Encoding": ACCEPT_ENCODING, **headers},
                                       timeout=policy.timeout,
                                       limits=httpx.Limits(max_connections=concurrency,
                                                           max_keepalive_connections=concurrency))
        self._slots = asyncio.Semaphore(concurrency)
        # a leaky bucket: bursts of up to the limit, then the limit per period on average
        self._limiter = AsyncLimiter(requests_per_minute, rate_period) if requests_per_minute else None
        self._on_request, self._on_retry = on_request, on_retry
        self._exponential = wait_exponential(multiplier=policy.backoff_base, max=policy.backoff_max)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def post(self, url: str, body: Any, accept: Callable[[httpx.Response], T], budget: Budget,
                   before_send: Callable[[], None] | None = None) -> T:
        """``accept(response)`` of the first request that gets a usable reply. ``accept``
        sees every response; it raises ``Transient`` for a reply worth asking again and
        anything else to stop (``check_status`` sorts HTTP errors). ``before_send`` runs
        when a slot is free, just before sending, and may raise to send nothing."""
        policy = self.policy

        def wait(state: RetryCallState) -> float:
            hint = state.outcome.exception().retry_after
            if hint is not None:
                return hint + random.uniform(0, min(1.0, 0.1 * hint))
            delay = self._exponential(state)
            return delay / 2 + random.uniform(0, delay / 2)  # "equal jitter"

        def no_time_left(state: RetryCallState) -> bool:
            return state.upcoming_sleep >= budget.remaining()

        def give_up(state: RetryCallState) -> T:
            exc: RequestFailed = state.outcome.exception()
            attempts = state.attempt_number
            tried = f"{attempts} attempt{'s' if attempts > 1 else ''}"
            if attempts > policy.max_retries:
                raise RequestFailed(exc.cause, f"{exc.detail} (gave up after {tried})", "transport")
            raise RequestFailed(exc.cause, f"{exc.detail}; the deadline of {policy.deadline:g}s leaves no time for "
                                           f"a retry in {state.upcoming_sleep:.1f}s (after {tried})", "deadline")

        def before_sleep(state: RetryCallState) -> None:
            log.info("request failed (%s); retry %d/%d in %.2fs", state.outcome.exception().cause,
                     state.attempt_number, policy.max_retries, state.upcoming_sleep)
            self._on_retry()

        retrying = AsyncRetrying(stop=stop_after_attempt(policy.max_retries + 1) | no_time_left, wait=wait,
                                 retry=retry_if_exception_type(Transient), before_sleep=before_sleep,
                                 retry_error_callback=give_up)
        return await retrying(self._attempt, url, body, accept, budget, before_send)

    async def _attempt(self, url: str, body: Any, accept: Callable[[httpx.Response], T], budget: Budget,
                       before_send: Callable[[], None] | None) -> T:
        async with self._slots:
            if before_send is not None:
                before_send()
            if self._limiter is not None:
                await self._limiter.acquire()
            budget.start()
            remaining = budget.remaining()
            if remaining <= 0:
                raise RequestFailed("deadline", f"the deadline of {self.policy.deadline:g}s passed before the "
                                                f"request could be sent", "deadline")
            timeout = min(self.policy.timeout, remaining)
            self._on_request()
            try:
                async with asyncio.timeout(timeout):  # the whole request, not each read
                    async with self._http.stream("POST", url, json=body) as response:
                        await self._read_bounded(response, url)
            except (TimeoutError, httpx.TimeoutException):
                raise Transient("timeout", f"timed out after {timeout:.3g}s calling {url}") from None
            except httpx.HTTPError as exc:
                raise Transient("connection", f"cannot reach {url}: {type(exc).__name__}: {exc}") from None
        return accept(response)


    async def _read_bounded(self, response: httpx.Response, url: str) -> None:
        """Reads the body, decompressing it here rather than in httpx so that each step
        yields at most DECODE_STEP bytes, and stops at ``max_reply_bytes``: a gzip bomb or
        a huge body costs about that much memory, never more."""
        most = self.max_reply_bytes
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > most:
            raise RequestFailed("reply too large", f"the reply from {url} declares {int(declared):,} bytes, "
                                                   f"more than {most:,}: not read")
        encoding = response.headers.get("content-encoding", "identity").strip().lower()
        if encoding not in WBITS:
            raise RequestFailed("bad reply", f"the reply from {url} is encoded as {encoding!r}, which was not asked "
                                             f"for ({ACCEPT_ENCODING})")
        inflate = zlib.decompressobj(WBITS[encoding]) if WBITS[encoding] else None
        parts, size = [], 0
        async for raw in response.aiter_raw():
            while raw:
                if inflate is None:
                    part, raw = raw, b""
                else:
                    try:
                        part = inflate.decompress(raw, DECODE_STEP)
                    except zlib.error as exc:
                        raise Transient("bad reply", f"the reply from {url} is not valid {encoding}: {exc}") from None
                    raw = inflate.unconsumed_tail
                size += len(part)
                if size > most:
                    raise RequestFailed("reply too large", f"the reply from {url} is larger than {most:,} bytes"
                                                           f"{' (decompressed)' if inflate else ''}: not read")
                parts.append(part)
        response._content = b"".join(parts)  # what httpx's aread() sets: .json() and .text read it


class LoopThread:
    """An event loop in a daemon thread, started on first use, for synchronous callers."""

    def __init__(self, name: str):
        self.name = name
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._closed = False

    def start(self) -> asyncio.AbstractEventLoop:
        if self.loop is not None:
            return self.loop
        with self._lock:
            if self._closed:
                raise RuntimeError(f"{self.name} is closed")
            if self.loop is None:
                loop = asyncio.new_event_loop()
                ready = threading.Event()

                def serve() -> None:
                    asyncio.set_event_loop(loop)
                    loop.call_soon(ready.set)
                    loop.run_forever()

                self.thread = threading.Thread(target=serve, name=self.name, daemon=True)
                self.thread.start()
                ready.wait()
                self.loop = loop
        return self.loop

    def run(self, coro: Awaitable[T]) -> T:
        """Run ``coro`` on the loop and wait for its result (not from the loop's own thread)."""
        loop = self.start()
        if threading.current_thread() is self.thread:
            raise RuntimeError(f"a blocking call from inside {self.name}'s own event loop; await it instead")
        return asyncio.run_coroutine_threadsafe(coro, loop).result()

    def close(self, last: Callable[[], Awaitable[Any]] | None = None) -> None:
        """Run ``last()`` on the loop (if it ever started), then stop it; idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        if self.loop is None:
            return
        if last is not None:
            try:
                asyncio.run_coroutine_threadsafe(last(), self.loop).result(timeout=10)
            except Exception:  # closing must not fail the caller
                pass
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()
