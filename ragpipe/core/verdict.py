"""The verdict: every pass/fail of an evaluation in one place, for the assets, the asset
checks, the CLI and the reports. The aggregates (a mean with its CI95 and the share of
questions on the good side of the warning threshold, per metric), the threshold checks, the
regression gate against the baseline version (paired test, Holm-adjusted), the status an
evaluation shows, and which failed checks block a release, said with the numbers and as a
JUnit XML file for a CI job. An evaluation is the report data of one bot version on one
dataset (diagnosis.json)."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pandas as pd

from ragpipe.core.config import GateSettings, config_path, load_config
from ragpipe.core.diagnosis.rules import load_rules, severity
from ragpipe.core.diagnosis.stats import drop_p_value, holm, paired_bootstrap, summarize
from ragpipe.core.labels.ppi import prediction_powered
from ragpipe.core.metrics import REGISTRY
from ragpipe.core.schemas import InputError

FAIL_ON = ("critical", "warning", "regression")
DEFAULT_FAIL_ON = ("regression", "critical")
REGRESSION_CHECK = "no_regression_vs_baseline"
# The leaderboard's order, said whole wherever versions are listed by rank.
RANK_RULE = "ranked by rank_score (mean of the metrics, 0-1), regressed versions last"
# The run tag the regression check sets on its evaluation run: passed or blocked. A run that
# failed without it (or without blocked) failed for another reason, e.g. a bot that was down.
VERDICT_TAG = "ragpipe/verdict"


def gate_settings() -> GateSettings:
    """The regression gate's settings (``gate:`` of evaluation.yaml), every metric they name
    checked against the registry."""
    settings = load_config().gate
    for field, names in (("gate.metrics", settings.metrics),
                         ("gate.min_effect", [n for n in settings.min_effect if n != "default"])):
        if unknown := [n for n in names if n not in REGISTRY]:
            raise InputError(str(config_path()), field, f"unknown metric(s) {', '.join(unknown)}; "
                                                        f"known: {', '.join(REGISTRY)}")
    return settings


def compare_versions(candidate: dict, baseline: dict) -> dict[str, dict]:
    """Per metric both versions have per-question scores of (metric -> frame with question_id
    and value), the paired bootstrap of candidate − baseline over the questions both
    measured, the p-value of a drop, and the gate's verdict (judge_regression)."""
    out = {}
    for name, metric in REGISTRY.items():
        if candidate.get(name) is None or baseline.get(name) is None:
            continue
        paired = candidate[name].merge(baseline[name], on="question_id", suffixes=("", "_baseline"))
        out[name] = {**paired_bootstrap(paired["value"], paired["value_baseline"]),
                     "p_drop": drop_p_value(paired["value"], paired["value_baseline"], metric.higher_is_better)}
    return judge_regression(out)


def judge_regression(paired: dict[str, dict], settings: GateSettings | None = None) -> dict[str, dict]:
    """The regression gate's verdict on each metric compared with the baseline (mean_diff,
    n_pairs and p_drop, the one-sided p-value of a drop): a metric blocks (significant_drop)
    when it is one of the gate's metrics, measured on at least min_pairs questions by both
    versions, its Holm-adjusted p-value over those metrics is at most alpha, and it dropped by
    at least its minimum effect. Adds gated, p_holm, min_effect and not_gated (why a metric
    of the gate did not take part, else None)."""
    settings = settings or gate_settings()
    gated = {m: c["p_drop"] for m, c in paired.items()
             if m in settings.metrics and c["n_pairs"] >= settings.min_pairs and not math.isnan(c["p_drop"])}
    adjusted = holm(gated)
    out = {}
    for metric, c in paired.items():
        spec = REGISTRY[metric]
        low, high = spec.value_range
        effect = settings.min_effect.get(metric, settings.min_effect.get("default", 0.0)) * (high - low)
        worse_by = -c["mean_diff"] if spec.higher_is_better else c["mean_diff"]
        not_gated = None
        if metric not in settings.metrics:
            not_gated = "not a gate metric"
        elif not c["n_pairs"]:
            not_gated = "unmeasured"
        elif metric not in gated:
            not_gated = f"measured on {c['n_pairs']} paired questions, fewer than {settings.min_pairs}"
        p_holm = adjusted.get(metric)
        out[metric] = {**c, "gated": metric in gated, "p_holm": p_holm, "min_effect": effect, "not_gated": not_gated,
                       "significant_drop": p_holm is not None and p_holm <= settings.alpha and worse_by >= effect}
    return out


def aggregate_rows(scores: dict[str, pd.DataFrame], labels: pd.DataFrame | None = None,
                   metrics: list[str] | None = None) -> list[dict]:
    """Per metric of ``metrics`` (default all): mean, bootstrap CI95, n, number unmeasured,
    pass rate; and, for the metrics people labelled, the prediction-powered mean with its CI95."""
    rules = load_rules()
    rows = []
    for name, metric in REGISTRY.items():
        if metrics is not None and name not in metrics:
            continue
        rule = rules.get(name)
        stats = summarize(scores[name]["value"], metric.higher_is_better, rule.warning if rule else None)
        rows.append({"metric": name, "higher_is_better": metric.higher_is_better, **stats,
                     **prediction_powered(labels, name, scores[name]["value"])})
    return rows


def significant_drop(comparison: dict, higher_is_better: bool) -> bool:
    """The whole CI95 of the difference lies on the worse side of zero: the rule the
    regression gate had before its sign-flip test, kept for the benchmarks that compare."""
    if comparison["n_pairs"] == 0:
        return False
    return comparison["ci95_high"] < 0 if higher_is_better else comparison["ci95_low"] > 0


