"""The agreement benchmark runs end to end on a small slice of each human-labelled file."""

import json
import math
from pathlib import Path

import pytest

from ragpipe.bench.quality import DEFAULT_BENCH_DIR, auroc, f1, main, run_quality
from ragpipe.core.metrics import Toolkit

# Leading rows of each file (both labels occur in them). RAGTruth's answers are long and
# its rows come five or six to a passage, so fewer rows still embed more text.
SLICE = {"ragtruth_dev.jsonl": 12, "halueval_qa_dev.jsonl": 40, "halluqa_zh_dev.jsonl": 40}
FIELDS = {"file", "metric", "label", "rows", "scored", "nan", "auroc", "f1", "positive_rate",
          "negatives_flagged_in_sentences", "positives_missed", "in_sample", "seconds"}
REFERENCE_BASED = ("answer_correctness", "factual_correctness", "semantic_similarity", "token_f1 (baseline)")


def test_auroc_matches_a_hand_computed_case():
    # Positives score 0.9, 0.4, 0.4; negatives 0.4, 0.1. Of the 6 positive-negative pairs,
    # 0.9 beats both, each 0.4 ties the negative 0.4 (1/2) and beats 0.1: (2 + 1.5 + 1.5) / 6.
    assert auroc([0.9, 0.4, 0.4, 0.4, 0.1], [True, True, True, False, False]) == pytest.approx(5 / 6)
    assert auroc([3, 2, 1], [True, True, False]) == 1.0
    assert auroc([1, 2, 3], [True, True, False]) == 0.0
    assert math.isnan(auroc([1, 2], [True, True]))


def test_f1_counts_flags_against_labels():
    # tp = 1, fp = 1, fn = 1: F1 = 2 / (2 + 2) = 0.5
    assert f1([True, True, False, False], [True, False, True, False]) == pytest.approx(0.5)


@pytest.fixture(scope="module")
def bench_slice(tmp_path_factory) -> Path:
    if not DEFAULT_BENCH_DIR.is_dir():
        pytest.skip(f"benchmark files not found in {DEFAULT_BENCH_DIR}")
    folder = tmp_path_factory.mktemp("bench")
    for name, size in SLICE.items():
        lines = (DEFAULT_BENCH_DIR / name).read_text(encoding="utf-8").splitlines()
        (folder / name).write_text("\n".join(lines[:size]) + "\n", encoding="utf-8")
    return folder


def test_quality_bench_reports_every_labelled_metric(bench_slice, embedder):
    results = run_quality(bench_slice, toolkit=Toolkit(embedder))
    pairs = {(r["file"], r["metric"]) for r in results}
    assert pairs == {("ragtruth_dev.jsonl", "faithfulness"), ("halueval_qa_dev.jsonl", "faithfulness"),
                     *((name, metric) for name in ("halueval_qa_dev.jsonl", "halluqa_zh_dev.jsonl") for metric in REFERENCE_BASED)}
    for r in results:
        assert set(r) == FIELDS
        assert r["scored"] + r["nan"] == r["rows"] == SLICE[r["file"]]
        assert 0.0 <= r["auroc"] <= 1.0 and 0.0 <= r["f1"] <= 1.0 and 0.0 < r["positive_rate"] < 1.0
    by_pair = {(r["file"], r["metric"]): r for r in results}
    # Answers identical to the reference against invented ones: near-perfect separation.
    assert by_pair[("halueval_qa_dev.jsonl", "answer_correctness")]["auroc"] > 0.9


def test_main_prints_the_table(bench_slice, embedding_cache, monkeypatch, capsys):
    monkeypatch.setenv("RAGPIPE_CACHE_DIR", str(embedding_cache))
    assert main([str(bench_slice), "--limit", "10", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["metric"] for r in rows} == {"faithfulness", *REFERENCE_BASED}
    assert main([str(bench_slice / "missing")]) == 2
