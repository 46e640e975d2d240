"""The LLM-backed operations the metrics call. Each takes an ``LLM`` (an ``LLMClient``
or anything with its ``run``), picks the prompt language from the material unless the
caller names it, and raises ``LLMError`` when the model gives no valid answer: out of
range or malformed output is re-asked once by the client, never clamped or defaulted.

``LLMEvaluator`` binds them to one model and memoises every result (and every failure)
by its inputs, so the metrics share them: statements are decomposed once per text and
verified once per (statements, evidence). Its ``prefetch`` fills the memo for whole
samples in a few batched calls (see ``SAMPLE_PLAN``), concurrently across samples; the
metrics then find every answer in the memo and make no call of their own."""

from __future__ import annotations

import asyncio
import hashlib
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel

from ragpipe.core.llm.client import LLM, LLMError, arun_any, run_sync
from ragpipe.core.llm.prompts import (ANSWER_ANALYSIS, ANSWER_RELEVANCY, CONTEXT_RELEVANCE, DECOMPOSE, ENTITIES,
                                      ENTITIES_BATCH, JUDGE_1_5, JUDGE_AND_RUBRIC, PROMPTS, RUBRIC_1_10,
                                      RUBRIC_1_10_PURE_LLM, VERIFY, VERIFY_BATCH, Language, pick_language)
from ragpipe.core.llm.prompts.answer_analysis import AnswerAnalysisInput
from ragpipe.core.llm.prompts.answer_relevancy import AnswerRelevancyInput
from ragpipe.core.llm.prompts.context_relevance import ContextRelevanceInput
from ragpipe.core.llm.prompts.decompose import DecomposeInput
from ragpipe.core.llm.prompts.entities import EntitiesBatchInput, EntitiesInput, EntityText, Role
from ragpipe.core.llm.prompts.judge import JudgeInput
from ragpipe.core.llm.prompts.judge_and_rubric import JudgeAndRubricInput
from ragpipe.core.llm.prompts.rubric import PureRubricInput, RubricInput, RubricOutput
from ragpipe.core.llm.prompts.verify import VerifyBatchInput, VerifyCheck, VerifyInput
from ragpipe.core.schemas import Verdict

PASSING_ACCURACY = 7
RUBRIC_WEIGHTS = {"accuracy": 0.5, "completeness": 0.3, "clarity": 0.2}
ANSWER_QUESTIONS = 3  # questions generated for answer relevancy (the metric's default)

# ---- which prompts each metric's value can come from (for the prompt hash) -------------
_STATEMENTS = ("answer_analysis", "statement_decomposition", "statement_verification_batch",
               "statement_verification")
_ENTITIES = ("entity_extraction_batch", "entity_extraction")
METRIC_PROMPTS: dict[str, tuple[str, ...]] = {
    "faithfulness": _STATEMENTS,
    "context_recall": _STATEMENTS,
    "answer_correctness": _STATEMENTS,
    "factual_correctness": _STATEMENTS,
    "noise_sensitivity": _STATEMENTS,
    "context_relevance": ("context_relevance",),
    "answer_relevancy": ("answer_analysis", "answer_relevancy"),
    "entity_coverage": _ENTITIES,
    "context_sufficiency": _ENTITIES,
    "unverified_entity_ratio": _ENTITIES,
    "hallucination_rate": _STATEMENTS + _ENTITIES,
    "overall_score": _STATEMENTS + _ENTITIES + ("answer_relevancy",),
    "llm_judge": ("judge_and_rubric", "llm_judge"),
    "rubric_1_10": ("judge_and_rubric", "rubric_1_10", "rubric_1_10_pure_llm"),
}

