"""A client for OpenAI-compatible chat endpoints (OpenAI, Azure-style base URLs, vLLM,
Ollama's /v1, llama.cpp's server) that turns a typed prompt into a validated output model.

It is asynchronous inside (httpx.AsyncClient on an event loop of its own, in a daemon
thread) and offers synchronous entry points, because the metrics are synchronous:

- ``run(prompt, inputs, language)``: one item, blocking;
- ``run_many(items)``: many items concurrently, blocking, a result or an ``LLMError`` each;
- ``arun(...)``: the coroutine, from any event loop; ``run_coroutine(coro)`` runs a
  coroutine of the caller's (e.g. a pipeline of dependent calls) on the client's loop.

One item:

1. renders the prompt (system + user message) in the requested language;
2. POSTs ``{base_url}/chat/completions`` with ``response_format: json_schema`` built from
   the output model. A server that rejects it (HTTP 400/422, or an error naming
   response_format) gets ``{"type": "json_object", "schema": ...}`` instead (llama-cpp-
   python's form, which it enforces with a grammar), and one that rejects that too gets
   the request without response_format, the schema spelled out in the instructions, and
   the first JSON value is extracted from the reply text. Once a fallback has worked the
   client starts there (and remembers it in the cache, so a re-run starts there too);
3. validates the JSON with the output model and the prompt's own check. Invalid output
   is re-asked once, with the validation error appended to the conversation; a second
   invalid output raises ``LLMError``. A score is never clamped, rounded or defaulted.

Every request goes through ``_send``: the content-addressed cache (``cache.py``; hits make
no request), de-duplication of identical requests in flight, the concurrency limit, the
requests-per-minute limit, and retries with exponential backoff and jitter on HTTP 429,
5xx, timeouts and connection failures, honouring Retry-After, all under an overall
deadline per item (counted from the item's first request, so waiting in the queue for
a free slot does not eat it). Other HTTP errors are not retried.

The API key is sent as a Bearer header only: it is not part of the cache key, the cache
file, the counters, a log line or an error message (a server that echoes it is redacted).
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import logging
import os
import random
import threading
import time
from collections import deque
from collections.abc import Awaitable, Iterable
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any, Protocol, TypeVar

import httpx
from pydantic import BaseModel, ConfigDict, Field, SecretStr

from ragpipe.core.llm.cache import LLMCache, request_key
from ragpipe.core.llm.prompts.base import FORMAT_INSTRUCTION, REASK, Language, Prompt, describe_error
from ragpipe.core.secrets import Redactor

log = logging.getLogger(__name__)

I = TypeVar("I", bound=BaseModel)
O = TypeVar("O", bound=BaseModel)
T = TypeVar("T")


# How the output schema reaches the server, from the best to the last resort.
JSON_SCHEMA, JSON_OBJECT, INSTRUCTIONS = 0, 1, 2


class LLMError(RuntimeError):
    """An LLM call that produced no usable output; ``reason`` says why (never a secret).

    ``kind`` tells callers what failed: ``invalid_output`` (the model answered, but not
    validly, even after the re-ask), ``http`` (a non-retryable HTTP error), ``transport``
    (timeouts, connection failures, 429 or 5xx after the last retry), ``deadline`` (the
    item's overall deadline passed) or ``protocol`` (a reply that is not a chat completion)."""

    def __init__(self, reason: str, kind: str = "error"):
        self.reason = reason
        self.kind = kind
        super().__init__(reason)


class LLMSettings(BaseModel):
    """Where and how to call the model. ``api_key`` is a value the caller reads from an
    environment variable; it is kept as a SecretStr so that it does not show in reprs."""

    model_config = ConfigDict(frozen=True)

    base_url: str = Field(description="e.g. https://api.openai.com/v1 or http://localhost:11434/v1")
    model: str
    api_key: SecretStr | None = None
    api_key_header: str = Field("Authorization", description='"Authorization" sends "Bearer <key>"; another name '
                                                            '(Azure: "api-key") sends the key as that header')
    temperature: float = 0.0
    seed: int | None = 0
    max_tokens: int = Field(2048, ge=1)
    timeout: float = Field(60.0, gt=0, description="seconds, for one request (connect, read and write)")
    structured_output: bool = Field(True, description="try response_format json_schema first")
    concurrency: int = Field(8, ge=1, description="requests in flight at most")
    requests_per_minute: int | None = Field(None, ge=1, description="requests started in any 60 s, at most")
    max_retries: int = Field(5, ge=0, description="retries of one request on 429, 5xx, timeouts, connection errors")
    backoff_base: float = Field(1.0, gt=0, description="seconds before the first retry; doubles each retry")
    backoff_max: float = Field(30.0, gt=0, description="seconds between retries at most (Retry-After aside)")
    deadline: float = Field(300.0, gt=0, description="seconds per item for every attempt, wait and re-ask")
    cache_dir: str | None = Field(None, description="directory of the response cache; None: no cache")
    cache_namespace: str = Field("", description="separates caches of servers that report the same model name")
    price_per_1k_prompt_tokens: float = Field(0.0, ge=0)
    price_per_1k_completion_tokens: float = Field(0.0, ge=0)


# Optional RAGPIPE_LLM_<NAME> variables: the LLMSettings field each sets, and its type.
ENV_OPTIONS: dict[str, tuple[str, type]] = {
    "CONCURRENCY": ("concurrency", int), "REQUESTS_PER_MINUTE": ("requests_per_minute", int),
    "MAX_TOKENS": ("max_tokens", int), "TIMEOUT": ("timeout", float), "DEADLINE": ("deadline", float),
    "SEED": ("seed", int),
    "PRICE_PROMPT": ("price_per_1k_prompt_tokens", float), "PRICE_COMPLETION": ("price_per_1k_completion_tokens", float),
    "API_KEY_HEADER": ("api_key_header", str),
}


def env_options(environ: "dict[str, str] | None" = None) -> dict[str, Any]:
    """The optional settings given as RAGPIPE_LLM_* variables (see ``ENV_OPTIONS``)."""
    env = os.environ if environ is None else environ
    out: dict[str, Any] = {}
    for name, (field_name, cast) in ENV_OPTIONS.items():
        value = env.get(f"RAGPIPE_LLM_{name}")
        if value:
            try:
                out[field_name] = cast(value)
            except ValueError:
                raise ValueError(f"RAGPIPE_LLM_{name}: expected {cast.__name__}, got {value!r}") from None
    return out


def settings_from_env(environ: "dict[str, str] | None" = None, **overrides: Any) -> LLMSettings | None:
    """Settings from ``RAGPIPE_LLM_BASE_URL``, ``_MODEL``, ``_API_KEY`` and the optional
    ``ENV_OPTIONS`` (the variables the Dagster LLMResource reads), or None when no base URL
    is set: the offline mode."""
    env = os.environ if environ is None else environ
    base_url = env.get("RAGPIPE_LLM_BASE_URL", "").strip()
    if not base_url:
        return None
    return LLMSettings(base_url=base_url, model=env.get("RAGPIPE_LLM_MODEL", ""),
                       api_key=env.get("RAGPIPE_LLM_API_KEY") or None, **{**env_options(env), **overrides})


class LLM(Protocol):
    """What the evaluation tasks need from a model: a typed prompt in, its output out."""

    def run(self, prompt: Prompt[I, O], inputs: I, language: Language) -> O: ...


@dataclass
class LLMStats:
    """Counters over a client's life; subtract two snapshots for one materialization.

    ``calls`` counts chat completions asked for (re-asks included), each either a cache
    hit or a miss; ``requests`` counts HTTP requests sent (retries included). Tokens are
    what the server reported for the requests sent; ``cached_*`` what the hits would have
    cost again. ``cost`` is priced with the settings' prices per 1k tokens."""

    calls: int = 0
    cache_hits: int = 0
    cache_misses: int = 0
    requests: int = 0
    retries: int = 0
    reasks: int = 0
    failures: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_prompt_tokens: int = 0
    cached_completion_tokens: int = 0
    cost: float = 0.0

    def __sub__(self, other: "LLMStats") -> "LLMStats":
        return LLMStats(**{f.name: getattr(self, f.name) - getattr(other, f.name) for f in fields(self)})

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def as_metadata(self, prefix: str = "llm_") -> dict[str, int | float]:
        """Flat numbers for Dagster output metadata."""
        out: dict[str, int | float] = {f"{prefix}{k}": v for k, v in asdict(self).items()}
        out[f"{prefix}cost"] = round(self.cost, 6)
        out[f"{prefix}total_tokens"] = self.total_tokens
        return out


@dataclass
class _Reply:
    text: str
    finish_reason: str | None


class _Rejected(Exception):
    """HTTP 400 to a request that carried response_format."""

    def __init__(self, key: str):
        self.key = key


class RateLimiter:
    """At most ``limit`` acquisitions in any ``period`` seconds (a sliding window)."""

    def __init__(self, limit: int | None, period: float = 60.0):
        self.limit = limit
        self.period = period
        self._stamps: deque[float] = deque()
        self._lock: asyncio.Lock | None = None

    async def acquire(self) -> None:
        if not self.limit:
            return
        if self._lock is None:
            self._lock = asyncio.Lock()
        loop = asyncio.get_running_loop()
        async with self._lock:
            while True:
                now = loop.time()
                while self._stamps and self._stamps[0] <= now - self.period:
                    self._stamps.popleft()
                if len(self._stamps) < self.limit:
                    self._stamps.append(now)
                    return
                await asyncio.sleep(self._stamps[0] + self.period - now)


class _Budget:
    """The overall deadline of one item, counted from its first request."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.started: float | None = None

    def start(self) -> None:
        if self.started is None:
            self.started = time.monotonic()

    def remaining(self) -> float:
        return self.seconds if self.started is None else self.seconds - (time.monotonic() - self.started)


def extract_json(text: str, array: bool) -> Any:
    """The reply as JSON: the whole text when it parses, else the first JSON object (or
    array, when ``array``) in it, e.g. inside a ```json fence or after a preamble."""
    stripped = text.strip()
    try:
        return json.loads(stripped)
    except json.JSONDecodeError:
        pass
    opener = "[" if array else "{"
    decoder = json.JSONDecoder()
    start = stripped.find(opener)
    while start != -1:
        try:
            return decoder.raw_decode(stripped, start)[0]
        except json.JSONDecodeError:
            start = stripped.find(opener, start + 1)
    raise ValueError(f"the reply contains no JSON {'array' if array else 'object'}")


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


class LLMClient:
    """OpenAI-compatible chat client; see the module docstring.

    ``cache`` overrides the cache made from ``settings.cache_dir``. ``stats()`` returns a
    snapshot of the counters; ``prompt_tokens``, ``completion_tokens`` and ``requests``
    are kept as attributes for convenience."""

    RATE_PERIOD = 60.0  # seconds of the requests-per-minute window (tests shorten it)

    def __init__(self, settings: LLMSettings, cache: LLMCache | None = None):
        self.settings = settings
        # Azure-style base URLs carry ?api-version=...: the path goes before the query.
        base, _, query = settings.base_url.partition("?")
        self.url = base.rstrip("/") + "/chat/completions" + (f"?{query}" if query else "")
        self.cache = cache if cache is not None else (LLMCache(Path(settings.cache_dir)) if settings.cache_dir
                                                      else None)
        self._owns_cache = cache is None and self.cache is not None
        self._level = JSON_SCHEMA if settings.structured_output else INSTRUCTIONS
        self._capability_key = request_key({"model": settings.model, "messages": "capability:response_format"},
                                           settings.cache_namespace)
        if self._level < INSTRUCTIONS and self.cache is not None:
            learnt = (self.cache.get(self._capability_key) or {}).get("level")
            if isinstance(learnt, int):
                self._level = max(self._level, min(learnt, INSTRUCTIONS))  # what a previous run learnt
        self._stats = LLMStats()
        self._stats_lock = threading.Lock()
        headers = {"Accept": "application/json"}
        if settings.api_key is not None and settings.api_key.get_secret_value():
            key = settings.api_key.get_secret_value()
            headers[settings.api_key_header] = f"Bearer {key}" if settings.api_key_header == "Authorization" else key
        self._headers = headers
        self._start_lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._http: httpx.AsyncClient | None = None
        self._slots: asyncio.Semaphore | None = None
        self._limiter: RateLimiter | None = None
        self._inflight: dict[str, asyncio.Future] = {}
        self._closed = False

    # ---- lifecycle ---------------------------------------------------------------
    def _ensure_loop(self) -> asyncio.AbstractEventLoop:
        if self._loop is not None:
            return self._loop
        with self._start_lock:
            if self._closed:
                raise RuntimeError("the LLM client is closed")
            if self._loop is None:
                loop = asyncio.new_event_loop()
                ready = threading.Event()

                def serve() -> None:
                    asyncio.set_event_loop(loop)
                    loop.call_soon(ready.set)
                    loop.run_forever()

                thread = threading.Thread(target=serve, name="ragpipe-llm-client", daemon=True)
                thread.start()
                ready.wait()

                async def setup() -> None:
                    self._http = httpx.AsyncClient(headers=self._headers, timeout=self.settings.timeout,
                                                   limits=httpx.Limits(max_connections=self.settings.concurrency,
                                                                       max_keepalive_connections=self.settings.concurrency))
                    self._slots = asyncio.Semaphore(self.settings.concurrency)
                    self._limiter = RateLimiter(self.settings.requests_per_minute, self.RATE_PERIOD)

                asyncio.run_coroutine_threadsafe(setup(), loop).result()
                self._thread, self._loop = thread, loop
        return self._loop

    def close(self) -> None:
        with self._start_lock:
            if self._closed:
                return
            self._closed = True
            loop, thread = self._loop, self._thread
        if loop is not None:
            if self._http is not None:
                try:
                    asyncio.run_coroutine_threadsafe(self._http.aclose(), loop).result(timeout=10)
                except Exception:  # closing must not fail the caller
                    pass
            loop.call_soon_threadsafe(loop.stop)
            thread.join(timeout=10)
            loop.close()
        if self._owns_cache:
            self.cache.close()

    def __enter__(self) -> "LLMClient":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def uses_response_format(self) -> bool:
        """False once the server has rejected every response_format (or when disabled)."""
        return self._level < INSTRUCTIONS

    @property
    def response_format_type(self) -> str | None:
        """``json_schema``, ``json_object`` (with the schema, as llama-cpp-python takes
        it) or None (the schema spelled out in the instructions)."""
        return ("json_schema", "json_object", None)[self._level]

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
        run this way may await ``arun`` as often as they like, concurrently."""
        loop = self._ensure_loop()
        if threading.current_thread() is self._thread:
            raise RuntimeError("a blocking LLMClient call from inside its own event loop; await arun() instead")
        return asyncio.run_coroutine_threadsafe(coro, loop).result()

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
        try:
            return await self._run(prompt, inputs, language, _Budget(self.settings.deadline))
        except LLMError as exc:
            self._count(failures=1)
            raise LLMError(f"{prompt.id}: {exc.reason}", exc.kind) from None

    async def _run(self, prompt: Prompt[I, O], inputs: I, language: Language, budget: _Budget) -> O:
        messages = prompt.messages(inputs, language)
        instructed = False  # the schema is spelled out in the user message
        error = ""
        reply = None
        for attempt in (1, 2):
            if attempt == 2:
                log.info("%s: invalid output, re-asking once: %s", prompt.id, error)
                self._count(reasks=1)
                messages = [*messages, {"role": "assistant", "content": reply.text},
                            {"role": "user", "content": REASK[language].format(error=error)}]
            level, rejected = self._level, []
            while True:
                if level == INSTRUCTIONS and not instructed:
                    messages, instructed = self._with_format_instructions(prompt, messages, language), True
                try:
                    reply = await self._chat(messages, self._response_format(prompt, level, inputs), budget)
                    break
                except _Rejected as exc:  # never at INSTRUCTIONS: that request has no response_format
                    rejected.append(exc.key)
                    level += 1
            if rejected:
                self._learn_rejection(level, rejected)
            try:
                return prompt.parse(extract_json(reply.text, prompt.returns_array), inputs)
            except ValueError as exc:
                error = describe_error(exc) if reply.text.strip() else "the reply is empty"
                if reply.finish_reason == "length":
                    error += f" (the reply was cut off at max_tokens={self.settings.max_tokens})"
        raise self._error(f"invalid output after one re-ask: {error}", "invalid_output")

    def _learn_rejection(self, level: int, keys: list[str]) -> None:
        """A request at ``level`` worked where the ones before it (``keys``) were rejected:
        start there from now on, and remember it (also for the next run)."""
        if self.cache is not None:
            for key in keys:
                self.cache.put(key, {"rejected": True}, self.settings.model)
            if level > self._level:
                self.cache.put(self._capability_key, {"level": level}, self.settings.model)
        if level > self._level:
            self._level = level
            log.warning("%s rejected response_format; using %s from now on", self.url,
                        "json_object with the schema" if level == JSON_OBJECT else "JSON instructions")

    @staticmethod
    def _response_format(prompt: Prompt, level: int, inputs: BaseModel | None = None) -> dict | None:
        if level == JSON_SCHEMA:
            return {"type": "json_schema",
                    "json_schema": {"name": prompt.name, "schema": prompt.response_schema(inputs), "strict": True}}
        if level == JSON_OBJECT:
            return {"type": "json_object", "schema": prompt.response_schema(inputs)}
        return None

    @staticmethod
    def _with_format_instructions(prompt: Prompt, messages: list[dict], language: Language) -> list[dict]:
        """The messages with the output schema appended to the first user message."""
        schema = json.dumps(prompt.output_model.model_json_schema(), ensure_ascii=False)
        instruction = FORMAT_INSTRUCTION[language].format(schema=schema)
        out, done = [], False
        for m in messages:
            if m["role"] == "user" and not done:
                m, done = {"role": "user", "content": f"{m['content']}\n\n{instruction}"}, True
            out.append(m)
        return out

    async def _chat(self, messages: list[dict], response_format: dict | None, budget: _Budget) -> _Reply:
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
            except _Rejected:
                raise _Rejected(key) from None
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
            return _Reply(value["content"], value.get("finish_reason"))
        if value.get("rejected"):
            self._count(cache_hits=1)
            raise _Rejected(key)
        usage = value.get("usage") or {}
        self._count(cache_hits=1, cached_prompt_tokens=int(usage.get("prompt_tokens") or 0),
                    cached_completion_tokens=int(usage.get("completion_tokens") or 0))
        return _Reply(value["content"], value.get("finish_reason"))

    async def _fetch(self, payload: dict, key: str, budget: _Budget) -> dict:
        """Send the request, read the reply, account for its tokens and cache it."""
        body = await self._send(payload, key, budget)
        try:
            choice = body["choices"][0]
            message = choice["message"]
            if not isinstance(message, dict):
                raise TypeError
        except (KeyError, IndexError, TypeError):
            raise self._error(f"malformed response from {self.url}: no choices[0].message", "protocol") from None
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
            self.cache.put(key, value, self.settings.model)
        return value

    async def _send(self, payload: dict, key: str, budget: _Budget) -> dict:
        """POST one chat completion and return the decoded body, retrying what is
        transient (429, 5xx, timeouts, connection failures) within the item's deadline."""
        settings = self.settings
        retries = 0
        while True:
            wait_hint: float | None = None
            async with self._slots:
                if self._format_level(payload) < self._level:
                    raise _Rejected(key)  # learnt while this request waited: do not send it
                await self._limiter.acquire()
                budget.start()
                remaining = budget.remaining()
                if remaining <= 0:
                    raise self._error(f"the deadline of {settings.deadline:g}s passed before the request could be "
                                      f"sent", "deadline")
                timeout = min(settings.timeout, remaining)
                self._count(requests=1)
                try:
                    response = await self._http.post(self.url, json=payload, timeout=timeout)
                except httpx.TimeoutException:
                    response, problem = None, f"timed out after {timeout:g}s calling {self.url}"
                except httpx.HTTPError as exc:
                    response, problem = None, f"cannot reach {self.url}: {type(exc).__name__}: {exc}"
            if response is not None:
                status = response.status_code
                if "response_format" in payload and self._rejects_response_format(response):
                    raise _Rejected(key)
                if status < 400:
                    try:
                        return response.json()
                    except ValueError:
                        raise self._error(f"response from {self.url} is not JSON (HTTP {status})",
                                          "protocol") from None
                snippet = " ".join(response.text.split())[:300]
                problem = f"HTTP {status} from {self.url}: {snippet}"
                if status != 429 and status < 500:
                    raise self._error(problem, "http")
                wait_hint = retry_after_seconds(response.headers)
            if retries >= settings.max_retries:
                attempts = f"{retries + 1} attempt{'s' if retries else ''}"
                raise self._error(f"{problem} (gave up after {attempts})", "transport")
            retries += 1
            delay = min(settings.backoff_max, settings.backoff_base * 2 ** (retries - 1))
            delay = delay / 2 + random.uniform(0, delay / 2)  # exponential backoff, "equal jitter"
            if wait_hint is not None:
                delay = wait_hint + random.uniform(0, min(1.0, 0.1 * wait_hint))
            if delay >= budget.remaining():
                raise self._error(f"{problem}; the deadline of {settings.deadline:g}s leaves no time for a retry "
                                  f"in {delay:.1f}s (after {retries} attempt{'s' if retries > 1 else ''})",
                                  "deadline")
            log.info("LLM request failed (%s); retry %d/%d in %.2fs", self._redact(problem), retries,
                     settings.max_retries, delay)
            self._count(retries=1)
            await asyncio.sleep(delay)

    @staticmethod
    def _format_level(payload: dict) -> int:
        rf = payload.get("response_format")
        if rf is None:
            return INSTRUCTIONS
        return JSON_SCHEMA if rf.get("type") == "json_schema" else JSON_OBJECT

    @staticmethod
    def _rejects_response_format(response: httpx.Response) -> bool:
        """A request carrying response_format was refused because of it: HTTP 400 or 422,
        or an error that names response_format (llama-cpp-python answers its own
        request validation errors with HTTP 500)."""
        if response.status_code in (400, 422):
            return True
        return response.status_code >= 500 and "response_format" in response.text

    def _redact(self, text: str) -> str:
        """The key, whole or any 8 characters of it (a body cut inside the key leaves a prefix)."""
        return Redactor([self.settings.api_key.get_secret_value() if self.settings.api_key else ""])(text)

    def _error(self, reason: str, kind: str = "error") -> LLMError:
        """An LLMError whose reason cannot leak the API key, whatever the server echoed."""
        return LLMError(self._redact(reason), kind)


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


__all__ = ["LLM", "LLMClient", "LLMError", "LLMSettings", "LLMStats", "RateLimiter", "arun_any", "extract_json",
           "retry_after_seconds", "run_sync", "env_options", "settings_from_env"]
