"""Asset checks on aggregate_scores: thresholds, and regression against the baseline version."""

import dagster as dg

from ragpipe.defs.definitions import build_defs
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
            instance=instance, partition_key=dg.MultiPartitionKey({"dataset": "product_en", "bot": bot}))
            for bot in ("refbot@v1", "refbot@v1.1", "refbot@v3")}
        board = defs.resolve_job_def("rank_bot_versions").execute_in_process(instance=instance, partition_key="product_en")

    baseline = checks_of(results["refbot@v1"])["no_regression_vs_baseline"]
    assert baseline.passed and baseline.metadata["note"].value == "this is the baseline version"
    same = checks_of(results["refbot@v1.1"])["no_regression_vs_baseline"]
    assert same.passed and same.metadata["baseline"].value == "refbot@v1"
    assert same.metadata["significant_drops"].value == []
    worse = checks_of(results["refbot@v3"])["no_regression_vs_baseline"]
    assert not worse.passed and worse.severity == dg.AssetCheckSeverity.ERROR
    drops = worse.metadata["significant_drops"].value
    assert "context_recall" in drops
    comparison = worse.metadata["comparison"].value["context_recall"]
    assert comparison["ci95_high"] < 0 and comparison["n_pairs"] >= 30

    thresholds = {name: e for name, e in checks_of(results["refbot@v3"]).items() if name.endswith("_threshold")}
    assert {"faithfulness_threshold", "context_recall_threshold", "noise_sensitivity_threshold"} <= set(thresholds)
    for evaluation in thresholds.values():
        mean, warning = evaluation.metadata["mean"].value, evaluation.metadata["warning"].value
        higher = evaluation.metadata["direction"].value == "higher is better"
        if mean == mean:  # measured
            assert evaluation.passed == (mean >= warning if higher else mean <= warning)

    table = board.output_for_node("leaderboard").set_index("bot_version")
    assert table.loc["refbot@v3", "Δcontext_recall"] < 0 == table.loc["refbot@v1.1", "Δcontext_recall"]
    assert "context_recall" in table.loc["refbot@v3", "significant_drops"]
