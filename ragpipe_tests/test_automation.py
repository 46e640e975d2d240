"""The sensor and the schedules, evaluated with build_*_context against a real (temporary)
instance; the runs the sensor requests are executed in process, as the daemon would."""

import json
import shutil
import time
from datetime import datetime, timezone
from pathlib import Path

import dagster as dg
import pytest

from ragpipe.defs import automation
from ragpipe.defs.automation import (
    INPUTS_TAG,
    TRIGGER_TAG,
    newest_versions,
    nightly_newest_versions,
    ragpipe_sensor,
    weekly_full_reevaluation,
)
from ragpipe.defs.definitions import build_defs
from ragpipe.defs.evaluation import score_cache
from ragpipe.defs.partitions import bot_versions, datasets
from ragpipe.defs.runner import QUIET, materialize_all
from ragpipe.defs.resources import ProjectPaths
from ragpipe_tests.conftest import edit_core, sensor_resources, trim_questions


@pytest.fixture
def instance():
    with dg.instance_for_test() as instance:
        yield instance


class Daemon:
    """Ticks the sensor as the daemon does (cursor kept, partitions added) and runs what it asks for."""

    def __init__(self, project, instance):
        self.defs, self.instance, self.cursor = build_defs(project), instance, None
        self.paths = ProjectPaths(data_dir=str(project / "data"), output_dir=str(project / ".ragpipe"),
                                  warehouse_dir=str(project / ".ragpipe" / "warehouse"))

    def tick(self) -> dg.SensorResult:
        context = dg.build_sensor_context(instance=self.instance, cursor=self.cursor,
                                          resources={**sensor_resources(self.defs), "paths": self.paths})
        result = ragpipe_sensor(context)
        for request in result.dynamic_partitions_requests:
            self.instance.add_dynamic_partitions(request.partitions_def_name, list(request.partition_keys))
        self.cursor = result.cursor
        return result

    def requested(self) -> list[str]:
        """One tick's requests as `job [partition]`, after running them."""
        requests = self.tick().run_requests
        for request in requests:
            result = self.defs.resolve_job_def(request.job_name).execute_in_process(
                instance=self.instance, partition_key=request.partition_key, tags=request.tags, run_config=QUIET,
                raise_on_error=False)
            held_back = any(c.blocking and not c.passed for c in result.get_asset_check_evaluations())
            assert result.success or held_back, request  # a regression gate holding a version back is a finding
        return sorted(f"{r.job_name} [{r.partition_key}]" for r in requests)


def test_each_change_runs_its_work_once_in_order(project, instance, monkeypatch):
    """After `ragpipe run` nothing is stale. A dataset file that changes no prepared data
    re-prepares and evaluates nothing; labels relabel every version once (see below); a
    new calibration or new evaluation code re-evaluates every version; a new document is prepared, then evaluated with every bot version, then ranked,
    once. Changed and new configs are evaluated. (One dataset, to keep the in-process runs few.)"""
    shutil.rmtree(project / "data" / "datasets" / "policy_zh")
    daemon = Daemon(project, instance)
    # refbot@v2 may be held back by the blocking regression check: a finding, still a finished evaluation
    assert all(o.success or o.blocked for o in materialize_all(daemon.defs, instance, progress=lambda _: None))
    assert daemon.requested() == []
    config = project / "data" / "bots" / "refbot@v1.yaml"
    config.write_text(config.read_text(encoding="utf-8"), encoding="utf-8")  # saved again, same content
    assert daemon.requested() == []

    dataset = project / "data" / "datasets" / "product_en"
    (dataset / "NOTES.txt").write_text("reviewed\n", encoding="utf-8")  # read by no importer
    assert daemon.requested() == ["prepare_dataset [product_en]"]
    assert daemon.requested() == []  # same data versions: the evaluations are current

    assert_labels_clicked_in_a_row_relabel_once(daemon, dataset, monkeypatch)
    calibration = daemon.paths.calibrations / "product_en.json"
    saved = Path(calibration).read_text(encoding="utf-8")  # the relabelling fitted none: too few labels
    Path(calibration).write_text(json.dumps({"faithfulness": {  # as human_labels writes one that beats the shipped
        "id": "product_en/faithfulness/logistic-x", "method": "logistic", "intercept": 0.0, "slope": 1.0,
        "threshold": 0.5, "used": True}}), encoding="utf-8")
    assert sorted(str(r.partition_key) for r in daemon.tick().run_requests) == [  # scored with it: every version
        "refbot@v1|product_en", "refbot@v2|product_en"]
    Path(calibration).write_text(saved, encoding="utf-8")
    assert daemon.requested() == []
    with monkeypatch.context() as upgrade:  # new evaluation code: every version is scored again
        upgrade.setattr(score_cache, "code_version", lambda: "upgraded")
        assert sorted(str(r.partition_key) for r in daemon.tick().run_requests) == [
            "refbot@v1|product_en", "refbot@v2|product_en"]

    (dataset / "docs" / "new_programme.md").write_text(
        "# New programme\n\nGrants of $1,000 for shops that open before June.\n", encoding="utf-8")
    assert daemon.requested() == ["prepare_dataset [product_en]"]
    assert daemon.requested() == ["evaluate_bot_version [refbot@v1|product_en]",
                                  "evaluate_bot_version [refbot@v2|product_en]"]
    assert daemon.requested() == ["rank_bot_versions [product_en]"]
    assert daemon.requested() == []

    config = project / "data" / "bots" / "refbot@v2.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("top_k: 4", "top_k: 5"), encoding="utf-8")
    (project / "data" / "bots" / "refbot@v3.yaml").write_text(
        "name: refbot\nversion: v3\nkind: reference\nretrieval: {method: embedding, top_k: 3}\n", encoding="utf-8")
    requests = daemon.tick().run_requests
    assert sorted(str(r.partition_key) for r in requests) == ["refbot@v2|product_en", "refbot@v3|product_en"]
    assert instance.get_dynamic_partitions(bot_versions.name) == ["refbot@v1", "refbot@v2", "refbot@v3"]
    assert all(r.tags[INPUTS_TAG] for r in requests)


