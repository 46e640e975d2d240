"""The LLM-backed operations the metrics call. Each takes an ``LLM`` (an ``LLMClient``
or anything with its ``run``), picks the prompt language from the material unless the
caller names it, and raises ``LLMError`` when the model gives no valid answer: out of
range or malformed output is re-asked once by the client, never clamped or defaulted."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel

from ragpipe.core.llm.client import LLM, LLMError
from ragpipe.core.llm.prompts import (ANSWER_RELEVANCY, CONTEXT_RELEVANCE, DECOMPOSE, ENTITIES, JUDGE_1_5,
                                      RUBRIC_1_10, RUBRIC_1_10_PURE_LLM, VERIFY, Language, pick_language)
from ragpipe.core.llm.prompts.answer_relevancy import AnswerRelevancyInput
from ragpipe.core.llm.prompts.context_relevance import ContextRelevanceInput
from ragpipe.core.llm.prompts.decompose import DecomposeInput
from ragpipe.core.llm.prompts.entities import EntitiesInput, Role
from ragpipe.core.llm.prompts.judge import JudgeInput
from ragpipe.core.llm.prompts.rubric import PureRubricInput, RubricInput
from ragpipe.core.llm.prompts.verify import VerifyInput
from ragpipe.core.schemas import Verdict

PASSING_ACCURACY = 7
RUBRIC_WEIGHTS = {"accuracy": 0.5, "completeness": 0.3, "clarity": 0.2}


class LLMVerifier:
    """Statement decomposition and verification with an LLM, the counterpart of
    ``ragpipe.core.evidence.OfflineVerifier``.

    A text is decomposed once per verifier: faithfulness, noise sensitivity, factual
    correctness and context recall share the statements. A failed decomposition is
    remembered as well, so every metric reports the same error without calling again."""

    def __init__(self, llm: LLM, language: Language | None = None):
        self.llm = llm
        self.language = language
        self._statements: dict[str, tuple[str, ...] | LLMError] = {}
        self._lock = threading.Lock()

    def _language(self, *texts: str) -> Language:
        return self.language or pick_language(*texts)

    def decompose(self, text: str) -> list[str]:
        """Atomic, self-contained statements of ``text`` (an empty text has none)."""
        with self._lock:
            known = self._statements.get(text)
        if known is None:
            if not text.strip():
                known = ()
            else:
                try:
                    out = self.llm.run(DECOMPOSE, DecomposeInput(text=text), self._language(text))
                    known = tuple(out.statements)
                except LLMError as exc:
                    known = exc
            with self._lock:
                known = self._statements.setdefault(text, known)
        if isinstance(known, LLMError):
            raise known
        return list(known)

    def verify(self, statements: Sequence[str], evidence: list[str]) -> list[Verdict]:
        """One verdict per statement, in order: supported (score 1.0) or not (0.0), the
        passage the verdict rests on, and the model's reason. Without evidence nothing
        is supported and no call is made."""
        statements = list(statements)
        if not statements:
            return []
        passages = [e for e in evidence if e and e.strip()]
        if not passages:
            return [Verdict(s, False, 0.0, "", "no evidence to check against") for s in statements]
        out = self.llm.run(VERIFY, VerifyInput(evidence=passages, statements=statements),
                           self._language(*statements))
        by_index = {v.index: v for v in out.verdicts}
        verdicts = []
        for i, statement in enumerate(statements, 1):
            v = by_index[i]
            verdicts.append(Verdict(statement, v.verdict == 1, float(v.verdict),
                                    passages[v.source - 1] if v.source else "", v.reason))
        return verdicts


def context_relevance(llm: LLM, question: str, contexts: Sequence[str], *,
                      language: Language | None = None) -> list[tuple[bool, str]]:
    """For each context, in order: is it relevant to the question, and why (one call each)."""
    lang = language or pick_language(question)
    results = []
    for context in contexts:
        out = llm.run(CONTEXT_RELEVANCE, ContextRelevanceInput(question=question, context=context), lang)
        results.append((out.relevant, out.reason))
    return results


def answer_questions(llm: LLM, answer: str, n: int = 3, *,
                     language: Language | None = None) -> tuple[list[str], bool]:
    """RAGAS answer relevancy's generation step: ``n`` questions the answer would answer,
    and whether the answer is noncommittal ("I don't know")."""
    out = llm.run(ANSWER_RELEVANCY, AnswerRelevancyInput(answer=answer, n=n), language or pick_language(answer))
    return list(out.questions), out.noncommittal == 1


def extract_entities(llm: LLM, text: str, role: Role = "text", *, language: Language | None = None) -> list[str]:
    """Policy entities found verbatim in ``text`` (seed 000), in order, each once.
    ``role`` is what the text is: question, answer, context, ground_truth (or just text)."""
    if not text.strip():
        return []
    out = llm.run(ENTITIES, EntitiesInput(text=text, role=role), language or pick_language(text))
    return list(dict.fromkeys(e.name for e in out.root))


def judge_1_5(llm: LLM, question: str, ground_truth: str, answer: str, *,
              language: Language | None = None) -> tuple[int, str]:
    """Seed 002's judge: a 1–5 score against the ground truth and the reasoning."""
    out = llm.run(JUDGE_1_5, JudgeInput(question=question, ground_truth=ground_truth, answer=answer),
                  language or pick_language(question, answer))
    return out.score, out.reasoning


