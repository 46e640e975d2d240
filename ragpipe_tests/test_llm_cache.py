"""The client's on-disk cache and its token and cost accounting, against a real loopback
OpenAI-compatible server."""

from __future__ import annotations

import json
import logging

import pytest

from ragpipe.core.cache import Cache
from ragpipe.core.llm import LLMClient, LLMError, LLMStats, request_key
from ragpipe.core.judged import LLMEvaluator, context_relevance, extract_entities, judge_1_5
from ragpipe.core.judged.prompts.judge import JUDGE_1_5
from ragpipe.testing.fake_judge import fake_llm
from ragpipe_tests.llm_helpers import MATERIAL, SECRET, client, make_client, server
from ragpipe.testing.openai_server import OpenAIServer, Reply, script

# server, client: pytest fixtures, used by name


# ---- the on-disk cache --------------------------------------------------------------------------
def run_everything(client: LLMClient) -> list:
    m = MATERIAL["zh"]
    ev = LLMEvaluator(client)
    return [ev.decompose(m["answer"]), [v.as_dict() for v in ev.verify(m["statements"], m["contexts"])],
            ev.context_relevance(m["question"], m["contexts"]), ev.answer_questions(m["answer"]),
            ev.extract_entities(m["entity_text"]), ev.judge_1_5(m["question"], m["ground_truth"], m["answer"]),
            ev.rubric_1_10(m["question"], m["answer"], m["contexts"]).model_dump()]


def test_cache_second_run_makes_no_requests(server, tmp_path):
    with make_client(server, cache_dir=str(tmp_path / "cache")) as c:
        first = run_everything(c)
        s1 = c.stats()
    assert len(server.requests) == 7 and (s1.cache_misses, s1.cache_hits) == (7, 0)
    server.reset()
    with make_client(server, cache_dir=str(tmp_path / "cache")) as c:
        second = run_everything(c)
        s2 = c.stats()
    assert server.count() == 0 and second == first
    assert (s2.cache_misses, s2.cache_hits, s2.requests, s2.prompt_tokens, s2.cost) == (0, 7, 0, 0, 0.0)
    assert (s2.cached_prompt_tokens, s2.cached_completion_tokens) == (s1.prompt_tokens, s1.completion_tokens)


def test_cache_key_is_model_prompt_and_parameters(server, tmp_path):
    cache_dir = str(tmp_path / "c")
    for settings in ({}, {}, {"model": "other"}, {"temperature": 0.5}, {"seed": 7}, {"max_tokens": 100},
                     {"cache_namespace": "server-b"}):
        with make_client(server, cache_dir=cache_dir, **settings) as c:
            judge_1_5(c, "q?", "a", "a")
    assert len(server.requests) == 6  # the repeat of the default settings was a hit
    with OpenAIServer(route=fake_llm) as elsewhere, make_client(elsewhere, cache_dir=cache_dir) as c:
        judge_1_5(c, "q?", "a", "a")  # another base URL, same model: the same entry
        assert elsewhere.count() == 0


def test_cache_keeps_invalid_replies_so_a_rerun_repeats_no_call(server, tmp_path):
    server.route = lambda req: {"reasoning": "x", "score": 7}
    for _ in range(2):
        with make_client(server, cache_dir=str(tmp_path)) as c, pytest.raises(LLMError, match="less than or equal"):
            judge_1_5(c, "q?", "a", "a")
    assert len(server.requests) == 2  # the first run's call and its re-ask; the second run none


def test_failed_requests_are_not_cached(server, tmp_path):
    server.route = lambda req: Reply(status=503, content="down")
    with make_client(server, cache_dir=str(tmp_path), max_retries=0) as c, pytest.raises(LLMError):
        judge_1_5(c, "q?", "a", "a")
    server.route = fake_llm
    with make_client(server, cache_dir=str(tmp_path)) as c:
        assert judge_1_5(c, "q?", "a", "a")[0] == 5  # a resumed run tries again
    assert len(server.requests) == 2