def assert_labels_clicked_in_a_row_relabel_once(daemon: Daemon, dataset: Path, monkeypatch):
    """Three labels clicked 20 s apart on the labelling page: while the label files have not
    rested LABELS_QUIET_SECONDS nothing starts; then each bot version is relabelled once
    (agreement, calibration, aggregates, report from its stored answers and scores: nothing
    asked, nothing scored) and the dataset ranked once: 2 + 1 runs. (Before, the tick after
    each click re-evaluated every version: 6 evaluations here, then a ranking.)"""
    def stored(asset: str) -> int:
        return daemon.instance.fetch_materializations(dg.AssetKey(asset.split("/")), limit=1).records[0].storage_id

    before = {asset: stored(asset) for asset in ("rag_responses", "scores/faithfulness", "aggregate_scores")}
    page = dataset / "labels" / "page.jsonl"
    monkeypatch.setattr(automation, "LABELS_QUIET_SECONDS", 5)  # not a minute of the test's time
    launched = []
    for qid in ("en-002", "en-003", "en-004"):
        with page.open("a", encoding="utf-8") as labels:
            labels.write(json.dumps({"question_id": qid, "bot_version": "refbot@v1", "judged": "answer_correct",
                                     "value": True, "annotator": "li"}) + "\n")
        launched += daemon.requested()  # the tick right after the click (the sensor ticks every 15 s)
    assert launched == []
    time.sleep(5)  # the labels rest
    launched = daemon.requested() + daemon.requested() + daemon.requested()
    assert launched == ["relabel_bot_version [refbot@v1|product_en]", "relabel_bot_version [refbot@v2|product_en]",
                        "rank_bot_versions [product_en]"]
    after = {asset: stored(asset) for asset in before}
    assert after["rag_responses"] == before["rag_responses"]
    assert after["scores/faithfulness"] == before["scores/faithfulness"]
    assert after["aggregate_scores"] > before["aggregate_scores"]  # the people's share of correct answers is new


