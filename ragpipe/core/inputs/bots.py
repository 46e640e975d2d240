"""The bots a dataset is evaluated against: HTTP bots and the built-in reference RAG bot
(their configurations: ``ragpipe.core.inputs.bot_config``).

An HTTP bot (``kind: http``) is asked one question per POST through the transport the
judge uses too (``ragpipe.core.transport``): each request bounded by ``timeout`` as a
whole, transient failures (timeouts, connection errors, 429, 5xx, a reply that is not
JSON) retried with exponential backoff honouring Retry-After, and every question bounded
by ``deadline`` (all attempts and waits). Every answer received is written to an on-disk
cache at once, keyed by the
bot version, the hash of its configuration, the dataset, the answer round and the
question, so that a run killed midway or materialized again asks only what has no answer
yet. A round is one pass of asking a bot version every question of a dataset: a run
continues the latest round unless it is a re-ask (a scheduled or explicitly requested
re-evaluation), which opens a round of its own, named after its root run so that a retry
or re-execution of that run continues it. Earlier rounds are kept, so the answers of two
rounds can be compared (drift of a bot behind an unchanged config). Its API key is
read from the environment variable the config names (``api_key_env``, one of
``RAGPIPE_BOT_…``); the value is never in the config, and whatever the server sends back
(answers, contexts, error bodies) is redacted of it, whole or in part, before it is
cached, stored or logged (see ragpipe.core.secrets).

The reference bot retrieves chunks of the dataset's corpus (BM25, embeddings, or both
fused by reciprocal rank) and answers extractively with the retrieved sentences that
best match the question. No LLM: it exists so demos and tests have real bots whose
retrieval quality differs.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import httpx
import numpy as np

from ragpipe.core.cache import Cache, CacheUnavailable
from ragpipe.core.config import load_config
from ragpipe.core.evidence.embeddings import Embedder
from ragpipe.core.inputs.answers import AnswerCache
from ragpipe.core.inputs.bot_config import BotConfig
from ragpipe.core.inputs.recorded import RecordedBot
from ragpipe.core.schemas import Chunk, InputError, RagResponse
from ragpipe.core.secrets import Redactor, header_values, short_key_problem
from ragpipe.core.text import content_tokens, is_chinese, split_sentences
from ragpipe.core.transport import Budget, LoopThread, RequestFailed, RetryPolicy, Transient, Transport, check_status

BACKOFF_MAX = 60.0  # seconds between retries at most (Retry-After aside)
NOT_FOUND = {"zh": "未在资料中找到相关信息。", "en": "I could not find this in the documents."}


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


class Bot(Protocol):
    """What an evaluation asks of a bot of any kind. A new kind is a class with these
    members, its config section in ``bot_config``, and a line in ``BOT_KINDS``."""

    concurrency: int  # questions asked at once
    # Answers kept per answer round (HttpBot): the round before is compared with this one,
    # and a run asks only what has no answer yet. Such a bot also has ``round_id``,
    # ``previous_round``, ``previous_answer(question_id, question)`` and ``calls()``.
    keeps_rounds: bool

    def ask(self, question_id: str, question: str) -> RagResponse: ...

    def close(self) -> None: ...


class ReferenceBot:
    concurrency, keeps_rounds = 1, False

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

    def close(self) -> None:
        pass


class BotUnavailable(Exception):
    """One question got no answer; ``cause`` is a short label (``timeout``, ``HTTP 500``,
    ``invalid JSON`` …) and the message says why."""

    def __init__(self, cause: str, detail: str):
        self.cause = cause
        super().__init__(f"{cause}: {detail}")


def _fill(template: Any, values: dict[str, str]) -> Any:
    if isinstance(template, str):
        for name, value in values.items():
            template = template.replace("{" + name + "}", value)
        return template
    if isinstance(template, dict):
        return {k: _fill(v, values) for k, v in template.items()}
    if isinstance(template, list):
        return [_fill(v, values) for v in template]
    return template


def _path(data: Any, dotted: str) -> Any:
    for part in dotted.split("."):
        if not isinstance(data, dict) or part not in data:
            raise KeyError(dotted)
        data = data[part]
    return data


class HttpBot:
    """A bot behind an HTTP endpoint (see the module docstring). ``ask`` returns a
    RagResponse with an answer or with ``error`` naming the cause; it raises only on a
    broken setup (the API key variable unset). Answers are cached under ``round_id``;
    ``previous_round`` names the round before it, if any."""

    keeps_rounds = True

    def __init__(self, config: BotConfig, dataset: str, cache: Cache | None = None, round_id: str = "",
                 previous_round: str | None = None):
        self.config, self.http, self.dataset, self.cache = config, config.http, dataset, cache
        self.round_id, self.previous_round = round_id, previous_round
        self.concurrency = self.http.concurrency
        try:
            filled, secrets = header_values(self.http.headers)
        except ValueError as exc:
            raise InputError(f"bot {config.key}", "http.headers", str(exc)) from None
        headers = {"Accept": "application/json", **filled}
        secret, self._url = "", httpx.URL(self.http.endpoint)
        if self.http.api_key_env:
            secret = os.environ.get(self.http.api_key_env, "")
            if not secret:
                raise InputError(f"bot {config.key}", "http.api_key_env",
                                 f"environment variable {self.http.api_key_env} is not set")
            if problem := short_key_problem(self.http.api_key_env, secret):
                raise InputError(f"bot {config.key}", "http.api_key_env", problem)
            scheme = self.http.auth_scheme
            if self.http.api_key_param:
                self._url = self._url.copy_merge_params({self.http.api_key_param: secret})
            else:
                headers[self.http.auth_header] = f"{scheme} {secret}" if scheme else secret
        # Servers quote requests back (in answers, in error bodies): nothing they send is kept unredacted.
        self.redact = Redactor([secret, *secrets])
        self.cache_hits = self.requests = self.retries = 0
        policy = RetryPolicy(self.http.timeout, self.http.deadline, self.http.max_retries, self.http.backoff_base,
                             BACKOFF_MAX)
        self._transport = Transport(policy, headers, self.http.concurrency, self.http.requests_per_minute,
                                    on_request=self._count_request, on_retry=self._count_retry)
        self._loop = LoopThread(f"ragpipe-bot-{config.key}")

    def _count_request(self) -> None:
        self.requests += 1  # on the transport's loop: one thread

    def _count_retry(self) -> None:
        self.retries += 1

    def calls(self) -> dict:
        """What asking it took, for the run's metadata."""
        return {"answers_from_cache": self.cache_hits, "bot_requests": self.requests, "bot_retries": self.retries,
                "round": self.round_id, "previous_round": self.previous_round or "none"}

    def close(self) -> None:
        self._loop.close(self._transport.aclose)
        if self.cache is not None:
            self.cache.close()

    def cache_key(self, question_id: str, question: str, round_id: str) -> str:
        material = json.dumps([self.config.key, self.config.config_hash, self.dataset, round_id, question_id,
                               question], ensure_ascii=False)
        return hashlib.sha256(material.encode("utf-8")).hexdigest()

    def previous_answer(self, question_id: str, question: str) -> str | None:
        """The answer the previous round got for this question, if it got one."""
        if self.cache is None or self.previous_round is None:
            return None
        cached = self.cache.get(self.cache_key(question_id, question, self.previous_round))
        return cached["answer"] if cached is not None else None

    def ask(self, question_id: str, question: str) -> RagResponse:
        key = self.cache_key(question_id, question, self.round_id)
        cached = self.cache.get(key) if self.cache is not None else None
        if cached is not None:
            self.cache_hits += 1
            return RagResponse(**cached)
        try:
            response = self._call(question_id, question)
        except BotUnavailable as exc:
            return RagResponse(question_id=question_id, answer=None, retrieved_contexts=[], retrieved_ids=[],
                               latency_ms=float("nan"), error=self.redact(str(exc)))
        if self.cache is not None:  # at once, through a restart of its store: a run killed after this keeps it
            self.cache.put(key, response.model_dump())
        return response

    def _call(self, question_id: str, question: str) -> RagResponse:
        body = _fill(self.http.request, {"question": question, "question_id": question_id, "dataset": self.dataset})
        url = str(self._url)

        def accept(reply: httpx.Response) -> RagResponse:
            check_status(reply, url, self.redact)
            try:
                data = reply.json()
            except ValueError:  # truncated or garbage: worth asking again
                raise Transient("invalid JSON", f"the reply from {url} is not JSON (HTTP {reply.status_code})") from None
            return self._parse(question_id, data, reply.elapsed.total_seconds() * 1000)

        try:
            return self._loop.run(self._transport.post(url, body, accept, Budget(self.http.deadline)))
        except RequestFailed as exc:
            raise BotUnavailable(exc.cause, exc.detail.removeprefix(exc.cause).lstrip()) from None

    def _parse(self, question_id: str, data: Any, latency_ms: float) -> RagResponse:
        mapping = self.http.response
        try:
            answer = _path(data, mapping.answer)
            contexts = _path(data, mapping.contexts) if mapping.contexts else []
            ids = _path(data, mapping.context_ids) if mapping.context_ids else []
        except KeyError as exc:
            raise BotUnavailable("bad reply", f"no field {exc.args[0]!r} in the reply (http.response)") from None
        if not isinstance(answer, str):
            raise BotUnavailable("bad reply", f"field {mapping.answer!r} of the reply is not a string")
        if not (isinstance(contexts, list) and isinstance(ids, list)
                and all(isinstance(x, str) for x in [*contexts, *ids])):
            raise BotUnavailable("bad reply", "contexts and context ids of the reply must be lists of strings")
        # redacted before anything is cut, so a cut leaves no prefix of a key
        answer, contexts, ids = self.redact(answer), [self.redact(c) for c in contexts], [self.redact(i) for i in ids]
        limits = load_config().limits  # bounded here, so no reply can stall scoring
        if problem := limits.answer_problem(answer):
            raise BotUnavailable("answer too long", problem)
        contexts, ids, cut = limits.cut_contexts(contexts, ids)
        return RagResponse(question_id=question_id, answer=answer, retrieved_contexts=contexts,
                           retrieved_ids=ids, latency_ms=latency_ms, truncated=cut)


