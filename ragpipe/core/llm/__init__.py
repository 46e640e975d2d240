"""The LLM-backed evaluation layer: an OpenAI-compatible client (async inside, with a
cache, retries, rate limits and token accounting), typed prompts (zh and en), the
operations the metrics call, and seed 003's refine loop. Nothing here imports Dagster."""

from ragpipe.core.llm.cache import LLMCache, request_key
from ragpipe.core.llm.client import LLM, LLMClient, LLMError, LLMSettings, LLMStats
from ragpipe.core.llm.prompts import PROMPTS, Language, Prompt, pick_language, prompt_hash
from ragpipe.core.llm.refine import DEFAULT_BAR, RefineResult, RefineRound, refine
from ragpipe.core.llm.tasks import (METRIC_PARTS, METRIC_PROMPTS, PASSING_ACCURACY, SAMPLE_PLAN, LLMEvaluator,
                                    LLMVerifier, PrefetchReport, RubricResult, answer_questions, context_relevance,
                                    extract_entities, judge_1_5, metric_prompt_hash, metric_prompt_hashes,
                                    rubric_1_10)

__all__ = [
    "DEFAULT_BAR", "LLM", "LLMCache", "LLMClient", "LLMError", "LLMEvaluator", "LLMSettings", "LLMStats",
    "LLMVerifier", "Language", "METRIC_PARTS", "METRIC_PROMPTS", "PASSING_ACCURACY", "PROMPTS", "PrefetchReport",
    "Prompt", "RefineResult", "RefineRound", "RubricResult", "SAMPLE_PLAN", "answer_questions", "context_relevance",
    "extract_entities", "judge_1_5", "metric_prompt_hash", "metric_prompt_hashes", "pick_language", "prompt_hash",
    "refine", "request_key", "rubric_1_10",
]
