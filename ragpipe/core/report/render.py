"""Render the report site from the stored page data: an evaluation list (index.html),
one detail page per evaluation (<dataset>/<bot>/diagnosis.html: the aggregates whole and
the first page of its questions' cards (data.CARDS_PER_PAGE), the others' on diagnosis-2.html, … with their
data in cards-1.json, cards-2.json, …) and one version comparison per dataset
(<dataset>/compare.html). Static files: open them from disk or
browse them with `ragpipe report serve`. Jinja escapes every value; data for the page
scripts goes through ``script_json``."""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import islice
from pathlib import Path

import yaml
from jinja2 import Environment, FileSystemLoader, select_autoescape
from upath import UPath

from ragpipe.core.inputs.bot_config import version_order
from ragpipe.core.config import load_config
from ragpipe.core.diagnosis.rules import load_rules, severity
from ragpipe.core.report import charts
from ragpipe.core.report.data import HEADLINE
from ragpipe.core.storage import atomic_write

HERE = Path(__file__).parent
EVALUATION_FILE, EVALUATION_PAGE = "diagnosis.json", "diagnosis.html"
CARDS_FILE = "cards-{}.json"  # the cards of page 1, 2, …
COMPARISON_FILE, COMPARISON_PAGE = "comparison.json", "compare.html"
ROUNDS_FILE = "rounds.json"
INDEX_PAGE = "index.html"
# What the evaluation list shows of an evaluation, stored beside its page data: the list is
# rebuilt on every run from these few KB each, not from every evaluation's whole page data.
SUMMARY_FILE, SUMMARY_FIELDS = "summary.json", ("dataset", "bot_version", "language", "generated_at", "n_questions",
                                                "n_bot_errors", "status", "aggregates", "checks")

# U+2028/2029 end a line in older JavaScript; <, > and & could close the script element or
# open a comment inside it.
_SCRIPT_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def script_json(value) -> str:
    """JSON that is safe inside <script type="application/json">, whatever strings it holds."""
    text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    return "".join(_SCRIPT_ESCAPES.get(ch, ch) for ch in text)


@lru_cache(maxsize=1)
def _labels() -> dict[str, dict[str, str]]:
    return yaml.safe_load((HERE / "labels.yaml").read_text(encoding="utf-8"))


def _fmt(value, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


@lru_cache(maxsize=1)
def _env() -> Environment:
    env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(default=True),
                      trim_blocks=True, lstrip_blocks=True)
    env.filters["fmt"] = _fmt
    env.filters["pretty"] = lambda v: json.dumps(v, ensure_ascii=False, indent=1)
    env.filters["pct"] = lambda v: "—" if v is None else f"{v:.0%}"
    env.globals["css"] = (HERE / "templates" / "site.css").read_text(encoding="utf-8")
    env.globals["js"] = (HERE / "templates" / "site.js").read_text(encoding="utf-8")
    env.globals["quality_label"] = lambda level, language: load_config().quality_label(level, language)
    return env


def _write(path: Path, text: str) -> None:
    """Atomic, so a browser or a concurrent run never reads half a page."""
    atomic_write(path, text.encode("utf-8"))


def _render(template: str, language: str, root: str, **context) -> str:
    labels = _labels()["zh" if language == "zh" else "en"]
    return _env().get_template(template).render(t=labels, lang=language, root=root, **context)


def grade(metric: str, value) -> str:
    """good, warning or critical against the metric's thresholds; '' without a rule."""
    rule = load_rules().get(metric)
    if rule is None or value is None:
        return ""
    verdict = severity(rule, value)
    return verdict[0] if verdict else "good"


def _measured(data: dict) -> list[dict]:
    return [row for row in data["aggregates"] if row["n"]]


def _forest(paired: dict[str, dict], specs: dict) -> str:
    """Paired differences from the baseline, or '' when there are none."""
    rows = [{"label": m, "diff": c["mean_diff"], "low": c["ci95_low"], "high": c["ci95_high"],
             "higher_is_better": specs[m]["higher_is_better"]} for m, c in paired.items() if c.get("n_pairs")]
    return charts.forest(rows) if rows else ""


def card_page(page: int) -> str:
    """The file name of a page of an evaluation's cards (1 is the detail page itself)."""
    return EVALUATION_PAGE if page == 1 else f"diagnosis-{page}.html"


