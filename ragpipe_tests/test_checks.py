"""Asset checks on aggregate_scores: thresholds (never passed on nothing), and the
blocking regression check against the baseline version, per partition; the leaderboard
ranks a version that fails it after the clean ones."""

import json
import math

import dagster as dg
import pandas as pd

from ragpipe.core.metrics import REGISTRY
from ragpipe.core.verdict import status_of, threshold_checks
from ragpipe.defs.definitions import build_defs
from ragpipe.core.diagnosis.stats import summarize
from ragpipe.defs.evaluation.leaderboard import leaderboard
from ragpipe.defs.evaluation.checks import threshold_result
from ragpipe.defs.instance import prepare_dagster_home
from ragpipe.defs.partitions import sync_partitions


def checks_of(result: dg.ExecuteInProcessResult) -> dict[str, dg.AssetCheckEvaluation]:
    return {e.check_name: e for e in result.get_asset_check_evaluations()}


def test_passing_and_regressing_versions(project):
    # v1.1 repeats v1's config (no regression); v3 retrieves a single chunk by keywords:
    # worse than the baseline v1, the oldest version.
    bots = project / "data" / "bots"
    (bots / "refbot@v1.1.yaml").write_text((bots / "refbot@v1.yaml").read_text(encoding="utf-8")
                                          .replace("version: v1", "version: v1.1"), encoding="utf-8")
    (bots / "refbot@v3.yaml").write_text(
        "name: refbot\nversion: v3\nkind: reference\nretrieval: {method: bm25, top_k: 1}\nanswer: {max_sentences: 1}\n",
        encoding="utf-8")
    prepare_dagster_home(project)
    defs = build_defs(project)
    with dg.DagsterInstance.get() as instance:
        sync_partitions(instance, project / "data")
        defs.resolve_job_def("prepare_dataset").execute_in_process(instance=instance, partition_key="product_en")
        evaluate = defs.resolve_job_def("evaluate_bot_version")
        results = {bot: evaluate.execute_in_process(
            instance=instance, partition_key=dg.MultiPartitionKey({"dataset": "product_en", "bot": bot}),
            raise_on_error=False) for bot in ("refbot@v1", "refbot@v1.1", "refbot@v3")}
        board = defs.resolve_job_def("rank_bot_versions").execute_in_process(instance=instance, partition_key="product_en")
        check = dg.AssetCheckKey(dg.AssetKey("aggregate_scores"), "no_regression_vs_baseline")
        status_by_partition = {info.partition_key: info.latest_execution_status.value
                               for info in instance.event_log_storage.get_asset_check_partition_info([check])}
        reports = instance.get_materialized_partitions(dg.AssetKey("diagnosis_report"))
        instance_tags = {r.run_id: instance.get_run_by_id(r.run_id).tags for r in results.values()}

    baseline = checks_of(results["refbot@v1"])["no_regression_vs_baseline"]
    assert baseline.passed and baseline.metadata["note"].value == "this is the baseline version"
    same = checks_of(results["refbot@v1.1"])["no_regression_vs_baseline"]
    assert same.passed and same.metadata["baseline"].value == "refbot@v1"
    assert same.metadata["significant_drops"].value == []
    # Where the runs list filters: a blocked evaluation is tagged so, apart from a run that broke.
    verdicts = {bot: instance_tags[result.run_id].get("ragpipe/verdict") for bot, result in results.items()}
    assert verdicts == {"refbot@v1": "passed", "refbot@v1.1": "passed", "refbot@v3": "blocked"}
    worse = checks_of(results["refbot@v3"])["no_regression_vs_baseline"]
    assert not worse.passed and worse.severity == dg.AssetCheckSeverity.ERROR
    # Blocking: v3's evaluation run fails on it; its report is still written (it explains the drop).
    assert worse.blocking and not results["refbot@v3"].success and results["refbot@v1.1"].success
    failure = results["refbot@v3"].get_step_failure_events()[0].step_failure_data.error.message
    assert "blocking asset check" in failure and "no_regression_vs_baseline" in failure
    assert "refbot@v3|product_en" in reports
    # Per partition, in the event log and so in the UI: v3 failed while the others passed.
    assert worse.partition == "refbot@v3|product_en"
    assert status_by_partition == {"refbot@v1|product_en": "SUCCEEDED", "refbot@v1.1|product_en": "SUCCEEDED",
                                   "refbot@v3|product_en": "FAILED"}
    drops = worse.metadata["significant_drops"].value
    assert "context_recall" in drops
    comparison = worse.metadata["comparison"].value["context_recall"]
    assert comparison["ci95_high"] < 0 and comparison["n_pairs"] >= 30

    thresholds = {name: e for name, e in checks_of(results["refbot@v3"]).items() if name.endswith("_threshold")}
    assert {"faithfulness_threshold", "context_recall_threshold", "noise_sensitivity_threshold"} <= set(thresholds)
    for evaluation in thresholds.values():
        mean, warning = evaluation.metadata["mean"].value, evaluation.metadata["warning"].value
        higher = evaluation.metadata["direction"].value == "higher is better"
        if mean != "—":  # measured
            assert evaluation.passed == (float(mean) >= warning if higher else float(mean) <= warning)

    table = board.output_for_node("leaderboard").set_index("bot_version")
    assert table.loc["refbot@v3", "Δcontext_recall"] < 0 == table.loc["refbot@v1.1", "Δcontext_recall"]
    assert "context_recall" in table.loc["refbot@v3", "significant_drops"]
    assert table.loc["refbot@v3", "failed_checks"] == "no_regression_vs_baseline" and table.loc["refbot@v3", "blocked"]


