"""The asset checks on aggregate_scores, each its own definition so that it re-runs alone
(from the UI, or a job selecting only it): every threshold of rules.yaml, and the blocking
regression check against the bot's baseline version."""

import dagster as dg
import pandas as pd

from ragpipe.core.diagnosis.rules import load_rules
from ragpipe.core.metrics import REGISTRY
from ragpipe.core.verdict import (REGRESSION_CHECK, VERDICT_TAG, regression_check, regression_verdict,
                                  threshold_checks)
from ragpipe.defs.evaluation.assets import SCORE_INS, baseline_of, compare_with_baseline, dataset_and_bot
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


def _figure(value) -> str:
    """A partition's figure as text to three digits: the UI plots a number of a check's
    results as one line over time, which across partitions reads as a trend that is not one."""
    return "—" if value is None or value != value else f"{value:.3f}"


def threshold_result(check: dict, row: dict) -> dg.AssetCheckResult:
    rule = load_rules()[check["metric"]]
    return dg.AssetCheckResult(
        check_name=check["name"], passed=check["passed"],
        severity=dg.AssetCheckSeverity.ERROR if check["severity"] == "critical" else dg.AssetCheckSeverity.WARN,
        description=threshold_verdict(check, rule),
        metadata={"mean": _figure(float(row["mean"])), "warning": rule.warning, "critical": rule.critical,
                  "direction": "higher is better" if rule.higher_is_better else "lower is better",
                  "n": str(int(row["n"])), "n_unmeasured": str(int(row["n_unmeasured"]))})


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
                             description="no gate metric (gate.metrics of evaluation.yaml) significantly worse than "
                                         "the baseline version: a paired sign-flip test per metric, Holm-adjusted "
                                         "over the gate metrics, and a drop of at least gate.min_effect; blocking. "
                                         "A blocked run is tagged ragpipe/verdict=blocked")],
    ins={"aggregate_scores": dg.AssetIn(), **SCORE_INS})  # after the aggregate it checks
def no_regression_vs_baseline(context: dg.AssetCheckExecutionContext, paths: ProjectPaths,
                              aggregate_scores: pd.DataFrame, **score_inputs: pd.DataFrame):
    dataset, bot_version = dataset_and_bot(context)
    scores = {name: score_inputs[f"score_{name}"] for name in REGISTRY}
    baseline = baseline_of(paths, bot_version)
    comparison = compare_with_baseline(paths, dataset, bot_version, baseline, scores)
    regression = regression_check(baseline, bot_version, comparison)
    verdict = regression_verdict(regression, comparison)
    # A release held back is a finding, not an outage: the run says so where the runs list
    # filters (its tag), although Dagster marks it failed to keep the blocking semantics.
    context.instance.add_run_tags(context.run.run_id, {VERDICT_TAG: "passed" if regression["passed"] else "blocked"})
    if not regression["passed"]:
        context.log.warning(f"release blocked (the bot ran; this is a quality verdict): {verdict}")
    yield dg.AssetCheckResult(
        check_name=REGRESSION_CHECK, passed=regression["passed"], severity=dg.AssetCheckSeverity.ERROR,
        description=verdict,
        metadata={"baseline": baseline, "significant_drops": dg.MetadataValue.json(regression["drops"]),
                  **({"note": "this is the baseline version"} if regression["is_baseline"] else {
                      "comparison": dg.MetadataValue.json({m: _rounded(c) for m, c in comparison.items()})})})


def _rounded(paired: dict) -> dict:
    """A metric's comparison with its figures to three digits (p-values to four)."""
    return {k: (None if v != v else round(v, 4 if k.startswith("p_") else 3)) if isinstance(v, float) else v
            for k, v in paired.items()}


EVALUATION_CHECKS = [thresholds, no_regression_vs_baseline]
