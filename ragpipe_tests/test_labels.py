"""Human labels: reading and validating label files, agreement figures (checked against
scikit-learn and scipy), the domain calibration, prediction-powered means and the
'label next' suggestions, on small data."""

import json
import math

import numpy as np
import openpyxl
import pandas as pd
import pytest
from scipy.stats import spearmanr
from sklearn.isotonic import IsotonicRegression
from sklearn.metrics import cohen_kappa_score, roc_auc_score

from ragpipe.bench.labels import ppi_simulation
from ragpipe.core.labels.agreement import agreement, auroc, below, cohen_kappa, spearman
from ragpipe.core.labels.calibration import (
    _pav,
    calibrate,
    calibration_hash,
    calibration_path,
    failure_probability,
    load_calibrations,
    with_calibration,
)
from ragpipe.core.labels.ppi import labels_only_mean, ppi_mean, prediction_powered
from ragpipe.core.labels.reading import load_labels
from ragpipe.core.labels.suggest import suggest
from ragpipe.core.labels.views import candidates, metric_view
from ragpipe.core.storage import atomic_write
from ragpipe.defs.resources import ProjectPaths


def _write(folder, name, text):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")


GOOD = {"question_id": "q1", "bot_version": "refbot@v1", "judged": "hallucinated", "value": "true",
        "annotator": "ann", "note": "the sum is invented", "time": "2026-11-23T10:00:00Z"}


def test_every_bad_field_is_named_with_file_and_line_and_good_rows_are_kept(tmp_path):
    labels = tmp_path / "labels"
    bad = [GOOD, {**GOOD, "judged": "vibes"}, {**GOOD, "judged": "rating", "value": 7},
           {**GOOD, "bot_version": "refbot"}, {**GOOD, "annotator": ""}, {**GOOD, "judged": "supported"},
           {**GOOD, "value": "maybe"}, {**GOOD, "question_id": "nope"}, {**GOOD, "judged": "rating", "value": "4"}]
    _write(labels, "a.jsonl", "\n".join(json.dumps(r) for r in bad) + "\n{not json\n")
    _write(labels, "b.csv", "问题编号,版本,评判项,值,标注人\nq2,refbot@v2,answer_correct,否,张三\nq2,refbot@v2,rating,6,张三\n")
    _write(labels, "c.csv", '"q1,refbot@v1\n')  # a quote left open: the whole file is one problem
    frame, problems = load_labels(tmp_path, {"q1", "q2"})
    found = {(p.file.rsplit("/", 1)[-1], p.line, p.field) for p in problems}
    assert found == {("a.jsonl", 2, "judged"), ("a.jsonl", 3, "value"), ("a.jsonl", 4, "bot_version"),
                     ("a.jsonl", 5, "annotator"), ("a.jsonl", 6, "statement"), ("a.jsonl", 7, "value"),
                     ("a.jsonl", 8, "question_id"), ("a.jsonl", 10, "json"), ("b.csv", 3, "value"),
                     ("c.csv", 1, "csv")}, problems
    assert "from 1 to 5" in next(str(p) for p in problems if p.line == 3 and p.file.endswith("a.jsonl"))
    # kept: the good rows of both files, values on the label's scale (是/否 and true/false read as 1/0)
    assert frame[["question_id", "judged", "value", "source"]].values.tolist() == [
        ["q1", "hallucinated", 1.0, "a.jsonl:1"], ["q1", "rating", 4.0, "a.jsonl:9"],
        ["q2", "answer_correct", 0.0, "b.csv:2"]]


def test_an_open_quote_or_a_torn_line_loses_only_its_own_row(tmp_path):
    labels = tmp_path / "labels"
    rows = [{**GOOD, "question_id": f"q{i}", "note": "备注：张三标注"} for i in range(4)]
    torn = [json.dumps(r, ensure_ascii=False).encode() for r in rows]
    torn[1] = torn[1][:torn[1].index("张".encode()) + 1]  # a crash tore line 2 inside a character: no UTF-8
    labels.mkdir()
    (labels / "a.jsonl").write_bytes(b"\n".join(torn) + b"\n")
    _write(labels, "b.csv", "question_id,bot_version,judged,value,annotator\n"
                            "q0,refbot@v1,hallucinated,yes,ann\n"
                            'q1,refbot@v1,hallucinated,"yes,ann\n'  # a quote left open on line 3
                            "q2,refbot@v1,hallucinated,no,ann\nq3,refbot@v1,hallucinated,no,ann\n")
    frame, problems = load_labels(tmp_path)
    assert [(p.file.rsplit("/", 1)[-1], p.line, p.field) for p in problems] == [("a.jsonl", 2, "json"),
                                                                                 ("b.csv", 3, "csv")]
    assert "a quote left open" in str(problems[1])
    assert frame["source"].tolist() == ["a.jsonl:1", "a.jsonl:3", "a.jsonl:4", "b.csv:2", "b.csv:4", "b.csv:5"]
    assert frame["note"].tolist()[:3] == ["备注：张三标注"] * 3


