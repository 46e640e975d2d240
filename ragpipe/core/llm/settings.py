"""What the LLM layer is configured with and reports: the settings (and the RAGPIPE_LLM_*
variables that set them), the error every failed call raises, the ``LLM`` protocol the
operations need, and the client's counters."""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, fields
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field, SecretStr

from ragpipe.core.llm.prompt import Language, Prompt

I = TypeVar("I", bound=BaseModel)
O = TypeVar("O", bound=BaseModel)


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
    timeout: float = Field(60.0, gt=0, description="seconds for one request, all of it (connect, send, every "
                                                   "read): a server that drips its reply does not extend it")
    structured_output: bool = Field(True, description="try response_format json_schema first")
    concurrency: int = Field(8, ge=1, description="requests in flight at most")
    requests_per_minute: int | None = Field(None, ge=1, description="requests started in any 60 s, at most")
    max_retries: int = Field(5, ge=0, description="retries of one request on 429, 5xx, timeouts, connection errors")
    backoff_base: float = Field(1.0, gt=0, description="seconds before the first retry; doubles each retry")
    backoff_max: float = Field(30.0, gt=0, description="seconds between retries at most (Retry-After aside)")
    deadline: float = Field(300.0, gt=0, description="seconds per item for every attempt, wait and re-ask: "
                                                     "the bound on one question, whatever max_retries allows")
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
