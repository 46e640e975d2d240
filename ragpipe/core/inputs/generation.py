"""Question generation configured per dataset, and the review of its candidates.

A dataset opts in with a ``generation:`` block in its ``dataset.yaml``::

    generation:
      generator: offline        # or llm (RAGPIPE_LLM_BASE_URL and friends)
      per_document: 3           # questions per document and type
      types: [FACTUAL]          # FACTUAL, INFERENTIAL (LLM only)
      multi_hop: 0              # questions that need two chunks (LLM only)
      judge_model: gpt-4o-mini  # the LLM model that writes and verifies them (default RAGPIPE_LLM_MODEL)
      prompt: prompts/generation.txt   # optional: the generation prompt, edited (``${title}``, ``${passages}``, ``${n}``)

Every generated question is a candidate until a person accepts (maybe after editing) or
rejects it (``ragpipe questions review``). Decisions are kept in ``review.jsonl`` beside
``dataset.yaml``, keyed by the candidate's key: a hash of the text of its source chunks and
of the configuration parts that shape it. Regenerating finds the same keys for what the
change did not touch, so nobody is asked again about them; only accepted questions join the
question set.
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ragpipe.core.config import load_config
from ragpipe.core.evidence.entities import GraphEntities
from ragpipe.core.inputs.files import decode, read_bytes
from ragpipe.core.inputs.question_filters import (duplicate_of, malformed_reason, trivial_reason,
                                                  unsupported_statements)
from ragpipe.core.metrics import Toolkit
from ragpipe.core.schemas import Chunk, InputError, InputErrors, Question, QuestionType
from ragpipe.core.text import content_tokens

REVIEW_FILE = "review.jsonl"
PENDING, ACCEPTED, REJECTED, FILTERED = "pending", "accepted", "rejected", "filtered"
CANDIDATE_COLUMNS = ["key", "question_id", "question", "ground_truth_answer", "ground_truth_contexts",
                     "question_type", "origin", "status", "reason"]


class GenerationConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    generator: Literal["offline", "llm"] = "offline"
    per_document: int = Field(default=3, ge=0, le=20)
    types: list[Literal["FACTUAL", "INFERENTIAL"]] = Field(default=["FACTUAL"], min_length=1)
    multi_hop: int = Field(default=0, ge=0, le=10_000)
    judge_model: str | None = None
    prompt: str | None = None  # a file under the dataset folder

    def prompt_text(self, dataset_dir: Path) -> str | None:
        if self.prompt is None:
            return None
        path = dataset_dir / self.prompt
        try:
            return read_bytes(path, dataset_dir, load_config().limits.max_file_bytes).decode("utf-8")
        except (InputError, UnicodeDecodeError) as exc:
            raise InputError(str(dataset_dir / "dataset.yaml"), "generation.prompt",
                             f"{self.prompt!r} is not read: {getattr(exc, 'problem', 'not UTF-8 text')}") from exc


def generation_config(meta: dict | None, where: Path) -> GenerationConfig | None:
    """The dataset's generation settings, None when it has none; InputErrors naming each bad field."""
    block = (meta or {}).get("generation")
    if block is None:
        return None
    try:
        return GenerationConfig.model_validate(block)
    except ValidationError as exc:
        raise InputErrors([InputError(str(where), "generation." + ".".join(str(p) for p in err["loc"]), err["msg"])
                           for err in exc.errors()]) from None


def candidate_key(chunk_texts: Sequence[str], *shape: str) -> str:
    """Stable while the source chunks' text and what shapes the question (generator, model,
    prompt, type, count) stay the same."""
    return hashlib.sha256("\0".join([*chunk_texts, "\1", *shape]).encode()).hexdigest()[:16]


class Decision(BaseModel):
    model_config = ConfigDict(extra="ignore")

    key: str
    decision: Literal["accepted", "rejected"]
    question: str | None = None  # set when the person edited it
    ground_truth_answer: str | None = None
    decided_at: str | None = None


