"""A scripted stand-in for an LLM judge behind the loopback OpenAI-compatible server. It
knows each request's prompt (by response_format's schema name, else by the prompt that
reads the request's text back into its input) and answers with that prompt's own
``fake_reply``: the replies live beside the prompts, so a batched prompt and the single
prompts it replaces give the same results, and a new prompt brings its reply along."""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel

from ragpipe.core.judged.prompts import PROMPTS
from ragpipe.core.llm.prompt import Prompt
from ragpipe.core.metrics import REGISTRY
from ragpipe.testing.openai_server import Recorded

# The judged evidence's prompts and those the metrics bring of their own.
KNOWN: dict[str, Prompt] = {**PROMPTS, **{p.name: p for m in REGISTRY.values() for p in m.judge.prompts}}


def identify(req: Recorded, prompts: dict[str, Prompt] = KNOWN) -> tuple[Prompt, BaseModel]:
    """The request's prompt and the input it was rendered from."""
    named = [prompts[req.schema_name]] if req.schema_name in prompts else prompts.values()
    for prompt in named:
        inputs = prompt.read(req.prompt)
        if inputs is not None:
            return prompt, inputs
    raise AssertionError(f"no known prompt rendered this request (schema {req.schema_name})")


def prompt_of(req: Recorded) -> str:
    """The name of the prompt a request carries."""
    return req.schema_name or identify(req)[0].name


def fake_judge(*prompts: Prompt) -> Callable[[Recorded], dict | list]:
    """A route that answers every known prompt, and ``prompts`` besides, with its ``fake_reply``."""
    known = {**KNOWN, **{p.name: p for p in prompts}}

    def route(req: Recorded) -> dict | list:
        prompt, inputs = identify(req, known)
        if prompt.fake_reply is None:
            raise AssertionError(f"prompt {prompt.name} has no fake_reply")
        reply = prompt.fake_reply(inputs).model_dump(mode="json")
        return {"items": reply} if prompt.returns_array else reply  # as a structured-output server wraps arrays
    return route


fake_llm = fake_judge()

__all__ = ["KNOWN", "fake_judge", "fake_llm", "identify", "prompt_of"]
