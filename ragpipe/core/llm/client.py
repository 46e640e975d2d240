"""A client for OpenAI-compatible chat endpoints (OpenAI, Azure-style base URLs, vLLM,
Ollama's /v1, llama.cpp's server) that turns a typed prompt into a validated output model.

It is asynchronous inside (the shared ``Transport`` on an event loop of its own, in a
daemon thread) and offers synchronous entry points, because the metrics are synchronous:

- ``run(prompt, inputs, language)``: one item, blocking;
- ``run_many(items)``: many items concurrently, blocking, a result or an ``LLMError`` each;
- ``arun(...)``: the coroutine, from any event loop; ``run_coroutine(coro)`` runs a
  coroutine of the caller's (e.g. a pipeline of dependent calls) on the client's loop.

One item renders the prompt (system + user message) in the requested language, sends it
with its output schema and validates the reply (``structured.py``: the response_format
fallbacks and the one re-ask). Every chat completion goes through the on-disk cache
(``ragpipe.core.cache``, keyed by ``cache.request_key``; hits make no request) and the de-duplication of identical requests
in flight, then the transport (``ragpipe.core.transport``: concurrency and
requests-per-minute limits, a total timeout per request, retries with backoff honouring
Retry-After on 429, 5xx, timeouts and connection failures), all under an overall deadline
per item (``deadline``: counted from the item's first request, re-asks included). Other
HTTP errors are not retried. A caller with a time budget (``ragpipe.evaluate``) wraps its
work in ``time_limit(deadline)``: the calls made in that block, in that thread, give up
at the deadline (``LLMError`` of kind ``deadline``, ``TIME_BUDGET_SPENT``).

The API key is sent as a header only: it is not part of the cache key, the cache file,
the counters, a log line or an error message (a server that echoes it is redacted).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Awaitable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import asdict
from pathlib import Path
from typing import Any, TypeVar

import httpx
from pydantic import BaseModel

from ragpipe.core.cache import Cache
from ragpipe.core.llm.cache import request_key
from ragpipe.core.llm.prompt import Language, Prompt
from ragpipe.core.llm.settings import LLM, LLMError, LLMSettings, LLMStats, env_options, settings_from_env
from ragpipe.core.llm.structured import (FORMAT_TYPES, INSTRUCTIONS, JSON_OBJECT, JSON_SCHEMA, FormatLevel,
                                         Rejected, Reply, ask, format_level, rejects_response_format)
from ragpipe.core.secrets import Redactor, short_key_problem
from ragpipe.core.transport import Budget, LoopThread, RequestFailed, RetryPolicy, Transport, check_status

log = logging.getLogger(__name__)

I = TypeVar("I", bound=BaseModel)
O = TypeVar("O", bound=BaseModel)
T = TypeVar("T")

TIME_BUDGET_SPENT = "not measured within the time budget"
# A context variable, not a setting: the budget is the caller's (one answer in the service),
# while the client is shared by every caller.
_DEADLINE: ContextVar[float | None] = ContextVar("ragpipe_llm_deadline", default=None)


@contextmanager
def time_limit(deadline: float | None) -> Iterator[None]:
    """Judge calls made in this block (in this thread) end at ``deadline``
    (``time.monotonic()``); None: no limit."""
    token = _DEADLINE.set(deadline)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


async def _within(coro: Awaitable[T], seconds: float) -> T:
    try:
        return await asyncio.wait_for(coro, seconds)  # cancels the request in flight
    except TimeoutError:
        raise LLMError(TIME_BUDGET_SPENT, "deadline") from None


class LLMClient:
    """OpenAI-compatible chat client; see the module docstring.

    ``cache`` overrides the cache made from ``settings.cache_dir``. ``stats()`` returns a
    snapshot of the counters; ``prompt_tokens``, ``completion_tokens`` and ``requests``
    are kept as attributes for convenience."""

    RATE_PERIOD = 60.0  # seconds of the requests-per-minute window (tests shorten it)

    def __init__(self, settings: LLMSettings, cache: Cache | None = None):
        key = settings.api_key.get_secret_value() if settings.api_key is not None else ""
        if key and (problem := short_key_problem("RAGPIPE_LLM_API_KEY", key)):
            raise ValueError(problem)
        self.settings = settings
        self._redact = Redactor([key])  # the key, whole or any 8 characters of it (a cut body leaves a prefix)
        # Azure-style base URLs carry ?api-version=...: the path goes before the query.
        base, _, query = settings.base_url.partition("?")
        self.url = base.rstrip("/") + "/chat/completions" + (f"?{query}" if query else "")
        self.cache = cache if cache is not None else (Cache(Path(settings.cache_dir)) if settings.cache_dir
                                                      else None)
        self._owns_cache = cache is None and self.cache is not None
        self._capability_key = request_key({"model": settings.model, "messages": "capability:response_format"},
                                           settings.cache_namespace)
        level = JSON_SCHEMA if settings.structured_output else INSTRUCTIONS
        if level < INSTRUCTIONS and self.cache is not None:
            learnt = (self.cache.get(self._capability_key) or {}).get("level")
            if isinstance(learnt, int):
                level = max(level, min(learnt, INSTRUCTIONS))  # what a previous run learnt
        self._formats = FormatLevel(level, self._learn_rejection)
        self._stats = LLMStats()
        self._stats_lock = threading.Lock()
        headers = {"Accept": "application/json"}
        if key:
            headers[settings.api_key_header] = f"Bearer {key}" if settings.api_key_header == "Authorization" else key
        self._loop = LoopThread("ragpipe-llm-client")
        s = settings
        self._transport = Transport(
            RetryPolicy(s.timeout, s.deadline, s.max_retries, s.backoff_base, s.backoff_max), headers,
            s.concurrency, s.requests_per_minute, self.RATE_PERIOD,
            on_request=lambda: self._count(requests=1), on_retry=lambda: self._count(retries=1))
        self._inflight: dict[str, asyncio.Future] = {}

    # ---- lifecycle ---------------------------------------------------------------
    def _ensure_loop(self) -> asyncio.AbstractEventLoop:
        return self._loop.start()

    def close(self) -> None:
        self._loop.close(self._transport.aclose)
        if self._owns_cache:
            self.cache.close()
            self._owns_cache = False

    def __enter__(self) -> "LLMClient":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def uses_response_format(self) -> bool:
        """False once the server has rejected every response_format (or when disabled)."""
        return self._formats.level < INSTRUCTIONS

    @property
    def response_format_type(self) -> str | None:
        """``json_schema``, ``json_object`` (with the schema, as llama-cpp-python takes
        it) or None (the schema spelled out in the instructions)."""
        return FORMAT_TYPES[self._formats.level]

    # ---- counters ------------------------------------------------------------------
    def stats(self) -> LLMStats:
        with self._stats_lock:
            return LLMStats(**asdict(self._stats))

    def _count(self, **deltas: float) -> None:
        with self._stats_lock:
            for name, delta in deltas.items():
                setattr(self._stats, name, getattr(self._stats, name) + delta)

    @property
    def prompt_tokens(self) -> int:
        return self.stats().prompt_tokens

    @property
    def completion_tokens(self) -> int:
        return self.stats().completion_tokens

    @property
    def requests(self) -> int:
        return self.stats().requests

    # ---- synchronous entry points ----------------------------------------------------
    def run_coroutine(self, coro: Awaitable[T]) -> T:
        """Run a coroutine on the client's event loop and wait for its result. Coroutines
        run this way may await ``arun`` as often as they like, concurrently. Within
        ``time_limit`` it ends at the deadline."""
        self._ensure_loop()
        deadline = _DEADLINE.get()
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                coro.close()
                raise LLMError(TIME_BUDGET_SPENT, "deadline")
            coro = _within(coro, left)
        return self._loop.run(coro)

    def run(self, prompt: Prompt[I, O], inputs: I, language: Language) -> O:
        """The prompt's validated output; ``LLMError`` (reason prefixed with the prompt id)
        when the call fails or the output is still invalid after one re-ask."""
        return self.run_coroutine(self.arun(prompt, inputs, language))

    def run_many(self, items: Iterable[tuple[Prompt, BaseModel, Language]]) -> list[BaseModel | LLMError]:
        """Every item concurrently (within the concurrency and rate limits), in order: the
        validated output, or the ``LLMError`` that says why there is none."""
        items = list(items)

        async def gather() -> list:
            return await asyncio.gather(*(self.arun(p, i, lang) for p, i, lang in items), return_exceptions=True)

        results = self.run_coroutine(gather())
        for r in results:
            if isinstance(r, BaseException) and not isinstance(r, LLMError):
                raise r
        return results

    # ---- the typed call ----------------------------------------------------------
    async def arun(self, prompt: Prompt[I, O], inputs: I, language: Language) -> O:
        """``run`` as a coroutine; callable from any event loop."""
        loop = self._ensure_loop()
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            return await self._run_item(prompt, inputs, language)
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(
            self._run_item(prompt, inputs, language), loop))

    async def _run_item(self, prompt: Prompt[I, O], inputs: I, language: Language) -> O:
        budget = Budget(self.settings.deadline)
        try:
            return await ask(prompt, inputs, language, lambda messages, rf: self._chat(messages, rf, budget),
                             self._formats, self.settings.max_tokens, on_reask=lambda: self._count(reasks=1))
        except LLMError as exc:
            self._count(failures=1)
            raise LLMError(f"{prompt.id}: {self._redact(exc.reason)}", exc.kind) from None
        except RequestFailed as exc:
            self._count(failures=1)
            raise LLMError(f"{prompt.id}: {self._redact(exc.detail)}", exc.kind) from None

    def _learn_rejection(self, level: int, keys: list[str]) -> None:
        """A request at ``level`` worked where the ones before it (``keys``) were rejected:
        remember it (also for the next run)."""
        if self.cache is not None:
            for key in keys:
                self.cache.put(key, {"rejected": True})
            if level > self._formats.level:
                self.cache.put(self._capability_key, {"level": level})
        if level > self._formats.level:
            log.warning("%s rejected response_format; using %s from now on", self.url,
                        "json_object with the schema" if level == JSON_OBJECT else "JSON instructions")

    async def _chat(self, messages: list[dict], response_format: dict | None, budget: Budget) -> Reply:
        """One chat completion: from the cache, from an identical request in flight, or sent."""
        payload: dict[str, Any] = {
            "model": self.settings.model,
            "messages": messages,
            "temperature": self.settings.temperature,
            "max_tokens": self.settings.max_tokens,
        }
        if self.settings.seed is not None:
            payload["seed"] = self.settings.seed
        if response_format is not None:
            payload["response_format"] = response_format
        key = request_key(payload, self.settings.cache_namespace)
        self._count(calls=1)
        value = self.cache.get(key) if self.cache is not None else None
        if value is None and key in self._inflight:
            try:
                value = await asyncio.shield(self._inflight[key])
            except Rejected:
                raise Rejected(key) from None
        elif value is None:
            future = asyncio.get_running_loop().create_future()
            self._inflight[key] = future
            try:
                value = await self._fetch(payload, key, budget)
            except BaseException as exc:
                if isinstance(exc, asyncio.CancelledError):
                    future.cancel()
                else:
                    future.set_exception(exc)
                    future.exception()  # a failure nobody else awaits is not "never retrieved"
                raise
            else:
                future.set_result(value)
            finally:
                self._inflight.pop(key, None)
            self._count(cache_misses=1)
            return Reply(value["content"], value.get("finish_reason"))
        if value.get("rejected"):
            self._count(cache_hits=1)
            raise Rejected(key)
        usage = value.get("usage") or {}
        self._count(cache_hits=1, cached_prompt_tokens=int(usage.get("prompt_tokens") or 0),
                    cached_completion_tokens=int(usage.get("completion_tokens") or 0))
        return Reply(value["content"], value.get("finish_reason"))

    async def _fetch(self, payload: dict, key: str, budget: Budget) -> dict:
        """Send the request, read the reply, account for its tokens and cache it."""
        has_format = "response_format" in payload

        def not_learnt_meanwhile() -> None:
            if format_level(payload) < self._formats.level:
                raise Rejected(key)  # learnt while this request waited: do not send it

        def accept(response: httpx.Response) -> dict:
            if has_format and rejects_response_format(response):
                raise Rejected(key)
            check_status(response, self.url, self._redact)
            try:
                return response.json()
            except ValueError:
                raise RequestFailed("protocol", f"response from {self.url} is not JSON "
                                                f"(HTTP {response.status_code})", "protocol") from None

        body = await self._transport.post(self.url, payload, accept, budget, before_send=not_learnt_meanwhile)
        try:
            choice = body["choices"][0]
            message = choice["message"]
            if not isinstance(message, dict):
                raise TypeError
        except (KeyError, IndexError, TypeError):
            raise RequestFailed("protocol", f"malformed response from {self.url}: no choices[0].message",
                                "protocol") from None
        usage = body.get("usage") or {}
        prompt_tokens = int(usage.get("prompt_tokens") or 0)
        completion_tokens = int(usage.get("completion_tokens") or 0)
        cost = (prompt_tokens * self.settings.price_per_1k_prompt_tokens
                + completion_tokens * self.settings.price_per_1k_completion_tokens) / 1000
        self._count(prompt_tokens=prompt_tokens, completion_tokens=completion_tokens, cost=cost)
        text = message.get("content") or ""
        if not text and message.get("refusal"):
            text = f"(refusal) {message['refusal']}"
        value = {"content": self._redact(text), "finish_reason": choice.get("finish_reason"),
                 "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens}}
        if self.cache is not None:
            self.cache.put(key, value)
        return value


def run_sync(llm: Any, coro_factory, *args) -> Any:
    """Run ``coro_factory(*args)`` on ``llm``'s loop when it has one (``LLMClient``), else
    on a fresh event loop in this thread (for plain ``LLM`` implementations)."""
    if hasattr(llm, "run_coroutine"):
        return llm.run_coroutine(coro_factory(*args))
    return asyncio.run(coro_factory(*args))


async def arun_any(llm: Any, prompt: Prompt[I, O], inputs: I, language: Language) -> O:
    """Await ``llm.arun`` when it has one, else run its blocking ``run`` in a worker thread."""
    if hasattr(llm, "arun"):
        return await llm.arun(prompt, inputs, language)
    return await asyncio.to_thread(llm.run, prompt, inputs, language)


# The settings names are re-exported: callers configure the client from here.
__all__ = ["LLM", "LLMClient", "LLMError", "LLMSettings", "LLMStats", "TIME_BUDGET_SPENT", "arun_any", "run_sync",
           "env_options", "settings_from_env", "time_limit"]
