"""Named question sets and named evaluations (docs/evaluations.md): an evaluation picks a
question set, bot versions, a judge model and metrics for its own partition; deleting one
removes its results and nothing else; a bad evaluation file is named and left out."""

import hashlib
import json
import re
import shutil
from pathlib import Path

import dagster as dg
import pandas as pd
import pytest
import yaml

from ragpipe.cli import main
from ragpipe.defs.automation import ragpipe_sensor
from ragpipe.defs.definitions import build_defs
from ragpipe.defs.instance import prepare_dagster_home
from ragpipe.defs.partitions import dataset_keys, datasets, invalid_evaluations
from ragpipe.defs.runner import materialize_all
from ragpipe.testing.fake_judge import fake_llm
from ragpipe.testing.openai_server import OpenAIServer
from ragpipe_tests.conftest import sensor_resources, trim_questions

DATASET = "policy_zh"


def add_smoke_set(project: Path, keep: int = 4) -> list[str]:
    """The dataset's question set `smoke`: its first ``keep`` questions in sets/smoke.jsonl;
    gives their ids."""
    folder = project / "data" / "datasets" / DATASET
    lines = (folder / "questions" / "questions.jsonl").read_text(encoding="utf-8").splitlines()[:keep]
    (folder / "sets").mkdir()
    (folder / "sets" / "smoke.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with (folder / "dataset.yaml").open("a", encoding="utf-8") as meta:
        meta.write("question_sets:\n  smoke: [sets/smoke.jsonl]\n")
    return [json.loads(line)["id"] for line in lines]


def write_evaluation(project: Path, name: str, **fields) -> Path:
    folder = project / "data" / "evaluations"
    folder.mkdir(exist_ok=True)
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump(fields), encoding="utf-8")
    return path


def warehouse(project: Path, *parts: str) -> pd.DataFrame:
    return pd.read_parquet(project.joinpath(".ragpipe", "warehouse", *parts[:-1], parts[-1] + ".parquet"))


def test_named_evaluation_uses_its_question_set_bots_judge_model_and_metrics(project, monkeypatch):
    smoke = add_smoke_set(project)
    metrics = ["faithfulness", "context_recall", "llm_judge"]
    write_evaluation(project, "smoke-judged", dataset=DATASET, question_set="smoke", bots=["refbot@v2"],
                     judge_model="smoke-judge", metrics=metrics)
    with OpenAIServer(route=fake_llm) as server:
        monkeypatch.setenv("RAGPIPE_LLM_BASE_URL", server.base_url)
        monkeypatch.setenv("RAGPIPE_LLM_MODEL", "default-judge")
        prepare_dagster_home(project)
        defs = build_defs(project)
        with dg.DagsterInstance.get() as instance:
            outcomes = materialize_all(defs, instance, progress=lambda _: None, only_datasets=["smoke-judged"])
            materialized = {key.to_user_string(): instance.get_materialized_partitions(key)
                            for key in defs.resolve_all_asset_keys()}
        models = {request.body["model"] for request in server.requests}
    assert all(o.success for o in outcomes), [o.error for o in outcomes if not o.success]
    assert [(o.job, o.partition) for o in outcomes] == [
        ("prepare_dataset", "smoke-judged"), ("evaluate_bot_version", "refbot@v2|smoke-judged"),
        ("rank_bot_versions", "smoke-judged")]
    assert models == {"smoke-judge"}  # the evaluation's judge model, not RAGPIPE_LLM_MODEL
    assert list(warehouse(project, "question_set", "smoke-judged")["question_id"]) == smoke
    assert materialized["rag_responses"] == {"refbot@v2|smoke-judged"}
    assert DATASET not in materialized["corpus"]  # the dataset's own partition is not touched
    assert list(warehouse(project, "aggregate_scores", "refbot@v2", "smoke-judged")["metric"]) == metrics
    judged = warehouse(project, "scores", "llm_judge", "refbot@v2", "smoke-judged")
    assert judged["value"].notna().all() and len(judged) == len(smoke)
    left_out = warehouse(project, "scores", "answer_relevancy", "refbot@v2", "smoke-judged")
    assert left_out["value"].isna().all() and left_out["error"].str.contains("not among the metrics").all()
    board = warehouse(project, "leaderboard", "smoke-judged")
    assert list(board["bot_version"]) == ["refbot@v2"] and "answer_relevancy" not in board.columns