# ---- what prefetch asks per sample, and which metrics need which part ------------------
# Round 1, concurrently: "analysis" (answer_analysis: both texts' statements and answer
# relevancy's questions), "entities" (entity_extraction_batch: question, answer and the
# joined contexts), "relevance" (context_relevance: all contexts), "judges"
# (judge_and_rubric). Round 2: "verify" (statement_verification_batch: answer and ground
# truth statements against the contexts, answer statements against the ground truth,
# ground-truth statements against the answer). Five calls for the whole suite.
SAMPLE_PLAN = ("analysis", "entities", "relevance", "judges", "verify")
ROUND_1 = ("analysis", "judges", "entities", "relevance")  # the order round 1 is queued in
_STATEMENT_PARTS = ("analysis", "verify")
METRIC_PARTS: dict[str, tuple[str, ...]] = {
    "faithfulness": _STATEMENT_PARTS,
    "context_recall": _STATEMENT_PARTS,
    "answer_correctness": _STATEMENT_PARTS,
    "factual_correctness": _STATEMENT_PARTS,
    "noise_sensitivity": _STATEMENT_PARTS,
    "context_relevance": ("relevance",),
    "answer_relevancy": ("analysis",),
    "entity_coverage": ("entities",),
    "context_sufficiency": ("entities",),
    "unverified_entity_ratio": ("entities",),
    "hallucination_rate": _STATEMENT_PARTS + ("entities",),
    "overall_score": _STATEMENT_PARTS + ("entities",),
    "llm_judge": ("judges",),
    "rubric_1_10": ("judges",),
}


def metric_prompt_hashes(metric: str, language: Language) -> dict[str, str]:
    """``{prompt id: hash}`` of every prompt the metric's value can come from, in
    ``language`` (empty for offline-only metrics)."""
    return {PROMPTS[name].id: PROMPTS[name].hash(language) for name in METRIC_PROMPTS.get(metric, ())}


def metric_prompt_hash(metric: str, language: Language) -> str | None:
    """One hash over ``metric_prompt_hashes``: the prompt pack a score was produced with,
    to store beside it. None for a metric that uses no prompt."""
    hashes = metric_prompt_hashes(metric, language)
    if not hashes:
        return None
    material = "\n".join(f"{pid}:{h}" for pid, h in sorted(hashes.items()))
    return hashlib.sha256(f"{language}\n{material}".encode("utf-8")).hexdigest()


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


def _rubric_result(out: RubricOutput, mode: str) -> RubricResult:
    # integer arithmetic first, so that e.g. 7/8/9 gives exactly 7.7
    weighted = (5 * out.accuracy + 3 * out.completeness + 2 * out.clarity) / 10
    return RubricResult(accuracy=out.accuracy, completeness=out.completeness, clarity=out.clarity,
                        weighted_score=weighted, is_passing=out.accuracy >= PASSING_ACCURACY,
                        reason=out.reason, suggestion=out.suggestion, analysis=out.analysis, mode=mode)


def _passages(evidence: Iterable[str]) -> list[str]:
    return [e for e in evidence if e and e.strip()]


def _no_evidence(statements: Sequence[str]) -> list[Verdict]:
    return [Verdict(s, False, 0.0, "", "no evidence to check against") for s in statements]


def _verdicts(statements: Sequence[str], passages: Sequence[str], verdicts, offset: int = 0) -> list[Verdict]:
    """Verdict objects from the model's verdicts (``source`` numbers passages from
    ``offset + 1``)."""
    by_index = {v.index: v for v in verdicts}
    out = []
    for i, statement in enumerate(statements, 1):
        v = by_index[i]
        evidence = passages[v.source - 1 - offset] if v.source else ""
        out.append(Verdict(statement, v.verdict == 1, float(v.verdict), evidence, v.reason))
    return out


# ---- the operations as functions of a model --------------------------------------------
def context_relevance(llm: LLM, question: str, contexts: Sequence[str], *,
                      language: Language | None = None) -> list[tuple[bool, str]]:
    """For each context, in order: is it relevant to the question, and why (one call for all)."""
    contexts = list(contexts)
    if not contexts:
        return []
    out = llm.run(CONTEXT_RELEVANCE, ContextRelevanceInput(question=question, contexts=contexts),
                  language or pick_language(question))
    by_index = {c.index: c for c in out.contexts}
    return [(by_index[i].relevant, by_index[i].reason) for i in range(1, len(contexts) + 1)]