def frames(quality: dict[str, list[float]], default: list[float]) -> dict[str, pd.DataFrame]:
    """Per-question scores of every metric from a quality in [0, 1] (1 best), in each
    metric's range and direction."""
    out = {}
    for name, metric in REGISTRY.items():
        low, high = metric.value_range
        q = quality.get(name, default)
        values = [low + (high - low) * (v if metric.higher_is_better else 1 - v) for v in q]
        out[name] = pd.DataFrame({"question_id": [f"q{i}" for i in range(len(q))], "value": values,
                                  "details": "{}", "error": None})
    return out


def aggregate_rows(scores: dict[str, pd.DataFrame]) -> list[dict]:
    return [{"metric": name, "higher_is_better": REGISTRY[name].higher_is_better,
             **summarize(frame["value"], REGISTRY[name].higher_is_better, 0.5)} for name, frame in scores.items()]


def test_a_metric_measured_on_no_question_fails_its_gate():
    scores = frames({"faithfulness": [math.nan] * 4}, [0.95, 0.9, 0.97, 0.92])  # every verification timed out
    rows = aggregate_rows(scores)
    checks = {c["metric"]: c for c in threshold_checks(rows)}
    assert not checks["faithfulness"]["passed"] and checks["faithfulness"]["severity"] == "warning"
    assert all(c["passed"] for m, c in checks.items() if m != "faithfulness")
    assert status_of(list(checks.values())) == "warning"
    row = next(r for r in rows if r["metric"] == "faithfulness")
    result = threshold_result(checks["faithfulness"], row)
    assert not result.passed and result.severity == dg.AssetCheckSeverity.WARN
    assert "n = 0" in result.description and result.metadata["n"].value == "0"


def rank_on_product_en(project, versions: dict[str, dict[str, pd.DataFrame]]):
    """Writes each version's per-question scores to the warehouse and ranks them on
    product_en: the leaderboard by bot version, and the project's paths."""
    warehouse = project / ".ragpipe" / "warehouse"
    aggregates = {}
    for bot, scores in versions.items():
        for name, frame in scores.items():
            (warehouse / "scores" / name / bot).mkdir(parents=True)
            frame.to_parquet(warehouse / "scores" / name / bot / "product_en.parquet")
        aggregates[dg.MultiPartitionKey({"dataset": "product_en", "bot": bot})] = pd.DataFrame(aggregate_rows(scores))
    prepare_dagster_home(project)
    paths = build_defs(project).resources["paths"]
    board = leaderboard(dg.build_asset_context(partition_key="product_en"), paths=paths, aggregate_scores=aggregates)
    return board.set_index("bot_version"), paths