def read_decisions(dataset_dir: Path) -> dict[str, Decision]:
    """The newest decision per candidate key (a later line overrides an earlier one)."""
    path = dataset_dir / REVIEW_FILE
    if not os.path.lexists(path):
        return {}
    decisions, problems = {}, []
    text = decode(path, read_bytes(path, dataset_dir, load_config().limits.max_file_bytes), ("utf-8",))
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            decision = Decision.model_validate_json(line)
        except ValidationError as exc:
            problems.extend(InputError(str(path), ".".join(str(p) for p in e["loc"]) or "decision", e["msg"], line=n)
                            for e in exc.errors())
            continue
        decisions[decision.key] = decision
    if problems:
        raise InputErrors(problems)
    return decisions


def record_decision(dataset_dir: Path, decision: Decision) -> None:
    """Appends one decision: the file is a log, so an earlier decision can be changed."""
    stamped = decision.model_copy(update={"decided_at": datetime.now(timezone.utc).isoformat(timespec="seconds")})
    with (dataset_dir / REVIEW_FILE).open("a", encoding="utf-8") as out:
        out.write(stamped.model_dump_json(exclude_none=True) + "\n")


def apply_decisions(candidates: list[dict], decisions: dict[str, Decision]) -> list[dict]:
    """Each candidate with its status: filtered (by the quality checks) stays filtered;
    otherwise the person's decision, with their edits, or pending."""
    out = []
    for row in candidates:
        decision = decisions.get(row["key"])
        if row["status"] != FILTERED and decision is not None:
            row = {**row, "status": decision.decision,
                   "question": decision.question or row["question"],
                   "ground_truth_answer": decision.ground_truth_answer or row["ground_truth_answer"]}
        out.append(row)
    return out


def candidate_row(question: Question, key: str, reason: str | None) -> dict:
    """A generated question as a candidate: its id follows from its key, so an accepted
    question keeps its id (and its answers, scores and labels) across regenerations."""
    return {"key": key, "question_id": f"gen-{key[:10]}", "question": question.question,
            "ground_truth_answer": question.ground_truth_answer,
            "ground_truth_contexts": list(question.ground_truth_contexts),
            "question_type": question.question_type.value, "origin": question.origin,
            "status": FILTERED if reason else PENDING, "reason": reason}


def accepted_questions(candidates: list[dict]) -> list[Question]:
    return [Question(question_id=row["question_id"], question=row["question"],
                     ground_truth_answer=row["ground_truth_answer"],
                     ground_truth_contexts=list(row["ground_truth_contexts"]),
                     question_type=QuestionType(row["question_type"]), origin=row["origin"],
                     source=f"{REVIEW_FILE}:{row['key']}")
            for row in candidates if row["status"] == ACCEPTED]


MIN_GROUNDED_SHARE = 0.5  # of the question's content words, found in its chunks (with their titles)


def quality_reason(question: Question, chunks: Sequence[Chunk], checker) -> str | None:
    """Why a person would not keep the candidate, or None: it is no whole question, gives
    itself away, asks about words its chunks do not hold, or its ground truth is not
    supported by them (the offline verifier, ``checker`` a ``Toolkit``)."""
    texts = [c.text for c in chunks]
    reason = malformed_reason(question.question) or trivial_reason(question.question, question.ground_truth_answer, texts)
    if reason:
        return reason
    asked = set(content_tokens(question.question))
    held = set(content_tokens(" ".join([*texts, *(c.title for c in chunks)])))
    if asked and len(asked & held) < MIN_GROUNDED_SHARE * len(asked):
        return f"its chunks do not hold what it asks about: {sorted(asked - held)[:5]}"
    missing = unsupported_statements(checker, question.ground_truth_answer, ["\n".join(texts)])
    if missing is None or missing:
        return "no statement to verify" if missing is None else f"ground truth not in its chunks: {missing[0][:80]}"
    return None


