"""Bot configurations (YAML files in data/bots/) and the built-in reference RAG bot.

The reference bot retrieves chunks of the dataset's corpus (BM25, embeddings, or both
fused by reciprocal rank) and answers extractively with the retrieved sentences that
best match the question. No LLM: it exists so demos and tests have real bots whose
retrieval quality differs.
"""

from __future__ import annotations

import math
import re
import time
from collections import Counter
from pathlib import Path
from typing import Literal

import numpy as np
import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ragpipe.core.embeddings import Embedder
from ragpipe.core.schemas import Chunk, InputError, InputErrors, RagResponse
from ragpipe.core.text import content_tokens, is_chinese, split_sentences

BOT_KEY = re.compile(r"^[A-Za-z0-9_.-]+@[A-Za-z0-9_.-]+$")
NOT_FOUND = {"zh": "未在资料中找到相关信息。", "en": "I could not find this in the documents."}


class RetrievalConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    method: Literal["bm25", "embedding", "hybrid"]
    top_k: int = Field(ge=1, le=50)


class AnswerConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    max_sentences: int = Field(default=2, ge=1, le=10)


class BotConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(pattern=r"^[A-Za-z0-9_.-]+$")
    version: str = Field(pattern=r"^[A-Za-z0-9_.-]+$")
    kind: Literal["reference"]
    description: str = ""
    baseline: bool = False  # the version others of this bot are compared with
    retrieval: RetrievalConfig
    answer: AnswerConfig = AnswerConfig()

    @property
    def key(self) -> str:
        return f"{self.name}@{self.version}"


def version_order(key: str) -> list:
    """Natural order of a <bot>@<version> key's version: v2 < v10, 1.9 < 1.10."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", key.split("@", 1)[1])]


def load_bot_config(path: Path) -> BotConfig:
    """Parse and validate one bot file; errors name the file, the line and the field."""
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        raise InputError(str(path), "yaml", f"invalid YAML: {getattr(exc, 'problem', exc)}", line) from exc
    except UnicodeDecodeError as exc:
        raise InputError(str(path), "encoding", "not UTF-8 text") from exc
    if not isinstance(raw, dict):
        raise InputError(str(path), "bot", "expected a mapping with name, version, kind, retrieval")
    try:
        config = BotConfig.model_validate(raw)
    except ValidationError as exc:
        raise InputErrors(
            [InputError(str(path), ".".join(str(p) for p in e["loc"]) or "bot", e["msg"]) for e in exc.errors()]
        ) from exc
    if config.key != path.stem:
        raise InputError(str(path), "name/version", f"file must be named {config.key}.yaml to match name and version")
    return config


class _BM25:
    def __init__(self, docs: list[tuple[str, ...]], k1: float = 1.5, b: float = 0.75):
        self.k1, self.b = k1, b
        self.tfs = [Counter(d) for d in docs]
        self.lengths = np.array([len(d) for d in docs], dtype=float)
        self.avg = float(self.lengths.mean()) if docs else 0.0
        df = Counter(t for d in docs for t in set(d))
        n = len(docs)
        self.idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}

    def scores(self, query: tuple[str, ...]) -> np.ndarray:
        out = np.zeros(len(self.tfs))
        for i, tf in enumerate(self.tfs):
            norm = self.k1 * (1 - self.b + self.b * self.lengths[i] / (self.avg or 1))
            out[i] = sum(self.idf.get(t, 0) * tf[t] * (self.k1 + 1) / (tf[t] + norm) for t in query if t in tf)
        return out


class ReferenceBot:
    def __init__(self, config: BotConfig, chunks: list[Chunk], embedder: Embedder):
        self.config, self.chunks, self.embedder = config, chunks, embedder
        self.bm25 = _BM25([content_tokens(f"{c.title} {c.text}") for c in chunks])

    def _rank(self, question: str) -> list[int]:
        method, n = self.config.retrieval.method, len(self.chunks)
        rankings = []
        if method in ("bm25", "hybrid"):
            rankings.append(np.argsort(-self.bm25.scores(content_tokens(question)), kind="stable"))
        if method in ("embedding", "hybrid"):
            sims = self.embedder.similarity([question], [c.text for c in self.chunks])[0]
            rankings.append(np.argsort(-sims, kind="stable"))
        fused = np.zeros(n)
        for ranking in rankings:  # reciprocal rank fusion
            fused[ranking] += 1.0 / (60 + np.arange(1, n + 1))
        return list(np.argsort(-fused, kind="stable")[: self.config.retrieval.top_k])

    def _answer(self, question: str, retrieved: list[Chunk]) -> str:
        q_tokens = set(content_tokens(question))
        candidates = [s for c in retrieved for s in split_sentences(c.text) if not s.lstrip().startswith("#")]
        scored = []
        for order, sentence in enumerate(candidates):
            overlap = len(q_tokens & set(content_tokens(sentence))) / (len(q_tokens) or 1)
            scored.append((overlap, -order, sentence))
        best = sorted((s for s in scored if s[0] > 0), reverse=True)[: self.config.answer.max_sentences]
        if not best:
            return NOT_FOUND["zh" if is_chinese(question) else "en"]
        joiner = "" if is_chinese(question) else " "
        return joiner.join(s for _, _, s in sorted(best, key=lambda s: -s[1]))

    def ask(self, question_id: str, question: str) -> RagResponse:
        start = time.perf_counter()
        retrieved = [self.chunks[i] for i in self._rank(question)]
        answer = self._answer(question, retrieved)
        return RagResponse(
            question_id=question_id,
            answer=answer,
            retrieved_contexts=[c.text for c in retrieved],
            retrieved_ids=[c.chunk_id for c in retrieved],
            latency_ms=(time.perf_counter() - start) * 1000,
        )