def test_leaderboard_ranks_a_regressed_version_after_its_baseline(project):
    # refbot@v2 beats its baseline refbot@v1 on every metric but context_recall, where it is
    # significantly worse: higher rank_score, yet it fails the blocking regression check.
    n = 30
    versions = {"refbot@v1": frames({"context_recall": [0.9] * n}, [0.5 + 0.01 * (i % 5) for i in range(n)]),
                "refbot@v2": frames({"context_recall": [0.4 + 0.01 * (i % 3) for i in range(n)]},
                                    [0.8 + 0.01 * (i % 4) for i in range(n)])}
    board, paths = rank_on_product_en(project, versions)
    assert board.loc["refbot@v2", "rank_score"] > board.loc["refbot@v1", "rank_score"]
    assert board.loc["refbot@v1", "rank"] == 1 and board.loc["refbot@v2", "rank"] == 2
    assert board.loc["refbot@v2", "failed_checks"] == "no_regression_vs_baseline"
    assert board.loc["refbot@v2", "significant_drops"] == "context_recall" and not board.loc["refbot@v1", "blocked"]

    comparison = json.loads((paths.reports / "product_en" / "comparison.json").read_text(encoding="utf-8"))
    flags = {v["bot_version"]: v["failed_checks"] for v in comparison["versions"]}
    assert flags == {"refbot@v1": [], "refbot@v2": ["no_regression_vs_baseline"]}
    page = (paths.reports / "product_en" / "compare.html").read_text(encoding="utf-8")
    assert page.count('<div class="check critical">✗ no_regression_vs_baseline') == 1


def test_threshold_metadata_is_rounded_text_not_a_series_across_partitions():
    scores = frames({}, [0.20795363375394232, 0.20795363375394232])
    row = next(r for r in aggregate_rows(scores) if r["metric"] == "faithfulness")
    check = next(c for c in threshold_checks([row]))
    metadata = threshold_result(check, row).metadata
    # The UI draws a check's numeric metadata as one line over its runs, whatever their partition.
    assert metadata["mean"] == dg.MetadataValue.text("0.208") and metadata["n"] == dg.MetadataValue.text("2")


def test_leaderboard_does_not_block_for_a_drop_too_small_or_outside_the_gate(project):
    # The refbot@v3: better answers and recall, yet blocked by entity_coverage
    # (measured on 20 of 48 questions) and a small, steady context_relevance drop, each with
    # a CI95 wholly below zero. Neither is a gate metric by default, nor large enough.
    n = 48
    base = [0.5 + 0.01 * (i % 5) for i in range(n)]
    coverage = [0.9 if i < 20 else math.nan for i in range(n)]
    versions = {"refbot@v1": frames({"entity_coverage": coverage}, base),
                "refbot@v2": frames({"entity_coverage": [v - (0.2 if i % 4 else 0.1) for i, v in enumerate(coverage)],
                                     "context_relevance": [v - 0.02 for v in base],
                                     "answer_correctness": [v + 0.1 for v in base],
                                     "context_recall": [v + 0.1 for v in base],
                                     "answer_relevancy": [v + 0.1 for v in base]}, base)}
    board, _ = rank_on_product_en(project, versions)
    for metric in ("entity_coverage", "context_relevance"):  # each CI95 wholly below zero
        assert float(board.loc["refbot@v2", f"Δ{metric}_ci95"].strip("[]").split(",")[1]) < 0
    assert board.loc["refbot@v2", "failed_checks"] == "" and not board.loc["refbot@v2", "blocked"]
    assert board.loc["refbot@v2", "rank"] == 1  # by rank_score, as nothing blocks it
