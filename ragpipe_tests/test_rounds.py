"""Answer rounds: a re-ask run asks an HTTP bot again and sees what changed behind an
unchanged config; a plain re-run, a resumed run and a re-execution ask nothing they
already got; every round's answers are kept and the report shows the drift."""

from datetime import datetime, timezone

import dagster as dg
import pandas as pd

from ragpipe.core.inputs.answers import AnswerCache
from ragpipe.core.inputs.bot_config import load_bot_config
from ragpipe.core.report.render import load_evaluation
from ragpipe.defs.definitions import build_defs
from ragpipe.defs.evaluation.assets import REASK_TAG
from ragpipe.defs.instance import prepare_dagster_home
from ragpipe.defs.partitions import sync_partitions
from ragpipe.defs.resources import ProjectPaths
from ragpipe.defs.automation import nightly_newest_versions, weekly_full_reevaluation
from ragpipe.defs.runner import QUIET, materialize_all
from ragpipe.testing.bot_server import BotServer
from ragpipe_tests.test_faults import BOT, BOT_KEY, DATASET, N_QUESTIONS, http_project  # noqa: F401

PARTITION = dg.MultiPartitionKey({"dataset": DATASET, "bot": BOT})


def evaluation_job() -> dg.JobDefinition:
    """Module level, so that Dagster can reconstruct the job to re-execute a run
    (RAGPIPE_PROJECT_DIR names the project)."""
    return build_defs().resolve_job_def("evaluate_bot_version")


def evaluate(instance: dg.DagsterInstance, *, only_answers: bool = False):
    return evaluation_job().execute_in_process(
        instance=instance, partition_key=PARTITION, run_config=QUIET,
        asset_selection=[dg.AssetKey("rag_responses")] if only_answers else None)


def responses(project) -> pd.DataFrame:
    return pd.read_parquet(project / ".ragpipe" / "warehouse" / "rag_responses" / BOT / f"{DATASET}.parquet")


def test_reask_asks_again_and_reruns_or_reexecutions_do_not(http_project, monkeypatch):  # noqa: F811
    monkeypatch.setenv("RAGPIPE_PROJECT_DIR", str(http_project))
    with BotServer(http_project / "data" / "datasets", api_key=BOT_KEY, failure_rate=0.0, slow_rate=0.0) as server:
        bot_file = http_project / "data" / "bots" / f"{BOT}.yaml"
        bot_file.write_text(server.bot_yaml(timeout=5.0), encoding="utf-8")
        prepare_dagster_home(http_project)
        with dg.DagsterInstance.get() as instance:
            sync_partitions(instance, http_project / "data")
            build_defs().resolve_job_def("prepare_dataset").execute_in_process(
                instance=instance, partition_key=DATASET, run_config=QUIET)

            first = evaluate(instance)  # the first round
            assert first.success and server.total() == N_QUESTIONS
            before = responses(http_project)

            server.suffix = " (changed behind the same config)"
            assert evaluate(instance, only_answers=True).success  # a plain re-run: the stored answers
            assert server.total() == N_QUESTIONS
            assert responses(http_project)["answer"].tolist() == before["answer"].tolist()

            # `ragpipe run --reask`; the schedules' runs carry the same tag.
            outcomes = materialize_all(build_defs(), instance, [DATASET], [BOT], progress=lambda _: None, reask=True)
            assert all(o.success for o in outcomes), [o.error for o in outcomes]
            assert server.total() == 2 * N_QUESTIONS
            reask_run = next(o.run_id for o in outcomes if o.job == "evaluate_bot_version")
            after = responses(http_project)
            assert after["answer"].str.endswith(server.suffix).all()
            assert after["previous_answer"].tolist() == before["answer"].tolist()
            assert after.attrs == {"round": reask_run, "previous_round": first.run_id}
            metadata = instance.get_latest_materialization_event(dg.AssetKey("rag_responses")).asset_materialization
            assert metadata.metadata["bot_requests"].value == N_QUESTIONS
            assert metadata.metadata["answers_changed"].value == N_QUESTIONS

            # Re-executing the re-ask run with its tags (as the UI's "re-execute" and the run
            # retries do) continues its round: nothing asked again, its answers kept.
            server.suffix = " (changed again)"
            again = dg.execute_job(dg.reconstructable(evaluation_job), instance, run_config=QUIET,
                                   reexecution_options=dg.ReexecutionOptions(reask_run, ["rag_responses"]),
                                   tags=instance.get_run_by_id(reask_run).tags)
            assert again.success, [e.event_specific_data.error.message for e in again.all_events if e.is_step_failure]
            assert instance.get_run_by_id(again.run_id).root_run_id == reask_run
            assert server.total() == 2 * N_QUESTIONS
            assert responses(http_project)["answer"].tolist() == after["answer"].tolist()
            assert evaluate(instance, only_answers=True).success  # a later plain run: the latest round
            assert server.total() == 2 * N_QUESTIONS

    cache = AnswerCache(http_project / "cache" / "answers")
    assert cache.rounds(load_bot_config(bot_file), DATASET) == [first.run_id, reask_run]
    assert len(cache) == 2 * N_QUESTIONS  # both rounds' answers are kept
    cache.close()

    # The report of the re-ask round shows the drift from the first round.
    report = load_evaluation(http_project / ".ragpipe" / "reports" / DATASET / BOT / "diagnosis.json")
    drift = report["drift"]
    assert drift["round"] == reask_run and drift["previous_round"] == first.run_id
    assert drift["answers_compared"] == drift["answers_changed"] == N_QUESTIONS and drift["share_changed"] == 1.0
    assert "answer_relevancy" in drift["metric_deltas"]
    assert all(card["previous_answer"] for card in report["cards"])
    page = (http_project / ".ragpipe" / "reports" / DATASET / BOT / "diagnosis.html").read_text("utf-8")
    assert f"<b>{N_QUESTIONS}/{N_QUESTIONS}</b>" in page


def test_scheduled_reevaluations_ask_the_bots_again(project):
    prepare_dagster_home(project)
    with dg.DagsterInstance.get() as instance:
        sync_partitions(instance, project / "data")
        when = datetime(2026, 1, 4, 4, tzinfo=timezone.utc)  # a Sunday: both schedules tick
        paths = {"paths": ProjectPaths(data_dir=str(project / "data"), output_dir=str(project / ".ragpipe"),
                                       warehouse_dir=str(project / ".ragpipe" / "warehouse"))}
        for schedule in (nightly_newest_versions, weekly_full_reevaluation):
            with dg.build_schedule_context(instance=instance, scheduled_execution_time=when, resources=paths) as context:
                requests = schedule(context)
            assert requests and all(r.tags[REASK_TAG] == "true" for r in requests), schedule.name