def evaluation_page(data: dict, cards: list[dict], page: int = 1) -> str:
    """Page ``page`` of an evaluation: its cards, and on the first page the whole summary."""
    specs = data["metrics"]
    measured = _measured(data)
    axes = []
    for row in measured:
        spec = specs[row["metric"]]
        low, high = spec["range"]
        orient = lambda v: charts.oriented(v, low, high, spec["higher_is_better"])  # noqa: E731
        axes.append({"label": row["metric"] + ("" if spec["higher_is_better"] else " ↓"), "value": orient(row["mean"]),
                     "warning": orient(spec["warning"]) if spec["warning"] is not None else None,
                     "text": f"{row['mean']:.3f}"})
    for row in data["aggregates"]:
        spec = specs[row["metric"]]
        row["bar"] = charts.ci_bar(row["mean"], row["ci95_low"], row["ci95_high"], *spec["range"])
        row["grade"] = grade(row["metric"], row["mean"])
    histograms = [{"metric": row["metric"], "mean": row["mean"],
                   "svg": charts.histogram(data["histograms"][row["metric"]], *specs[row["metric"]]["range"],
                                           row["metric"])} for row in measured]
    filter_data = {
        "metrics": {m: {"range": s["range"]} for m, s in specs.items()},
        "cards": [{"id": c["question_id"], "scores": {m: s["value"] for m, s in c["scores"].items()},
                   "text": f"{c['question']} {c['answer'] or ''}".lower(),
                   "regenerate": c["sample"].get("regenerate", False)} for c in cards],
    }
    headline = [row for m in HEADLINE for row in measured if row["metric"] == m]
    pages = data["pages"]

    def question_link(qid: str) -> str:  # a card the diagnosis names, on whichever page holds it
        held = data["question_pages"].get(qid, 1)
        return f"{'' if held == page else card_page(held)}#q-{qid}"

    return _render("evaluation.html.j2", data["language"], "../../", d=data, specs=specs, cards=cards,
                   page=page, pages=pages, page_file=card_page, question_link=question_link,
                   first_card=(page - 1) * data["cards_per_page"] + 1,
                   headline=headline, radar=charts.radar(axes) if len(axes) >= 3 else "",
                   histograms=histograms, grade=grade, filter_json=script_json(filter_data),
                   forest=_forest(data["comparison"], specs),
                   metric_options=[row["metric"] for row in measured])


def comparison_page(data: dict) -> str:
    specs = data["metrics"]
    versions = sorted(data["versions"], key=lambda v: version_order(v["bot_version"]))
    labels = [v["bot_version"] for v in versions]
    if len({label.split("@", 1)[0] for label in labels}) == 1:  # one bot: its versions say enough
        labels = [label.split("@", 1)[1] for label in labels]
    measured = [m for m in specs if any(v["aggregates"].get(m, {}).get("n") for v in versions)]
    trends = [charts.trend(labels, [(v["aggregates"].get(m, {}).get("mean"), v["aggregates"].get(m, {}).get("ci95_low"),
                                     v["aggregates"].get(m, {}).get("ci95_high")) for v in versions],
                           *specs[m]["range"], m + ("" if specs[m]["higher_is_better"] else " ↓")) for m in measured]
    forests = [{"version": v, "svg": _forest(v.get("paired", {}), specs)} for v in versions]
    forests = [f for f in forests if f["svg"]]
    ranked = sorted(versions, key=lambda v: v.get("rank") or math.inf)
    return _render("compare.html.j2", data["language"], "../", d=data, ranked=ranked, measured=measured,
                   trends=trends, forests=forests, grade=grade)


def index_page(evaluations: list[dict], comparisons: set[str]) -> str:
    rows = []
    for e in sorted(evaluations, key=lambda e: (e["dataset"], version_order(e["bot_version"]))):
        means = {r["metric"]: r["mean"] for r in e["aggregates"] if r["n"]}
        rows.append({"e": e, "headline": [(m, means[m]) for m in HEADLINE if m in means][:5],
                     "failed_checks": [c for c in e["checks"] if not c["passed"]],
                     "n_checks": len(e["checks"])})
    languages = {e["language"] for e in evaluations}
    language = "zh" if languages == {"zh"} else "en"
    return _render("index.html.j2", language, "", rows=rows, comparisons=sorted(comparisons), grade=grade)


def load_json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _read_whole(path: Path) -> bytes | None:
    """A file in one read, or None when it is gone since it was listed. On an object store
    one GET, which another run replacing the object cannot split: s3fs's file objects check
    the object's version between reads and fail with FileExpired when it changed."""
    try:
        return path.fs.cat_file(path.path) if isinstance(path, UPath) else path.read_bytes()
    except FileNotFoundError:
        return None


def _write_summary(folder: Path, data: dict) -> None:
    _write(folder / SUMMARY_FILE, json.dumps({k: data[k] for k in SUMMARY_FIELDS}, ensure_ascii=False))


