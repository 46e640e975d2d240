"""Structured output: how a prompt's output schema reaches a server, and the re-ask.

The schema goes as ``response_format: json_schema``. A server that rejects it (HTTP
400/422, or an error naming response_format) gets ``{"type": "json_object", "schema":
...}`` instead (llama-cpp-python's form, which it enforces with a grammar), and one that
rejects that too gets the request without response_format, the schema spelled out in the
instructions, and the first JSON value is extracted from the reply text. Once a fallback
has worked the caller starts there (``FormatLevel``).

The reply is validated with the output model and the prompt's own check. Invalid output
is re-asked once, with the validation error appended to the conversation; a second
invalid output raises ``LLMError``. A score is never clamped, rounded or defaulted."""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import httpx
from pydantic import BaseModel

from ragpipe.core.llm.prompt import FORMAT_INSTRUCTION, REASK, Language, Prompt, describe_error
from ragpipe.core.llm.settings import LLMError

log = logging.getLogger(__name__)
I = TypeVar("I", bound=BaseModel)
O = TypeVar("O", bound=BaseModel)

# How the output schema reaches the server, from the best to the last resort.
JSON_SCHEMA, JSON_OBJECT, INSTRUCTIONS = 0, 1, 2
FORMAT_TYPES = ("json_schema", "json_object", None)


@dataclass
class Reply:
    text: str
    finish_reason: str | None


class Rejected(Exception):
    """The server refused a request because of its response_format; ``key`` is the request's."""

    def __init__(self, key: str):
        self.key = key


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


def response_format(prompt: Prompt, level: int, inputs: BaseModel | None = None) -> dict | None:
    if level == JSON_SCHEMA:
        return {"type": "json_schema",
                "json_schema": {"name": prompt.name, "schema": prompt.response_schema(inputs), "strict": True}}
    if level == JSON_OBJECT:
        return {"type": "json_object", "schema": prompt.response_schema(inputs)}
    return None


def format_level(payload: dict) -> int:
    """The level of a request payload."""
    rf = payload.get("response_format")
    if rf is None:
        return INSTRUCTIONS
    return JSON_SCHEMA if rf.get("type") == "json_schema" else JSON_OBJECT


def rejects_response_format(response: httpx.Response) -> bool:
    """A request carrying response_format was refused because of it: HTTP 400 or 422, or
    an error that names response_format (llama-cpp-python answers its own request
    validation errors with HTTP 500)."""
    if response.status_code in (400, 422):
        return True
    return response.status_code >= 500 and "response_format" in response.text


def with_format_instructions(prompt: Prompt, messages: list[dict], language: Language) -> list[dict]:
    """The messages with the output schema appended to the first user message."""
    schema = json.dumps(prompt.output_model.model_json_schema(), ensure_ascii=False)
    instruction = FORMAT_INSTRUCTION[language].format(schema=schema)
    out, done = [], False
    for m in messages:
        if m["role"] == "user" and not done:
            m, done = {"role": "user", "content": f"{m['content']}\n\n{instruction}"}, True
        out.append(m)
    return out


class FormatLevel:
    """The level a client starts at; ``learn`` moves it down the list once a server has
    rejected the levels before (``on_learn`` keeps that, e.g. in the cache)."""

    def __init__(self, level: int, on_learn: Callable[[int, list[str]], None] = lambda level, keys: None):
        self.level = level
        self._on_learn = on_learn

    def learn(self, level: int, rejected: list[str]) -> None:
        self._on_learn(level, rejected)
        if level > self.level:
            self.level = level


Chat = Callable[[list[dict], "dict | None"], Awaitable[Reply]]


async def ask(prompt: Prompt[I, O], inputs: I, language: Language, chat: Chat, formats: FormatLevel,
              max_tokens: int, on_reask: Callable[[], None] = lambda: None) -> O:
    """The prompt's validated output, through ``chat(messages, response_format)`` (which
    raises ``Rejected`` for a refused response_format): the fallbacks and the one re-ask
    of the module docstring."""
    messages = prompt.messages(inputs, language)
    instructed = False  # the schema is spelled out in the user message
    error = ""
    reply = None
    for attempt in (1, 2):
        if attempt == 2:
            log.info("%s: invalid output, re-asking once: %s", prompt.id, error)
            on_reask()
            messages = [*messages, {"role": "assistant", "content": reply.text},
                        {"role": "user", "content": REASK[language].format(error=error)}]
        level, rejected = formats.level, []
        while True:
            if level == INSTRUCTIONS and not instructed:
                messages, instructed = with_format_instructions(prompt, messages, language), True
            try:
                reply = await chat(messages, response_format(prompt, level, inputs))
                break
            except Rejected as exc:  # never at INSTRUCTIONS: that request has no response_format
                rejected.append(exc.key)
                level += 1
        if rejected:
            formats.learn(level, rejected)
        try:
            return prompt.parse(extract_json(reply.text, prompt.returns_array), inputs)
        except ValueError as exc:
            error = describe_error(exc) if reply.text.strip() else "the reply is empty"
            if reply.finish_reason == "length":
                error += f" (the reply was cut off at max_tokens={max_tokens})"
    raise LLMError(f"invalid output after one re-ask: {error}", "invalid_output")
