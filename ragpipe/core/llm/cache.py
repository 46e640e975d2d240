"""The content address of a chat completion, under which ``ragpipe.core.cache.Cache``
keeps the reply, so that a re-run or a resumed run makes no repeat calls.

The key is the SHA-256 of the request that determines the reply: model, messages (the
rendered prompt, and for a re-ask the conversation so far), temperature, seed,
max_tokens and response_format, plus an optional namespace. Neither the base URL nor
any header is part of it, so the API key never reaches the key or the file; a namespace
separates two servers that report the same model name. The value is what the client
uses of the reply: its text, finish reason and token usage."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def request_key(payload: dict[str, Any], namespace: str = "") -> str:
    """The content address of a chat-completion request (see the module docstring)."""
    material = {k: payload.get(k) for k in ("model", "messages", "temperature", "seed", "max_tokens",
                                            "response_format")}
    material["namespace"] = namespace
    canonical = json.dumps(material, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()
