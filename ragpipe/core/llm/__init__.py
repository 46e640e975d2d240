"""The LLM-backed evaluation layer: an OpenAI-compatible client, typed prompts (zh and
en) and the operations the metrics call. Nothing here imports Dagster."""

from ragpipe.core.llm.client import LLM, LLMClient, LLMError, LLMSettings
from ragpipe.core.llm.prompts import PROMPTS, Language, Prompt, pick_language, prompt_hash
from ragpipe.core.llm.tasks import (PASSING_ACCURACY, LLMEvaluator, LLMVerifier, RubricResult, answer_questions,
                                    context_relevance, extract_entities, judge_1_5, rubric_1_10)

__all__ = [
    "LLM", "LLMClient", "LLMError", "LLMEvaluator", "LLMSettings", "LLMVerifier", "Language", "PASSING_ACCURACY",
    "PROMPTS", "Prompt", "RubricResult", "answer_questions", "context_relevance", "extract_entities", "judge_1_5",
    "pick_language", "prompt_hash", "rubric_1_10",
]