def test_excel_labels_name_their_row(tmp_path):
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["question_id", "bot_version", "judged", "value", "statement", "annotator"])
    sheet.append(["q1", "refbot@v1", "supported", "no", 2, "ann"])
    sheet.append(["q1", "refbot@v1", "supported", "no", -1, "ann"])
    (tmp_path / "labels").mkdir()
    book.save(tmp_path / "labels" / "l.xlsx")
    frame, problems = load_labels(tmp_path)
    assert frame[["statement", "value"]].values.tolist() == [[2, 0.0]]
    assert [(p.line, p.field) for p in problems] == [(3, "statement")]


def test_binary_and_rating_figures_match_scikit_learn_and_scipy():
    rng = np.random.default_rng(1)
    score = rng.normal(size=200).round(1)  # ties on purpose
    positive = rng.random(200) < 1 / (1 + np.exp(-2 * score))
    assert auroc(score, positive) == pytest.approx(roc_auc_score(positive, score))
    a, b = rng.integers(1, 6, 80), rng.integers(1, 6, 80)
    b[:50] = a[:50]
    assert cohen_kappa(a, b) == pytest.approx(cohen_kappa_score(a, b))
    assert spearman(a, b) == pytest.approx(spearmanr(a, b).statistic)
    assert math.isnan(auroc([0.1, 0.2], [True, True]))


def _labels(rows):
    frame = pd.DataFrame(rows)
    frame["statement"] = frame.get("statement", pd.Series([None] * len(frame)))
    return frame


def test_agreement_per_kind_with_kappa_on_items_labelled_twice():
    scores = {"faithfulness": pd.DataFrame({
        "question_id": ["q1", "q2", "q3", "q4"], "value": [0.2, 0.9, 0.4, float("nan")],
        "details": [json.dumps({"hallucinated": h, "hallucination_threshold": 0.5}) for h in (True, False, True, False)]}),
        "llm_judge": pd.DataFrame({"question_id": ["q1", "q2"], "value": [2.0, 5.0], "details": ["{}", "{}"]})}
    rows = [("q1", "hallucinated", 1, "a"), ("q1", "hallucinated", 1, "b"), ("q2", "hallucinated", 0, "a"),
            ("q2", "hallucinated", 1, "b"), ("q3", "hallucinated", 0, "a"), ("q4", "hallucinated", 1, "a"),
            ("q1", "rating", 1, "a"), ("q2", "rating", 5, "a")]
    labels = _labels([{"question_id": q, "bot_version": "refbot@v1", "judged": j, "value": float(v), "annotator": a}
                      for q, j, v, a in rows])
    result = {r["judged"]: r for r in agreement(metric_view(labels, scores))}
    hall = result["hallucinated"]
    assert (hall["labels"], hall["measured"], hall["double_labelled"], hall["annotators"]) == (6, 5, 2, 2)
    assert hall["kappa"] == pytest.approx(cohen_kappa_score([1, 0], [1, 1]))
    # flagged: q1 (twice, both positive), q3 (negative); positives q1, q1, q2 → F1 = 2·2 / (3 + 3)
    assert hall["f1"] == pytest.approx(4 / 6)
    assert result["rating"]["within_one"] == 1.0 and result["rating"]["spearman"] is not None
    assert below([hall], {"f1": 0.7, "auroc": 0.1}) == [f"hallucinated f1 {4 / 6:.3f} < 0.7"]


