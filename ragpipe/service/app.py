"""The evaluation service: ``ragpipe.evaluate`` over HTTP for the real-time integration.

POST /v1/evaluate takes one answer to score (``question``, ``answer``, ``context`` or
``contexts``, optional ``graph_entities`` and ``ground_truth``) and returns
``ragpipe.evaluate``'s result: overall_score, quality_level, quality_warning,
recommendations, risk_level, weights_used, dimension_scores, cut_dimensions, diagnosis,
entity_analysis and metrics. A JSON list of such objects is a batch, answered by a list
of results in the same order. GET /healthz says the service is up (no token needed).
A request's answers are scored within ``time_budget`` seconds (seed 000: 5 s) from the
start of its scoring: what is not measured by then is named in ``cut_dimensions`` and
the metrics' errors, never given a made-up value.

Guards, in the order they apply: those of ``ragpipe.core.web.Guard`` (the Host allow-list,
no writes from other sites, a JSON body within ``max_body_bytes`` and read within
``body_seconds``), the bearer token (when one is set), the batch length, then each field's
type and length. Every refusal is a 4xx (or 503) JSON body
``{"errors": [{"field": …, "message": …}]}`` naming the field (``[2].answer`` in a batch).
The embedder is loaded once at start-up. Scoring runs in worker threads, never on the
event loop, in two lanes: requests of up to ``large_chars`` characters in one, larger ones
in the other, so that one expensive request never holds up the small ones (it shares the
CPU with them instead). A lane scores one batch at a time: the answers of every request
that arrived while the previous batch was scored are embedded in one batched encode (far
faster than one encode per answer), then evaluated one by one. The large lane holds at
most ``max_large_waiting`` requests; one more gets 503 with Retry-After. The judge is used
when RAGPIPE_LLM_* is set, as in the pipeline.
"""

import asyncio
import hmac
import ipaddress
import json
import time
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import anyio
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, field_validator
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ragpipe.api import evaluate, prefetch
from ragpipe.core.config import load_config
from ragpipe.core.evidence.embeddings import Embedder
from ragpipe.core.inputs.recorded import Recorder
from ragpipe.core.metrics import Toolkit
from ragpipe.core.text import is_chinese
from ragpipe.core.web import LOOPBACK_NAMES, Guard

TOKEN_ENV = "RAGPIPE_SERVICE_TOKEN"
QUESTION_MAX_CHARS = 4000  # as in a question file
ENTITY_MAX_CHARS, MAX_ENTITIES = 300, 10_000
WARM_UP = (("中小企业所得税优惠是多少？", "小型微利企业减按20%计税。", ["财政部规定，小型微利企业减按20%的税率缴纳企业所得税。"]),
           ("Who approves the subsidy?", "The city bureau approves it.", ["The subsidy is approved by the city bureau."]))


@dataclass(frozen=True)
class ServiceSettings:
    """What the service accepts and how it scores; ``token`` None leaves /v1 open (loopback only)."""

    token: str | None = None
    max_body_bytes: int = 2_000_000
    max_batch: int = 32
    llm_cache: Path | None = None  # where the judge's responses are cached
    time_budget: float | None = 5.0  # seconds to score one request's answers; None: no limit
    hosts: tuple[str, ...] = LOOPBACK_NAMES  # the Host names it answers to
    body_seconds: float = 10.0  # to receive a request's body
    large_chars: int = 50_000  # a request with more characters is scored in the large lane
    max_large_waiting: int = 2  # large requests waiting to be scored; one more gets 503


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a host name: it may resolve anywhere
        return False


def binding_problem(host: str, token: str | None) -> str | None:
    """Why the service may not listen on ``host`` as configured, or None."""
    if not is_loopback(host) and not token:
        return (f"listening on {host} (beyond loopback) needs a token: set {TOKEN_ENV} and send it as "
                "'Authorization: Bearer <token>'")
    return None


class Refused(Exception):
    """A request refused with ``status``; ``problems`` are (field, message) pairs."""

    def __init__(self, status: int, problems: list[tuple[str, str]], headers: dict[str, str] | None = None):
        self.status, self.problems, self.headers = status, problems, headers


