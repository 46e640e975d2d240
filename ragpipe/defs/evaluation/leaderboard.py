"""The per-dataset leaderboard: every evaluated bot version of one dataset, ranked."""

import dagster as dg
import pandas as pd

from ragpipe.core.metrics import REGISTRY
from ragpipe.core.report import comparison_data, write_comparison
from ragpipe.core.report.charts import oriented
from ragpipe.core.verdict import RANK_RULE, REGRESSION_CHECK, regression_check
from ragpipe.defs.code_versions import code_version
from ragpipe.defs.datasets.assets import dataset_language
from ragpipe.defs.evaluation.assets import baseline_of, compare_with_baseline, config_problem, page_metadata
from ragpipe.defs.errors import input_failure
from ragpipe.defs.evaluation.tables import leaderboard_table
from ragpipe.defs.partitions import BY_DATASET, datasets
from ragpipe.defs.resources import ProjectPaths


def _oriented(metric: str, mean: float) -> float:
    """A metric's mean on [0, 1] with 1 best, so metrics of any range and direction average."""
    spec = REGISTRY.get(metric)
    return float("nan") if spec is None else oriented(mean, *spec.value_range, spec.higher_is_better)


def rank_scores(rows: list[dict]) -> list[float]:
    """Per leaderboard row (metric -> mean, ``<metric>_ppi`` -> prediction-powered mean): the
    mean over its measured metrics, each scaled to [0, 1] with 1 best. A metric counts with
    its prediction-powered mean only when every row has one: a corrected mean against an
    uncorrected one would favour the version people labelled."""
    corrected = {m for m in REGISTRY if all(f"{m}_ppi" in row for row in rows)}
    return [float(pd.Series([_oriented(m, row[f"{m}_ppi"] if m in corrected else row[m])
                             for m in REGISTRY if m in row], dtype=float).mean()) for row in rows]


@dg.asset(partitions_def=datasets, group_name="aggregates", kinds={"parquet", "html"},
          code_version=code_version("reports"),
          ins={"aggregate_scores": dg.AssetIn(partition_mapping=BY_DATASET,
                                              metadata={"allow_missing_partitions": True})})
