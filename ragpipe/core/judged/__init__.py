"""Judged evidence: what the LLM judge says about the texts, the counterpart of the offline
evidence in ``ragpipe.core.evidence``. ``prompts`` (typed, zh and en), ``operations``
(what the metrics ask, as functions of a model), ``evaluator`` (those operations
memoised), ``prefetch`` (the five-call plan per sample, and ``JudgeUse``: what a caller
asks) and ``refine`` (the rubric's refine loop, for a caller that generates answers).
It asks through the client in ``ragpipe.core.llm`` and never reads the metric registry:
callers hand it what they need."""

from ragpipe.core.judged.evaluator import LLMEvaluator, LLMVerifier
from ragpipe.core.judged.operations import (PASSING_ACCURACY, RUBRIC_WEIGHTS, RubricResult, answer_questions,
                                           context_relevance, extract_entities, judge_1_5, rubric_1_10)
from ragpipe.core.judged.prefetch import SAMPLE_PLAN, JudgeUse, PrefetchReport
from ragpipe.core.judged.prompts import PROMPTS, prompt_hash
from ragpipe.core.judged.refine import DEFAULT_BAR, RefineResult, RefineRound, refine

__all__ = [
    "DEFAULT_BAR", "JudgeUse", "LLMEvaluator", "LLMVerifier", "PASSING_ACCURACY", "PROMPTS", "PrefetchReport",
    "RUBRIC_WEIGHTS", "RefineResult", "RefineRound", "RubricResult", "SAMPLE_PLAN", "answer_questions",
    "context_relevance", "extract_entities", "judge_1_5", "prompt_hash", "refine", "rubric_1_10",
]
