"""Human labels through the asset graph: a trimmed copy of the sample English dataset with
a label file (one bad row), evaluated with `ragpipe eval`. The human_labels asset carries
the agreement, its check warns on the bad row, aggregate_scores gives the
prediction-powered mean, the dataset's calibration is fitted once there are enough labels
and the next scoring's rows name it (or `shipped`, where it does not beat the shipped one),
and the report page shows the agreement."""

import contextlib
import io
import json
import shutil

import dagster as dg
import numpy as np
import pandas as pd
import pytest
import yaml

from ragpipe.cli import main
from ragpipe.core.config import DEFAULT_PATH
from ragpipe.core.metrics import REGISTRY
from ragpipe.core.report.charts import oriented
from ragpipe.core.report.render import COMPARISON_PAGE

from ragpipe_tests.conftest import one_dataset_project

DATASET, BOTS, KEEP = "product_en", ("refbot@v1", "refbot@v2"), 10  # the prediction-powered mean needs 10 items


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory, embedding_cache):
    root = tmp_path_factory.mktemp("labels-project")
    kept = one_dataset_project(root, DATASET, KEEP)
    ids = [json.loads(line)["id"] for line in kept]
    labels = root / "data" / "datasets" / DATASET / "labels"
    shutil.rmtree(labels, ignore_errors=True)  # the sample's own labels name questions trimmed away
    labels.mkdir()
    rows = ["question_id,bot_version,judged,value,annotator"]
    for bot in BOTS:  # two annotators, who disagree once
        for i, qid in enumerate(ids):
            rows += [f"{qid},{bot},hallucinated,{str(i % 3 == 0).lower()},ann",
                     f"{qid},{bot},hallucinated,{str(i % 3 == 0 or (bot, i) == (BOTS[0], 1)).lower()},bob"]
    rows.append(f"{ids[0]},refbot@v1,rating,9,ann")  # line 42: out of scale
    (labels / "people.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    config = yaml.safe_load(DEFAULT_PATH.read_text(encoding="utf-8"))
    config["evaluation"]["labels"]["min_labels_for_calibration"] = 10
    (root / "evaluation.yaml").write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RAGPIPE_CACHE_DIR", str(embedding_cache))
        mp.setenv("DAGSTER_HOME", str(root / "dagster_home"))
        mp.setenv("RAGPIPE_EVAL_CONFIG", str(root / "evaluation.yaml"))
        for name in ("RAGPIPE_DATA_DIR", "RAGPIPE_OUTPUT_DIR", "DAGSTER_PG_HOST", "RAGPIPE_REPORT_URL"):
            mp.delenv(name, raising=False)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            # v1, v2 (whose labels step fits the calibration on both), then v1 again: scored with it
            # (the third forced: its inputs are unchanged, only the calibration is new; the gate
            # only on regressions: the sample baseline crosses critical thresholds)
            codes = [main(["eval", "--dataset", DATASET, "--bot", bot, "--project-dir", str(root),
                           "--fail-on", "regression", *(["--force"] if again else [])])
                     for bot, again in ((BOTS[0], False), (BOTS[1], False), (BOTS[0], True))]
        with dg.DagsterInstance.get() as instance:
            labels_meta = instance.get_latest_materialization_event(
                dg.AssetKey("human_labels")).asset_materialization.metadata
            check = instance.get_latest_asset_check_evaluation_record(
                dg.AssetCheckKey(dg.AssetKey("human_labels"), "labels_agree_with_metrics"))
    warehouse = root / ".ragpipe" / "warehouse"
    return {"root": root, "codes": codes, "stderr": err.getvalue(), "labels_meta": labels_meta, "check": check,
            "aggregates": pd.read_parquet(warehouse / "aggregate_scores" / BOTS[0] / f"{DATASET}.parquet"),
            "leaderboard": pd.read_parquet(warehouse / "leaderboard" / f"{DATASET}.parquet"),
            "comparison": (root / ".ragpipe" / "reports" / DATASET / COMPARISON_PAGE).read_text(encoding="utf-8"),
            "faithfulness": pd.read_parquet(warehouse / "scores" / "faithfulness" / BOTS[0] / f"{DATASET}.parquet"),
            "labels": pd.read_parquet(warehouse / "human_labels" / BOTS[0] / f"{DATASET}.parquet"),
            "page": (root / ".ragpipe" / "reports" / DATASET / BOTS[0] / "diagnosis.html").read_text(encoding="utf-8"),
            "calibrations": json.loads((warehouse / "calibrations" / f"{DATASET}.json").read_text())}


def test_labels_asset_agreement_check_and_report(evaluated):
    assert evaluated["codes"][0] == 0 and evaluated["codes"][2] == 0, evaluated["stderr"]
    labels = evaluated["labels"]
    assert len(labels) == 2 * KEEP and set(labels["bot_version"]) == {BOTS[0]}  # the bad rating row is left out
    agreement = {r["judged"]: r for r in labels.attrs["agreement"]}
    assert agreement["hallucinated"]["double_labelled"] == KEEP
    assert agreement["hallucinated"]["kappa"] < 1  # they disagree once
    assert "people.csv:42: field 'value'" in labels.attrs["problems"][0]
    meta = evaluated["labels_meta"]
    assert meta["problems"].value == 1 and "AUROC" in meta["agreement"].value.upper()
    check = evaluated["check"]
    assert check.event.asset_check_evaluation.passed is False  # the bad row, at least
    assert check.event.asset_check_evaluation.severity == dg.AssetCheckSeverity.WARN
    assert "Agreement with people" in evaluated["page"] and "hallucinated" in evaluated["page"]


def test_prediction_powered_mean_and_the_calibration_the_scores_name(evaluated):
    rows = evaluated["aggregates"].set_index("metric")
    assert rows.loc["faithfulness", "n_labels"] == KEEP  # items, the two annotators' labels averaged
    low, mean, high = rows.loc["faithfulness", ["ppi_ci95_low", "ppi_mean", "ppi_ci95_high"]]
    assert low < mean < high
    assert rows.loc["context_recall", "n_labels"] == 0 and pd.isna(rows.loc["context_recall", "ppi_mean"])
    calibration = evaluated["calibrations"]["faithfulness"]
    assert calibration["n_labels"] == 4 * KEEP and calibration["method"] in ("isotonic", "logistic")
    scores = evaluated["faithfulness"]
    # used only where it beats the shipped one out of fold; the rows name what they used
    assert set(scores["calibration"]) == {calibration["id"] if calibration["used"] else "shipped"}
    if calibration["used"]:
        assert scores.loc[scores["value"].notna(), "failure_probability"].between(0, 1).all()
    else:
        assert "failure_probability" not in scores and "flagged" not in scores  # the metric's own rows


def test_the_leaderboard_ranks_a_labelled_version_on_its_prediction_powered_means(evaluated):
    def rank_score(means: dict) -> float:
        return float(np.nanmean([oriented(v, *REGISTRY[m].value_range, REGISTRY[m].higher_is_better)
                                 for m, v in means.items()]))

    rows = evaluated["aggregates"].set_index("metric")
    mine = evaluated["leaderboard"].set_index("bot_version").loc[BOTS[0]]
    assert mine["faithfulness_ppi"] == pytest.approx(rows.loc["faithfulness", "ppi_mean"])
    assert mine["faithfulness_ppi_ci95"] == f"[{rows.loc['faithfulness', 'ppi_ci95_low']:.3f}, " \
                                            f"{rows.loc['faithfulness', 'ppi_ci95_high']:.3f}]"
    means = rows["mean"].to_dict()
    assert mine["rank_score"] == pytest.approx(rank_score({**means, "faithfulness": mine["faithfulness_ppi"]}))
    assert mine["rank_score"] != pytest.approx(rank_score(means))  # the people's share of faithful answers differs
    assert f"PPI {mine['faithfulness_ppi']:.3f}" in evaluated["comparison"]
