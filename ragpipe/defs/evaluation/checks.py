"""The asset checks on aggregate_scores, each its own definition so that it re-runs alone
(from the UI, or a job selecting only it): every threshold of rules.yaml, and the blocking
regression check against the bot's baseline version."""

import dagster as dg
import pandas as pd

from ragpipe.core.diagnosis.rules import load_rules
from ragpipe.core.metrics import REGISTRY
from ragpipe.core.report.data import REGRESSION_CHECK, regression_check, threshold_checks
from ragpipe.defs.evaluation.assets import (
    SCORE_INS,
    _keys,
    _nan_to_none,
    baseline_of,
    compare_with_baseline,
)
from ragpipe.defs.partitions import evaluations, partitioned_check
from ragpipe.defs.resources import ProjectPaths

THRESHOLD_METRICS = [m for m in REGISTRY if m in load_rules()]


def threshold_verdict(check: dict, rule) -> str:
    """What the check found, and by how much: the UI shows it on the check's result."""
    metric = check["metric"]
    if check["unmeasured"]:
        return f"no measured value of {metric} (n = 0): the gate does not pass on nothing"
    side = "above" if rule.higher_is_better else "below"
    if check["passed"]:
        return (f"{metric} mean {check['mean']:.3f} is {side} the warning threshold {rule.warning:.3f} "
                f"by {abs(check['mean'] - rule.warning):.3f}")
    wrong_side = "below" if rule.higher_is_better else "above"
    return (f"{metric} mean {check['mean']:.3f} is {wrong_side} the {check['severity']} threshold "
            f"{check['threshold']:.3f} by {abs(check['mean'] - check['threshold']):.3f}")


def threshold_result(check: dict, row: dict) -> dg.AssetCheckResult:
    rule = load_rules()[check["metric"]]
    return dg.AssetCheckResult(
        check_name=check["name"], passed=check["passed"],
        severity=dg.AssetCheckSeverity.ERROR if check["severity"] == "critical" else dg.AssetCheckSeverity.WARN,
        description=threshold_verdict(check, rule),
        metadata={"mean": _nan_to_none(float(row["mean"])), "warning": rule.warning, "critical": rule.critical,
                  "direction": "higher is better" if rule.higher_is_better else "lower is better",
                  "n": int(row["n"]), "n_unmeasured": int(row["n_unmeasured"])})


@dg.multi_asset_check(
    specs=[partitioned_check(f"{m}_threshold", "aggregate_scores", evaluations,
                             description=f"mean {m} against the warning (WARN) and critical (ERROR) thresholds "
                                         "of rules.yaml; a metric with no measured value fails with WARN")
           for m in THRESHOLD_METRICS],
    can_subset=True, ins={"aggregate_scores": dg.AssetIn()})
def thresholds(context: dg.AssetCheckExecutionContext, aggregate_scores: pd.DataFrame):
    """Each selected `<metric>_threshold` check against the stored aggregate."""
    rows = {row["metric"]: row for row in aggregate_scores.to_dict("records")}
    selected = {key.name for key in context.selected_asset_check_keys}
    for check in threshold_checks(list(rows.values())):
        if check["name"] in selected:
            yield threshold_result(check, rows[check["metric"]])


# Blocking: a significant drop fails the evaluation run; the leaderboard ranks the version
# after the clean ones and flags it.
@dg.multi_asset_check(
    specs=[partitioned_check(REGRESSION_CHECK, "aggregate_scores", evaluations, blocking=True,
                             additional_deps=[dg.AssetKey(["scores", name]) for name in REGISTRY],
                             description="no metric significantly worse than the baseline version (paired bootstrap "
                                         "over per-question scores, CI95); blocking")],
    ins={"aggregate_scores": dg.AssetIn(), **SCORE_INS})  # after the aggregate it checks
def no_regression_vs_baseline(context: dg.AssetCheckExecutionContext, paths: ProjectPaths,
                              aggregate_scores: pd.DataFrame, **score_inputs: pd.DataFrame):
    dataset, bot_version = _keys(context)
    scores = {name: score_inputs[f"score_{name}"] for name in REGISTRY}
    baseline = baseline_of(paths, bot_version)
    comparison = compare_with_baseline(paths, dataset, bot_version, baseline, scores)
    regression = regression_check(baseline, bot_version, comparison)
    yield dg.AssetCheckResult(
        check_name=REGRESSION_CHECK, passed=regression["passed"], severity=dg.AssetCheckSeverity.ERROR,
        description=regression_verdict(regression, comparison),
        metadata={"baseline": baseline, "significant_drops": dg.MetadataValue.json(regression["drops"]),
                  **({"note": "this is the baseline version"} if regression["is_baseline"] else {
                      "comparison": dg.MetadataValue.json({k: {kk: _nan_to_none(vv) for kk, vv in v.items()}
                                                           for k, v in comparison.items()})})})


def regression_verdict(regression: dict, comparison: dict[str, dict]) -> str:
    """Which metrics dropped against the baseline and by how much (the mean paired difference
    and its CI95), or what was compared."""
    baseline = regression["baseline"]
    if regression["is_baseline"]:
        return "this is the baseline version: nothing to compare with"
    if not regression["drops"]:
        return f"no metric significantly worse than {baseline} ({len(comparison)} metrics compared)"
    return f"significantly worse than {baseline}: " + "; ".join(
        f"{m} {comparison[m]['mean_diff']:+.3f} (CI95 [{comparison[m]['ci95_low']:+.3f}, "
        f"{comparison[m]['ci95_high']:+.3f}])" for m in regression["drops"])


EVALUATION_CHECKS = [thresholds, no_regression_vs_baseline]
