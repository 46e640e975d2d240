"""Generate questions from a corpus with an LLM (the question-generation prompt, zh
or en by the document's language).

- Per document: ``per_document`` factual and/or inferential questions, each with its
  ground-truth answer and the chunks it rests on as ground-truth contexts. A long
  document is sent as windows of consecutive chunks, the questions spread over them.
- Multi-hop: pairs of related chunks (adjacent chunks of one document, or chunks of
  different documents naming the same knowledge-graph entity), one question each whose
  answer needs both; both chunk ids are its contexts.

Every candidate then passes the filters (``question_filters``): not trivial, answerable
from its contexts (its ground truth's statements verified against them with the
project's verifier: offline, or the LLM's when the checker has one), for multi-hop not
answerable from either chunk alone, and not a near-duplicate of an existing or earlier
question. Output the model got wrong even after the client's re-ask never becomes a
question: it is dropped, and every drop is counted by reason in the report."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from pydantic import ValidationError

from ragpipe.core.evidence.entities import GraphEntities
from ragpipe.core.llm.client import LLM, LLMError
from ragpipe.core.judged.prompts import MULTI_HOP_QUESTION, QUESTION_GENERATION, Prompt, pick_language
from ragpipe.core.llm.prompt import describe_error
from ragpipe.core.judged.prompts.question_generation import QUESTION_TYPES, MultiHopInput, QuestionGenerationInput
from ragpipe.core.inputs.question_filters import (DUPLICATE_THRESHOLD, duplicate_of, malformed_reason, trivial_reason,
                                                  unsupported_statements)
from ragpipe.core.schemas import Chunk, Question, QuestionType

GENERATOR = "llm-questions/1"
MAX_WINDOW_CHARS = 6000  # document text per call; longer documents are sent in windows
MIN_CHUNK_CHARS = 30  # a heading-only chunk gives nothing to ask about in a multi-hop pair

# Drop reasons, as counted in the report.
INVALID_OUTPUT = "invalid_output"
MALFORMED = "malformed"
LLM_FAILED = "llm_failed"
TRIVIAL = "trivial"
UNANSWERABLE = "unanswerable"
SINGLE_HOP = "single_hop"
DUPLICATE = "duplicate"


@dataclass
class Dropped:
    reason: str
    detail: str
    question: str | None = None  # None when the model's output never became a candidate


@dataclass
class GenerationReport:
    """The questions kept and every candidate (or call) dropped, with why."""

    questions: list[Question] = field(default_factory=list)
    dropped: list[Dropped] = field(default_factory=list)
    calls: int = 0

    def drop(self, reason: str, detail: str, question: str | None = None) -> None:
        self.dropped.append(Dropped(reason, detail, question))

    @property
    def dropped_by_reason(self) -> dict[str, int]:
        return dict(Counter(d.reason for d in self.dropped))

    def summary(self) -> str:
        reasons = ", ".join(f"{k} {v}" for k, v in sorted(self.dropped_by_reason.items())) or "none"
        return f"{len(self.questions)} questions kept from {self.calls} LLM call(s); dropped: {reasons}"


@dataclass
class _Candidate:
    question: str
    ground_truth: str
    question_type: QuestionType
    chunks: list[Chunk]
    prompt: Prompt
    language: str
    multi_hop: bool = False


def _windows(chunks: list[Chunk], limit: int = MAX_WINDOW_CHARS) -> list[list[Chunk]]:
    windows: list[list[Chunk]] = [[]]
    size = 0
    for chunk in chunks:
        if windows[-1] and size + len(chunk.text) > limit:
            windows.append([])
            size = 0
        windows[-1].append(chunk)
        size += len(chunk.text)
    return windows


def _spread(n: int, parts: int) -> list[int]:
    """n split over ``parts`` as evenly as possible, the first parts taking the remainder."""
    return [n // parts + (i < n % parts) for i in range(parts)]


def related_pairs(chunks: Sequence[Chunk], graph: GraphEntities | None = None) -> list[tuple[Chunk, Chunk]]:
    """Pairs of related chunks for multi-hop questions, each chunk in one pair at most:
    chunks of different documents naming the same graph entity, alternating with
    adjacent chunks of one document; deterministic (corpus order)."""
    usable = [c for c in chunks if len(c.text) >= MIN_CHUNK_CHARS]
    cross: list[tuple[Chunk, Chunk]] = []
    if graph is not None:
        by_entity: dict[str, list[Chunk]] = {}
        for chunk in usable:
            for name in graph.find_in(chunk.text):
                by_entity.setdefault(name, []).append(chunk)
        # rarer entities first: two chunks sharing a specific name are more related
        for name, holders in sorted(by_entity.items(), key=lambda kv: (len(kv[1]), kv[0])):
            for a, b in itertools.combinations(holders, 2):
                if a.doc_id != b.doc_id:
                    cross.append((a, b))
    adjacent = [(a, b) for a, b in zip(usable, usable[1:]) if a.doc_id == b.doc_id and b.position == a.position + 1]
    pairs, used = [], set()
    for pair in (p for two in itertools.zip_longest(cross, adjacent) for p in two if p is not None):
        if pair[0].chunk_id in used or pair[1].chunk_id in used:
            continue
        used.update(c.chunk_id for c in pair)
        pairs.append(pair)
    return pairs


class LLMQuestionGenerator:
    """``llm``: an ``LLMClient`` (or anything with ``run``); ``checker``: a ``Toolkit``
    whose ``statements``/``verify`` decide answerability (offline, or with an LLM
    evaluator); ``embedder`` for near-duplicates (None: exact duplicates only); ``prompt``
    the question-generation prompt (a dataset may edit it)."""

    def __init__(self, llm: LLM, checker, *, model: str, embedder=None,
                 duplicate_threshold: float = DUPLICATE_THRESHOLD, prompt: Prompt = QUESTION_GENERATION):
        self.llm = llm
        self.prompt = prompt
        self.checker = checker
        self.model = model
        self.embedder = embedder
        self.duplicate_threshold = duplicate_threshold

    def origin(self, prompt: Prompt, language: str, chunk_ids: Iterable[str]) -> str:
        """Generator, model and prompt version (id and hash), then the source chunks."""
        return (f"{GENERATOR} model={self.model} prompt={prompt.id}:{prompt.hash(language)[:16]} "
                f"from {'|'.join(chunk_ids)}")

    def generate(self, chunks: Sequence[Chunk], per_document: int = 3, multi_hop: int = 0,
                 types: Sequence[str] = QUESTION_TYPES, graph: GraphEntities | None = None,
                 existing: Sequence[Question] = (), prefix: str = "gen") -> GenerationReport:
        report = GenerationReport()
        types = [t.upper() for t in types]
        calls: list[tuple[Prompt, object, str, list[Chunk]]] = []
        if per_document > 0:
            by_doc: dict[str, list[Chunk]] = {}
            for chunk in chunks:
                by_doc.setdefault(chunk.doc_id, []).append(chunk)
            for doc_chunks in by_doc.values():
                windows = _windows(doc_chunks)
                for window, n in zip(windows, _spread(per_document, len(windows))):
                    if n:
                        inputs = QuestionGenerationInput(title=window[0].title, passages=[c.text for c in window],
                                                         n=n, question_types=types)
                        calls.append((self.prompt, inputs, pick_language(*inputs.passages), window))
        for a, b in related_pairs(chunks, graph)[:max(0, multi_hop)]:
            inputs = MultiHopInput(passages=[a.text, b.text])
            calls.append((MULTI_HOP_QUESTION, inputs, pick_language(a.text, b.text), [a, b]))
        report.calls = len(calls)

        candidates: list[_Candidate] = []
        for (prompt, inputs, language, window), out in zip(calls, self._run_all(calls)):
            where = ", ".join(c.chunk_id for c in window[:3]) + (" …" if len(window) > 3 else "")
            if isinstance(out, LLMError):
                reason = INVALID_OUTPUT if out.kind == "invalid_output" else LLM_FAILED
                report.drop(reason, f"{where}: {out.reason}")
                continue
            if prompt is MULTI_HOP_QUESTION:
                candidates.append(_Candidate(out.question_text, out.ground_truth, QuestionType.INFERENTIAL, window,
                                             prompt, language, multi_hop=True))
                continue
            for item in out.questions:
                sources = [window[p - 1] for p in dict.fromkeys(item.source_passages)]
                candidates.append(_Candidate(item.question_text, item.ground_truth,
                                             QuestionType(item.question_type), sources, prompt, language))

        passed = [c for c in candidates if self._passes(c, report)]
        repeats = duplicate_of([c.question for c in passed], [q.question for q in existing],
                               self.duplicate_threshold, self.embedder)
        for candidate, repeat in zip(passed, repeats):
            if repeat is not None:
                report.drop(DUPLICATE, f"repeats: {repeat}", candidate.question)
                continue
            ids = [c.chunk_id for c in candidate.chunks]
            try:
                question = Question(
                    question_id=f"{prefix}-{len(report.questions) + 1:03d}", question=candidate.question,
                    ground_truth_answer=candidate.ground_truth, ground_truth_contexts=ids,
                    question_type=candidate.question_type,
                    origin=self.origin(candidate.prompt, candidate.language, ids), source=GENERATOR)
            except ValidationError as exc:  # e.g. over-long text: the importer would refuse it too
                report.drop(INVALID_OUTPUT, describe_error(exc), candidate.question)
                continue
            report.questions.append(question)
        return report

    def _run_all(self, calls) -> list:
        """Each call's validated output or its LLMError, concurrently when the client can."""
        items = [(prompt, inputs, language) for prompt, inputs, language, _ in calls]
        if hasattr(self.llm, "run_many"):
            return self.llm.run_many(items)
        results = []
        for item in items:
            try:
                results.append(self.llm.run(*item))
            except LLMError as exc:
                results.append(exc)
        return results

    def _passes(self, c: _Candidate, report: GenerationReport) -> bool:
        texts = [chunk.text for chunk in c.chunks]
        malformed = malformed_reason(c.question)
        if malformed:
            report.drop(MALFORMED, malformed, c.question)
            return False
        trivial = trivial_reason(c.question, c.ground_truth, texts)
        if trivial:
            report.drop(TRIVIAL, trivial, c.question)
            return False
        try:
            # the contexts together, as one passage: an inferential answer may join facts of several
            missing = unsupported_statements(self.checker, c.ground_truth, ["\n".join(texts)])
            if missing is None or missing:
                detail = "no statement to verify" if missing is None else f"not in its contexts: {missing[0][:80]}"
                report.drop(UNANSWERABLE, detail, c.question)
                return False
            for chunk in c.chunks if c.multi_hop else ():
                if unsupported_statements(self.checker, c.ground_truth, [chunk.text]) == []:
                    report.drop(SINGLE_HOP, f"{chunk.chunk_id} alone answers it", c.question)
                    return False
        except LLMError as exc:  # the LLM verifier failed: unverified is not answerable
            report.drop(LLM_FAILED, f"verifying the ground truth: {exc.reason}", c.question)
            return False
        return True