def threshold_checks(aggregates: list[dict]) -> list[dict]:
    """The `<metric>_threshold` asset checks, as the list page and the pages show them. A
    metric with no measured value (n = 0) fails its check with a warning: a gate does not
    pass on nothing."""
    rules = load_rules()
    checks = []
    for row in aggregates:
        rule = rules.get(row["metric"])
        if rule is None:
            continue
        if not row["n"]:
            checks.append({"name": f"{row['metric']}_threshold", "metric": row["metric"], "passed": False,
                           "severity": "warning", "mean": None, "threshold": rule.warning, "unmeasured": True})
            continue
        verdict = severity(rule, row["mean"])
        checks.append({"name": f"{row['metric']}_threshold", "metric": row["metric"], "passed": verdict is None,
                       "severity": verdict[0] if verdict else None, "mean": row["mean"],
                       "threshold": verdict[1] if verdict else rule.warning, "unmeasured": False})
    return checks


def regression_check(baseline: str, bot_version: str, comparison: dict[str, dict]) -> dict:
    """The blocking check: no gate metric significantly worse than the baseline version's
    (``comparison`` as judge_regression gives it); too_few names the gate metrics measured
    on too few paired questions to take part."""
    drops = sorted(name for name, c in comparison.items() if c["significant_drop"])
    too_few = sorted(name for name, c in comparison.items() if (c.get("not_gated") or "").startswith("measured on"))
    return {"name": REGRESSION_CHECK, "metric": None, "passed": not drops, "blocking": True,
            "severity": "critical" if drops else None, "baseline": baseline, "drops": drops,
            "too_few": too_few, "is_baseline": baseline == bot_version}


def status_of(checks: list[dict]) -> str:
    """passed, warning (a warning threshold crossed, or a metric unmeasured) or failed
    (critical or a regression)."""
    if any(c["severity"] == "critical" for c in checks):
        return "failed"
    return "warning" if any(not c["passed"] for c in checks) else "passed"


def parse_fail_on(text: str) -> tuple[str, ...]:
    """'critical,regression' -> ('critical', 'regression'); an unknown name is an error."""
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    unknown = [n for n in names if n not in FAIL_ON]
    if unknown or not names:
        raise ValueError(f"--fail-on {text!r}: expected a comma-separated list of {', '.join(FAIL_ON)}")
    return names


def blocks(check: dict, fail_on: tuple[str, ...]) -> bool:
    if check["passed"]:
        return False
    if check["name"] == REGRESSION_CHECK:
        return "regression" in fail_on
    return "warning" in fail_on or (check["severity"] == "critical" and "critical" in fail_on)


def explain(check: dict, evaluation: dict) -> str:
    """What failed and by how much, in one line."""
    if check["name"] == REGRESSION_CHECK:
        return regression_verdict(check, evaluation["comparison"])
    if check.get("unmeasured"):
        return f"{check['metric']} unmeasured: no question gave it a value"
    higher = next(a["higher_is_better"] for a in evaluation["aggregates"] if a["metric"] == check["metric"])
    side = "below" if higher else "above"
    return (f"{check['metric']} {check['mean']:.3f} is {side} its {check['severity']} threshold "
            f"{check['threshold']:.3f} by {abs(check['mean'] - check['threshold']):.3f}")


def regression_verdict(check: dict, comparison: dict[str, dict]) -> str:
    """Which metrics dropped against the baseline and by how much (the mean paired
    difference, its CI95 and the Holm-adjusted p-value), and which gate metrics did not
    take part for too few paired questions; or what was compared."""
    baseline = check["baseline"]
    if check["is_baseline"]:
        return "this is the baseline version: nothing to compare with"
    few = [f"{m} ({comparison[m]['n_pairs']})" for m in check.get("too_few", [])]
    note = f"; not gated, too few paired questions: {', '.join(few)}" if few else ""
    if not check["drops"]:
        gated = sum(bool(c.get("gated")) for c in comparison.values())
        return f"no gate metric significantly worse than {baseline} ({gated} compared){note}"
    return f"significantly worse than {baseline}: " + "; ".join(
        f"{m} {comparison[m]['mean_diff']:+.3f} (CI95 [{comparison[m]['ci95_low']:+.3f}, "
        f"{comparison[m]['ci95_high']:+.3f}], Holm p {comparison[m]['p_holm']:.3f})" for m in check["drops"]) + note


def failures(evaluation: dict, fail_on: tuple[str, ...]) -> list[tuple[str, str]]:
    """(check name, explanation) of every blocking check that failed."""
    return [(c["name"], explain(c, evaluation)) for c in evaluation["checks"] if blocks(c, fail_on)]


def junit_xml(evaluations: list[dict], fail_on: tuple[str, ...]) -> str:
    """One test suite per evaluation, one test case per check; a blocking failure is a
    <failure>, a failed check that does not block is a passing case that says so."""
    root = ET.Element("testsuites", name="ragpipe")
    for evaluation in evaluations:
        blocked = dict(failures(evaluation, fail_on))
        suite = ET.SubElement(root, "testsuite", name=f"{evaluation['dataset']}/{evaluation['bot_version']}",
                              tests=str(len(evaluation["checks"])), failures=str(len(blocked)))
        for check in evaluation["checks"]:
            case = ET.SubElement(suite, "testcase", classname=f"{evaluation['dataset']}.{evaluation['bot_version']}",
                                 name=check["name"])
            if check["name"] in blocked:
                ET.SubElement(case, "failure", message=blocked[check["name"]], type=check["severity"] or "failed")
            elif not check["passed"]:
                ET.SubElement(case, "system-out").text = f"not blocking: {explain(check, evaluation)}"
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