def item_model() -> type[BaseModel]:
    """The request item, bounded by the evaluation settings' ``limits`` (those a bot's reply has)."""
    limits = load_config().limits
    Passage = Annotated[str, StringConstraints(max_length=limits.max_context_chars)]
    Passages = Annotated[list[Passage], Field(max_length=limits.max_contexts)]
    Entity = Annotated[str, StringConstraints(min_length=1, max_length=ENTITY_MAX_CHARS)]

    class EvaluateItem(BaseModel):
        model_config = ConfigDict(extra="forbid", strict=True)
        question: Annotated[str, StringConstraints(min_length=1, max_length=QUESTION_MAX_CHARS)]
        answer: Annotated[str, StringConstraints(max_length=limits.max_answer_chars)]
        context: Passages | None = None  # the integration's name
        contexts: Passages | None = None
        graph_entities: Annotated[list[Entity], Field(max_length=MAX_ENTITIES)] | None = None
        ground_truth: Annotated[str, StringConstraints(max_length=limits.max_answer_chars)] | None = None

        @field_validator("context", "contexts", mode="before")
        @classmethod
        def _one_passage_is_a_list(cls, value):
            return [value] if isinstance(value, str) else value

        @property
        def passages(self) -> list[str]:
            return self.context if self.context is not None else self.contexts

    return EvaluateItem


def parse_items(body: bytes, model: type[BaseModel], max_batch: int) -> tuple[list, bool]:
    """The request's items and whether it was a batch; Refused naming the field otherwise."""
    try:
        data = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise Refused(400, [("body", f"not JSON: {exc}")]) from None
    except RecursionError:  # the decoder recurses once per nesting level
        raise Refused(400, [("body", "nested too deeply")]) from None
    batch = isinstance(data, list)
    if batch and len(data) > max_batch:
        raise Refused(413, [("body", f"a batch of {len(data)} items, more than the limit of {max_batch}")])
    if batch and not data:
        raise Refused(422, [("body", "an empty batch")])
    records = data if batch else [data]
    items, problems = [], []
    for i, record in enumerate(records):
        prefix = f"[{i}]" if batch else ""
        if not isinstance(record, dict):
            problems.append((prefix or "body", "expected an object with question, answer and context"))
            continue
        try:
            item = model.model_validate(record)
        except ValidationError as exc:
            problems += [(_field(prefix, e["loc"]), e["msg"]) for e in exc.errors(include_input=False)]
            continue
        if (item.context is None) == (item.contexts is None):
            problems.append((_field(prefix, ("context",)), "give the retrieved passages as context (or contexts), once"))
            continue
        items.append(item)
    if problems:
        raise Refused(422, problems)
    return items, batch


def _field(prefix: str, loc: tuple) -> str:
    path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc)
    return (prefix + path) if prefix else path.lstrip(".")


def check_token(request: Request, token: str | None) -> None:
    if token is None:
        return
    scheme, _, given = request.headers.get("authorization", "").partition(" ")
    challenge = {"WWW-Authenticate": "Bearer"}
    if scheme.lower() != "bearer" or not given:
        raise Refused(401, [("Authorization", "missing: send 'Authorization: Bearer <token>'")], challenge)
    if not hmac.compare_digest(given.strip().encode(), token.encode()):
        raise Refused(401, [("Authorization", "wrong token")], challenge)


class Scorer:
    """Scores items with one embedder and, when RAGPIPE_LLM_* is set, one judge client;
    each item gets a Toolkit (and judge memo) of its own. With a recorder every scored
    answer is recorded."""

    def __init__(self, embedder: Embedder, judge_client=None, recorder: Recorder | None = None,
                 time_budget: float | None = None):
        self.embedder, self.judge_client, self.recorder = embedder, judge_client, recorder
        self.time_budget = time_budget

    @property
    def mode(self) -> str:
        return "llm" if self.judge_client is not None else "offline"

    def toolkit(self, question: str) -> Toolkit:
        judge = None
        if self.judge_client is not None:
            from ragpipe.core.llm import LLMEvaluator

            judge = LLMEvaluator(self.judge_client, language="zh" if is_chinese(question) else "en")
        return Toolkit(self.embedder, llm=judge)

    def prefetch(self, items: list) -> None:
        """Embeds the texts of all these answers in one encode (``score`` then reads them)."""
        prefetch([(i.question, i.answer, i.passages, i.ground_truth) for i in items], Toolkit(self.embedder))

    def score(self, items: list) -> list[dict]:
        """The request's answers, one by one, within one time budget."""
        results = []
        deadline = None if self.time_budget is None else time.monotonic() + self.time_budget
        for item in items:
            result = evaluate(item.question, item.answer, item.passages, graph_entities=item.graph_entities,
                              ground_truth=item.ground_truth, toolkit=self.toolkit(item.question),
                              time_budget=None if deadline is None else deadline - time.monotonic())
            if self.recorder is not None:
                self.recorder.append(item.question, item.answer, item.passages, item.ground_truth)
            results.append(result)
        return results

    def warm_up(self) -> None:
        """Loads the model, the word segmenters and the calibration before the first request."""
        for question, answer, contexts in WARM_UP:
            evaluate(question, answer, contexts, toolkit=Toolkit(self.embedder))