def test_new_report_code_relabels_each_version_and_new_bot_code_starts_nothing(project, instance, core_copy):
    """A change to the report code alone re-runs each version's reports from its stored
    answers and scores (nothing asked, nothing scored), then the ranking; a change to the bot
    kinds' code only marks the answers stale (docs/automation.md)."""
    shutil.rmtree(project / "data" / "datasets" / "policy_zh")
    trim_questions(project / "data" / "datasets" / "product_en", 6)
    daemon = Daemon(project, instance)
    assert all(o.success or o.blocked for o in materialize_all(daemon.defs, instance, progress=lambda _: None))
    assert daemon.requested() == []

    def stored() -> dict[str, int]:
        return {asset: instance.fetch_materializations(dg.AssetKey(asset.split("/")), limit=1).records[0].storage_id
                for asset in ("rag_responses", "scores/faithfulness", "aggregate_scores", "diagnosis_report")}

    before = stored()
    edit_core(core_copy / "report" / "charts.py")
    # one relabelling a tick (each may fit a new calibration), as for new labels
    assert daemon.requested() + daemon.requested() + daemon.requested() == [
        "relabel_bot_version [refbot@v1|product_en]", "relabel_bot_version [refbot@v2|product_en]",
        "rank_bot_versions [product_en]"]
    assert daemon.requested() == []
    after = stored()
    assert [after[a] == before[a] for a in before] == [True, True, False, False]  # responses, scores kept

    edit_core(core_copy / "inputs" / "bots.py")
    assert daemon.requested() == []


def test_deleted_and_malformed_configs_start_nothing(project, instance):
    daemon = Daemon(project, instance)
    first = daemon.tick()
    assert first.dynamic_partitions_requests[0].partition_keys == ["policy_zh", "product_en"]
    assert first.dynamic_partitions_requests[1].partition_keys == ["refbot@v1", "refbot@v2"]
    assert sorted(r.partition_key for r in first.run_requests) == ["policy_zh", "product_en"]  # prepare first
    (project / "data" / "bots" / "refbot@v1.yaml").unlink()
    (project / "data" / "bots" / "refbot@v9.yaml").write_text("name: refbot\nversion: v9\nkind: [\n", encoding="utf-8")
    second = daemon.tick()
    assert second.dynamic_partitions_requests == []
    assert "refbot@v9" not in instance.get_dynamic_partitions(bot_versions.name)
    assert {k for k in json.loads(second.cursor) if k.startswith("bots/")} == {"bots/refbot@v2", "bots/refbot@v9"}


def test_schedules_pick_newest_versions_and_everything(project, instance):
    instance.add_dynamic_partitions(datasets.name, ["policy_zh", "product_en"])
    instance.add_dynamic_partitions(bot_versions.name, ["refbot@v2", "refbot@v10", "other@1.9", "other@1.10"])
    assert newest_versions(instance.get_dynamic_partitions(bot_versions.name)) == ["other@1.10", "refbot@v10"]
    when = datetime(2026, 11, 22, 2, tzinfo=timezone.utc)
    paths = {"paths": ProjectPaths(data_dir=str(project / "data"), output_dir=str(project / ".ragpipe"),
                                   warehouse_dir=str(project / ".ragpipe" / "warehouse"))}
    with dg.build_schedule_context(instance=instance, scheduled_execution_time=when, resources=paths) as context:
        nightly = nightly_newest_versions(context)
        weekly = weekly_full_reevaluation(context)
    assert sorted(str(r.partition_key) for r in nightly) == [
        "other@1.10|policy_zh", "other@1.10|product_en", "refbot@v10|policy_zh", "refbot@v10|product_en"]
    assert {r.tags[TRIGGER_TAG] for r in nightly} == {"nightly"}
    assert len(weekly) == 8 and len({r.run_key for r in weekly}) == 8


def test_backfill_prints_the_backfill_and_neither_code_server_logs_nor_warnings(project):
    import os
    import subprocess
    import sys
    from pathlib import Path

    from ragpipe.defs.instance import prepare_dagster_home

    prepare_dagster_home(project)
    with dg.DagsterInstance.get() as instance:
        instance.add_dynamic_partitions(bot_versions.name, ["refbot@v1", "refbot@v2"])
        instance.add_dynamic_partitions(datasets.name, ["product_en"])
    cli = subprocess.run([str(Path(sys.executable).parent / "ragpipe"), "backfill", "--dataset", "product_en",
                          "--project-dir", str(project)], cwd=project, env=os.environ.copy(),
                         capture_output=True, text=True, timeout=300)
    shown = cli.stdout + cli.stderr
    assert cli.returncode == 0, shown
    assert "Launched backfill" in shown and "refbot@v2|product_en" in shown
    # It showed the code server's start and stop, and the same BetaWarning twice.
    assert "code_server" not in shown and "Warning" not in shown, shown
