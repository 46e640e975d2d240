"""People in the loop on RAGTruth's QA task (six models answering each question play six
bot versions): an annotator simulated from the file's human labels labels the answers
the page suggests, the domain calibration is judged on the answers it never saw, and the
prediction-powered intervals are checked for coverage over repeated random label draws."""

import json
import os
from pathlib import Path

import pytest

from ragpipe.bench.labels import ID, calibration_on_the_rest, ppi_coverage, scored_task, simulate_annotator
from ragpipe.bench.latency import DEFAULT_BENCH_DIR

BENCH_DIR = Path(os.environ.get("RAGPIPE_BENCH_DIR") or DEFAULT_BENCH_DIR)


QUESTIONS = 50  # of the QA task's 79 (six answers each): scoring all of them took CI 5 minutes


@pytest.fixture(scope="module")
def task(embedder, tmp_path_factory):
    source = BENCH_DIR / "ragtruth_dev.jsonl"
    if not source.is_file():
        pytest.skip(f"ragtruth_dev.jsonl not found in {BENCH_DIR} (set RAGPIPE_BENCH_DIR)")
    rows = [json.loads(line) for line in source.read_text(encoding="utf-8").splitlines() if line.strip()]
    questions = list(dict.fromkeys(ID.match(r["id"])["question"] for r in rows if r["subset"] == "QA"))[:QUESTIONS]
    folder = tmp_path_factory.mktemp("ragtruth")
    (folder / "ragtruth_dev.jsonl").write_text("".join(
        json.dumps(r) + "\n" for r in rows if r["subset"] == "QA" and ID.match(r["id"])["question"] in questions),
        encoding="utf-8")
    return scored_task(folder, "QA", embedder)


def test_hundred_suggested_labels_calibrate_the_task_judged_on_the_rest(task):
    labels = simulate_annotator(task, budget=100)
    assert len(labels) == 100 and not labels.duplicated(["question_id", "bot_version"]).any()
    # the suggestions spread over the questions and the bot versions (the six models)
    assert labels["question_id"].nunique() >= 20 and labels["bot_version"].nunique() == 6
    result = calibration_on_the_rest(task, labels)
    print("calibration on the rest:", result)
    assert result["rest"] == task["value"].notna().sum() - 100  # judged only on answers not labelled
    # used only where it beats the shipped one out of fold on the labels; otherwise the rest is
    # judged exactly as shipped
    if result["used"] == "shipped":
        assert (result["auroc_after"], result["f1_after"]) == (result["auroc_before"], result["f1_before"])
    else:
        assert result["auroc_after"] == pytest.approx(result["auroc_before"], abs=0.05)
        assert result["f1_after"] >= result["f1_before"] - 0.02
    assert result["cv_on_labels"]["brier_after"] < result["cv_on_labels"]["brier_before"]


def test_prediction_powered_interval_covers_the_labelled_mean(task):
    result = ppi_coverage(task, n=100, draws=300)
    print("PPI:", result)
    assert result["ppi_coverage"] >= 0.9
    assert result["ppi_width"] < result["labels_only_width"]  # the metric's predictions narrow it
    # the metric's own bootstrap is narrower still but estimates the metric's mean, not the people's
    assert result["metric_bootstrap_width"] < result["ppi_width"]
