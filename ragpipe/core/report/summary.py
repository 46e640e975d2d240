"""What `ragpipe run` and `ragpipe eval` print at the end, and the files a CI job keeps: per
dataset the versions ranked by rank_score with regressed versions last, the release gate's
verdict on each, the checks that failed, the three metrics that moved most against the
baseline and where the full report is (at most 100 columns); the checks that block a
release with their numbers; a Markdown summary and a JUnit XML file."""

from __future__ import annotations

import json
import math
import textwrap
from dataclasses import dataclass
from pathlib import Path

from ragpipe.core.verdict import RANK_RULE, REGRESSION_CHECK, failures, junit_xml

WIDTH = 100
MOVED = 3  # metrics shown per version


@dataclass
class Version:
    """One evaluation as the summary shows it."""
    dataset: str
    bot_version: str
    rank: int | None  # None: not ranked (its dataset's leaderboard did not run)
    rank_score: float | None
    evaluation: dict  # the report data, diagnosis.json


def load_versions(reports: Path, dataset: str, board) -> list[Version]:
    """The ranked versions of a dataset's leaderboard whose report data exists."""
    versions = []
    for row in board.to_dict("records"):
        data = reports / dataset / row["bot_version"] / "diagnosis.json"
        if data.is_file():
            score = row.get("rank_score", row.get("overall"))  # "overall" in leaderboards written before the rename
            versions.append(Version(dataset, row["bot_version"], int(row["rank"]), score,
                                    json.loads(data.read_text(encoding="utf-8"))))
    return versions


def moved_most(evaluation: dict, n: int = MOVED) -> list[str]:
    """The metrics whose paired mean moved most from the baseline, relative to their range."""
    specs = evaluation["metrics"]

    def size(item) -> float:
        low, high = specs[item[0]]["range"]
        return abs(item[1]["mean_diff"]) / (high - low)

    moved = [(m, d) for m, d in evaluation.get("comparison", {}).items()
             if d.get("n_pairs") and d.get("mean_diff") is not None and not math.isnan(d["mean_diff"])]
    return [f"{m} {d['mean_diff']:+.3f}{'*' if d['significant_drop'] else ''}"
            for m, d in sorted(moved, key=size, reverse=True)[:n]]


def checks_cell(evaluation: dict) -> str:
    """'pass', or the failed checks: the regression check, then thresholds crossed by severity
    ('2 crit, 3 warn')."""
    failed = [c for c in evaluation["checks"] if not c["passed"]]
    parts = ["regression"] if any(c["name"] == REGRESSION_CHECK for c in failed) else []
    for severity in ("critical", "warning"):
        if count := sum(c["severity"] == severity for c in failed if c["name"] != REGRESSION_CHECK):
            parts.append(f"{count} {severity[:4]}")
    return ", ".join(parts) or "pass"


def gate_cell(evaluation: dict, fail_on: tuple[str, ...]) -> str:
    """The release gate's verdict on one evaluation, as the exit code reads it."""
    return "BLOCKED" if failures(evaluation, fail_on) else "pass"


def verdict_line(v: Version, fail_on: tuple[str, ...]) -> str:
    """'refbot@v2 on policy_zh: passes; checks failed: 1 crit, 3 warn', under the release gate."""
    failed = checks_cell(v.evaluation)
    return (f"{v.bot_version} on {v.dataset}: {'passes' if gate_cell(v.evaluation, fail_on) == 'pass' else 'BLOCKED'}; "
            f"checks failed: {'none' if failed == 'pass' else failed}")


def terminal_summary(dataset: str, versions: list[Version], page: Path, fail_on: tuple[str, ...]) -> str:
    lines = [*textwrap.wrap(f"{dataset}: {len(versions)} version(s), {RANK_RULE}", WIDTH, subsequent_indent="  "),
             f"  {'#':>2}  {'version':<18} {'rank_score':>10}  {'gate':<7}  {'checks failed':<26} "
             "Δ vs baseline (*: blocks)"]
    indent = " " * 73
    for v in versions:
        # A metric and its change stay on one line (textwrap does not break at a no-break space).
        moved = "baseline" if v.evaluation["baseline"] == v.bot_version else ", ".join(
            m.replace(" ", "\u00a0") for m in moved_most(v.evaluation))
        head = (f"  {v.rank if v.rank is not None else '-':>2}  {_cut(v.bot_version, 18):<18} "
                f"{'-' if v.rank_score is None else format(v.rank_score, '.3f'):>10}  "
                f"{gate_cell(v.evaluation, fail_on):<7}  {_cut(checks_cell(v.evaluation), 26):<26} ")
        lines += [line.replace("\u00a0", " ") for line in textwrap.wrap(
            moved or "-", WIDTH, initial_indent=head, subsequent_indent=indent, break_on_hyphens=False)]
    lines.append(f"  full table: {page}")
    return "\n".join(lines)


def gate_lines(versions: list[Version], fail_on: tuple[str, ...]) -> list[str]:
    """One line per blocking check that failed, wrapped to the terminal width."""
    lines = []
    for v in versions:
        for name, why in failures(v.evaluation, fail_on):
            lines += textwrap.wrap(f"FAIL {v.bot_version} on {v.dataset}: {name}: {why}", WIDTH,
                                   subsequent_indent="       ", break_on_hyphens=False)
    return lines


def markdown_summary(versions: list[Version], fail_on: tuple[str, ...]) -> str:
    lines = ["# ragpipe evaluation", ""]
    for dataset in dict.fromkeys(v.dataset for v in versions):
        lines += [f"## {dataset}", "", f"{RANK_RULE[0].upper()}{RANK_RULE[1:]}.", "",
                  "| # | version | rank_score | gate | checks failed | moved most vs baseline (*: blocks) |",
                  "|---|---|---|---|---|---|"]
        for v in (v for v in versions if v.dataset == dataset):
            moved = "baseline" if v.evaluation["baseline"] == v.bot_version else ", ".join(moved_most(v.evaluation))
            score = "—" if v.rank_score is None else f"{v.rank_score:.3f}"
            lines.append(f"| {v.rank or '—'} | {v.bot_version} | {score} | {gate_cell(v.evaluation, fail_on)} "
                         f"| {checks_cell(v.evaluation)} | {moved} |")
        lines.append("")
    blocked = [f"- **{v.bot_version}** on {v.dataset}: `{name}`: {why}"
               for v in versions for name, why in failures(v.evaluation, fail_on)]
    lines += [f"## Release gate (fails on {', '.join(fail_on)}): {'FAILED' if blocked else 'passed'}", "", *blocked]
    return "\n".join(lines).rstrip() + "\n"


def write_ci_files(versions: list[Version], fail_on: tuple[str, ...], junit: str | None, summary_md: str | None) -> None:
    if junit:
        Path(junit).write_text(junit_xml([v.evaluation for v in versions], fail_on), encoding="utf-8")
    if summary_md:
        Path(summary_md).write_text(markdown_summary(versions, fail_on), encoding="utf-8")


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"
