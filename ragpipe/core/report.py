"""Render an evaluation report (a plain dict) as Markdown for the Dagster UI, a
self-contained HTML page and JSON. Every user-supplied string is escaped."""

from __future__ import annotations

import json
import math
from html import escape

_SEVERITY_ICON = {"critical": "🔴", "warning": "🟠"}


def _fmt(value, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    return f"{value:.{digits}f}" if isinstance(value, float) else str(value)


def _md_cell(text) -> str:
    return escape(str(text)).replace("|", "\\|").replace("\n", " ")[:200]


def to_json(report: dict) -> str:
    def clean(value):
        if isinstance(value, float) and math.isnan(value):
            return None
        if isinstance(value, dict):
            return {k: clean(v) for k, v in value.items()}
        if isinstance(value, list):
            return [clean(v) for v in value]
        return value

    return json.dumps(clean(report), ensure_ascii=False, indent=2)


def to_markdown(report: dict) -> str:
    lines = [
        f"## {_md_cell(report['bot_version'])} on {_md_cell(report['dataset'])}",
        f"{report['n_questions']} questions, {report['n_bot_errors']} bot errors.",
        "",
        "| metric | mean | CI95 | n | unmeasured | pass rate | status |",
        "|---|---|---|---|---|---|---|",
    ]
    status = {f["metric"]: f["severity"] for f in report["findings"]}
    for row in report["aggregates"]:
        lines.append(
            f"| {row['metric']} {'↑' if row['higher_is_better'] else '↓'} | {_fmt(row['mean'])} | "
            f"[{_fmt(row['ci95_low'])}, {_fmt(row['ci95_high'])}] | {row['n']} | {row['n_unmeasured']} | "
            f"{_fmt(row['pass_rate'], 2)} | {_SEVERITY_ICON.get(status.get(row['metric']), '🟢')} "
            f"{status.get(row['metric'], 'ok')} |"
        )
    for finding in report["findings"]:
        lines += ["", f"### {_SEVERITY_ICON[finding['severity']]} {finding['metric']}: {finding['severity']} "
                      f"(mean {_fmt(finding['mean_score'])}, threshold {finding['threshold']})",
                  "Root causes:"]
        lines += [f"- {_md_cell(c)}" for c in finding["root_causes"]]
        lines += ["", "Suggested actions:"] + [f"- {_md_cell(a)}" for a in finding["suggested_actions"]]
        lines += ["", "Worst samples:", "", "| question | answer | score |", "|---|---|---|"]
        lines += [f"| {_md_cell(s.get('question', ''))} | {_md_cell(s.get('answer', ''))} | "
                  f"{_fmt(s.get(finding['metric']))} |" for s in finding["low_samples"]]
    if not report["findings"]:
        lines += ["", "No metric crosses its warning threshold."]
    return "\n".join(lines)


def _ci_bar(row: dict) -> str:
    """An inline SVG bar: the mean as a bar, the CI95 as a whisker, on [0, 1]."""
    if row["mean"] is None or math.isnan(row["mean"]):
        return "<span class='muted'>unmeasured</span>"
    width = 240
    x = lambda v: 4 + max(0.0, min(1.0, v)) * width  # noqa: E731
    return (
        f"<svg width='{width + 8}' height='18' role='img' aria-label='mean {row['mean']:.3f}'>"
        f"<rect x='4' y='4' width='{x(row['mean']) - 4:.1f}' height='10' fill='#5b8def'/>"
        f"<line x1='{x(row['ci95_low']):.1f}' x2='{x(row['ci95_high']):.1f}' y1='9' y2='9' "
        f"stroke='#222' stroke-width='2'/></svg>"
    )


def to_html(report: dict) -> str:
    status = {f["metric"]: f["severity"] for f in report["findings"]}
    rows = "".join(
        f"<tr class='{status.get(r['metric'], 'ok')}'><td>{escape(r['metric'])} "
        f"{'↑' if r['higher_is_better'] else '↓'}</td><td>{_fmt(r['mean'])}</td>"
        f"<td>[{_fmt(r['ci95_low'])}, {_fmt(r['ci95_high'])}]</td><td>{_ci_bar(r)}</td><td>{r['n']}</td>"
        f"<td>{r['n_unmeasured']}</td><td>{_fmt(r['pass_rate'], 2)}</td>"
        f"<td>{escape(status.get(r['metric'], 'ok'))}</td></tr>"
        for r in report["aggregates"]
    )
    findings = []
    for f in report["findings"]:
        samples = "".join(
            f"<tr><td>{escape(str(s.get('question', '')))}</td><td>{escape(str(s.get('answer', '')))}</td>"
            f"<td>{escape(str(s.get('ground_truth_answer', '')))}</td><td>{_fmt(s.get(f['metric']))}</td></tr>"
            for s in f["low_samples"]
        )
        findings.append(
            f"<section class='finding {escape(f['severity'])}'><h3>{escape(f['metric'])}: "
            f"{escape(f['severity'])} (mean {_fmt(f['mean_score'])}, threshold {f['threshold']})</h3>"
            f"<h4>Root causes</h4><ul>{''.join(f'<li>{escape(c)}</li>' for c in f['root_causes'])}</ul>"
            f"<h4>Suggested actions</h4><ul>{''.join(f'<li>{escape(a)}</li>' for a in f['suggested_actions'])}</ul>"
            f"<h4>Worst samples</h4><table><tr><th>question</th><th>answer</th><th>ground truth</th>"
            f"<th>score</th></tr>{samples}</table></section>"
        )
    title = f"{escape(report['bot_version'])} on {escape(report['dataset'])}"
    return f"""<!doctype html>
<html lang="{escape(report.get('language', 'en'))}"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2rem; max-width: 72rem; }}
table {{ border-collapse: collapse; margin: .5rem 0; }} td, th {{ border: 1px solid #ccc; padding: .3rem .5rem; vertical-align: top; }}
tr.critical td {{ background: #fde2e2; }} tr.warning td {{ background: #fff1d6; }} .muted {{ color: #888; }}
section.finding {{ border-left: 4px solid #e0a000; padding-left: 1rem; margin: 1rem 0; }}
section.finding.critical {{ border-color: #d33; }}
</style></head><body>
<h1>{title}</h1>
<p>{report['n_questions']} questions · {report['n_bot_errors']} bot errors · generated {escape(report['generated_at'])}</p>
<h2>Scores</h2>
<table><tr><th>metric</th><th>mean</th><th>CI95</th><th></th><th>n</th><th>unmeasured</th><th>pass rate</th><th>status</th></tr>{rows}</table>
<h2>Diagnosis</h2>
{''.join(findings) or '<p>No metric crosses its warning threshold.</p>'}
</body></html>
"""
