"""The labelling page: an ASGI app (Starlette) that shows the question cards of a
dataset's evaluations, from the report data the pipeline wrote, with controls to label
each answer, and proposes what to label next. Each label is validated like a label file's
row and appended at once, as one line, to the dataset's labels/page.jsonl.

A card shows the evidence a person needs: the retrieved contexts, and per statement a
link to the context sentence closest to it (the verifier's evidence sentence, picked for
every statement, supported or not). It does not show the machine's verdicts until the
person has answered: the verifier's probability of a statement appears once its label is
saved, so it cannot anchor the label.

It sits behind ``ragpipe.core.web.Guard`` (Host allow-list, no writes from other sites, a
JSON body of at most ``MAX_BODY_BYTES`` read within a time bound). A label is saved only
for a question and bot version that were evaluated, and a statement index only for a
statement the answer has. Refusals are ``{"errors": [{"field": …, "message": …}]}``."""

from __future__ import annotations

import hmac
import json
import os
from datetime import datetime, timezone
from pathlib import Path

import pandas as pd
from filelock import lock_descriptor
from jinja2 import Environment, FileSystemLoader, select_autoescape
from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Route

from ragpipe.core.labels.calibration import load_calibrations
from ragpipe.core.labels.reading import KINDS, Label, load_labels
from ragpipe.core.labels.suggest import suggest
from ragpipe.core.labels.views import labelling_pool
from ragpipe.core.report.render import EVALUATION_FILE, load_evaluation
from ragpipe.core.web import LOOPBACK_NAMES, Guard

PAGE_FILE = "page.jsonl"
MAX_BODY_BYTES = 64_000  # a label with a note of 4,000 characters is far less
MAX_SUGGESTIONS = 100
HERE = Path(__file__).parent