def test_isotonic_fit_matches_scikit_learn_and_calibration_flags_by_its_threshold():
    rng = np.random.default_rng(2)
    x = rng.random(300)
    y = (rng.random(300) < x ** 2).astype(float)
    knots_x, knots_y = _pav(x, y)
    reference = IsotonicRegression(out_of_bounds="clip").fit(x, y)
    grid = np.linspace(0, 1, 50)
    assert np.allclose(np.interp(grid, knots_x, knots_y), reference.predict(grid), atol=1e-9)
    values = 1 - x  # a faithfulness-like value: low means hallucinated
    calibration = calibrate("d", "faithfulness", "hallucinated", values, y.astype(bool), values < 0.5)
    assert calibration["method"] in ("isotonic", "logistic") and calibration["n_labels"] == 300
    assert calibration["id"].startswith("d/faithfulness/")
    assert set(calibration["cv"]) >= {"auroc_before", "auroc_after", "f1_before", "f1_after"}
    probability = failure_probability(calibration, [0.0, 1.0])
    assert probability[0] > probability[1]
    in_use = {**calibration, "used": True}  # as if it beat the shipped one
    frame = with_calibration(pd.DataFrame({"value": [0.0, 1.0, float("nan")]}), in_use)
    assert frame["calibration"].unique().tolist() == [calibration["id"]]
    assert frame["flagged"].tolist()[:2] == [True, False] and pd.isna(frame["flagged"].iloc[2])
    assert with_calibration(pd.DataFrame({"value": [0.5]}), None)["calibration"].tolist() == ["shipped"]


def test_ppi_covers_the_true_mean_and_is_narrower_than_labels_alone():
    rng = np.random.default_rng(3)
    truth = rng.random(2000) < 0.3
    predicted = np.clip(truth * 0.6 + rng.normal(0.2, 0.15, 2000), 0, 1)  # biased but informative
    covered, ppi_width, alone_width = 0, [], []
    for _ in range(200):
        picked = rng.choice(2000, 100, replace=False)
        result = ppi_mean(truth[picked], predicted[picked], predicted)
        covered += result["ci95_low"] <= truth.mean() <= result["ci95_high"]
        ppi_width.append(result["ci95_high"] - result["ci95_low"])
        alone = labels_only_mean(truth[picked])
        alone_width.append(alone["ci95_high"] - alone["ci95_low"])
    assert covered / 200 >= 0.9
    assert np.mean(ppi_width) < np.mean(alone_width)
    labels = _labels([{"question_id": f"q{i}", "judged": "hallucinated", "value": float(truth[i]),
                       "metric_value": 1 - predicted[i]} for i in range(100)])
    by_metric = prediction_powered(labels, "faithfulness", 1 - predicted)
    assert by_metric["n_labels"] == 100 and by_metric["ppi_ci95_low"] < 1 - truth.mean() < by_metric["ppi_ci95_high"]
    assert prediction_powered(None, "faithfulness", predicted)["n_labels"] == 0
    few = prediction_powered(labels.iloc[:9], "faithfulness", 1 - predicted)
    assert few["n_labels"] == 9 and math.isnan(few["ppi_mean"])  # too few items for an interval


def test_ppi_interval_holds_for_few_labels_and_never_collapses():
    """With 20 labels that all agree the interval used to be [1.000, 1.000]; by simulation
    (ragpipe.bench.labels.ppi_simulation: new versions each draw, 10, 20 and 50 labels,
    true share of good answers 0.5, 0.8 and 0.95) it covers the true share in about 95 %
    of draws or more, and is never zero-width."""
    agreeing = ppi_mean(np.ones(20), np.full(20, 0.9), np.linspace(0.5, 1, 48))
    assert agreeing["ci95_low"] < 0.9 and agreeing["ci95_high"] == pytest.approx(1.0)  # Wilson's: about 0.84
    rows = ppi_simulation(draws=400, seed=7)
    assert {(r["labels"], r["rate"]) for r in rows} == {(n, p) for n in (10, 20, 50) for p in (0.5, 0.8, 0.95)}
    for row in rows:
        assert row["coverage"] >= 0.93 and row["zero_width"] == 0, row
    # not bought by uselessly wide intervals: 50 labels pin a 0.95 share to about ±0.07
    assert max(r["mean_width"] for r in rows if r["labels"] == 50) < 0.25


def test_suggestions_prefer_uncertain_and_disputed_answers_and_take_turns_over_strata():
    details = lambda v: json.dumps({"hallucination_threshold": 0.5, "hallucinated": v < 0.5})
    scores = {"v1": [0.95, 0.52, 0.1, 0.9], "v2": [0.96, 0.3, 0.12, 0.9]}
    types = {"q1": "FACTUAL", "q2": "FACTUAL", "q3": "FACTUAL", "q4": "INFERENTIAL"}
    pool = pd.concat([candidates(f"bot@{v}", {"faithfulness": pd.DataFrame({
        "question_id": list(types), "value": values, "details": [details(x) for x in values]})}, types)
        for v, values in scores.items()])
    picks = suggest(pool, pd.DataFrame(columns=["question_id", "bot_version", "judged"]), k=3)
    # q2: uncertain in v1 and the versions disagree; the inferential stratum gets its turn
    assert picks[["question_id", "bot_version"]].values.tolist()[:2] == [["q2", "bot@v1"], ["q4", "bot@v1"]] or \
        picks[["question_id", "bot_version"]].values.tolist()[:2] == [["q2", "bot@v1"], ["q4", "bot@v2"]]
    assert "INFERENTIAL" in picks["question_type"].tolist()
    done = picks.iloc[:1][["question_id", "bot_version", "judged"]]
    assert ("q2", "bot@v1") not in set(map(tuple, suggest(pool, done, k=8)[["question_id", "bot_version"]].values))


