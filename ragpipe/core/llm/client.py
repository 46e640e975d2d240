"""A small synchronous client for OpenAI-compatible chat endpoints (OpenAI, vLLM,
Ollama, llama.cpp server) that turns a typed prompt into a validated output model.

One call of ``LLMClient.run``:

1. renders the prompt (system + user message) in the requested language;
2. POSTs ``{base_url}/chat/completions`` with ``response_format: json_schema`` built
   from the output model. A server that rejects it with HTTP 400 gets the request again
   without it, the schema spelled out in the instructions, and the first JSON value is
   extracted from the reply text; the client then stays in that mode;
3. validates the JSON with the output model and the prompt's own check. Invalid output
   is re-asked once, with the validation error appended to the conversation; a second
   invalid output raises ``LLMError``.

Timeouts, connection failures and HTTP errors raise ``LLMError`` too. The API key is
sent as a Bearer header and never appears in an error message or a log line.

Every request goes through ``LLMClient._send``: that is where a content-addressed cache,
bounded retries with backoff (Retry-After), a concurrency limit and cost accounting
belong (a later issue); nothing of the kind is done here.
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import httpx
from pydantic import BaseModel, ConfigDict, Field, SecretStr

from ragpipe.core.llm.prompts.base import FORMAT_INSTRUCTION, REASK, Language, Prompt, describe_error

log = logging.getLogger(__name__)

I = TypeVar("I", bound=BaseModel)
O = TypeVar("O", bound=BaseModel)


class LLMError(RuntimeError):
    """An LLM call that produced no usable output; ``reason`` says why (never a secret)."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(reason)


class LLMSettings(BaseModel):
    """Where and how to call the model. ``api_key`` is a value the caller reads from an
    environment variable; it is kept as a SecretStr so that it does not show in reprs."""

    model_config = ConfigDict(frozen=True)

    base_url: str = Field(description="e.g. https://api.openai.com/v1 or http://localhost:11434/v1")
    model: str
    api_key: SecretStr | None = None
    temperature: float = 0.0
    seed: int | None = 0
    max_tokens: int = Field(2048, ge=1)
    timeout: float = Field(60.0, gt=0, description="seconds, for connect, read and write")
    structured_output: bool = Field(True, description="try response_format json_schema first")


class LLM(Protocol):
    """What the evaluation tasks need from a model: a typed prompt in, its output out."""

    def run(self, prompt: Prompt[I, O], inputs: I, language: Language) -> O: ...


@dataclass
class _Reply:
    text: str
    finish_reason: str | None


class _Rejected(Exception):
    """HTTP 400 to a request that carried response_format."""


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


class LLMClient:
    """Synchronous OpenAI-compatible chat client; see the module docstring.

    ``prompt_tokens``, ``completion_tokens`` and ``requests`` count what the server
    reported and what was sent, over the client's life."""

    def __init__(self, settings: LLMSettings):
        self.settings = settings
        self.url = settings.base_url.rstrip("/") + "/chat/completions"
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self.requests = 0
        self._structured = settings.structured_output
        self._lock = threading.Lock()
        headers = {"Accept": "application/json"}
        if settings.api_key is not None and settings.api_key.get_secret_value():
            headers["Authorization"] = f"Bearer {settings.api_key.get_secret_value()}"
        self._http = httpx.Client(timeout=settings.timeout, headers=headers)

    # ---- lifecycle ---------------------------------------------------------------
    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> "LLMClient":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def uses_response_format(self) -> bool:
        """False once the server has rejected response_format (or when disabled)."""
        return self._structured

    # ---- the typed call ----------------------------------------------------------
    def run(self, prompt: Prompt[I, O], inputs: I, language: Language) -> O:
        """The prompt's validated output; ``LLMError`` (reason prefixed with the prompt id)
        when the call fails or the output is still invalid after one re-ask."""
        try:
            return self._run(prompt, inputs, language)
        except LLMError as exc:
            raise LLMError(f"{prompt.id}: {exc.reason}") from None

    def _run(self, prompt: Prompt[I, O], inputs: I, language: Language) -> O:
        messages = prompt.messages(inputs, language)
        instructed = False  # the schema is spelled out in the user message
        error = ""
        for attempt in (1, 2):
            if attempt == 2:
                log.info("%s: invalid output, re-asking once: %s", prompt.id, error)
                messages = [*messages, {"role": "assistant", "content": reply.text},
                            {"role": "user", "content": REASK[language].format(error=error)}]
            if not self._structured and not instructed:
                messages, instructed = self._with_format_instructions(prompt, messages, language), True
            if self._structured:
                try:
                    reply = self._chat(messages, self._response_format(prompt))
                except _Rejected:
                    messages, instructed = self._with_format_instructions(prompt, messages, language), True
                    reply = self._chat(messages, None)
                    self._structured = False  # only once a request without it has worked
                    log.warning("%s rejected response_format (HTTP 400); using JSON instructions from now on",
                                self.url)
            else:
                reply = self._chat(messages, None)
            try:
                return prompt.parse(extract_json(reply.text, prompt.returns_array), inputs)
            except ValueError as exc:
                error = describe_error(exc) if reply.text.strip() else "the reply is empty"
                if reply.finish_reason == "length":
                    error += f" (the reply was cut off at max_tokens={self.settings.max_tokens})"
        raise self._error(f"invalid output after one re-ask: {error}")

    @staticmethod
    def _response_format(prompt: Prompt) -> dict:
        return {"type": "json_schema",
                "json_schema": {"name": prompt.name, "schema": prompt.response_schema(), "strict": True}}

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

    def _chat(self, messages: list[dict], response_format: dict | None) -> _Reply:
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
        body = self._send(payload)
        try:
            choice = body["choices"][0]
            message = choice["message"]
            if not isinstance(message, dict):
                raise TypeError
        except (KeyError, IndexError, TypeError):
            raise self._error(f"malformed response from {self.url}: no choices[0].message") from None
        usage = body.get("usage") or {}
        with self._lock:
            self.prompt_tokens += int(usage.get("prompt_tokens") or 0)
            self.completion_tokens += int(usage.get("completion_tokens") or 0)
        text = message.get("content") or ""
        if not text and message.get("refusal"):
            text = f"(refusal) {message['refusal']}"
        return _Reply(text=text, finish_reason=choice.get("finish_reason"))

    def _send(self, payload: dict) -> dict:
        """POST one chat completion and return the decoded body. The single place where
        requests leave the process (caching, retries, rate limits and cost go here)."""
        with self._lock:
            self.requests += 1
        try:
            response = self._http.post(self.url, json=payload)
        except httpx.TimeoutException:
            raise self._error(f"timed out after {self.settings.timeout:g}s calling {self.url}") from None
        except httpx.HTTPError as exc:
            raise self._error(f"cannot reach {self.url}: {type(exc).__name__}: {exc}") from None
        if response.status_code == 400 and "response_format" in payload:
            raise _Rejected()
        if response.status_code >= 400:
            snippet = " ".join(response.text.split())[:300]
            raise self._error(f"HTTP {response.status_code} from {self.url}: {snippet}")
        try:
            return response.json()
        except ValueError:
            raise self._error(f"response from {self.url} is not JSON (HTTP {response.status_code})") from None

    def _error(self, reason: str) -> LLMError:
        """An LLMError whose reason cannot leak the API key, whatever the server echoed."""
        key = self.settings.api_key.get_secret_value() if self.settings.api_key else ""
        if key:
            reason = reason.replace(key, "***")
        return LLMError(reason)