class RubricResult(BaseModel):
    """Seed 003's rubric. The model gives the three scores and the text fields;
    ``weighted_score`` and ``is_passing`` are computed here."""

    accuracy: int
    completeness: int
    clarity: int
    weighted_score: float
    is_passing: bool
    reason: str
    suggestion: str
    analysis: str
    mode: Literal["with_documents", "pure_llm"]


def rubric_1_10(llm: LLM, question: str, answer: str, documents: list[str] | None = None, *,
                language: Language | None = None) -> RubricResult:
    """Seed 003's 1–10 rubric. With documents (non-empty) the answer is judged against
    them; without, in pure-LLM mode against established knowledge.
    weighted_score = 0.5·accuracy + 0.3·completeness + 0.2·clarity; passing = accuracy ≥ 7."""
    lang = language or pick_language(question, answer)
    if documents:
        mode = "with_documents"
        out = llm.run(RUBRIC_1_10, RubricInput(question=question, answer=answer, documents=list(documents)), lang)
    else:
        mode = "pure_llm"
        out = llm.run(RUBRIC_1_10_PURE_LLM, PureRubricInput(question=question, answer=answer), lang)
    # integer arithmetic first, so that e.g. 7/8/9 gives exactly 7.7
    weighted = (5 * out.accuracy + 3 * out.completeness + 2 * out.clarity) / 10
    return RubricResult(accuracy=out.accuracy, completeness=out.completeness, clarity=out.clarity,
                        weighted_score=weighted, is_passing=out.accuracy >= PASSING_ACCURACY,
                        reason=out.reason, suggestion=out.suggestion, analysis=out.analysis, mode=mode)


class LLMEvaluator(LLMVerifier):
    """Every LLM-backed operation behind one object bound to a model and, optionally, a
    prompt language: what ``Toolkit(llm=...)`` takes. The methods are the module's
    functions with the model and language filled in."""

    def context_relevance(self, question: str, contexts: Sequence[str]) -> list[tuple[bool, str]]:
        return context_relevance(self.llm, question, contexts, language=self.language)

    def answer_questions(self, answer: str, n: int = 3) -> tuple[list[str], bool]:
        return answer_questions(self.llm, answer, n, language=self.language)

    def extract_entities(self, text: str, role: Role = "text") -> list[str]:
        return extract_entities(self.llm, text, role, language=self.language)

    def judge_1_5(self, question: str, ground_truth: str, answer: str) -> tuple[int, str]:
        return judge_1_5(self.llm, question, ground_truth, answer, language=self.language)

    def rubric_1_10(self, question: str, answer: str, documents: list[str] | None = None) -> RubricResult:
        return rubric_1_10(self.llm, question, answer, documents, language=self.language)
