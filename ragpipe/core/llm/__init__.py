"""The LLM judge's client, one idea per module: ``settings`` (configuration, the error,
the counters), ``client`` (the OpenAI-compatible client over the shared
``ragpipe.core.transport``), ``structured`` (schema → json_object → instructions, and the
re-ask), ``cache`` (the key responses are kept under) and ``prompt`` (the typed prompt it
sends). What the judge is asked lives in ``ragpipe.core.judged``. Nothing here imports
Dagster."""

from ragpipe.core.llm.cache import request_key
from ragpipe.core.llm.client import LLMClient
from ragpipe.core.llm.prompt import Language, Prompt, pick_language
from ragpipe.core.llm.settings import LLM, LLMError, LLMSettings, LLMStats

__all__ = ["LLM", "LLMClient", "LLMError", "LLMSettings", "LLMStats", "Language", "Prompt", "pick_language",
           "request_key"]