def _materializations(instance: dg.DagsterInstance, defs: dg.Definitions) -> set[tuple[str, str, int]]:
    """(asset, partition, storage id) of every materialization."""
    return {(key.to_user_string(), r.partition_key, r.storage_id) for key in defs.resolve_all_asset_keys()
            for r in instance.fetch_materializations(dg.AssetRecordsFilter(key), limit=10_000).records}


def _files(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` with its content hash, but the report site's list page
    (rendered again without a deleted evaluation)."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name != "index.html"}


def _of(name: str, key: str) -> bool:
    """Whether a partition key or a file path belongs to the evaluation ``name``."""
    return any(part in (name, f"{name}.parquet", f"{name}.json") for part in re.split(r"[|/]", key))


def test_deleting_an_evaluation_removes_its_results_and_nothing_else(project, capsys):
    # One dataset of 8 questions and one bot version: the dataset's own evaluation and two named ones.
    shutil.rmtree(project / "data" / "datasets" / "product_en")
    for bot in (project / "data" / "bots").glob("*.yaml"):
        if bot.stem != "refbot@v1":
            bot.unlink()
    trim_questions(project / "data" / "datasets" / DATASET, 8)
    add_smoke_set(project)
    for name in ("smoke-a", "smoke-b"):
        write_evaluation(project, name, dataset=DATASET, question_set="smoke", bots=["refbot@v1"],
                         metrics=["faithfulness", "answer_correctness"])
    write_evaluation(project, "broken", dataset=DATASET, question_set="full")  # no such question set
    prepare_dagster_home(project)
    defs = build_defs(project)
    with dg.DagsterInstance.get() as instance:
        outcomes = materialize_all(defs, instance, progress=lambda _: None)
        before = _materializations(instance, defs)
    failed = [o for o in outcomes if not o.success]
    assert [(o.job, o.partition) for o in failed] == [("register_partition", "broken")]
    assert "broken.yaml: field 'question_set': 'full' is no question set of policy_zh (smoke)" in failed[0].error
    assert {o.partition for o in outcomes if o.job == "rank_bot_versions"} == {DATASET, "smoke-a", "smoke-b"}
    output, data = project / ".ragpipe", project / "data"
    files, inputs = _files(output), _files(data)
    board = warehouse(project, "leaderboard", "smoke-b")

    # A dataset folder's own evaluation is the data: refused, nothing removed.
    assert main(["evaluations", "delete", DATASET, "--project-dir", str(project)]) == 2
    assert "that is data, not a named evaluation" in capsys.readouterr().err
    assert main(["evaluations", "delete", "nope", "--project-dir", str(project)]) == 2
    assert "no evaluation nope" in capsys.readouterr().err

    assert main(["evaluations", "delete", "smoke-a", "--project-dir", str(project)]) == 0
    with dg.DagsterInstance.get() as instance:
        after = _materializations(instance, defs)
        registered = instance.get_dynamic_partitions(datasets.name)
        runs = [r.dagster_run.tags.get("dagster/partition") for r in instance.get_run_records()]
    gone = {m for m in before if _of("smoke-a", m[1])}
    assert gone and after == before - gone  # every other materialization kept, none added
    assert "smoke-a" not in registered and {DATASET, "smoke-b"} <= set(registered)
    assert not any(_of("smoke-a", partition) for partition in runs)
    kept = _files(output)
    assert {f for f in files if f not in kept} == {f for f in files if _of("smoke-a", f)} != set()
    assert [f for f in kept if files[f] != kept[f]] == []  # the others' files untouched
    assert "smoke-a" not in (output / "reports" / "index.html").read_text(encoding="utf-8")
    assert {f for f in inputs if f not in _files(data)} == {"evaluations/smoke-a.yaml"}
    pd.testing.assert_frame_equal(warehouse(project, "leaderboard", "smoke-b"), board)

    # The others are current: nothing runs again. Recreated, the evaluation runs anew.
    with dg.DagsterInstance.get() as instance:
        again = materialize_all(defs, instance, progress=lambda _: None)
        assert [o.partition for o in again if not o.fresh] == ["broken"]
        assert "smoke-a" not in {o.partition for o in again}
        with dg.build_sensor_context(instance=instance, resources=sensor_resources(defs)) as context:
            assert ragpipe_sensor(context).run_requests == []  # the daemon sees the same: nothing due
        write_evaluation(project, "smoke-a", dataset=DATASET, question_set="smoke", bots=["refbot@v1"])
        recreated = materialize_all(defs, instance, progress=lambda _: None, only_datasets=["smoke-a"])
        # An evaluation's file is an input of its own partition only.
        write_evaluation(project, "smoke-b", dataset=DATASET, question_set="smoke", bots=["refbot@v1"],
                         metrics=["faithfulness"])
        with dg.build_sensor_context(instance=instance, resources=sensor_resources(defs)) as context:
            requests = [(r.job_name, r.partition_key) for r in ragpipe_sensor(context).run_requests]
    assert requests == [("prepare_dataset", "smoke-b")]
    assert [(o.partition, o.success, o.fresh) for o in recreated] == [
        ("smoke-a", True, False), ("refbot@v1|smoke-a", True, False), ("smoke-a", True, False)]


@pytest.mark.parametrize("name, fields, field, problem", [
    ("e1", {"dataset": "nope", "question_set": "smoke"}, "dataset", "'nope' is no folder under"),
    ("e2", {"dataset": DATASET, "question_set": "full"}, "question_set", "'full' is no question set of policy_zh"),
    ("e3", {"dataset": DATASET, "question_set": "smoke", "bots": ["refbot@v7"]}, "bots", "unknown: refbot@v7"),
    ("e4", {"dataset": DATASET, "question_set": "smoke", "metrics": ["bleu"]}, "metrics", "unknown: bleu"),
    ("e5", {"dataset": DATASET, "question_set": "smoke", "judge": "x"}, "judge", "unknown field"),
    ("e6", {"dataset": DATASET, "question_set": "smoke", "judge_model": ""}, "judge_model", "expected a model name"),
    ("a b", {"dataset": DATASET, "question_set": "smoke"}, "name", "the file name must be letters, digits, _ . - only"),
    (DATASET, {"dataset": DATASET, "question_set": "smoke"}, "name", f"{DATASET} is a dataset folder's own evaluation"),
])
def test_a_bad_evaluation_file_is_named_with_its_field_and_left_out(project, name, fields, field, problem):
    add_smoke_set(project)
    write_evaluation(project, "good", dataset=DATASET, question_set="smoke")
    path = write_evaluation(project, name, **fields)
    found = invalid_evaluations(project / "data")
    assert list(found) == [name]
    assert f"{path}: field '{field}': {problem}" in found[name]
    assert dataset_keys(project / "data") == ["policy_zh", "product_en", "good"]


def test_a_question_set_file_outside_the_dataset_is_refused(project):
    folder = project / "data" / "datasets" / DATASET
    with (folder / "dataset.yaml").open("a", encoding="utf-8") as meta:
        meta.write("question_sets:\n  smoke: [../product_en/questions/questions.jsonl, sets/none.jsonl]\n")
    write_evaluation(project, "smoke", dataset=DATASET, question_set="smoke")
    problem = invalid_evaluations(project / "data")["smoke"]
    assert f"{folder / 'dataset.yaml'}: field 'question_sets.smoke': ../product_en/questions/questions.jsonl " \
           "is outside the dataset folder" in problem
    assert "sets/none.jsonl is no file" in problem
