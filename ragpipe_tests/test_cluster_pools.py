"""Endpoint limits across runs: two runs at once, each evaluating a version of a bot behind
one loopback endpoint whose config allows it 2 requests at a time, never send it more than
2 together (the bot_endpoints pool of dagster.yaml); steps claiming a pool's one slot at
the same moment get it one at a time (SQLite here, PostgreSQL in test_postgres.py)."""

import json
import multiprocessing
import os
import shutil
from pathlib import Path

import dagster as dg

from ragpipe.defs.definitions import build_defs
from ragpipe.defs.instance import prepare_dagster_home
from ragpipe.defs.partitions import sync_partitions
from ragpipe.testing.bot_server import BotServer
from ragpipe_tests.conftest import sensor_resources

DATASET, CONCURRENCY = "product_en", 2


def test_two_runs_at_once_share_the_endpoints_concurrency(project, monkeypatch):
    monkeypatch.setenv("RAGPIPE_PROJECT_DIR", str(project))
    with BotServer(project / "data" / "datasets", failure_rate=0.0, slow_rate=1.0, slow=0.1) as server:
        for bot in (project / "data" / "bots").glob("*.yaml"):
            bot.unlink()
        for version in ("v1", "v2"):
            config = json.loads(server.bot_yaml(version=version, timeout=30.0))  # no retry under load
            config["http"]["concurrency"] = CONCURRENCY
            (project / "data" / "bots" / f"httpbot@{version}.yaml").write_text(json.dumps(config), encoding="utf-8")
        prepare_dagster_home(project)
        defs = build_defs(project)
        with dg.DagsterInstance.get() as instance:
            sync_partitions(instance, project / "data")
            assert defs.resolve_job_def("prepare_dataset").execute_in_process(instance=instance,
                                                                              partition_key=DATASET).success
        # Two processes, as two run workers would be (Dagster's runs are not for threads).
        ctx = multiprocessing.get_context("spawn")
        with ctx.Pool(2) as pool:
            run_ids = pool.starmap(evaluate, [(str(project), version) for version in ("v1", "v2")])
        with dg.DagsterInstance.get() as instance:
            records = [instance.get_run_record_by_id(run_id) for run_id in run_ids]
        assert [r.dagster_run.status for r in records] == [dg.DagsterRunStatus.SUCCESS] * 2
        first, second = sorted(records, key=lambda r: r.start_time)
        assert second.start_time < first.end_time  # the runs were in progress at once
        assert sum(server.answered.values()) == 2 * len(server.answered)  # each question, once per version
        assert server.most_in_flight == CONCURRENCY


def evaluate(project: str, version: str) -> str:
    """Runs the version's rag_responses in this process; its run id."""
    with dg.DagsterInstance.get() as instance:
        return build_defs(Path(project)).resolve_job_def("evaluate_bot_version").execute_in_process(
            instance=instance, asset_selection=[dg.AssetKey("rag_responses")], raise_on_error=False,
            partition_key=dg.MultiPartitionKey({"dataset": DATASET, "bot": f"httpbot@{version}"})).run_id


def test_steps_claiming_a_one_slot_pool_at_the_same_moment_get_it_one_at_a_time(project):
    """Dagster's own claim let two of them through in 8 of 20 tries (instance_storage.py)."""
    prepare_dagster_home(project)
    assert_one_claim_at_a_time(os.environ["DAGSTER_HOME"])


def assert_one_claim_at_a_time(home: str, tries: int = 10, claimants: int = 4) -> None:
    """``claimants`` processes claim the one-slot bot pool at once, ``tries`` times: each time
    exactly one holds it, and when it lets go, exactly one of the others gets it."""
    from ragpipe.defs.evaluation.assets import BOT_POOL

    ctx = multiprocessing.get_context("spawn")
    with ctx.Manager() as manager, ctx.Pool(claimants) as pool, dg.DagsterInstance.get() as instance:
        storage = instance.event_log_storage
        for attempt in range(tries):
            barrier = manager.Barrier(claimants)
            runs = [f"try{attempt}-{n}" for n in range(claimants)]
            claimed = pool.starmap(claim_slot, [(home, barrier, BOT_POOL, run) for run in runs])
            assert claimed.count(True) == 1
            storage.free_concurrency_slots_for_run(runs[claimed.index(True)])
            waiting = [run for run, won in zip(runs, claimed) if not won]
            assert [storage.claim_concurrency_slot(BOT_POOL, run, STEP).is_claimed for run in waiting].count(True) == 1
            for run in waiting:
                storage.free_concurrency_slots_for_run(run)


STEP = "rag_responses"


def claim_slot(home: str, barrier, pool: str, run_id: str) -> bool:
    os.environ["DAGSTER_HOME"] = home
    with dg.DagsterInstance.get() as instance:
        storage = instance.event_log_storage
        barrier.wait()
        return storage.claim_concurrency_slot(pool, run_id, STEP).is_claimed


def test_the_endpoint_pools_have_their_slots_before_any_run_and_keep_a_limit_set_by_hand(project):
    from ragpipe.defs.evaluation.assets import BOT_POOL, JUDGE_POOL

    prepare_dagster_home(project)
    with dg.DagsterInstance.get() as instance:
        storage = instance.event_log_storage
        assert {pool: storage.get_concurrency_info(pool).slot_count for pool in (BOT_POOL, JUDGE_POOL)} == {
            BOT_POOL: 1, JUDGE_POOL: 1}
        storage.set_concurrency_slots(JUDGE_POOL, 3)  # `dagster instance concurrency set judge 3`
    prepare_dagster_home(project)
    with dg.DagsterInstance.get() as instance:
        assert instance.event_log_storage.get_concurrency_info(JUDGE_POOL).slot_count == 3


def test_the_sensor_gives_the_pools_their_slots_on_a_home_no_ragpipe_command_prepared(project, tmp_path, monkeypatch):
    """`dagster-daemon run` on a home set up by hand: the first tick creates the slots, before
    the sensor launches any run."""
    from ragpipe.defs.automation import ragpipe_sensor
    from ragpipe.defs.evaluation.assets import BOT_POOL, JUDGE_POOL

    home = tmp_path / "home"
    home.mkdir()
    shutil.copy(project / "dagster.yaml", home / "dagster.yaml")
    monkeypatch.setenv("DAGSTER_HOME", str(home))
    with dg.DagsterInstance.get() as instance:
        storage = instance.event_log_storage
        assert not {BOT_POOL, JUDGE_POOL} & set(storage.get_concurrency_keys())
        ragpipe_sensor(dg.build_sensor_context(instance=instance, resources=sensor_resources(build_defs(project))))
        assert {pool: storage.get_concurrency_info(pool).slot_count for pool in (BOT_POOL, JUDGE_POOL)} == {
            BOT_POOL: 1, JUDGE_POOL: 1}
