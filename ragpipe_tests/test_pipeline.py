"""The whole asset graph on the bundled sample data, and what survives bad input."""

import json
import os
import subprocess
import sys
import time
import uuid

import dagster as dg
import pandas as pd
import pytest

from ragpipe.bench.perf_dagster import step_seconds
from ragpipe.cli import main
from ragpipe.core.metrics import REGISTRY, Toolkit
from ragpipe.core.report.render import load_evaluation
from ragpipe.defs.definitions import build_defs
from ragpipe.defs.instance import prepare_dagster_home
from ragpipe.defs.partitions import bot_version_keys, dataset_keys, misnamed_inputs, sync_partitions
from ragpipe.defs.progress import following
from ragpipe.defs.runner import materialize_all

DATASETS = ["policy_zh", "product_en"]
BOTS = ["refbot@v1", "refbot@v2"]


def run_graph(project, **filters):
    prepare_dagster_home(project)
    defs = build_defs(project)
    with dg.DagsterInstance.get() as instance:
        outcomes = materialize_all(defs, instance, progress=lambda _: None, **filters)
        materialized = {
            key.to_user_string(): instance.get_materialized_partitions(key)
            for key in defs.resolve_all_asset_keys()
        }
    return outcomes, materialized


def test_whole_graph_on_sample_data(project, monkeypatch):
    started = time.perf_counter()
    outcomes, materialized = run_graph(project)
    elapsed = time.perf_counter() - started
    # A version significantly worse than its baseline fails its evaluation run on the blocking
    # regression check, and on nothing else; every asset is still materialized.
    blocked = [o for o in outcomes if not o.success]
    assert all(o.job == "evaluate_bot_version" and o.error.startswith("blocked by no_regression_vs_baseline: "
                                                                      "significantly worse than refbot@v1")
               for o in blocked), [o.error for o in blocked]
    monkeypatch.delenv("DAGSTER_HOME")  # `bench perf --dagster` reads another process's home
    runs, steps = step_seconds(project / "dagster_home")
    assert runs == len(outcomes) and 0 < steps < elapsed
    evaluations = {f"{bot}|{ds}" for bot in BOTS for ds in DATASETS}
    assert materialized["corpus"] == set(DATASETS) == materialized["leaderboard"]
    for asset in ["rag_responses", "aggregate_scores", "diagnosis_report", *(f"scores/{m}" for m in REGISTRY)]:
        assert materialized[asset] == evaluations, asset

    warehouse = project / ".ragpipe" / "warehouse"
    # One Parquet file per partition, readable without Dagster.
    faith = pd.read_parquet(warehouse / "scores" / "faithfulness" / "refbot@v2" / "policy_zh.parquet")
    zh_questions = pd.read_parquet(warehouse / "question_set" / "policy_zh.parquet")
    assert len(faith) == len(zh_questions) >= 30
    assert faith["value"].dropna().between(0, 1).all()
    assert json.loads(faith["details"].iloc[0])["statements"]

    for dataset in DATASETS:
        board = pd.read_parquet(warehouse / "leaderboard" / f"{dataset}.parquet")
        assert set(board["bot_version"]) == set(BOTS)
        v1, v2 = (board.set_index("bot_version").loc[b] for b in BOTS)
        # v2's hybrid top-4 retrieval must beat v1's BM25 top-2 where retrieval is measured.
        assert v2["context_recall"] > v1["context_recall"]
        aggregate = pd.read_parquet(warehouse / "aggregate_scores" / "refbot@v1" / f"{dataset}.parquet")
        questions = pd.read_parquet(warehouse / "question_set" / f"{dataset}.parquet")
        assert set(aggregate["metric"]) == set(REGISTRY)
        measured = aggregate[aggregate["n"] > 0]
        assert (measured["ci95_low"] <= measured["mean"]).all() and (measured["mean"] <= measured["ci95_high"]).all()
        # Offline, the LLM-only judges are unmeasured for every question, not scored.
        judges = aggregate.set_index("metric").loc[["llm_judge", "rubric_1_10"]]
        assert (judges["n"] == 0).all() and (judges["n_unmeasured"] == len(questions)).all()

    report_dir = project / ".ragpipe" / "reports" / "policy_zh" / "refbot@v1"
    report = load_evaluation(report_dir / "diagnosis.json")
    assert {a["metric"] for a in report["aggregates"]} == set(REGISTRY)
    page = (report_dir / "diagnosis.html").read_text(encoding="utf-8")
    assert page.count("<article class=\"card\"") == len(report["cards"]) >= 30
    assert all((project / ".ragpipe" / "reports" / d / "compare.html").is_file() for d in DATASETS)