def test_rejected_response_format_is_remembered_across_runs(server, tmp_path):
    server.reject_response_format = True
    server.route = fake_llm
    m = MATERIAL["en"]
    for _ in range(2):
        with make_client(server, cache_dir=str(tmp_path)) as c:
            assert judge_1_5(c, m["question"], m["ground_truth"], m["answer"])[0] == 5
            assert extract_entities(c, m["entity_text"]) == m["entities"]
            assert not c.uses_response_format
    assert len(server.requests) == 4  # the first run only: two rejections, fallback, then straight to instructions


def test_secret_is_nowhere_but_the_header(server, tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    server.route = script(Reply(status=500, content=f"echo {SECRET}"), lambda req: {
        "reasoning": f"your key is {SECRET}", "score": 4})
    with make_client(server, cache_dir=str(tmp_path)) as c:
        score, reasoning = judge_1_5(c, "q?", "a", "a")
        metadata = c.stats().as_metadata()
    assert score == 4 and SECRET not in reasoning
    assert server.requests[0].headers["authorization"] == f"Bearer {SECRET}"
    assert SECRET.encode() not in b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert SECRET not in caplog.text and SECRET not in json.dumps(metadata)


# ---- token and cost accounting ----------------------------------------------------------------
def test_tokens_and_cost(server, tmp_path):
    server.route = lambda req: Reply(content=json.dumps(fake_llm(req)), usage=(1000, 200))
    with make_client(server, cache_dir=str(tmp_path), price_per_1k_prompt_tokens=0.5,
                     price_per_1k_completion_tokens=2.0) as c:
        before = c.stats()
        judge_1_5(c, "q?", "a", "a")
        context_relevance(c, "FHA?", ["FHA loans"])
        judge_1_5(c, "q?", "a", "a")  # same request: from the cache, not billed
        delta = c.stats() - before
    assert (delta.prompt_tokens, delta.completion_tokens, delta.total_tokens) == (2000, 400, 2400)
    assert delta.cost == pytest.approx(2 * (0.5 + 0.4))
    assert (delta.calls, delta.cache_hits, delta.cache_misses, delta.requests) == (3, 1, 2, 2)
    assert (delta.cached_prompt_tokens, delta.cached_completion_tokens) == (1000, 200)
    metadata = delta.as_metadata()
    assert metadata["llm_cost"] == pytest.approx(1.8) and metadata["llm_cache_hits"] == 1
    assert all(isinstance(v, (int, float)) for v in metadata.values())
    assert LLMStats() - LLMStats() == LLMStats()


def test_reasks_are_counted(server, client):
    server.route = script({"reasoning": "x", "score": 6}, fake_llm)
    judge_1_5(client, "q?", "a", "a")
    assert (client.stats().reasks, client.stats().calls, client.stats().failures) == (1, 2, 0)


def test_requests_waiting_when_a_rejection_is_learnt_are_not_sent(server):
    server.reject_response_format, server.reject_status = "json_schema", 500
    server.latency = 0.05
    items = [(JUDGE_1_5, JUDGE_1_5.input_model(question=f"q{i}?", ground_truth="a", answer="a"), "en")
             for i in range(6)]
    with make_client(server, concurrency=1) as c:
        assert [r.score for r in c.run_many(items)] == [5] * 6
        kinds = [r.response_format_type for r in server.requests]
        # requests already sent were rejected at once (cheap); each item's fallback worked
        assert kinds.count("json_object") == 6 and kinds[0] == "json_schema"
        server.reset()
        assert [r.score for r in c.run_many(items[:2])] == [5, 5]  # no cache: sent again, at the learnt level
    assert [r.response_format_type for r in server.requests] == ["json_object"] * 2



def test_cache_store(tmp_path):
    payload = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "temperature": 0.0, "max_tokens": 5}
    key = request_key(payload)
    assert key == request_key(dict(reversed(list(payload.items()))))  # key order does not matter
    assert key != request_key({**payload, "seed": 1}) and key != request_key(payload, namespace="b")
    assert key == request_key({**payload, "stream": False})  # only what determines the reply
    cache = Cache(tmp_path)
    assert cache.get(key) is None and len(cache) == 0
    value = {"content": "hello \ud800", "usage": {"prompt_tokens": 1}}  # a lone surrogate is kept too
    cache.put(key, value)
    again = Cache(tmp_path)  # another process would see it too
    assert again.get(key) == value and len(again) == 1
    again.clear()
    assert cache.get(key) is None
    cache.close(), again.close()
