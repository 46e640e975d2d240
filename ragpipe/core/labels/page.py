"""The labelling page: an ASGI app (Starlette) that shows the question cards of a
dataset's evaluations, from the report data the pipeline wrote, with controls to label
each answer, and proposes what to label next. Each label is validated like a label file's
row and appended at once, as one line, to the dataset's labels/page.jsonl.

A card shows the evidence a person needs: the retrieved contexts, and per statement a
link to the context sentence closest to it (the verifier's evidence sentence, picked for
every statement, supported or not). It does not show the machine's verdicts until the
person has answered: the verifier's probability of a statement appears once its label is
saved, so it cannot anchor the label."""

from __future__ import annotations

import fcntl
import hmac
import json
import os
from datetime import datetime, timezone
from pathlib import Path

import pandas as pd
from jinja2 import Environment, FileSystemLoader, select_autoescape
from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Route

from ragpipe.core.labels.calibration import load_calibrations
from ragpipe.core.labels.reading import KINDS, Label, load_labels
from ragpipe.core.labels.suggest import suggest
from ragpipe.core.labels.views import labelling_pool
from ragpipe.core.report.render import EVALUATION_FILE

PAGE_FILE = "page.jsonl"
HERE = Path(__file__).parent


def append_line(path: Path, record: dict) -> None:
    """One JSON line, written by a single write under an exclusive lock on an O_APPEND
    descriptor: two annotators saving at once never interleave or tear a line."""
    data = (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
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
    return {path.parent.name: json.loads(path.read_text(encoding="utf-8")) for path in found}


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


def make_app(reports: Path, dataset_dir: Path, token: str | None = None, calibrations: Path | None = None) -> Starlette:
    """The page for one dataset; with ``token`` every request must carry it (header
    ``Authorization: Bearer …`` or ``?token=``)."""
    dataset = dataset_dir.name
    env = Environment(loader=FileSystemLoader(HERE), autoescape=select_autoescape(default=True))

    def load() -> tuple[dict, set[str]]:
        data = evaluations(reports, dataset)
        return data, {c["question_id"] for d in data.values() for c in d["cards"]}

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
            return JSONResponse({"error": "a token is required: open the URL the command printed"}, 401)
        data, _ = load()
        html = env.get_template("page.html.j2").render(dataset=dataset, evaluations=data, kinds=KINDS,
                                                       suggestions=suggestions(data, 12),
                                                       marked_contexts=marked_contexts)
        return HTMLResponse(html)

    async def save(request: Request):
        if not allowed(request):
            return JSONResponse({"error": "a token is required"}, 401)
        try:
            body = await request.json()
        except ValueError:
            return JSONResponse({"error": "the body is not JSON"}, 400)
        if not isinstance(body, dict):
            return JSONResponse({"error": "expected a JSON object"}, 400)
        _, known = load()
        record = {k: body.get(k) for k in ("question_id", "bot_version", "judged", "value", "statement",
                                            "annotator", "note") if body.get(k) not in (None, "")}
        record["time"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
        try:
            Label.model_validate({**record, "source": "page"})
        except ValidationError as exc:
            return JSONResponse({"error": "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}"
                                                     for e in exc.errors())}, 422)
        if record["question_id"] not in known:
            return JSONResponse({"error": f"question_id: no evaluated question {record['question_id']!r}"}, 422)
        append_line(dataset_dir / "labels" / PAGE_FILE, record)
        return JSONResponse({"saved": record})

    async def next_items(request: Request):
        if not allowed(request):
            return JSONResponse({"error": "a token is required"}, 401)
        data, _ = load()
        return JSONResponse(suggestions(data, int(request.query_params.get("k", 10))))

    return Starlette(routes=[Route("/", page), Route("/api/labels", save, methods=["POST"]),
                             Route("/api/next", next_items)])