def test_bad_bot_and_bad_question_file_fail_alone(project, capsys):
    (project / "data" / "bots" / "refbot@v3.yaml").write_text(
        "name: refbot\nversion: v3\nkind: reference\nretrieval:\n  method: bm25\n  top_k: many\n", encoding="utf-8")
    bad_questions = project / "data" / "datasets" / "product_en" / "questions" / "extra.jsonl"
    bad_questions.write_text('{"id": "x1", "question": "Where?"}\n', encoding="utf-8")

    assert main(["run", "--project-dir", str(project)]) == 1
    errors = capsys.readouterr().err
    # Two runs fail on bad input; any other listed failure is a version stopped by the blocking check.
    listed = [line for line in errors.split("the others completed:\n")[1].splitlines()
              if line.startswith(("  prepare_dataset [", "  evaluate_bot_version ["))]
    assert len([line for line in listed if "]: blocked by no_regression_vs_baseline: " not in line]) == 2
    assert "prepare_dataset [product_en]: question_set:" in errors
    assert f"{bad_questions}:1: field 'ground_truth_answer'" in errors
    assert "evaluate_bot_version [refbot@v3|policy_zh]: rag_responses:" in errors
    assert "refbot@v3.yaml: field 'retrieval.top_k'" in errors

    # Everything else still materialized, and the leaderboard skips the broken version.
    with dg.DagsterInstance.get() as instance:
        assert instance.get_materialized_partitions(dg.AssetKey("diagnosis_report")) == {
            "refbot@v1|policy_zh", "refbot@v2|policy_zh"}
        assert instance.get_materialized_partitions(dg.AssetKey("leaderboard")) == {"policy_zh"}
    board = pd.read_parquet(project / ".ragpipe" / "warehouse" / "leaderboard" / "policy_zh.parquet")
    assert sorted(board["bot_version"]) == BOTS


@pytest.mark.parametrize("name", ["refbot@v|x", "refbot@v,x", "refbot-v3"])
def test_misnamed_bot_files_are_reported_not_registered(project, name):
    bad = project / "data" / "bots" / f"{name}.yaml"
    bad.write_text("name: x\n", encoding="utf-8")
    assert bot_version_keys(project / "data") == BOTS
    assert misnamed_inputs(project / "data") == [bad]


def test_misnamed_dataset_folder_is_reported_not_registered(project):
    bad = project / "data" / "datasets" / "policy[zh]"
    bad.mkdir()
    assert dataset_keys(project / "data") == DATASETS
    assert misnamed_inputs(project / "data") == [bad]


def test_partitions_another_process_adds_at_the_same_moment_are_no_error(project):
    """Two `ragpipe run`s started together both find refbot@v1 new; the slower one's insert
    then fails on Dagster's unique constraint (seen in CI). It reads again and goes on."""
    import sqlalchemy

    with dg.DagsterInstance.ephemeral() as instance:
        add, raced = instance.add_dynamic_partitions, []

        def add_after_another_process(name, keys):
            if not raced:  # the other process inserts the same rows between our read and our insert
                raced.append(name)
                add(name, keys)
                with instance.event_log_storage.index_connection() as conn:
                    conn.execute(sqlalchemy.text("INSERT INTO dynamic_partitions (partitions_def_name, partition) "
                                                 "VALUES (:name, :key)"), [{"name": name, "key": key} for key in keys])
            add(name, keys)

        instance.add_dynamic_partitions = add_after_another_process
        assert sync_partitions(instance, project / "data") == (DATASETS, BOTS)
        assert raced == ["datasets"]
        assert instance.get_dynamic_partitions("datasets") == DATASETS
        assert instance.get_dynamic_partitions("bot_versions") == BOTS