class Batcher:
    """A lane: scores the items of concurrent requests together (see the module docstring);
    with ``max_waiting``, a request finding that many waiting is refused."""

    def __init__(self, scorer: Scorer, max_waiting: int | None = None):
        self.scorer, self.max_waiting = scorer, max_waiting
        self.pending: list[tuple[list, asyncio.Future]] = []
        self.worker: asyncio.Task | None = None

    async def score(self, items: list) -> list[dict]:
        if self.max_waiting is not None and len(self.pending) >= self.max_waiting:
            raise Refused(503, [("body", f"{len(self.pending)} large requests are waiting to be scored: "
                                         "try again later, or send smaller batches")], {"Retry-After": "10"})
        future = asyncio.get_running_loop().create_future()
        self.pending.append((items, future))
        if self.worker is None or self.worker.done():
            self.worker = asyncio.create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        loop = asyncio.get_running_loop()
        while self.pending:
            taken, self.pending = self.pending, []
            await anyio.to_thread.run_sync(self._score, taken, loop)

    def _score(self, taken: list[tuple[list, asyncio.Future]], loop: asyncio.AbstractEventLoop) -> None:
        """In the worker thread: one encode for every request taken, then each request
        answered as soon as its own answers are evaluated."""
        self.scorer.prefetch([i for items, _ in taken for i in items])
        for items, future in taken:
            try:
                loop.call_soon_threadsafe(_settle, future, self.scorer.score(items), None)
            except Exception as exc:  # noqa: BLE001  (that request answers 500; the others go on)
                loop.call_soon_threadsafe(_settle, future, None, exc)


def _settle(future: asyncio.Future, result, error: Exception | None) -> None:
    if not future.done():  # its client may have gone
        future.set_exception(error) if error is not None else future.set_result(result)


def judge_client(cache: Path | None):
    """The judge's client from RAGPIPE_LLM_*, or None (offline)."""
    from ragpipe.core.llm.client import LLMClient, settings_from_env

    settings = settings_from_env(**({"cache_dir": str(cache)} if cache is not None else {}))
    return LLMClient(settings) if settings is not None else None


def size(item) -> int:
    """The characters a request item brings to embed."""
    return len(item.question) + len(item.answer) + sum(map(len, item.passages)) + len(item.ground_truth or "")


def create_app(settings: ServiceSettings, embedder: Embedder, recorder: Recorder | None = None) -> Starlette:
    """The ASGI app, scoring with ``embedder`` (the pipeline's, with its cache) and
    recording every scored answer with ``recorder`` when given."""
    model = item_model()

    @asynccontextmanager
    async def lifespan(app: Starlette):
        client = judge_client(settings.llm_cache)
        scorer = Scorer(embedder, client, recorder, settings.time_budget)
        await anyio.to_thread.run_sync(scorer.warm_up)
        app.state.scorer = scorer
        app.state.small, app.state.large = Batcher(scorer), Batcher(scorer, settings.max_large_waiting)
        try:
            yield
        finally:
            if client is not None:
                client.close()

    async def refused(request: Request, exc: Refused) -> JSONResponse:
        return JSONResponse({"errors": [{"field": f, "message": m} for f, m in exc.problems]}, exc.status,
                            headers=exc.headers)

    async def healthz(request: Request) -> JSONResponse:
        scorer = request.app.state.scorer
        return JSONResponse({"status": "ok", "mode": scorer.mode, "embedder": scorer.embedder.backend,
                             "recording": recorder.dataset if recorder else None})

    async def evaluate_answers(request: Request) -> JSONResponse:
        check_token(request, settings.token)
        items, batch = parse_items(await request.body(), model, settings.max_batch)
        large = sum(map(size, items)) > settings.large_chars
        results = await (request.app.state.large if large else request.app.state.small).score(items)
        return JSONResponse(results if batch else results[0])

    guard = Middleware(Guard, hosts=settings.hosts, max_body_bytes=settings.max_body_bytes,
                       body_seconds=settings.body_seconds)
    return Starlette(routes=[Route("/healthz", healthz), Route("/v1/evaluate", evaluate_answers, methods=["POST"])],
                     middleware=[guard], exception_handlers={Refused: refused}, lifespan=lifespan)