def generate_candidates(config: GenerationConfig, dataset_dir: Path, chunks: Sequence[Chunk],
                        graph: GraphEntities | None, existing: Sequence[Question], embedder,
                        llm_settings=None) -> tuple[list[dict], dict[str, int]]:
    """The candidates (``CANDIDATE_COLUMNS``, each pending or filtered with the reason) and,
    for the LLM generator, what it dropped before they became candidates, by reason."""
    where = dataset_dir / "dataset.yaml"
    if config.generator == "offline":
        beyond = [t for t in config.types if t != "FACTUAL"] + (["multi_hop"] if config.multi_hop else [])
        if beyond:
            raise InputError(str(where), "generation.types", f"{', '.join(beyond)} questions need `generator: llm`: "
                             "the offline generator writes factual questions only")
        made = _offline(config, chunks, graph)
        dropped: dict[str, int] = {}
    else:
        if llm_settings is None:
            raise InputError(str(where), "generation.generator", "llm generation needs RAGPIPE_LLM_BASE_URL")
        made, dropped = _with_llm(config, dataset_dir, chunks, graph, existing, embedder, llm_settings)
    by_id = {c.chunk_id: c for c in chunks}
    checker = Toolkit(embedder)
    rows = [candidate_row(q, key, quality_reason(q, [by_id[c] for c in q.ground_truth_contexts], checker)
                          if config.generator == "offline" else malformed_reason(q.question))
            for q, key in made]
    kept = [row for row in rows if row["status"] == PENDING]
    repeats = duplicate_of([r["question"] for r in kept], [q.question for q in existing], embedder=embedder)
    for row, repeat in zip(kept, repeats):
        if repeat is not None:
            row.update(status=FILTERED, reason=f"repeats: {repeat[:80]}")
    return rows, dropped


def _offline(config: GenerationConfig, chunks: Sequence[Chunk], graph) -> list[tuple[Question, str]]:
    from ragpipe.core.inputs.question_gen import GENERATOR, generate_offline

    texts = {c.chunk_id: c.text for c in chunks}
    return [(q, candidate_key([texts[c] for c in q.ground_truth_contexts], GENERATOR, q.question_type.value))
            for q in generate_offline(chunks, config.per_document, graph)]


def _with_llm(config, dataset_dir, chunks, graph, existing, embedder, settings) -> tuple[list, dict[str, int]]:
    """One generation per type, and the multi-hop questions apart: a change to one type's
    count leaves the others' calls as they were (answered from the response cache)."""
    import dataclasses

    from ragpipe.core.inputs.question_gen_llm import GENERATOR, LLMQuestionGenerator
    from ragpipe.core.llm import LLMClient
    from ragpipe.core.judged import LLMEvaluator
    from ragpipe.core.judged.prompts import QUESTION_GENERATION

    override = config.prompt_text(dataset_dir)
    prompt = QUESTION_GENERATION if override is None else dataclasses.replace(
        QUESTION_GENERATION, version=f"{QUESTION_GENERATION.version}+{dataset_dir.name}",
        templates={"zh": override, "en": override})
    texts = {c.chunk_id: c.text for c in chunks}
    made, dropped = [], Counter()
    with LLMClient(settings) as client:
        generator = LLMQuestionGenerator(client, Toolkit(embedder, llm=LLMEvaluator(client)), model=settings.model,
                                         embedder=embedder, prompt=prompt)
        runs = [(t, config.per_document, 0, [t]) for t in config.types if config.per_document]
        runs += [("multi_hop", 0, config.multi_hop, list(config.types))] if config.multi_hop else []
        for shape, per_document, multi_hop, types in runs:
            report = generator.generate(chunks, per_document, multi_hop, types, graph, existing)
            dropped.update(report.dropped_by_reason)
            seen: Counter = Counter()  # one call may make several questions from the same chunks
            for q in report.questions:
                sources = tuple(q.ground_truth_contexts)
                seen[sources] += 1
                made.append((q, candidate_key([texts[c] for c in sources], GENERATOR, settings.model,
                                              prompt.hash("zh"), shape, str(per_document or multi_hop),
                                              str(seen[sources]))))
    return made, dict(dropped)
