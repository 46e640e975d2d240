"""The data behind the report pages, as plain JSON-ready dicts: one evaluation (a bot
version on a dataset: its aggregates whole, and its questions' cards, made one at a time
to be written in pages of CARDS_PER_PAGE) and one dataset's version comparison. The
pipeline writes them next to the pages, so the site can be rebuilt without Dagster."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import asdict
from datetime import datetime, timezone

import pandas as pd

from ragpipe.core.diagnosis.rules import Diagnosis, load_rules
from ragpipe.core.metrics import REGISTRY
from ragpipe.core.verdict import regression_check, status_of, threshold_checks
from ragpipe.core.report.charts import bin_counts

# A page holds the cards of this many questions: about 3 MB of HTML, whatever the evaluation's size.
CARDS_PER_PAGE = 100

# Shown first on the list page and in the headline row of the detail page, when measured.
HEADLINE = ("overall_score", "faithfulness", "answer_relevancy", "context_recall", "context_precision",
            "answer_correctness", "llm_judge", "rubric_1_10")


def clean(value):
    """JSON-ready: NaN becomes null, numpy scalars and arrays become Python values."""
    if isinstance(value, dict):
        return {str(k): clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean(v) for v in value]
    if hasattr(value, "tolist"):  # numpy scalars and arrays
        return clean(value.tolist())
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def metric_specs() -> dict[str, dict]:
    rules = load_rules()
    return {name: {"higher_is_better": m.higher_is_better, "range": list(m.value_range),
                   "definition": m.definition, "llm_only": m.llm_only,
                   "warning": rules[name].warning if name in rules else None,
                   "critical": rules[name].critical if name in rules else None}
            for name, m in REGISTRY.items()}


def _same_answer(a: str, b: str) -> bool:
    return " ".join(a.split()) == " ".join(b.split())


def _changed_from(previous, answer) -> str | None:
    """The previous round's answer when this round's differs from it, else None."""
    if isinstance(previous, str) and isinstance(answer, str) and not _same_answer(previous, answer):
        return previous
    return None


def answer_drift(responses: pd.DataFrame) -> dict:
    """How many answers changed since the previous answer round, over the questions both
    rounds answered; empty when there is no previous round to compare with."""
    if "previous_answer" not in responses:
        return {}
    both = responses[responses["previous_answer"].notna() & responses["answer"].notna()]
    if both.empty:
        return {}
    changed = sum(_changed_from(b, a) is not None for a, b in zip(both["answer"], both["previous_answer"]))
    return {"answers_compared": len(both), "answers_changed": changed, "share_changed": changed / len(both)}


def round_drift(responses: pd.DataFrame, means_by_round: dict[str, dict]) -> dict | None:
    """Drift of an HTTP bot between its latest two answer rounds: the share of answers that
    changed, and per metric the mean's change (where the previous round's means were
    recorded). None when the responses have no previous round."""
    current, previous = responses.attrs.get("round"), responses.attrs.get("previous_round")
    if not previous:
        return None
    now, before = means_by_round.get(current, {}), means_by_round.get(previous, {})
    deltas = {m: now[m] - before[m] for m in now if now[m] is not None and before.get(m) is not None}
    return {"round": current, "previous_round": previous, **answer_drift(responses), "metric_deltas": deltas}


def _contexts(ids: list[str], texts: list[str], gold: set[str], verdicts: list[dict]) -> list[dict]:
    """Retrieved contexts in rank order, marked when they are a ground-truth chunk and with
    how many of the answer's supported statements quote them as evidence."""
    out = []
    for rank, text in enumerate(texts, start=1):
        chunk_id = ids[rank - 1] if rank - 1 < len(ids) else None
        supports = sum(1 for v in verdicts if v.get("supported") and v.get("evidence")
                       and v["evidence"].strip() and v["evidence"].strip() in text)
        out.append({"rank": rank, "id": chunk_id, "text": text, "gold": chunk_id in gold, "supports": supports})
    return out


def _as_list(value) -> list:
    return list(value) if value is not None and not isinstance(value, float) else []


