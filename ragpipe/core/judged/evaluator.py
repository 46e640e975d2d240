"""``LLMEvaluator``: every LLM-backed operation bound to one model, memoised by its inputs
(results and failures), so the metrics share them: statements are decomposed once per
text and verified once per (statements, evidence). Its ``prefetch`` (``prefetch.py``)
fills the memo for whole samples in a few batched calls; the metrics then find every
answer in the memo and make no call of their own.

What a metric asks of the judge is declared on the metric (``Metric.judge``, a
``JudgeUse``); the caller hands it to the prompt hash and the prefetch, so nothing here
reads the metric registry."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from pydantic import BaseModel

from ragpipe.core.judged import operations as ops
from ragpipe.core.judged.operations import ANSWER_QUESTIONS, RubricResult
from ragpipe.core.judged.prefetch import EVERY_PART, JudgeUse, PrefetchReport, Prefetcher
from ragpipe.core.judged.prompts import DECOMPOSE, VERIFY, Language, Prompt, pick_language
from ragpipe.core.judged.prompts.decompose import DecomposeInput
from ragpipe.core.judged.prompts.entities import Role
from ragpipe.core.judged.prompts.verify import VerifyInput
from ragpipe.core.llm.settings import LLM, LLMError
from ragpipe.core.schemas import Verdict


class Memo:
    """Results and failures by key, shared by threads; a failure is re-raised as is."""

    def __init__(self):
        self._values: dict[tuple, Any] = {}
        self._lock = threading.Lock()

    def get(self, key: tuple) -> Any:
        with self._lock:
            return self._values.get(key)

    def __contains__(self, key: tuple) -> bool:
        with self._lock:
            return key in self._values

    def put(self, key: tuple, value: Any) -> Any:
        """Store unless already known; the value now known."""
        with self._lock:
            return self._values.setdefault(key, value)

    def remember(self, key: tuple, compute: Callable[[], Any]) -> Any:
        known = self.get(key)
        if known is None:
            try:
                known = compute()
            except LLMError as exc:
                known = exc
            known = self.put(key, known)
        if isinstance(known, LLMError):
            raise known
        return known

    def __len__(self) -> int:
        with self._lock:
            return len(self._values)


class LLMVerifier:
    """Statement decomposition and verification with an LLM, the counterpart of
    ``ragpipe.core.evidence.support.OfflineVerifier``.

    A text is decomposed once per verifier, and a list of statements verified once per
    evidence: faithfulness, noise sensitivity, factual and answer correctness and context
    recall share them. A failure is remembered as well, so every metric reports the same
    error without calling again."""

    def __init__(self, llm: LLM, language: Language | None = None):
        self.llm = llm
        self.language = language
        self._memo = Memo()

    def _language(self, *texts: str | None) -> Language:
        return self.language or pick_language(*texts)

    def decompose(self, text: str) -> list[str]:
        """Atomic, self-contained statements of ``text`` (an empty text has none)."""
        if not text.strip():
            return []
        return list(self._memo.remember(("statements", text), lambda: tuple(
            self.llm.run(DECOMPOSE, DecomposeInput(text=text), self._language(text)).statements)))

    def verify(self, statements: Sequence[str], evidence: Sequence[str]) -> list[Verdict]:
        """One verdict per statement, in order: supported (score 1.0) or not (0.0), the
        passage the verdict rests on, and the model's reason. Without evidence nothing
        is supported and no call is made."""
        statements = list(statements)
        if not statements:
            return []
        passages = ops.passages(evidence)
        if not passages:
            return ops.no_evidence(statements)

        def call() -> tuple[Verdict, ...]:
            out = self.llm.run(VERIFY, VerifyInput(evidence=passages, statements=statements),
                               self._language(*statements))
            return tuple(ops.verdicts(statements, passages, out.verdicts))

        return list(self._memo.remember(("verdicts", tuple(statements), tuple(passages)), call))


class LLMEvaluator(LLMVerifier):
    """Every LLM-backed operation behind one object bound to a model and, optionally, a
    prompt language: what ``Toolkit(llm=...)`` takes. The methods are ``operations``'
    functions with the model and language filled in, memoised by their inputs; call
    ``prefetch(cases)`` first to answer a whole sample set in five calls per sample.

    ``statement_filters``: when metrics verify filtered lists of a text's statements
    (e.g. without list markers), set them to the same functions so that prefetch verifies
    those lists too (in the same call)."""

    statement_filters: tuple[Callable[[Sequence[str]], Sequence[str]], ...] = ()

    # ---- the public operations (the metrics call these) ---------------------------------
    def context_relevance(self, question: str, contexts: Sequence[str]) -> list[tuple[bool, str]]:
        contexts = list(contexts)
        if not contexts:
            return []
        return list(self._memo.remember(("relevance", question, tuple(contexts)), lambda: tuple(
            ops.context_relevance(self.llm, question, contexts, language=self.language))))

    def answer_questions(self, answer: str, n: int = ANSWER_QUESTIONS) -> tuple[list[str], bool]:
        def call() -> tuple[tuple[str, ...], bool]:
            questions, noncommittal = ops.answer_questions(self.llm, answer, n, language=self.language)
            return tuple(questions), noncommittal

        questions, noncommittal = self._memo.remember(("questions", answer, n), call)
        return list(questions), noncommittal

    def extract_entities(self, text: str, role: Role = "text") -> list[str]:
        if not text.strip():
            return []
        return list(self._memo.remember(("entities", text), lambda: tuple(
            ops.extract_entities(self.llm, text, role, language=self.language))))

    def judge_1_5(self, question: str, ground_truth: str, answer: str) -> tuple[int, str]:
        return self._memo.remember(("judge", question, ground_truth, answer), lambda: ops.judge_1_5(
            self.llm, question, ground_truth, answer, language=self.language))

    def rubric_1_10(self, question: str, answer: str, documents: list[str] | None = None) -> RubricResult:
        documents = ops.rubric_documents(documents)
        key = ("rubric", question, answer, tuple(documents) if documents else None)
        return self._memo.remember(key, lambda: ops.rubric_1_10(self.llm, question, answer, documents,
                                                                language=self.language)).model_copy()

    def ask(self, prompt: Prompt, inputs: BaseModel, *texts: str) -> BaseModel:
        """Any prompt's validated output, memoised by (prompt, inputs): the way a metric
        with a prompt of its own asks it. The language is the evaluator's, else picked
        from ``texts``."""
        key = ("ask", prompt.id, inputs.model_dump_json())
        return self._memo.remember(key, lambda: self.llm.run(prompt, inputs, self._language(*texts)))

    # ---- provenance and accounting ---------------------------------------------------------
    def prompt_hashes(self, use: JudgeUse, language: Language | None = None) -> dict[str, str]:
        """``{prompt id: hash}`` of the prompts behind a value (``use``: the metric's
        ``Metric.judge``), in the evaluator's language (or ``language``)."""
        return use.prompt_hashes(self._pack_language(language))

    def prompt_hash(self, use: JudgeUse, language: Language | None = None) -> str | None:
        """The one hash to store with each score of a metric that asks ``use``."""
        return use.prompt_hash(self._pack_language(language))

    def _pack_language(self, language: Language | None) -> Language:
        lang = language or self.language
        if lang is None:
            raise ValueError("the evaluator picks the language per sample; name the language of the prompt pack")
        return lang

    def stats(self):
        """The client's counters (``LLMStats``), when the model has them."""
        return self.llm.stats() if hasattr(self.llm, "stats") else None

    def prefetch(self, cases: Iterable[Any], use: JudgeUse = EVERY_PART) -> PrefetchReport:
        """Answer, for every case, what ``use`` asks (default: every part; a caller hands
        the sum of its metrics' ``Metric.judge``), in at most five batched calls per case;
        see ``prefetch.Prefetcher.run``."""
        return Prefetcher(self).run(cases, use)
