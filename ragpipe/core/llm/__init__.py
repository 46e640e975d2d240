"""The LLM-backed evaluation layer, one idea per module: ``settings`` (configuration,
the error, the counters), ``client`` (the OpenAI-compatible client over the shared
``ragpipe.core.transport``), ``structured`` (schema → json_object → instructions, and the
re-ask), ``cache`` (the key responses are kept under), ``prompts`` (typed, zh and en), ``operations``
(what the metrics ask, as functions of a model), ``evaluator`` (those operations
memoised), ``prefetch`` (the five-call plan per sample) and ``refine`` (the rubric's
refine loop, for a caller that generates answers). Nothing here imports Dagster."""

from ragpipe.core.llm.cache import request_key
from ragpipe.core.llm.client import LLMClient
from ragpipe.core.llm.evaluator import LLMEvaluator, LLMVerifier, metric_prompt_hash, metric_prompt_hashes
from ragpipe.core.llm.operations import (PASSING_ACCURACY, RUBRIC_WEIGHTS, RubricResult, answer_questions,
                                        context_relevance, extract_entities, judge_1_5, rubric_1_10)
from ragpipe.core.llm.prefetch import SAMPLE_PLAN, PrefetchReport
from ragpipe.core.llm.prompts import PROMPTS, Language, Prompt, pick_language, prompt_hash
from ragpipe.core.llm.refine import DEFAULT_BAR, RefineResult, RefineRound, refine
from ragpipe.core.llm.settings import LLM, LLMError, LLMSettings, LLMStats

__all__ = [
    "DEFAULT_BAR", "LLM", "LLMClient", "LLMError", "LLMEvaluator", "LLMSettings", "LLMStats",
    "LLMVerifier", "Language", "PASSING_ACCURACY", "PROMPTS", "PrefetchReport", "Prompt", "RUBRIC_WEIGHTS",
    "RefineResult", "RefineRound", "RubricResult", "SAMPLE_PLAN", "answer_questions", "context_relevance",
    "extract_entities", "judge_1_5", "metric_prompt_hash", "metric_prompt_hashes", "pick_language", "prompt_hash",
    "refine", "request_key", "rubric_1_10",
]