def leaderboard(context: dg.AssetExecutionContext, paths: ProjectPaths, aggregate_scores) -> pd.DataFrame:
    """Every evaluated bot version of one dataset side by side: per metric the mean and its
    CI95 and, where people labelled the version's answers, the prediction-powered mean and
    its CI95 (columns `<metric>_ppi`); ranked by rank_score, the mean over measured metrics (each
    scaled to [0, 1], best = 1; the prediction-powered mean where every version has one), and
    the paired difference from the bot's baseline version with its CI95 (Δ columns). A
    version that fails a blocking check (a significant drop against its baseline) is
    ranked after the clean versions and flagged (`failed_checks`, `significant_drops`).
    Versions whose evaluation failed are absent, and so are versions whose config is now
    invalid or deleted: their scores came from a config that is no longer there (listed
    as stale in the metadata and in the frame's attrs)."""
    if isinstance(aggregate_scores, pd.DataFrame):  # the IO manager hands a lone partition over bare
        aggregate_scores = {context.asset_partition_keys_for_input("aggregate_scores")[0]: aggregate_scores}
    rows, versions, stale = [], {}, {}
    for key, frame in aggregate_scores.items():
        bot = key.keys_by_dimension["bot"] if isinstance(key, dg.MultiPartitionKey) else str(key).split("|")[0]
        with input_failure():  # a named evaluation ranks its own bot versions only
            left_out = not paths.bots_of(context.partition_key, [bot])
        problem = f"not among the bot versions of evaluation {context.partition_key}" if left_out else None
        if problem := problem or config_problem(paths, bot):  # scores of a config no longer there: not ranked
            stale[bot] = problem
            continue
        versions[bot] = {"bot_version": bot, "aggregates": {r["metric"]: r for r in frame.to_dict("records")}}
        row = {"bot_version": bot}
        for r in frame.to_dict("records"):
            row[r["metric"]] = r["mean"]
            row[f"{r['metric']}_ci95"] = f"[{r['ci95_low']:.3f}, {r['ci95_high']:.3f}]"
            if pd.notna(r.get("ppi_mean", float("nan"))):  # people labelled this version's answers
                row[f"{r['metric']}_ppi"] = r["ppi_mean"]
                row[f"{r['metric']}_ppi_ci95"] = f"[{r['ppi_ci95_low']:.3f}, {r['ppi_ci95_high']:.3f}]"
        rows.append(row)
    for row, score in zip(rows, rank_scores(rows)):
        row["rank_score"] = score
    for row in rows:  # paired differences against each bot's baseline version, and the blocking check
        bot, row["baseline"] = row["bot_version"], baseline_of(paths, row["bot_version"])
        comparison = {}
        if row["baseline"] != bot:
            key = dg.MultiPartitionKey({"dataset": context.partition_key, "bot": bot})
            own = {m: paths.warehouse.stored(["scores", m], key) for m in REGISTRY}
            comparison = compare_with_baseline(paths, context.partition_key, bot, row["baseline"], own)
            versions[bot]["paired"] = comparison
        for metric, c in comparison.items():
            if c["n_pairs"]:
                row[f"Δ{metric}"] = c["mean_diff"]
                row[f"Δ{metric}_ci95"] = f"[{c['ci95_low']:+.3f}, {c['ci95_high']:+.3f}]"
        regression = regression_check(row["baseline"], bot, comparison)
        row["significant_drops"] = ", ".join(regression["drops"])
        versions[bot]["failed_checks"] = [] if regression["passed"] else [REGRESSION_CHECK]
        row["failed_checks"] = ", ".join(versions[bot]["failed_checks"])
    board = pd.DataFrame(rows)
    if board.empty:
        raise dg.Failure(f"no bot version of dataset {context.partition_key} has aggregate scores yet"
                         + "".join(f"; {bot} is not ranked: {problem}" for bot, problem in stale.items()))
    # A version failing a blocking check ranks after every clean one, however high its rank_score.
    board["blocked"] = board["failed_checks"] != ""
    board = board.sort_values(["blocked", "rank_score"], ascending=[True, False]).reset_index(drop=True)
    board.insert(0, "rank", range(1, len(board) + 1))
    deltas = [c for c in board.columns if c.startswith("Δ") and not c.endswith("_ci95")]
    flags = ["failed_checks", "significant_drops"] if board["blocked"].any() else []
    ppi = [f"{m}_ppi" for m in REGISTRY if f"{m}_ppi" in board.columns]
    measured = [m for m in REGISTRY if m in board.columns]  # a named evaluation's metrics only
    shown = board[["rank", "bot_version", "rank_score", *flags, *measured, *ppi, "baseline", *deltas]].dropna(
        axis=1, how="all")
    for record in board[["rank", "bot_version", "rank_score", "baseline"]].to_dict("records"):
        versions[record["bot_version"]].update(record)
    page = write_comparison(paths.reports, comparison_data(
        context.partition_key, dataset_language(paths, context.partition_key), list(versions.values())))
    board.attrs["stale"] = stale  # kept in the Parquet file: the CLI says which versions are left out and why
    context.add_output_metadata({
        "leaderboard": dg.MetadataValue.md(f"{RANK_RULE[0].upper()}{RANK_RULE[1:]}.\n\n"
                                           + shown.to_markdown(index=False, floatfmt=".3f")),
        "ranking": leaderboard_table(shown),
        "bot_versions": len(board),
        **({"stale_versions": dg.MetadataValue.json(stale)} if stale else {}),
        **page_metadata(paths, page),
        "json": dg.MetadataValue.path(str(page.with_name("comparison.json"))),
    })
    return board
