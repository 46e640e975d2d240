"""Markdown summaries for the Dagster UI (MetadataValue.md). Every user-supplied string
is escaped and cut short, since the UI renders the Markdown."""

from __future__ import annotations

import math
from html import escape

import pandas as pd

from ragpipe.core.verdict import REGRESSION_CHECK

_ICON = {"critical": "🔴", "warning": "🟠", "unmeasured": "🟠", "failed": "🔴", "passed": "🟢"}


def fmt(value, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    return f"{value:.{digits}f}" if isinstance(value, float) else str(value)


def cell(text, limit: int = 160) -> str:
    text = escape(str(text), quote=False).replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def table(header: list[str], rows: list[list]) -> list[str]:
    return [f"| {' | '.join(header)} |", f"|{'---|' * len(header)}"] + [
        f"| {' | '.join(cell(c) if isinstance(c, str) else fmt(c) for c in row)} |" for row in rows]


def aggregates_markdown(aggregates: list[dict], checks: list[dict] | None = None) -> str:
    status = {c["metric"]: "unmeasured" if c.get("unmeasured") else c["severity"] or "ok"
              for c in checks or [] if c["metric"]}
    return "\n".join(table(
        ["metric", "mean", "CI95", "n", "unmeasured", "pass rate", "check"],
        [[f"{r['metric']} {'↑' if r['higher_is_better'] else '↓'}", r["mean"],
          f"[{fmt(r['ci95_low'])}, {fmt(r['ci95_high'])}]", r["n"], r["n_unmeasured"], fmt(r["pass_rate"], 2),
          f"{_ICON.get(status[r['metric']], '🟢')} {status[r['metric']]}" if r["metric"] in status else "—"]
         for r in aggregates]))


def evaluation_markdown(data: dict) -> str:
    """The diagnosis of one evaluation: scores, checks, findings, sample findings."""
    diagnosis = data["diagnosis"]
    lines = [f"## {cell(data['bot_version'])} on {cell(data['dataset'])}: {_ICON[data['status']]} {data['status']}",
             f"{data['n_questions']} questions, {data['n_bot_errors']} bot errors; baseline {cell(data['baseline'])}.",
             "", aggregates_markdown(data["aggregates"], data["checks"])]
    regression = next(c for c in data["checks"] if c["name"] == REGRESSION_CHECK)
    if regression["drops"]:
        lines += ["", f"**Significantly worse than {cell(regression['baseline'])}:** {cell(', '.join(regression['drops']))}"
                      " (a blocking check: the evaluation run fails; the leaderboard ranks this version after "
                      "those that pass)"]
    drift = data.get("drift")
    if drift and drift.get("answers_compared"):
        lines += ["", f"**Drift since the previous answer round:** {drift['answers_changed']} of "
                      f"{drift['answers_compared']} answers changed"
                      + "".join(f"; {m} {d:+.3f}" for m, d in drift["metric_deltas"].items())]
    for f in diagnosis["findings"]:
        lines += ["", f"### {_ICON[f['severity']]} {f['metric']}: {f['severity']} "
                      f"(mean {fmt(f['mean_score'])}, threshold {f['threshold']})", "Root causes:"]
        lines += [f"- {cell(c)}" for c in f["root_causes"]]
        lines += ["", "Suggested actions:"] + [f"- {cell(a)}" for a in f["suggested_actions"]]
        lines += ["", "Worst samples:", ""] + table(
            ["question", "answer", "score"],
            [[s.get("question", ""), s.get("answer") or "", s.get(f["metric"])] for s in f["low_samples"]])
    if not diagnosis["findings"]:
        lines += ["", "No metric crosses its warning threshold."]
    for f in diagnosis["sample_findings"]:
        lines += ["", f"### {_ICON[f['severity']]} {cell(f['text'], 300)}"] + [f"- {cell(a)}" for a in f["suggested_actions"]]
    for s in diagnosis["judge_suggestions"][:5]:
        lines += [f"- judge: {cell(s['suggestion'])} ({len(s['question_ids'])} answers)"]
    return "\n".join(lines)


def scores_markdown(metric: str, frame: pd.DataFrame, higher_is_better: bool, worst: int = 5) -> str:
    """One metric's scores: counts, the worst questions and the most common NaN reasons."""
    measured = frame.dropna(subset=["value"])
    lines = [f"**{metric}** ({'higher' if higher_is_better else 'lower'} is better): mean "
             f"{fmt(float(measured['value'].mean()) if len(measured) else math.nan)} over {len(measured)} questions, "
             f"{len(frame) - len(measured)} unmeasured."]
    if len(measured):
        rows = measured.sort_values("value", ascending=higher_is_better, kind="stable").head(worst)
        lines += ["", "Worst questions:", ""] + table(["question_id", "value"], rows[["question_id", "value"]].values.tolist())
    reasons = frame.loc[frame["value"].isna(), "error"].value_counts().head(5)
    if len(reasons):
        lines += ["", "Why unmeasured:", ""] + table(["reason", "questions"], [[r, int(n)] for r, n in reasons.items()])
    return "\n".join(lines)


def responses_markdown(frame: pd.DataFrame) -> str:
    """Answered and failed questions, latency, and the first answers."""
    errors = frame[frame["error"].notna()]
    lines = [f"{len(frame) - len(errors)} of {len(frame)} questions answered; latency p50 "
             f"{fmt(float(frame['latency_ms'].median()), 0)} ms, p95 {fmt(float(frame['latency_ms'].quantile(0.95)), 0)} ms."]
    if len(errors):
        lines += ["", "Errors:", ""] + table(["question_id", "error"], errors[["question_id", "error"]].head(10).values.tolist())
    lines += ["", "First answers:", ""] + table(
        ["question_id", "answer", "contexts", "latency ms"],
        [[r["question_id"], r["answer"] or "—", str(len(r["retrieved_ids"])), fmt(float(r["latency_ms"]), 0)]
         for r in frame.head(10).to_dict("records")])
    return "\n".join(lines)