def _write_index(reports: Path) -> Path:
    """The evaluation list, from the evaluations' summaries. Runs writing at once each write
    the list whole: the last one's stands, and it lists every evaluation finished before it looked."""
    found = (_read_whole(path) for path in sorted(reports.glob(f"*/*/{SUMMARY_FILE}")))
    evaluations = [json.loads(data) for data in found if data is not None]
    comparisons = {path.parent.name for path in reports.glob(f"*/{COMPARISON_FILE}")}
    index = reports / INDEX_PAGE
    _write(index, index_page(evaluations, comparisons))
    return index


def _pages_of(cards: Iterable[dict], size: int) -> Iterator[list[dict]]:
    cards = iter(cards)
    while page := list(islice(cards, size)):
        yield page


def _write_pages(folder: Path, data: dict, pages: Iterable[list[dict]], store: bool) -> int:
    """Every card page of an evaluation (and, with ``store``, its cards' data); returns
    how many."""
    written = 0
    for written, cards in enumerate(pages, start=1):
        if store:
            _write(folder / CARDS_FILE.format(written), json.dumps(cards, ensure_ascii=False, indent=1))
        _write(folder / card_page(written), evaluation_page(data, cards, written))
    if not written:  # no question: the summary alone
        _write(folder / EVALUATION_PAGE, evaluation_page(data, [], 1))
    return written


def _remove_pages_past(folder: Path, last: int) -> None:
    """The pages an earlier, longer evaluation left."""
    for stale in [*folder.glob("diagnosis-*.html"), *folder.glob(CARDS_FILE.format("*"))]:
        number = stale.name.split("-", 1)[1].split(".", 1)[0]
        if not number.isdigit() or int(number) > last:
            stale.unlink()


def evaluation_cards_of(folder: Path, data: dict) -> Iterator[list[dict]]:
    """The stored cards of an evaluation, page by page."""
    for page in range(1, data["pages"] + 1):
        yield load_json(folder / CARDS_FILE.format(page))


def load_evaluation(path: Path) -> dict:
    """The stored page data of an evaluation (its diagnosis.json) with every card (``cards``)."""
    data = load_json(path)
    if "cards" not in data:  # else written before the cards had pages of their own
        data["cards"] = [card for page in evaluation_cards_of(path.parent, data) for card in page]
    return data


def build_site(reports: Path) -> Path:
    """(Re)render every page from the page data under ``reports``; returns index.html."""
    for path in sorted(reports.glob(f"*/*/{EVALUATION_FILE}")):
        data = load_json(path)
        _write_summary(path.parent, data)  # the list reads it, whichever format the evaluation has
        if "pages" not in data:  # written before cards had pages: its page stays as it was rendered
            continue
        _remove_pages_past(path.parent, _write_pages(path.parent, data, evaluation_cards_of(path.parent, data),
                                                      store=False))
    for path in sorted(reports.glob(f"*/{COMPARISON_FILE}")):
        _write(path.with_name(COMPARISON_PAGE), comparison_page(load_json(path)))
    return _write_index(reports)


def write_evaluation(reports: Path, data: dict, cards: Iterable[dict]) -> Path:
    """Store one evaluation's page data and its cards in pages, render its pages and the
    list; returns the first page. Only one page of cards is held at a time."""
    folder = reports / data["dataset"] / data["bot_version"]
    summary = json.dumps(data, ensure_ascii=False, indent=1)  # as it is before the pages add their charts
    written = _write_pages(folder, data, _pages_of(cards, data["cards_per_page"]), store=True)
    _write(folder / EVALUATION_FILE, summary)  # after the cards: it never names a page not yet written
    _remove_pages_past(folder, written)
    _write_summary(folder, json.loads(summary))  # as build_site writes it again from the stored data
    _write_index(reports)
    return folder / EVALUATION_PAGE


def record_round(reports: Path, dataset: str, bot_version: str, round_id: str,
                 means: dict[str, float | None]) -> dict[str, dict]:
    """Store the metric means of one answer round of an evaluation beside its page data,
    where earlier rounds' means are kept; returns the means of every recorded round."""
    path = reports / dataset / bot_version / ROUNDS_FILE
    rounds = load_json(path) if path.exists() else {}
    rounds[round_id] = means
    _write(path, json.dumps(rounds, ensure_ascii=False, indent=1))
    return rounds


def write_comparison(reports: Path, data: dict) -> Path:
    folder = reports / data["dataset"]
    _write(folder / COMPARISON_FILE, json.dumps(data, ensure_ascii=False, indent=1))
    _write(folder / COMPARISON_PAGE, comparison_page(data))
    _write_index(reports)
    return folder / COMPARISON_PAGE


def page_url(reports: Path, page: Path) -> str:
    """Where `ragpipe report serve` shows a page (RAGPIPE_REPORT_URL, default its address)."""
    base = os.environ.get("RAGPIPE_REPORT_URL", "http://127.0.0.1:8765").rstrip("/")
    return f"{base}/{page.relative_to(reports).as_posix()}"