def test_a_domain_calibration_is_used_only_where_it_beats_the_shipped_one(tmp_path):
    rng = np.random.default_rng(4)
    values = rng.random(400)
    failure = rng.random(400) < np.clip(1.2 - 1.6 * values, 0, 1)  # failures below about 0.45 here
    train, held = slice(0, 200), slice(200, 400)
    # shipped for another domain: flags below 0.9, far too many here
    shifted = calibrate("d", "faithfulness", "hallucinated", values[train], failure[train], values[train] < 0.9)
    assert shifted["used"]
    flag = failure_probability(shifted, values[held]) >= shifted["threshold"]
    from ragpipe.core.labels.agreement import f1
    assert f1(flag, failure[held]) > f1(values[held] < 0.9, failure[held]) + 0.1
    # a shipped flag no threshold on the value can beat (here it knows the answers), and labels
    # the value does not predict (out of fold the curve ranks at chance): not used, and the
    # scores keep the metric's own rows exactly, flags included
    oracle = calibrate("d", "faithfulness", "hallucinated", values[train], failure[train], failure[train])
    noise = calibrate("d", "faithfulness", "hallucinated", values[train], rng.random(200) < 0.3, values[train] < 0.5)
    frame = pd.DataFrame({"value": values[train], "details": [json.dumps({"hallucinated": bool(f)}) for f in failure[train]]})
    for fitted in (oracle, noise):
        assert not fitted["used"], fitted["cv"]
        pd.testing.assert_frame_equal(with_calibration(frame, fitted), frame.assign(calibration="shipped"))
    # only a calibration in use is loaded for scoring, and only it changes the evaluations' inputs
    path = calibration_path(tmp_path, "d")
    path.write_text(json.dumps({"faithfulness": oracle}), encoding="utf-8")
    assert load_calibrations(tmp_path, "d") == {} and calibration_hash(tmp_path, "d") == "shipped"
    path.write_text(json.dumps({"faithfulness": shifted}), encoding="utf-8")
    assert load_calibrations(tmp_path, "d") == {"faithfulness": shifted}
    assert calibration_hash(tmp_path, "d") != "shipped"


def test_calibrations_live_beside_the_warehouse_wherever_it_is(tmp_path):
    """A step on another machine of a cluster reads the calibrations another one fitted: they
    go through the shared store (here an fsspec memory:// URL), not the output folder."""
    paths = ProjectPaths(data_dir=str(tmp_path / "data"), output_dir=str(tmp_path / "out"),
                         warehouse_dir="memory://shared/warehouse")
    assert str(paths.calibrations) == "memory://shared/warehouse/calibrations"
    used = {"id": "d/faithfulness/logistic-x", "method": "logistic", "intercept": 0.0, "slope": 1.0,
            "threshold": 0.5, "used": True}
    atomic_write(calibration_path(paths.calibrations, "d"), json.dumps({"faithfulness": used}).encode())
    assert load_calibrations(paths.calibrations, "d") == {"faithfulness": used}
    assert calibration_hash(paths.calibrations, "d") != "shipped" and not (tmp_path / "out").exists()


def test_a_metric_ranks_on_its_prediction_powered_mean_only_when_every_version_has_one():
    from ragpipe.defs.evaluation.leaderboard import rank_scores

    rows = [{"bot_version": "a", "faithfulness": 0.9, "faithfulness_ppi": 0.6, "context_recall": 0.5},
            {"bot_version": "b", "faithfulness": 0.8, "context_recall": 0.5}]
    assert rank_scores(rows) == pytest.approx([0.7, 0.65])  # b has no labels: both rank on the metric
    rows[1]["faithfulness_ppi"] = 0.7
    assert rank_scores(rows) == pytest.approx([0.55, 0.6])  # both labelled: both rank on the people's share
