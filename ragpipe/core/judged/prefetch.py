"""The prefetch planner: what the metrics will ask of the judge for a set of samples,
asked in at most five batched calls per sample, all samples concurrently within the
client's limits, the results (and failures) put into the evaluator's memo.

Round 1, concurrently: "analysis" (answer_analysis: both texts' statements and answer
relevancy's questions), "entities" (entity_extraction_batch: question, answer and the
joined contexts), "relevance" (context_relevance: all contexts), "judges"
(judge_and_rubric). Round 2: "verify" (statement_verification_batch: answer and ground
truth statements against the contexts, answer statements against the ground truth,
ground-truth statements against the answer). Which parts a metric needs it declares
itself (``Metric.judge``); its caller hands the sum of them in."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ragpipe.core.judged import operations as ops
from ragpipe.core.llm.client import arun_any, run_sync
from ragpipe.core.judged.operations import ANSWER_QUESTIONS, RubricResult
from ragpipe.core.llm.prompt import Prompt
from ragpipe.core.judged.prompts import (ANSWER_ANALYSIS, ANSWER_RELEVANCY, CONTEXT_RELEVANCE, DECOMPOSE, ENTITIES,
                                      ENTITIES_BATCH, JUDGE_1_5, JUDGE_AND_RUBRIC, RUBRIC_1_10,
                                      RUBRIC_1_10_PURE_LLM, VERIFY, VERIFY_BATCH, Language, pick_language)
from ragpipe.core.judged.prompts.answer_analysis import AnswerAnalysisInput
from ragpipe.core.judged.prompts.answer_relevancy import AnswerRelevancyInput
from ragpipe.core.judged.prompts.context_relevance import ContextRelevanceInput
from ragpipe.core.judged.prompts.decompose import DecomposeInput
from ragpipe.core.judged.prompts.entities import EntitiesBatchInput, EntitiesInput, EntityText, Role
from ragpipe.core.judged.prompts.judge import JudgeInput
from ragpipe.core.judged.prompts.judge_and_rubric import JudgeAndRubricInput
from ragpipe.core.judged.prompts.rubric import PureRubricInput, RubricInput
from ragpipe.core.judged.prompts.verify import VerifyBatchInput, VerifyCheck, VerifyInput
from ragpipe.core.llm.settings import LLMError
from ragpipe.core.schemas import Verdict

SAMPLE_PLAN = ("analysis", "entities", "relevance", "judges", "verify")
ROUND_1 = ("analysis", "judges", "entities", "relevance")  # the order round 1 is queued in


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


@dataclass(frozen=True)
class JudgeUse:
    """What a caller asks of the LLM judge: the prefetch parts that answer it ahead of
    scoring (``SAMPLE_PLAN``) and every prompt a value can come from (the batched prompts
    and their single-prompt fallbacks: the score's prompt hash). A metric declares its
    own (``Metric.judge``); ``+`` joins two uses (a composite metric asks what its parts
    ask, a run what all its metrics ask)."""

    parts: tuple[str, ...] = ()
    prompts: tuple[Prompt, ...] = ()

    def __post_init__(self):
        unknown = set(self.parts) - set(SAMPLE_PLAN)
        if unknown:
            raise ValueError(f"unknown prefetch parts {sorted(unknown)}; the plan has {SAMPLE_PLAN}")

    def __add__(self, other: "JudgeUse") -> "JudgeUse":
        prompts = {p.id: p for p in (*self.prompts, *other.prompts)}
        return JudgeUse(tuple(dict.fromkeys(self.parts + other.parts)), tuple(prompts.values()))

    def prompt_hashes(self, language: Language) -> dict[str, str]:
        """``{prompt id: hash}`` of every prompt a value can come from, in ``language``
        (empty for an offline-only metric)."""
        return {p.id: p.hash(language) for p in self.prompts}

    def prompt_hash(self, language: Language) -> str | None:
        """One hash over ``prompt_hashes``: the prompt pack a score was produced with, to
        store beside it. None when no prompt is used."""
        hashes = self.prompt_hashes(language)
        if not hashes:
            return None
        material = "\n".join(f"{pid}:{h}" for pid, h in sorted(hashes.items()))
        return hashlib.sha256(f"{language}\n{material}".encode("utf-8")).hexdigest()


EVERY_PART = JudgeUse(SAMPLE_PLAN)


class Prefetcher:
    """One prefetch over an evaluator (``LLMEvaluator``): its model, language, statement
    filters and memo."""

    def __init__(self, evaluator: Any):
        self.ev = evaluator
        self.memo = evaluator._memo

    def run(self, cases: Iterable[Any], use: JudgeUse = EVERY_PART) -> PrefetchReport:
        """Answer, for every case, what ``use`` (default: every part) asks. Results
        and failures land in the memo; nothing is raised.

        A case is anything with ``question``, ``answer``, ``ground_truth_answer`` and
        ``retrieved_contexts`` (``EvalCase``); a case with ``bot_error`` is skipped, as the
        metrics skip it. The batched requests depend only on the case, never on the
        metrics asked for, so separate processes (one per score asset) share them through
        the cache. A batched reply that stays invalid after its re-ask falls back to the
        single prompts; any other failure is remembered for every result of that part."""
        parts = set(use.parts)
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

        run_sync(self.ev.llm, all_cases)
        return report

    async def _call(self, prompt, inputs, language: Language, report: PrefetchReport, *, fallback: bool = False):
        if fallback:
            report.fallback_calls += 1
        else:
            report.batched_calls += 1
        return await arun_any(self.ev.llm, prompt, inputs, language)

    def _case_language(self, case: Any) -> Language:
        return self.ev._language(case.question or "", case.answer or "")

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
        if key in self.memo:
            return
        try:
            value = await make()
        except LLMError as exc:
            value = exc
        self.memo.put(key, value)

    def _remember_failure(self, keys: Iterable[tuple], exc: LLMError) -> None:
        for key in keys:
            self.memo.put(key, exc)

    async def _prefetch_analysis(self, answer: str, truth: str, lang: Language, report: PrefetchReport) -> None:
        keys = [("statements", answer), ("questions", answer, ANSWER_QUESTIONS)]
        if truth.strip():
            keys.append(("statements", truth))
        if all(k in self.memo for k in keys):
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
        self.memo.put(("statements", answer), tuple(out.answer_statements))
        if truth.strip():
            self.memo.put(("statements", truth), tuple(out.ground_truth_statements))
        self.memo.put(("questions", answer, ANSWER_QUESTIONS), (tuple(out.questions), out.noncommittal == 1))

    async def _decompose_async(self, text: str, report: PrefetchReport) -> tuple[str, ...]:
        out = await self._call(DECOMPOSE, DecomposeInput(text=text), self.ev._language(text), report, fallback=True)
        return tuple(out.statements)

    async def _questions_async(self, answer: str, report: PrefetchReport) -> tuple[tuple[str, ...], bool]:
        out = await self._call(ANSWER_RELEVANCY, AnswerRelevancyInput(answer=answer, n=ANSWER_QUESTIONS),
                               self.ev.language or pick_language(answer), report, fallback=True)
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
        if not keys or all(k in self.memo for k in keys):
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
            self.memo.put(("entities", item.text), tuple(dict.fromkeys(e.name for e in by_index[i].entities)))

    async def _entities_async(self, text: str, report: PrefetchReport) -> tuple[str, ...]:
        # role "text", as Toolkit.entities asks, so that the request equals a direct call's
        out = await self._call(ENTITIES, EntitiesInput(text=text, role="text"), self.ev.language or pick_language(text),
                               report, fallback=True)
        return tuple(dict.fromkeys(e.name for e in out.root))

    async def _prefetch_relevance(self, question: str, contexts: list[str], lang: Language,
                                  report: PrefetchReport) -> None:
        key = ("relevance", question, tuple(contexts))
        if key in self.memo:
            return
        language = self.ev.language or pick_language(question)  # as a direct call picks it: same request
        try:
            out = await self._call(CONTEXT_RELEVANCE, ContextRelevanceInput(question=question, contexts=contexts),
                                   language, report)
        except LLMError as exc:
            report.failed("relevance")
            self.memo.put(key, exc)
            return
        self.memo.put(key, tuple(ops.relevance_pairs(out, len(contexts))))

    async def _prefetch_judges(self, question: str, truth: str, answer: str, contexts: list[str], lang: Language,
                               report: PrefetchReport) -> None:
        documents = ops.rubric_documents(contexts)  # part B is the rubric: the documents it reads
        judge_key = ("judge", question, truth, answer)
        rubric_key = ("rubric", question, answer, tuple(documents) if documents else None)
        singles = []
        if truth and documents:
            if judge_key in self.memo and rubric_key in self.memo:
                return
            try:
                out = await self._call(JUDGE_AND_RUBRIC, JudgeAndRubricInput(
                    question=question, ground_truth=truth, documents=documents, answer=answer), lang, report)
            except LLMError as exc:
                report.failed("judges")
                if exc.kind != "invalid_output":
                    return self._remember_failure([judge_key, rubric_key], exc)
            else:
                self.memo.put(judge_key, (out.judge.score, out.judge.reasoning))
                self.memo.put(rubric_key, ops.rubric_result(out.rubric, len(documents)))
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
                               self.ev.language or pick_language(question, answer), report, fallback=fallback)
        return out.score, out.reasoning

    async def _rubric_async(self, question, answer, documents, report, fallback) -> RubricResult:
        lang = self.ev.language or pick_language(question, answer)
        if documents:
            out = await self._call(RUBRIC_1_10, RubricInput(question=question, answer=answer, documents=documents),
                                   lang, report, fallback=fallback)
            return ops.rubric_result(out, len(documents))
        out = await self._call(RUBRIC_1_10_PURE_LLM, PureRubricInput(question=question, answer=answer), lang, report,
                               fallback=fallback)
        return ops.rubric_result(out, 0)

    async def _prefetch_verify(self, answer: str, truth: str, contexts: list[str], lang: Language,
                               report: PrefetchReport) -> None:
        """Round 2: every (statements, evidence) pair the statement metrics check, in one call."""
        statements = {}
        for text in (answer, truth):
            known = self.memo.get(("statements", text)) if text.strip() else None
            statements[text] = known if isinstance(known, tuple) else ()
        passages = ops.passages(contexts)
        # (statements, evidence texts) in a fixed order: a pure function of the case; with
        # statement filters, their filtered lists too (metrics that drop non-claims verify those)
        wanted: list[tuple[tuple[str, ...], list[str]]] = []
        for text, evidence in ((answer, passages), (truth, passages), (answer, ops.passages([truth])),
                               (truth, ops.passages([answer]))):
            variants = [statements[text]] + [tuple(f(statements[text])) for f in self.ev.statement_filters]
            for stmts in variants:
                if stmts and evidence and (stmts, evidence) not in wanted:
                    wanted.append((stmts, evidence))
        keys = [("verdicts", s, tuple(e)) for s, e in wanted]
        if not keys or all(k in self.memo for k in keys):
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
            self.memo.put(key, tuple(ops.verdicts(stmts, pool, by_check[k].verdicts)))

    async def _verify_async(self, statements: tuple[str, ...], passages: list[str],
                            report: PrefetchReport) -> tuple[Verdict, ...]:
        out = await self._call(VERIFY, VerifyInput(evidence=passages, statements=list(statements)),
                               self.ev._language(*statements), report, fallback=True)
        return tuple(ops.verdicts(statements, passages, out.verdicts))
