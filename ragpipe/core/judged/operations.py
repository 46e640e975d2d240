"""The LLM-backed operations the metrics call, as functions of a model. Each takes an
``LLM`` (an ``LLMClient`` or anything with its ``run``), picks the prompt language from
the material unless the caller names it, and raises ``LLMError`` when the model gives no
valid answer: out of range or malformed output is re-asked once by the client, never
clamped or defaulted."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

from pydantic import BaseModel

from ragpipe.core.config import load_config
from ragpipe.core.judged.prompts import (ANSWER_RELEVANCY, CONTEXT_RELEVANCE, ENTITIES, JUDGE_1_5, RUBRIC_1_10,
                                      RUBRIC_1_10_PURE_LLM, Language, pick_language)
from ragpipe.core.judged.prompts.answer_relevancy import AnswerRelevancyInput
from ragpipe.core.judged.prompts.context_relevance import ContextRelevanceInput
from ragpipe.core.judged.prompts.entities import EntitiesInput, Role
from ragpipe.core.judged.prompts.judge import JudgeInput
from ragpipe.core.judged.prompts.rubric import PureRubricInput, RubricInput, RubricOutput
from ragpipe.core.llm.settings import LLM
from ragpipe.core.schemas import Verdict

PASSING_ACCURACY = 7
# The rubric's weights in tenths, so that e.g. 7/8/9 gives exactly 7.7 (and 7.5/8/9 7.95).
RUBRIC_WEIGHTS = {"accuracy": 5, "completeness": 3, "clarity": 2}
ANSWER_QUESTIONS = 3  # questions generated for answer relevancy (the metric's default)


class RubricResult(BaseModel):
    """The 1–10 rubric. The model gives the three scores (fractions allowed) and the text
    fields; ``weighted_score`` and ``is_passing`` are computed here. ``documents``: how
    many retrieved documents the judge read (``rubric_documents``; 0 in pure-LLM mode)."""

    accuracy: float
    completeness: float
    clarity: float
    weighted_score: float
    is_passing: bool
    reason: str
    suggestion: str
    analysis: str
    mode: Literal["with_documents", "pure_llm"]
    documents: int


def rubric_result(out: RubricOutput, documents: int) -> RubricResult:
    weighted = sum(weight * getattr(out, name) for name, weight in RUBRIC_WEIGHTS.items()) / 10
    return RubricResult(accuracy=out.accuracy, completeness=out.completeness, clarity=out.clarity,
                        weighted_score=weighted, is_passing=out.accuracy >= PASSING_ACCURACY,
                        reason=out.reason, suggestion=out.suggestion, analysis=out.analysis,
                        mode="with_documents" if documents else "pure_llm", documents=documents)


def rubric_documents(documents: Sequence[str] | None) -> list[str]:
    """The documents the rubric judges an answer against: the first ``rubric.max_documents``
    (evaluation.yaml) in the order given, which is the bot's ranking."""
    return list(documents or [])[: load_config().rubric.max_documents]


def passages(evidence: Iterable[str]) -> list[str]:
    return [e for e in evidence if e and e.strip()]


def no_evidence(statements: Sequence[str]) -> list[Verdict]:
    return [Verdict(s, False, 0.0, "", "no evidence to check against") for s in statements]


def verdicts(statements: Sequence[str], evidence: Sequence[str], replies) -> list[Verdict]:
    """Verdict objects from the model's verdicts (``source`` numbers ``evidence`` from 1)."""
    by_index = {v.index: v for v in replies}
    out = []
    for i, statement in enumerate(statements, 1):
        v = by_index[i]
        out.append(Verdict(statement, v.verdict == 1, float(v.verdict), evidence[v.source - 1] if v.source else "",
                           v.reason))
    return out


def relevance_pairs(out, n_contexts: int) -> list[tuple[bool, str]]:
    by_index = {c.index: c for c in out.contexts}
    return [(by_index[i].relevant, by_index[i].reason) for i in range(1, n_contexts + 1)]


def context_relevance(llm: LLM, question: str, contexts: Sequence[str], *,
                      language: Language | None = None) -> list[tuple[bool, str]]:
    """For each context, in order: is it relevant to the question, and why (one call for all)."""
    contexts = list(contexts)
    if not contexts:
        return []
    out = llm.run(CONTEXT_RELEVANCE, ContextRelevanceInput(question=question, contexts=contexts),
                  language or pick_language(question))
    return relevance_pairs(out, len(contexts))


def answer_questions(llm: LLM, answer: str, n: int = ANSWER_QUESTIONS, *,
                     language: Language | None = None) -> tuple[list[str], bool]:
    """RAGAS answer relevancy's generation step: ``n`` questions the answer would answer,
    and whether the answer is noncommittal ("I don't know")."""
    out = llm.run(ANSWER_RELEVANCY, AnswerRelevancyInput(answer=answer, n=n), language or pick_language(answer))
    return list(out.questions), out.noncommittal == 1


def extract_entities(llm: LLM, text: str, role: Role = "text", *, language: Language | None = None) -> list[str]:
    """Policy entities found verbatim in ``text``, in order, each once. ``role`` is what
    the text is: question, answer, context, ground_truth (or just text)."""
    if not text.strip():
        return []
    out = llm.run(ENTITIES, EntitiesInput(text=text, role=role), language or pick_language(text))
    return list(dict.fromkeys(e.name for e in out.root))


def judge_1_5(llm: LLM, question: str, ground_truth: str, answer: str, *,
              language: Language | None = None) -> tuple[int, str]:
    """The 1–5 judge: a score against the ground truth and the reasoning."""
    out = llm.run(JUDGE_1_5, JudgeInput(question=question, ground_truth=ground_truth, answer=answer),
                  language or pick_language(question, answer))
    return out.score, out.reasoning


def rubric_1_10(llm: LLM, question: str, answer: str, documents: list[str] | None = None, *,
                language: Language | None = None) -> RubricResult:
    """The 1–10 rubric. With documents (non-empty) the answer is judged against the first
    of them (``rubric_documents``); without, in pure-LLM mode against established
    knowledge. The weighted score is ``RUBRIC_WEIGHTS`` over the three scores; passing =
    accuracy ≥ ``PASSING_ACCURACY``."""
    lang = language or pick_language(question, answer)
    documents = rubric_documents(documents)
    if documents:
        out = llm.run(RUBRIC_1_10, RubricInput(question=question, answer=answer, documents=documents), lang)
        return rubric_result(out, len(documents))
    out = llm.run(RUBRIC_1_10_PURE_LLM, PureRubricInput(question=question, answer=answer), lang)
    return rubric_result(out, 0)