def answer_questions(llm: LLM, answer: str, n: int = ANSWER_QUESTIONS, *,
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


def rubric_1_10(llm: LLM, question: str, answer: str, documents: list[str] | None = None, *,
                language: Language | None = None) -> RubricResult:
    """Seed 003's 1–10 rubric. With documents (non-empty) the answer is judged against
    them; without, in pure-LLM mode against established knowledge.
    weighted_score = 0.5·accuracy + 0.3·completeness + 0.2·clarity; passing = accuracy ≥ 7."""
    lang = language or pick_language(question, answer)
    if documents:
        out = llm.run(RUBRIC_1_10, RubricInput(question=question, answer=answer, documents=list(documents)), lang)
        return _rubric_result(out, "with_documents")
    out = llm.run(RUBRIC_1_10_PURE_LLM, PureRubricInput(question=question, answer=answer), lang)
    return _rubric_result(out, "pure_llm")


# ---- memoised operations -----------------------------------------------------------------
class _Memo:
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
        self._memo = _Memo()

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
        passages = _passages(evidence)
        if not passages:
            return _no_evidence(statements)

        def call() -> tuple[Verdict, ...]:
            out = self.llm.run(VERIFY, VerifyInput(evidence=passages, statements=statements),
                               self._language(*statements))
            return tuple(_verdicts(statements, passages, out.verdicts))

        return list(self._memo.remember(("verdicts", tuple(statements), tuple(passages)), call))


@dataclass
class PrefetchReport:
    """What ``prefetch`` did: samples seen, batched calls made (cache hits included),
    single-prompt fallbacks after an invalid batched reply, and failures by part."""

    samples: int = 0
    batched_calls: int = 0
    fallback_calls: int = 0
    failures: dict[str, int] = field(default_factory=dict)

    def failed(self, part: str) -> None:
        self.failures[part] = self.failures.get(part, 0) + 1


class LLMEvaluator(LLMVerifier):
    """Every LLM-backed operation behind one object bound to a model and, optionally, a
    prompt language: what ``Toolkit(llm=...)`` takes. The methods are the module's
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
            context_relevance(self.llm, question, contexts, language=self.language))))

    def answer_questions(self, answer: str, n: int = ANSWER_QUESTIONS) -> tuple[list[str], bool]:
        questions, noncommittal = self._memo.remember(("questions", answer, n), lambda: _frozen_questions(
            answer_questions(self.llm, answer, n, language=self.language)))
        return list(questions), noncommittal

    def extract_entities(self, text: str, role: Role = "text") -> list[str]:
        if not text.strip():
            return []
        return list(self._memo.remember(("entities", text), lambda: tuple(
            extract_entities(self.llm, text, role, language=self.language))))

    def judge_1_5(self, question: str, ground_truth: str, answer: str) -> tuple[int, str]:
        return self._memo.remember(("judge", question, ground_truth, answer), lambda: judge_1_5(
            self.llm, question, ground_truth, answer, language=self.language))

    def rubric_1_10(self, question: str, answer: str, documents: list[str] | None = None) -> RubricResult:
        key = ("rubric", question, answer, tuple(documents) if documents else None)
        return self._memo.remember(key, lambda: rubric_1_10(self.llm, question, answer, documents,
                                                            language=self.language)).model_copy()

    # ---- provenance and accounting ---------------------------------------------------------
    def prompt_hashes(self, metric: str, language: Language | None = None) -> dict[str, str]:
        """``{prompt id: hash}`` of the prompts behind ``metric``'s value, in the
        evaluator's language (or ``language``)."""
        return metric_prompt_hashes(metric, self._pack_language(language))

    def prompt_hash(self, metric: str, language: Language | None = None) -> str | None:
        """The one hash to store with each of ``metric``'s scores (see ``metric_prompt_hash``)."""
        return metric_prompt_hash(metric, self._pack_language(language))

    def _pack_language(self, language: Language | None) -> Language:
        lang = language or self.language
        if lang is None:
            raise ValueError("the evaluator picks the language per sample; name the language of the prompt pack")
        return lang

    def stats(self):
        """The client's counters (``LLMStats``), when the model has them."""
        return self.llm.stats() if hasattr(self.llm, "stats") else None

    # ---- prefetch ----------------------------------------------------------------------
    def prefetch(self, cases: Iterable[Any], metrics: Iterable[str] | None = None) -> PrefetchReport:
        """Answer, for every case, what the given metrics (default: all) will ask, in at
        most five batched calls per case (``SAMPLE_PLAN``), all cases concurrently within
        the client's limits. Results and failures land in the memo; nothing is raised.

        A case is anything with ``question``, ``answer``, ``ground_truth_answer`` and
        ``retrieved_contexts`` (``EvalCase``); a case with ``bot_error`` is skipped, as the
        metrics skip it. The batched requests depend only on the case, never on the
        metrics asked for, so separate processes (one per score asset) share them through
        the cache. A batched reply that stays invalid after its re-ask falls back to the
        single prompts; any other failure is remembered for every result of that part."""
        parts = set(SAMPLE_PLAN) if metrics is None else {
            p for m in metrics for p in METRIC_PARTS.get(m, ())}
        cases = [c for c in cases if not getattr(c, "bot_error", None)]
        report = PrefetchReport(samples=len(cases))
        if not cases or not parts:
            return report

        async def all_cases() -> None:
            # Round-1 requests are queued part by part across the cases (all analyses, then
            # all judges …), so that a local server that keeps the previous request's
            # prefix (llama.cpp) re-evaluates only the material; each case's round 2 starts
            # as soon as its own analysis is in.
            started: dict[tuple[int, str], asyncio.Future] = {}
            for part in ROUND_1:
                for n, case in enumerate(cases):
                    coro = self._round1(part, case, parts, report)
                    if coro is not None:
                        started[(n, part)] = asyncio.ensure_future(coro)

            async def round2(n: int, case: Any) -> None:
                if (n, "analysis") in started:
                    await started[(n, "analysis")]
                await self._prefetch_verify(case.answer or "", case.ground_truth_answer or "",
                                            list(case.retrieved_contexts or []), self._case_language(case), report)

            verify = [round2(n, c) for n, c in enumerate(cases)] if "verify" in parts else []
            await asyncio.gather(*started.values(), *verify)

        run_sync(self.llm, all_cases)
        return report

    async def _call(self, prompt, inputs, language: Language, report: PrefetchReport, *, fallback: bool = False):
        if fallback:
            report.fallback_calls += 1
        else:
            report.batched_calls += 1
        return await arun_any(self.llm, prompt, inputs, language)

    def _case_language(self, case: Any) -> Language:
        return self._language(case.question or "", case.answer or "")

    def _round1(self, part: str, case: Any, parts: set[str], report: PrefetchReport):
        """The coroutine of one round-1 part for one case, or None when it has nothing to ask."""
        question = case.question or ""
        answer = case.answer or ""
        truth = case.ground_truth_answer or ""
        contexts = list(case.retrieved_contexts or [])
        lang = self._case_language(case)
        if part == "analysis" and parts & {"analysis", "verify"} and answer.strip():
            return self._prefetch_analysis(answer, truth, lang, report)
        if part == "judges" and part in parts and question and answer:
            return self._prefetch_judges(question, truth, answer, contexts, lang, report)
        if part == "entities" and part in parts:
            return self._prefetch_entities(question, answer, contexts, lang, report)
        if part == "relevance" and part in parts and question and contexts:
            return self._prefetch_relevance(question, contexts, lang, report)
        return None

    async def _single(self, key: tuple, make, report: PrefetchReport) -> None:
        """A single prompt's result (or failure) into the memo, unless already known."""
        if key in self._memo:
            return
        try:
            value = await make()
        except LLMError as exc:
            value = exc
        self._memo.put(key, value)

    def _remember_failure(self, keys: Iterable[tuple], exc: LLMError) -> None:
        for key in keys:
            self._memo.put(key, exc)

    async def _prefetch_analysis(self, answer: str, truth: str, lang: Language, report: PrefetchReport) -> None:
        keys = [("statements", answer), ("questions", answer, ANSWER_QUESTIONS)]
        if truth.strip():
            keys.append(("statements", truth))
        if all(k in self._memo for k in keys):
            return
        try:
            out = await self._call(ANSWER_ANALYSIS, AnswerAnalysisInput(answer=answer, ground_truth=truth,
                                                                        n=ANSWER_QUESTIONS), lang, report)
        except LLMError as exc:
            report.failed("analysis")
            if exc.kind != "invalid_output":
                return self._remember_failure(keys, exc)
            # the single prompts, each in the language a direct call would pick
            singles = [self._single(("statements", t), lambda t=t: self._decompose_async(t, report), report)
                       for t in dict.fromkeys(t for t in (answer, truth) if t.strip())]
            singles.append(self._single(("questions", answer, ANSWER_QUESTIONS),
                                        lambda: self._questions_async(answer, report), report))
            await asyncio.gather(*singles)
            return
        self._memo.put(("statements", answer), tuple(out.answer_statements))
        if truth.strip():
            self._memo.put(("statements", truth), tuple(out.ground_truth_statements))
        self._memo.put(("questions", answer, ANSWER_QUESTIONS), (tuple(out.questions), out.noncommittal == 1))

    async def _decompose_async(self, text: str, report: PrefetchReport) -> tuple[str, ...]:
        out = await self._call(DECOMPOSE, DecomposeInput(text=text), self._language(text), report, fallback=True)
        return tuple(out.statements)

    async def _questions_async(self, answer: str, report: PrefetchReport) -> tuple[tuple[str, ...], bool]:
        out = await self._call(ANSWER_RELEVANCY, AnswerRelevancyInput(answer=answer, n=ANSWER_QUESTIONS),
                               self.language or pick_language(answer), report, fallback=True)
        return tuple(out.questions), out.noncommittal == 1

    async def _prefetch_entities(self, question: str, answer: str, contexts: list[str], lang: Language,
                                 report: PrefetchReport) -> None:
        # The texts the entity metrics ask about: the question, the answer, the contexts
        # joined by newlines (as context_sufficiency joins them).
        texts: dict[str, Role] = {}
        for text, role in ((question, "question"), (answer, "answer"), ("\n".join(contexts), "context")):
            if text.strip() and text not in texts:
                texts[text] = role
        keys = [("entities", t) for t in texts]
        if not keys or all(k in self._memo for k in keys):
            return
        items = [EntityText(role=role, text=text) for text, role in texts.items()]
        try:
            out = await self._call(ENTITIES_BATCH, EntitiesBatchInput(texts=items), lang, report)
        except LLMError as exc:
            report.failed("entities")
            if exc.kind != "invalid_output":
                return self._remember_failure(keys, exc)
            await asyncio.gather(*(self._single(
                ("entities", t.text), lambda t=t: self._entities_async(t.text, report), report) for t in items))
            return
        by_index = {t.index: t for t in out.texts}
        for i, item in enumerate(items, 1):
            self._memo.put(("entities", item.text), tuple(dict.fromkeys(e.name for e in by_index[i].entities)))

    async def _entities_async(self, text: str, report: PrefetchReport) -> tuple[str, ...]:
        # role "text", as Toolkit.entities asks, so that the request equals a direct call's
        out = await self._call(ENTITIES, EntitiesInput(text=text, role="text"), self.language or pick_language(text),
                               report, fallback=True)
        return tuple(dict.fromkeys(e.name for e in out.root))

    async def _prefetch_relevance(self, question: str, contexts: list[str], lang: Language,
                                  report: PrefetchReport) -> None:
        key = ("relevance", question, tuple(contexts))
        if key in self._memo:
            return
        language = self.language or pick_language(question)  # as a direct call picks it: same request
        try:
            out = await self._call(CONTEXT_RELEVANCE, ContextRelevanceInput(question=question, contexts=contexts),
                                   language, report)
        except LLMError as exc:
            report.failed("relevance")
            self._memo.put(key, exc)
            return
        by_index = {c.index: c for c in out.contexts}
        self._memo.put(key, tuple((by_index[i].relevant, by_index[i].reason) for i in range(1, len(contexts) + 1)))

    async def _prefetch_judges(self, question: str, truth: str, answer: str, contexts: list[str], lang: Language,
                               report: PrefetchReport) -> None:
        documents = list(contexts)
        judge_key = ("judge", question, truth, answer)
        rubric_key = ("rubric", question, answer, tuple(documents) if documents else None)
        singles = []
        if truth and documents:
            if judge_key in self._memo and rubric_key in self._memo:
                return
            try:
                out = await self._call(JUDGE_AND_RUBRIC, JudgeAndRubricInput(
                    question=question, ground_truth=truth, documents=documents, answer=answer), lang, report)
            except LLMError as exc:
                report.failed("judges")
                if exc.kind != "invalid_output":
                    return self._remember_failure([judge_key, rubric_key], exc)
            else:
                self._memo.put(judge_key, (out.judge.score, out.judge.reasoning))
                self._memo.put(rubric_key, _rubric_result(out.rubric, "with_documents"))
                return
            fallback = True
        else:
            fallback = False  # the sample cannot use the combined prompt: the single prompts are the plan
        if truth:
            singles.append(self._single(judge_key, lambda: self._judge_async(question, truth, answer, report,
                                                                            fallback), report))
        singles.append(self._single(rubric_key, lambda: self._rubric_async(question, answer, documents, report,
                                                                          fallback), report))
        await asyncio.gather(*singles)

    async def _judge_async(self, question, truth, answer, report, fallback) -> tuple[int, str]:
        out = await self._call(JUDGE_1_5, JudgeInput(question=question, ground_truth=truth, answer=answer),
                               self.language or pick_language(question, answer), report, fallback=fallback)
        return out.score, out.reasoning

    async def _rubric_async(self, question, answer, documents, report, fallback) -> RubricResult:
        lang = self.language or pick_language(question, answer)
        if documents:
            out = await self._call(RUBRIC_1_10, RubricInput(question=question, answer=answer, documents=documents),
                                   lang, report, fallback=fallback)
            return _rubric_result(out, "with_documents")
        out = await self._call(RUBRIC_1_10_PURE_LLM, PureRubricInput(question=question, answer=answer), lang, report,
                               fallback=fallback)
        return _rubric_result(out, "pure_llm")

    async def _prefetch_verify(self, answer: str, truth: str, contexts: list[str], lang: Language,
                               report: PrefetchReport) -> None:
        """Round 2: every (statements, evidence) pair the statement metrics check, in one call."""
        statements = {}
        for text in (answer, truth):
            known = self._memo.get(("statements", text)) if text.strip() else None
            statements[text] = known if isinstance(known, tuple) else ()
        passages = _passages(contexts)
        # (statements, evidence texts) in a fixed order: a pure function of the case; with
        # statement filters, their filtered lists too (metrics that drop non-claims verify those)
        wanted: list[tuple[tuple[str, ...], list[str]]] = []
        for text, evidence in ((answer, passages), (truth, passages), (answer, _passages([truth])),
                               (truth, _passages([answer]))):
            variants = [statements[text]] + [tuple(f(statements[text])) for f in self.statement_filters]
            for stmts in variants:
                if stmts and evidence and (stmts, evidence) not in wanted:
                    wanted.append((stmts, evidence))
        keys = [("verdicts", s, tuple(e)) for s, e in wanted]
        if not keys or all(k in self._memo for k in keys):
            return
        pool: list[str] = []
        for _, evidence in wanted:
            for text in evidence:
                if text not in pool:
                    pool.append(text)
        checks = [VerifyCheck(statements=list(s), passages=[pool.index(t) + 1 for t in e]) for s, e in wanted]
        try:
            out = await self._call(VERIFY_BATCH, VerifyBatchInput(passages=pool, checks=checks), lang, report)
        except LLMError as exc:
            report.failed("verify")
            if exc.kind != "invalid_output":
                return self._remember_failure(keys, exc)
            await asyncio.gather(*(self._single(key, lambda s=s, e=e: self._verify_async(s, e, report), report)
                                   for key, (s, e) in zip(keys, wanted)))
            return
        by_check = {c.check: c for c in out.checks}
        for k, (key, (stmts, evidence)) in enumerate(zip(keys, wanted), 1):
            by_index = {v.index: v for v in by_check[k].verdicts}
            verdicts = []
            for i, statement in enumerate(stmts, 1):
                v = by_index[i]
                verdicts.append(Verdict(statement, v.verdict == 1, float(v.verdict),
                                        pool[v.source - 1] if v.source else "", v.reason))
            self._memo.put(key, tuple(verdicts))

    async def _verify_async(self, statements: tuple[str, ...], passages: list[str],
                            report: PrefetchReport) -> tuple[Verdict, ...]:
        out = await self._call(VERIFY, VerifyInput(evidence=passages, statements=list(statements)),
                               self._language(*statements), report, fallback=True)
        return tuple(_verdicts(statements, passages, out.verdicts))


def _frozen_questions(result: tuple[list[str], bool]) -> tuple[tuple[str, ...], bool]:
    questions, noncommittal = result
    return tuple(questions), noncommittal