EVALUATE_IN_ANOTHER_PROCESS = """
import sys
import dagster as dg
from pathlib import Path
from ragpipe.defs.definitions import build_defs

project, run_id = Path(sys.argv[1]), sys.argv[2]
with dg.DagsterInstance.get() as instance:
    build_defs(project).resolve_job_def("evaluate_bot_version").execute_in_process(
        instance=instance, run_id=run_id, partition_key=dg.MultiPartitionKey({"dataset": "product_en", "bot": "refbot@v1"}),
        asset_selection=[dg.AssetKey("rag_responses"), dg.AssetKey(["scores", "faithfulness"])])
"""


def test_progress_reaches_the_caller_from_the_process_that_runs_the_steps(project):
    prepare_dagster_home(project)
    defs = build_defs(project)
    with dg.DagsterInstance.get() as instance:
        sync_partitions(instance, project / "data")
        assert defs.resolve_job_def("prepare_dataset").execute_in_process(instance=instance,
                                                                          partition_key="product_en").success
        run_id, seen = str(uuid.uuid4()), []
        with following(instance, run_id, lambda *report: seen.append(report)):
            subprocess.run([sys.executable, "-c", EVALUATE_IN_ANOTHER_PROCESS, str(project), run_id], check=True,
                           env={**os.environ, "RAGPIPE_PROJECT_DIR": str(project)}, timeout=600)
    questions = len(pd.read_parquet(project / ".ragpipe" / "warehouse" / "question_set" / "product_en.parquet"))
    by_step = {step: [(done, total) for s, done, total in seen if s == step] for step, _, _ in seen}
    assert set(by_step) == {"rag_responses", "scores/faithfulness"}
    for step, reports in by_step.items():
        assert reports == sorted(reports) and reports[-1] == (questions, questions), step
        assert 1 < len(reports) <= questions  # step by step, not one report per question


RESCORED = ["faithfulness", "context_recall", "answer_correctness"]


def test_scoring_again_computes_only_the_questions_whose_inputs_changed(project, monkeypatch):
    calls = []
    computed = Toolkit.result

    def counted(self, name, case):
        calls.append((name, case.question_id))
        return computed(self, name, case)

    monkeypatch.setattr(Toolkit, "result", counted)
    prepare_dagster_home(project)
    defs = build_defs(project)
    partition = dg.MultiPartitionKey({"dataset": "product_en", "bot": "refbot@v1"})
    responses = project / ".ragpipe" / "warehouse" / "rag_responses" / "refbot@v1" / "product_en.parquet"

    def score(*extra: dg.AssetKey) -> dict[str, pd.DataFrame]:
        calls.clear()
        result = defs.resolve_job_def("evaluate_bot_version").execute_in_process(
            instance=instance, partition_key=partition, raise_on_error=False,
            asset_selection=[*extra, *(dg.AssetKey(["scores", m]) for m in RESCORED)])
        return {m: result.output_for_node("scores", m) for m in RESCORED} if result.success else {}

    def change_answers(question_ids: list[str]) -> None:
        frame = pd.read_parquet(responses)
        frame.loc[frame["question_id"].isin(question_ids), "answer"] = "A different answer."
        frame.to_parquet(responses, index=False)

    with dg.DagsterInstance.get() as instance:
        sync_partitions(instance, project / "data")
        assert defs.resolve_job_def("prepare_dataset").execute_in_process(instance=instance,
                                                                          partition_key="product_en").success
        first = score(dg.AssetKey("rag_responses"))
        questions = list(first["faithfulness"]["question_id"])
        assert sorted(calls) == sorted((m, q) for m in RESCORED for q in questions)

        again = score()
        assert calls == [] and all(again[m].equals(first[m]) for m in RESCORED)

        change_answers(questions[:1])
        changed = score()
        assert sorted(calls) == sorted((m, questions[0]) for m in RESCORED)
        assert changed["faithfulness"].iloc[1:].equals(first["faithfulness"].iloc[1:])

        # A step that dies after one new row: scoring again computes only the rows it had not finished.
        change_answers(questions[1:3])
        def dies_after_one_row(self, name, case):
            if calls:
                raise RuntimeError("killed")
            return counted(self, name, case)

        monkeypatch.setattr(Toolkit, "result", dies_after_one_row)
        assert score() == {}
        finished = list(calls)
        monkeypatch.setattr(Toolkit, "result", counted)
        score()
    assert len(finished) == 1
    assert sorted(calls + finished) == sorted((m, q) for m in RESCORED for q in questions[1:3])
