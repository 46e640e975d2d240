"""`ragpipe run` again: what is fresh is checked, not run; a new label or new report code
relabels each version and ranks them; new bot code runs nothing; a changed bot config
re-runs exactly its evaluations and its dataset's leaderboard, changed evaluation settings
or code every evaluation; --force re-runs everything."""

import shutil

import dagster as dg

from ragpipe.core.config import config_path
from ragpipe.defs.definitions import build_defs
from ragpipe.defs.evaluation import score_cache
from ragpipe.defs.instance import prepare_dagster_home
from ragpipe.defs.runner import materialize_all
from ragpipe_tests.conftest import edit_core, trim_questions


def small_project(project, questions: int = 6):
    """One dataset of a few questions, the two sample bot versions."""
    shutil.rmtree(project / "data" / "datasets" / "policy_zh")
    trim_questions(project / "data" / "datasets" / "product_en", questions)
    return project


def launched(project, **options) -> tuple[list[tuple[str, str]], list]:
    """The (job, partition) of every run this call launched, and its outcomes."""
    prepare_dagster_home(project)
    defs = build_defs(project)
    with dg.DagsterInstance.get() as instance:
        before = {r.dagster_run.run_id for r in instance.get_run_records()}
        outcomes = materialize_all(defs, instance, progress=lambda _: None, **options)
        runs = [r.dagster_run for r in instance.get_run_records() if r.dagster_run.run_id not in before]
    return sorted((run.job_name, run.tags["dagster/partition"]) for run in runs), outcomes


def data_version(asset: str, partition: str) -> str:
    with dg.DagsterInstance.get() as instance:
        record = instance.fetch_materializations(
            dg.AssetRecordsFilter(dg.AssetKey(asset), asset_partitions=[partition]), limit=1).records[0]
    return record.asset_materialization.tags["dagster/data_version"]


def test_second_run_launches_nothing_a_changed_config_or_scorer_its_own_runs_and_force_all(project, monkeypatch,
                                                                                          core_copy):
    small_project(project)
    first, outcomes = launched(project)
    assert first == [("evaluate_bot_version", "refbot@v1|product_en"), ("evaluate_bot_version", "refbot@v2|product_en"),
                     ("prepare_dataset", "product_en"), ("rank_bot_versions", "product_en")]

    again, fresh = launched(project)
    assert again == []
    # The outcomes still say what stands, so the exit code and the gate are the same as before.
    assert [(o.job, o.partition, o.success, o.error) for o in fresh] == \
        [(o.job, o.partition, o.success, o.error) for o in outcomes]
    assert all(o.fresh for o in fresh)

    # A person's new label: each version relabelled (nothing asked or scored), then ranked.
    with (project / "data" / "datasets" / "product_en" / "labels" / "page.jsonl").open("a", encoding="utf-8") as f:
        f.write('{"question_id": "en-001", "bot_version": "refbot@v2", "judged": "answer_correct", "value": true, '
                '"annotator": "li"}\n')
    relabelled, _ = launched(project)
    assert relabelled == [("rank_bot_versions", "product_en"), ("relabel_bot_version", "refbot@v1|product_en"),
                          ("relabel_bot_version", "refbot@v2|product_en")]
    assert launched(project)[0] == []
    # New report code alone: the same, once; new bot code: nothing (the answers are only stale).
    edit_core(core_copy / "report" / "charts.py")
    assert launched(project)[0] == relabelled
    assert launched(project)[0] == []
    edit_core(core_copy / "inputs" / "bots.py")
    assert launched(project)[0] == []

    config = project / "data" / "bots" / "refbot@v2.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("top_k: 4", "top_k: 3"), encoding="utf-8")
    answered = data_version("rag_responses", "refbot@v2|product_en")
    changed, _ = launched(project)
    assert changed == [("evaluate_bot_version", "refbot@v2|product_en"), ("rank_bot_versions", "product_en")]
    # Other answers, same code and inputs: a new data version all the same, so what reads them is stale.
    assert data_version("rag_responses", "refbot@v2|product_en") != answered

    # How scores are computed changed: a stricter gate, then an upgrade of ragpipe's evaluation code.
    settings = project / "evaluation.yaml"
    settings.write_text(config_path().read_text(encoding="utf-8").replace("faithfulness: 0.7", "faithfulness: 0.8"),
                        encoding="utf-8")
    monkeypatch.setenv("RAGPIPE_EVAL_CONFIG", str(settings))
    rescored, _ = launched(project)
    assert rescored == first[:2] + first[3:]  # not the dataset's preparation
    monkeypatch.setattr(score_cache, "code_version", lambda: "upgraded")
    upgraded, _ = launched(project)
    assert upgraded == rescored

    forced, _ = launched(project, force=True)
    assert forced == first