def evaluation_data(dataset: str, bot_version: str, language: str, question_set: pd.DataFrame,
                    responses: pd.DataFrame, aggregates: pd.DataFrame, scores: dict[str, pd.DataFrame],
                    diagnosis: Diagnosis, baseline: str, comparison: dict[str, dict],
                    drift: dict | None = None) -> dict:
    """What the detail page shows about one evaluation but its cards (evaluation_cards):
    aggregates, checks, each metric's distribution (``histograms``: bin counts), the
    diagnosis without its per-question part, and the card page of each question the
    diagnosis names (``question_pages``). ``drift`` is round_drift's."""
    aggregate_rows = clean(aggregates.to_dict("records"))
    checks = threshold_checks(aggregate_rows) + [regression_check(baseline, bot_version, comparison)]
    found = {key: value for key, value in diagnosis.as_dict().items() if key != "samples"}  # those go on the cards
    named = {s["question_id"] for f in found["findings"] for s in f["low_samples"]} | {
        qid for f in found["sample_findings"] + found["judge_suggestions"] for qid in f["question_ids"]}
    order = question_set["question_id"].tolist()
    return clean({
        "kind": "evaluation", "dataset": dataset, "bot_version": bot_version, "language": language,
        "generated_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "n_questions": len(question_set), "n_bot_errors": int(responses["error"].notna().sum()),
        "latency_ms_p50": float(responses["latency_ms"].median()) if len(responses) else None,
        "metrics": metric_specs(), "aggregates": aggregate_rows, "checks": checks,
        "status": status_of(checks), "baseline": baseline, "comparison": comparison,
        "diagnosis": found, "drift": drift,
        "histograms": {name: bin_counts(frame["value"], *REGISTRY[name].value_range) for name, frame in scores.items()},
        "cards_per_page": CARDS_PER_PAGE, "pages": max(1, math.ceil(len(order) / CARDS_PER_PAGE)),
        "question_pages": {qid: i // CARDS_PER_PAGE + 1 for i, qid in enumerate(order) if qid in named},
    })


def evaluation_cards(question_set: pd.DataFrame, responses: pd.DataFrame, scores: dict[str, pd.DataFrame],
                     diagnosis: Diagnosis) -> Iterator[dict]:
    """Every question's card, in the question set's order, one at a time: the question,
    the answer, the contexts, each metric's score with its details, and the question's own
    diagnosis (``sample``)."""
    merged = question_set.merge(responses, on="question_id", how="left")
    by_metric = {name: frame.set_index("question_id") for name, frame in scores.items()}
    for row in merged.to_dict("records"):
        qid = row["question_id"]
        metric_rows = {}
        for name, frame in by_metric.items():
            if qid not in frame.index:
                continue
            r = frame.loc[qid]
            metric_rows[name] = {"value": r["value"], "error": r["error"],
                                 "details": json.loads(r["details"]) if isinstance(r["details"], str) else {}}
        verdicts = metric_rows.get("faithfulness", {}).get("details", {}).get("statements", [])
        sample = diagnosis.samples.get(qid)
        yield clean({
            "question_id": qid, "question": row["question"], "question_type": row.get("question_type"),
            "ground_truth_answer": row.get("ground_truth_answer"),
            "ground_truth_contexts": _as_list(row.get("ground_truth_contexts")),
            "answer": row["answer"] if isinstance(row.get("answer"), str) else None,
            "previous_answer": _changed_from(row.get("previous_answer"), row.get("answer")),
            "error": row["error"] if isinstance(row.get("error"), str) else None,
            "latency_ms": row.get("latency_ms"),
            "contexts": _contexts(_as_list(row.get("retrieved_ids")), _as_list(row.get("retrieved_contexts")),
                                  set(_as_list(row.get("ground_truth_contexts"))), verdicts),
            "scores": metric_rows, "sample": asdict(sample) if sample is not None else {},
        })


def comparison_data(dataset: str, language: str, versions: list[dict]) -> dict:
    """One dataset's bot versions in version order. Each version: bot_version, rank,
    rank_score, baseline, failed_checks (the blocking checks it fails), aggregates (metric ->
    mean, ci95_low, ci95_high, n, and ppi_mean, ppi_ci95_low, ppi_ci95_high, n_labels) and
    paired (metric -> mean_diff, ci95_low, ci95_high, n_pairs, p_drop, p_holm, gated,
    not_gated, min_effect, significant_drop) against its baseline."""
    return clean({"kind": "comparison", "dataset": dataset, "language": language,
                  "generated_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                  "metrics": metric_specs(), "versions": versions})