def append_line(path: Path, record: dict) -> None:
    """One JSON line, written by a single write under an exclusive lock on an O_APPEND
    descriptor: two annotators saving at once never interleave or tear a line."""
    data = (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        lock_descriptor(fd)
        written = os.write(fd, data)
        if written != len(data):
            raise OSError(f"short write to {path}: {written} of {len(data)} bytes")
        os.fsync(fd)
    finally:
        os.close(fd)  # closing releases the lock


def evaluations(reports: Path, dataset: str) -> dict[str, dict]:
    """The stored report data of every evaluated bot version of the dataset."""
    folder = reports / dataset
    found = sorted(folder.glob(f"*/{EVALUATION_FILE}")) if folder.is_dir() else []
    return {path.parent.name: load_evaluation(path) for path in found}


def score_frames(data: dict) -> dict[str, pd.DataFrame]:
    """One evaluation's per-question scores of the labelled metrics, as the score assets hold them."""
    rows: dict[str, list] = {}
    for card in data["cards"]:
        for metric, score in card["scores"].items():
            value = score["value"] if score["value"] is not None else float("nan")
            rows.setdefault(metric, []).append({"question_id": card["question_id"], "value": value,
                                                "details": json.dumps(score.get("details") or {})})
    return {metric: pd.DataFrame(r) for metric, r in rows.items()}


def marked_contexts(card: dict) -> tuple[list[dict], list[int | None]]:
    """The card's retrieved contexts, each cut into ``segments`` ({text, mark}) where the
    evidence sentence of a statement is a mark, and for each statement the number of its
    mark (None when no context holds its evidence). Statements quoting overlapping text
    share the first one's mark."""
    details = ((card.get("scores") or {}).get("faithfulness") or {}).get("details") or {}
    contexts = card.get("contexts") or []
    spans: dict[int, list[tuple[int, int, int]]] = {}  # context -> (start, end, mark)
    links: list[int | None] = []
    for number, statement in enumerate(details.get("statements") or []):
        evidence = (statement.get("evidence") or "").strip()
        where = next(((i, c["text"].find(evidence)) for i, c in enumerate(contexts)
                      if evidence and evidence in c["text"]), None)
        if where is None:
            links.append(None)
            continue
        i, start = where
        end = start + len(evidence)
        shared = next((mark for a, b, mark in spans.get(i, []) if a < end and start < b), None)
        if shared is None:
            spans.setdefault(i, []).append((start, end, number))
        links.append(number if shared is None else shared)
    marked = []
    for i, context in enumerate(contexts):
        text, at, segments = context["text"], 0, []
        for start, end, mark in sorted(spans.get(i, [])):
            segments += [{"text": text[at:start], "mark": None}, {"text": text[start:end], "mark": mark}]
            at = end
        marked.append({**context, "segments": [*segments, {"text": text[at:], "mark": None}]})
    return marked, links


def errors(status: int, *problems: tuple[str, str]) -> JSONResponse:
    return JSONResponse({"errors": [{"field": f, "message": m} for f, m in problems]}, status)


def statement_count(card: dict) -> int:
    details = ((card.get("scores") or {}).get("faithfulness") or {}).get("details") or {}
    return len(details.get("statements") or [])


def make_app(reports: Path, dataset_dir: Path, token: str | None = None, calibrations: Path | None = None,
             hosts: tuple[str, ...] = LOOPBACK_NAMES) -> Starlette:
    """The page for one dataset; with ``token`` every request must carry it (header
    ``Authorization: Bearer …`` or ``?token=``); requests must name one of ``hosts``."""
    dataset = dataset_dir.name
    env = Environment(loader=FileSystemLoader(HERE), autoescape=select_autoescape(default=True))

    def allowed(request: Request) -> bool:
        if token is None:
            return True
        given = request.headers.get("authorization", "").removeprefix("Bearer ") or request.query_params.get("token", "")
        return hmac.compare_digest(given.encode(), token.encode())

    def suggestions(data: dict, k: int) -> list[dict]:
        pool = labelling_pool({bot: (score_frames(d), {c["question_id"]: c.get("question_type") or ""
                                                        for c in d["cards"]}) for bot, d in data.items()},
                              load_calibrations(calibrations, dataset) if calibrations else {})
        labels, _ = load_labels(dataset_dir)
        return json.loads(suggest(pool, labels, k).to_json(orient="records"))

    async def page(request: Request):
        if not allowed(request):
            return errors(401, ("token", "a token is required: open the URL the command printed"))
        data = evaluations(reports, dataset)
        html = env.get_template("page.html.j2").render(dataset=dataset, evaluations=data, kinds=KINDS,
                                                       suggestions=suggestions(data, 12),
                                                       marked_contexts=marked_contexts)
        return HTMLResponse(html)

    async def save(request: Request):
        if not allowed(request):
            return errors(401, ("token", "a token is required"))
        try:
            body = await request.json()
        except ValueError:
            return errors(400, ("body", "not JSON"))
        if not isinstance(body, dict):
            return errors(400, ("body", "expected a JSON object"))
        record = {k: body.get(k) for k in ("question_id", "bot_version", "judged", "value", "statement",
                                            "annotator", "note") if body.get(k) not in (None, "")}
        record["time"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
        try:
            label = Label.model_validate({**record, "source": "page"})
        except ValidationError as exc:
            return errors(422, *((".".join(map(str, e["loc"])), e["msg"]) for e in exc.errors()))
        evaluated = evaluations(reports, dataset)
        if label.bot_version not in evaluated:
            return errors(422, ("bot_version", f"no evaluation of {label.bot_version!r} in {dataset}"))
        card = next((c for c in evaluated[label.bot_version]["cards"] if c["question_id"] == label.question_id), None)
        if card is None:
            return errors(422, ("question_id", f"no evaluated question {label.question_id!r} for {label.bot_version}"))
        if label.statement is not None and label.statement >= statement_count(card):
            return errors(422, ("statement", f"{label.statement} is not a statement of this answer "
                                             f"(it has {statement_count(card)})"))
        append_line(dataset_dir / "labels" / PAGE_FILE, record)
        return JSONResponse({"saved": record})

    async def next_items(request: Request):
        if not allowed(request):
            return errors(401, ("token", "a token is required"))
        k = request.query_params.get("k", "10")
        if not (k.isdigit() and 1 <= int(k) <= MAX_SUGGESTIONS):
            return errors(400, ("k", f"{k[:20]!r} is not a whole number from 1 to {MAX_SUGGESTIONS}"))
        return JSONResponse(suggestions(evaluations(reports, dataset), int(k)))

    return Starlette(routes=[Route("/", page), Route("/api/labels", save, methods=["POST"]),
                             Route("/api/next", next_items)],
                     middleware=[Middleware(Guard, hosts=hosts, max_body_bytes=MAX_BODY_BYTES)])