def answer_all(bot: Bot, questions: list[tuple[str, str]],
               progress: Callable[[int, int], None] | None = None) -> list[dict]:
    """Every (question_id, question) asked, ``bot.concurrency`` at a time; one row per
    question, in order, with an answer or the error that says why there is none. A cache
    that stays unreachable (CacheUnavailable) is no answer's error: it is raised."""
    rows: list[dict | None] = [None] * len(questions)
    redact = getattr(bot, "redact", str)  # an exception may quote the request

    def one(qid: str, question: str) -> dict:
        try:
            return bot.ask(qid, question).model_dump()
        except CacheUnavailable:  # the cache failed, not the bot: the step fails saying so
            raise
        except Exception as exc:  # one failing question must not sink the others
            return {"question_id": qid, "answer": None, "retrieved_contexts": [], "retrieved_ids": [],
                    "latency_ms": float("nan"), "error": redact(f"{type(exc).__name__}: {exc}")}

    with ThreadPoolExecutor(max_workers=bot.concurrency) as pool:
        futures = {pool.submit(one, qid, q): i for i, (qid, q) in enumerate(questions)}
        for done, future in enumerate(as_completed(futures), start=1):
            rows[futures[future]] = future.result()
            if progress is not None:
                progress(done, len(questions))
    return rows


@dataclass(frozen=True)
class BotSetting:
    """What a bot may be built from; each kind takes what it needs."""

    config: BotConfig
    dataset: str
    chunks: list[Chunk]
    embedder: Embedder | None
    cache_dir: Path | None = None  # where an HTTP bot keeps its answers (None: not kept)
    run_round: str = ""  # the root run id: the answer round a run continues (AnswerCache.round_for)
    reask: bool = False
    dataset_dir: Path | None = None  # where a recorded bot finds its recording


def _http_bot(s: BotSetting) -> HttpBot:
    if s.cache_dir is None:
        return HttpBot(s.config, s.dataset)
    cache = AnswerCache(s.cache_dir)
    return HttpBot(s.config, s.dataset, cache, *cache.round_for(s.config, s.dataset, s.run_round, s.reask))


# One line per `kind:` of a bot config.
BOT_KINDS: dict[str, Callable[[BotSetting], Bot]] = {
    "reference": lambda s: ReferenceBot(s.config, s.chunks, s.embedder),
    "http": _http_bot,
    "recorded": lambda s: RecordedBot(s.dataset_dir),
}


def make_bot(setting: BotSetting) -> Bot:
    """The bot a config describes, by its kind."""
    return BOT_KINDS[setting.config.kind](setting)
