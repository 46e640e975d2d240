"""A bot version's configuration: one YAML file in data/bots/ named ``<bot>@<version>.yaml``,
validated field by field. An HTTP bot's key comes only from a ``RAGPIPE_BOT_…``
environment variable; the transport settings are left out of the config hash, since they
change how answers are fetched, not what they are."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator

from ragpipe.core.schemas import InputError, InputErrors
from ragpipe.core.secrets import ENV_REFERENCE, header_problem, key_variable_problem, url_problem
from ragpipe.core.yaml_input import read_yaml

MAX_NAME = 100  # characters of a dataset, bot or version name: each is part of file names
BOT_KEY = re.compile(rf"^[A-Za-z0-9_.-]{{1,{MAX_NAME}}}@[A-Za-z0-9_.-]{{1,{MAX_NAME}}}$")


class RetrievalConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    method: Literal["bm25", "embedding", "hybrid"]
    top_k: int = Field(ge=1, le=50)


class AnswerConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    max_sentences: int = Field(default=2, ge=1, le=10)


class ResponseMapping(BaseModel):
    """Where the reply's fields are: dotted paths into its JSON (``data.answer``)."""

    model_config = ConfigDict(extra="forbid")
    answer: str = "answer"
    contexts: str | None = "contexts"  # a list of strings
    context_ids: str | None = None  # a list of strings, parallel to contexts


class HttpConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    endpoint: str = Field(pattern=r"^https?://\S+$")
    # The name of the environment variable holding the API key (RAGPIPE_BOT_…); the key
    # itself never goes in the file (see ragpipe.core.secrets).
    api_key_env: str | None = Field(default=None, pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")
    auth_header: str = "Authorization"
    auth_scheme: str = "Bearer"  # "" sends the bare key
    api_key_param: str | None = None  # send the key as this URL query parameter instead of a header
    headers: dict[str, str] = {}  # a secret value as ${RAGPIPE_BOT_…}, filled in when sent
    # The JSON body; "{question}", "{question_id}" and "{dataset}" in its strings are filled in.
    request: dict[str, Any] = {"question": "{question}"}
    response: ResponseMapping = ResponseMapping()
    timeout: float = Field(default=30.0, gt=0, le=600, description="seconds per request, all of it: a reply "
                                                                  "dripped slowly does not extend it")
    max_retries: int = Field(default=3, ge=0, le=10)
    backoff_base: float = Field(default=0.5, gt=0, le=60, description="seconds before the first retry; doubles")
    concurrency: int = Field(default=4, ge=1, le=64)
    deadline: float = Field(default=300.0, gt=0, le=3600,
                            description="seconds per question for every attempt and wait together: the bound "
                                        "on one question, whatever timeout × max_retries allows")
    requests_per_minute: int | None = Field(default=None, ge=1,
                                            description="requests started per minute at most (a leaky bucket)")

    # How answers are fetched, not what they are: left out of the config hash, so changing
    # one asks no question again.
    TRANSPORT: ClassVar[set[str]] = {"timeout", "max_retries", "backoff_base", "concurrency", "deadline",
                                      "requests_per_minute"}

    @field_validator("api_key_env")
    @classmethod
    def _bot_variable(cls, name: str | None) -> str | None:
        if name is not None and (problem := key_variable_problem(name)):
            raise ValueError(problem)
        return name

    @field_validator("endpoint")
    @classmethod
    def _no_key_in_url(cls, url: str) -> str:
        if problem := url_problem(url):
            raise ValueError(problem)
        return url

    @field_validator("headers")
    @classmethod
    def _no_key_in_headers(cls, headers: dict[str, str]) -> dict[str, str]:
        for name, value in headers.items():
            if problem := header_problem(name, value):
                raise ValueError(problem)
            for variable in ENV_REFERENCE.findall(value):
                if problem := key_variable_problem(variable):
                    raise ValueError(f"header {name!r}: {problem}")
        return headers

    @field_validator("api_key_param")
    @classmethod
    def _param_needs_key(cls, param: str | None, info: ValidationInfo) -> str | None:
        if param is not None and info.data.get("api_key_env", "") is None:
            raise ValueError("names where the key goes, so http.api_key_env must name where it comes from")
        return param


KIND_SECTION = {"reference": "retrieval", "http": "http", "recorded": None}  # recorded: no section


class BotConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(pattern=r"^[A-Za-z0-9_.-]+$", max_length=MAX_NAME)
    version: str = Field(pattern=r"^[A-Za-z0-9_.-]+$", max_length=MAX_NAME)
    kind: Literal["reference", "http", "recorded"]
    description: str = ""
    baseline: bool = False  # the version others of this bot are compared with
    # More failed questions than this share fails rag_responses instead of scoring a half-empty set.
    max_failure_share: float = Field(default=0.2, ge=0, le=1)
    retrieval: RetrievalConfig | None = Field(default=None, validate_default=True)
    answer: AnswerConfig = AnswerConfig()
    http: HttpConfig | None = Field(default=None, validate_default=True)

    @field_validator("retrieval", "http")
    @classmethod
    def _section_of_kind(cls, value, info: ValidationInfo):
        kind = info.data.get("kind")
        if kind is None:  # kind itself is invalid; that error is reported
            return value
        if value is None and KIND_SECTION[kind] == info.field_name:
            raise ValueError(f"required when kind is {kind}")
        if value is not None and KIND_SECTION[kind] != info.field_name:
            raise ValueError(f"not used when kind is {kind}")
        return value

    @property
    def key(self) -> str:
        return f"{self.name}@{self.version}"

    @property
    def config_hash(self) -> str:
        """What determines the answers: everything but the description, the bookkeeping and
        the HTTP transport settings."""
        material = self.model_dump_json(exclude={"description": True, "baseline": True, "max_failure_share": True,
                                                 "http": HttpConfig.TRANSPORT})
        return hashlib.sha256(material.encode("utf-8")).hexdigest()[:16]


def version_order(key: str) -> list:
    """Natural order of a <bot>@<version> key's version: v2 < v10, 1.9 < 1.10."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", key.split("@", 1)[1])]


def load_bot_config(path: Path) -> BotConfig:
    """Parse and validate one bot file; errors name the file, the line and the field."""
    raw = read_yaml(path)
    if not isinstance(raw, dict):
        raise InputError(str(path), "bot", "expected a mapping with name, version, kind and retrieval or http")
    try:
        config = BotConfig.model_validate(raw)
    except ValidationError as exc:
        raise InputErrors(
            [InputError(str(path), ".".join(str(p) for p in e["loc"]) or "bot", e["msg"]) for e in exc.errors()]
        ) from None  # pydantic's own message quotes the values, which may be credentials
    if config.key != path.stem:
        raise InputError(str(path), "name/version", f"file must be named {config.key}.yaml to match name and version")
    return config
