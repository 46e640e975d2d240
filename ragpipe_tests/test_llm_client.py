"""The client and its transport against a real loopback OpenAI-compatible server: re-ask
on invalid output, the response_format fallback, HTTP failures and retries (429 with
Retry-After, 5xx, hangs, slow drips, the deadline), the concurrency and rate limits, the
on-disk cache, token and cost accounting, and the API key."""

from __future__ import annotations

import asyncio
import email.utils
import json
import logging
import re
import socket
import threading
import time

import httpx
import pytest

from ragpipe.core.cache import Cache
from ragpipe.core.llm import LLMClient, LLMError, LLMSettings, LLMStats, request_key
from ragpipe.core.judged import (LLMEvaluator, LLMVerifier, answer_questions, context_relevance, extract_entities,
                                 judge_1_5, rubric_1_10)
from ragpipe.core.llm.prompt import FORMAT_INSTRUCTION
from ragpipe.core.judged.prompts.judge import JUDGE_1_5
from ragpipe.core.transport import retry_after_seconds
from ragpipe_tests.drip_server import DripServer
from ragpipe.testing.fake_judge import fake_llm
from ragpipe_tests.llm_helpers import FAST_RETRIES, MATERIAL, SECRET, client, make_client, sequence, server
from ragpipe.testing.openai_server import OpenAIServer, Reply, script

# server, client: pytest fixtures, used by name


# ---- invalid output: re-ask once, then LLMError ----------------------------------------
def test_malformed_json_is_reasked_once_then_accepted(server, client):
    server.route = sequence('{"reasoning": "ok", "score": ', {"reasoning": "fine", "score": 4})
    assert judge_1_5(client, "FHA 贷款的最低首付是多少？", "3.5%", "3.5%") == (4, "fine")
    first, second = server.requests
    assert second.messages[:2] == first.messages
    assert second.messages[2] == {"role": "assistant", "content": '{"reasoning": "ok", "score": '}
    assert second.messages[3]["role"] == "user"
    assert "你上一次的回复无法使用" in second.messages[3]["content"]
    assert "no JSON object" in second.messages[3]["content"]


def test_out_of_range_score_is_reasked_not_clamped(server, client):
    server.route = sequence({"reasoning": "great", "score": 7}, {"reasoning": "great", "score": 5})
    assert judge_1_5(client, "q?", "a", "a") == (5, "great")
    reask = server.requests[1].messages[-1]["content"]
    assert "score" in reask and "less than or equal to 5" in reask and "got 7" in reask


@pytest.mark.parametrize("bad", [{"reasoning": "x", "score": 7}, {"reasoning": "x", "score": 0},
                                 {"reasoning": "x", "score": 3.5}, {"reasoning": "x", "score": True},
                                 {"reasoning": "", "score": 3}, {"score": 3}, "I'd say 4 out of 5."])
def test_invalid_judge_output_twice_raises(server, client, bad):
    server.route = lambda req: bad
    with pytest.raises(LLMError) as err:
        judge_1_5(client, "q?", "a", "a")
    assert err.value.reason.startswith("llm_judge@1.1: invalid output after one re-ask")
    assert err.value.kind == "invalid_output"
    assert len(server.requests) == 2


def test_rubric_out_of_range_raises_and_code_computes_the_rest(server, client):
    valid = {"analysis": "a", "accuracy": 7, "completeness": 4, "clarity": 9, "reason": "r", "suggestion": "s",
             "weighted_score": 10, "is_passing": False}  # the model's own totals are ignored
    server.route = lambda req: valid
    result = rubric_1_10(client, "q?", "a", ["d"])
    assert result.weighted_score == pytest.approx(3.5 + 1.2 + 1.8) and result.is_passing is True
    server.route = lambda req: {**valid, "accuracy": 6}
    assert rubric_1_10(client, "q?", "a", ["d"]).is_passing is False
    server.route = lambda req: {**valid, "accuracy": 11}
    with pytest.raises(LLMError, match="accuracy"):
        rubric_1_10(client, "q?", "a", ["d"])


def test_verification_needs_one_verdict_per_statement(server, client):
    good = {"verdicts": [{"index": 1, "reason": "r", "verdict": 1, "source": 1},
                         {"index": 2, "reason": "r", "verdict": 0, "source": 0}]}
    server.route = sequence({"verdicts": good["verdicts"][:1]}, good)
    verdicts = LLMVerifier(client).verify(["s1", "s2"], ["c1"])
    assert [v.supported for v in verdicts] == [True, False]
    assert "exactly one verdict" in server.requests[1].messages[-1]["content"]

    for bad in ({"verdicts": [good["verdicts"][0], {**good["verdicts"][1], "source": 5}]},  # no passage 5
                {"verdicts": [{**good["verdicts"][0], "source": 0}, good["verdicts"][1]]},  # supported by nothing
                {"verdicts": [good["verdicts"][0], {**good["verdicts"][1], "verdict": 2}]}):
        server.route = lambda req, bad=bad: bad
        with pytest.raises(LLMError, match="statement_verification"):
            LLMVerifier(client).verify(["s1", "s2"], ["c1"])


def test_answer_questions_needs_exactly_n(server, client):
    server.route = lambda req: {"questions": ["only one?"], "noncommittal": 0}
    with pytest.raises(LLMError, match="expected exactly 3 questions, got 1"):
        answer_questions(client, "an answer", n=3)


def test_entity_failure_raises_never_a_default(server, client):
    server.route = lambda req: "抱歉，我无法完成。"
    with pytest.raises(LLMError) as err:
        extract_entities(client, "中小企业税收优惠政策有哪些？", "question")
    assert "generic_query" not in str(err.value)
    assert len(server.requests) == 2

    server.route = lambda req: [{"name": "国家税务总局", "type": "organization"}]  # not in the text
    with pytest.raises(LLMError, match="not found verbatim"):
        extract_entities(client, "中小企业税收优惠政策有哪些？", "question")
    server.route = lambda req: [{"name": "中小企业", "type": "company"}]  # not one of the five types
    with pytest.raises(LLMError, match="type"):
        extract_entities(client, "中小企业税收优惠政策有哪些？", "question")


def test_empty_reply_and_truncation_are_reported(server, client):
    server.route = lambda req: Reply(content='{"reasoning": "long', finish_reason="length")
    with pytest.raises(LLMError, match="cut off at max_tokens=2048"):
        judge_1_5(client, "q?", "a", "a")
    server.route = lambda req: Reply(content="")
    with pytest.raises(LLMError, match="the reply is empty"):
        judge_1_5(client, "q?", "a", "a")


# ---- response_format fallback ------------------------------------------------------------
def test_response_format_rejected_falls_back_to_instructions(server, client):
    server.reject_response_format = True
    server.route = lambda req: f"好的，评分如下：\n```json\n{json.dumps(fake_llm(req), ensure_ascii=False)}\n```\n以上。"
    m = MATERIAL["zh"]
    assert judge_1_5(client, m["question"], m["ground_truth"], m["answer"]) == (5, "matches the ground truth")
    schema_req, object_req, fallback = server.requests
    assert schema_req.response_format_type == "json_schema" and object_req.response_format_type == "json_object"
    assert object_req.body["response_format"]["schema"] == JUDGE_1_5.response_schema()
    assert "response_format" not in fallback.body
    assert FORMAT_INSTRUCTION["zh"].split("{schema}")[0] in fallback.prompt
    assert '"maximum": 5' in fallback.prompt  # the output schema is spelled out
    assert not client.uses_response_format and client.response_format_type is None

    # later calls go straight to instructions, and array outputs come out of the text too
    server.route = lambda req: "Entities: " + json.dumps(fake_llm(req)["items"]) + " (2 found)"
    assert extract_entities(client, MATERIAL["en"]["entity_text"], "context") == MATERIAL["en"]["entities"]
    assert len(server.requests) == 4 and "response_format" not in server.requests[3].body


@pytest.mark.parametrize("status", [400, 422, 500])
def test_json_schema_rejected_uses_json_object_with_the_schema(server, client, status):
    """llama-cpp-python's server takes {"type": "json_object", "schema": ...} (enforced by a
    grammar) and answers the json_schema type with HTTP 500 naming response_format."""
    server.reject_response_format, server.reject_status = "json_schema", status
    assert judge_1_5(client, "q?", "a", "a")[0] == 5
    assert judge_1_5(client, "q2?", "a", "a")[0] == 5
    assert [r.response_format_type for r in server.requests] == ["json_schema", "json_object", "json_object"]
    assert client.uses_response_format and client.response_format_type == "json_object"
    assert client.stats().retries == 0  # a rejection is not a transient 5xx


def test_fallback_reask_keeps_the_instructions(server, client):
    server.reject_response_format = True
    server.route = sequence("no idea", {"reasoning": "ok", "score": 3})
    assert judge_1_5(client, "q?", "a", "b") == (3, "ok")
    _, _, first, second = server.requests
    assert "response_format" not in first.body and "response_format" not in second.body
    assert second.prompt == first.prompt and FORMAT_INSTRUCTION["en"].split("{schema}")[0] in second.prompt
    assert second.messages[-2] == {"role": "assistant", "content": "no idea"}


def test_bad_request_without_response_format_is_an_error(server):
    server.route = lambda req: Reply(status=400, content="context length exceeded")
    with make_client(server) as c, pytest.raises(LLMError, match="HTTP 400 .*context length exceeded"):
        judge_1_5(c, "q?", "a", "b")
    assert len(server.requests) == 3  # json_schema, json_object, then one instructed attempt; no loop
    assert c.uses_response_format  # a fallback that also failed proves nothing about response_format


# ---- transport failures, retries and the secret ---------------------------------------------
def test_http_500_is_retried_then_raises_without_the_key(server, client):
    server.route = lambda req: Reply(status=500, content=f"upstream exploded; auth={req.headers['authorization']}")
    with pytest.raises(LLMError) as err:
        judge_1_5(client, "q?", "a", "b")
    message = str(err.value)
    assert message.startswith("llm_judge@1.1: HTTP 500 from ") and "upstream exploded" in message
    assert "gave up after 6 attempts" in message and err.value.kind == "transport"
    assert SECRET not in message and SECRET not in repr(err.value) and "***" in message
    assert len(server.requests) == 6  # the first try and max_retries=5 retries; never re-asked
    stats = client.stats()
    assert (stats.requests, stats.retries, stats.failures, stats.reasks) == (6, 5, 1, 0)


@pytest.mark.parametrize("status", [500, 502, 503, 504])
def test_5xx_then_success_recovers(server, client, status):
    server.route = script(Reply(status=status, content="busy"), Reply(status=status, content="busy"), fake_llm)
    assert judge_1_5(client, "q?", "a", "a") == (5, "matches the ground truth")
    assert len(server.requests) == 3 and client.stats().retries == 2


def test_429_honours_retry_after(server, client):
    server.route = script(Reply(status=429, content="slow down", headers={"Retry-After": "1"}), fake_llm)
    started = time.monotonic()
    assert judge_1_5(client, "q?", "a", "a")[0] == 5
    assert time.monotonic() - started >= 1.0  # not the 10 ms backoff: the server's 1 s
    assert len(server.requests) == 2


def test_429_retry_after_ms_and_http_date():
    assert retry_after_seconds(httpx.Headers({"retry-after-ms": "250"})) == pytest.approx(0.25)
    assert retry_after_seconds(httpx.Headers({"Retry-After": "3"})) == 3.0
    date = email.utils.formatdate(time.time() + 30, usegmt=True)
    assert 28 <= retry_after_seconds(httpx.Headers({"Retry-After": date})) <= 31
    assert retry_after_seconds(httpx.Headers({"Retry-After": "soon"})) is None
    assert retry_after_seconds(httpx.Headers({})) is None


def test_retry_after_beyond_the_deadline_fails_at_once(server):
    server.route = lambda req: Reply(status=429, content="quota", headers={"Retry-After": "120"})
    started = time.monotonic()
    with make_client(server, deadline=5) as c, pytest.raises(LLMError) as err:
        judge_1_5(c, "q?", "a", "a")
    # Failing at once, not after the server's 120 s Retry-After (half of it leaves a loaded machine room).
    assert time.monotonic() - started < 60
    assert "HTTP 429" in err.value.reason and "deadline of 5s" in err.value.reason and err.value.kind == "deadline"
    assert len(server.requests) == 1


def test_hang_times_out_and_is_retried(server):
    server.route = script(Reply(hang=True), fake_llm)
    with make_client(server, timeout=0.3) as c:
        assert judge_1_5(c, "q?", "a", "a")[0] == 5
        assert c.stats().retries == 1
    assert len(server.requests) == 2


def test_hang_forever_ends_at_the_deadline_with_the_reason(server):
    server.route = lambda req: Reply(hang=True)
    with make_client(server, timeout=0.3, deadline=1.2, max_retries=50) as c, pytest.raises(LLMError) as err:
        judge_1_5(c, "q?", "a", "b")
    # Counted, not timed (a loaded machine only slows each attempt): the deadline stopped the
    # retries long before the 50 allowed; 1.2 s holds four 0.3 s attempts and their waits.
    assert 1 <= len(server.requests) <= 5
    assert "timed out after" in err.value.reason and err.value.kind in ("deadline", "transport")
    assert not re.search(r"score|\b[1-5]\b/5", err.value.reason)


def test_a_slow_drip_reply_cannot_outlast_the_timeout_or_the_deadline():
    # A valid completion, 8 bytes every 0.25 s: no read ever waits 1 s, the whole takes ~7 s.
    content = json.dumps({"reasoning": "a reasoning long enough to drip for a while", "score": 5})
    body = {"choices": [{"message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1}}
    with DripServer(body, chunk=8, interval=0.25) as server:
        assert server.seconds_to_answer > 6
        settings = LLMSettings(base_url=server.base_url + "/v1", model="m", timeout=1, deadline=3, **FAST_RETRIES)
        with LLMClient(settings) as c, pytest.raises(LLMError) as err:
            judge_1_5(c, "q?", "a", "b")
        assert re.search(r"timed out after [0-9.]+s", err.value.reason) and err.value.kind == "deadline"
        assert server.requests == c.stats().requests == 3  # 1 s each, then the deadline: not max_retries + 1


def test_client_errors_are_not_retried(server, client):
    server.route = lambda req: Reply(status=401, content="bad key")
    with pytest.raises(LLMError, match="HTTP 401") as err:
        judge_1_5(client, "q?", "a", "b")
    assert err.value.kind == "http" and len(server.requests) == 1


def test_timeout_raises(server):
    server.route = lambda req: Reply(content='{"reasoning": "late", "score": 3}', delay=1.5)
    with make_client(server, timeout=0.3, max_retries=1) as c, pytest.raises(LLMError, match=r"timed out after 0.3s"):
        judge_1_5(c, "q?", "a", "b")
    assert len(server.requests) == 2


def test_connection_refused_raises():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with LLMClient(LLMSettings(base_url=f"http://127.0.0.1:{port}/v1", model="m", api_key=SECRET,
                               max_retries=2, **FAST_RETRIES)) as c:
        with pytest.raises(LLMError, match="cannot reach") as err:
            judge_1_5(c, "q?", "a", "b")
        assert c.stats().requests == 3
    assert SECRET not in str(err.value)


def test_malformed_envelope_raises(server, client):
    server.route = lambda req: Reply(raw='{"object": "chat.completion", "choices": []}')
    with pytest.raises(LLMError, match="malformed response"):
        judge_1_5(client, "q?", "a", "b")
    server.route = lambda req: Reply(raw="<html>gateway</html>")
    with pytest.raises(LLMError, match="not JSON"):
        judge_1_5(client, "q?", "a", "b")


def test_key_is_not_in_settings_repr(server, client):
    assert SECRET not in repr(client.settings) and SECRET not in str(client.settings.model_dump())
    assert client.settings.api_key.get_secret_value() == SECRET


# ---- concurrency and rate limits -------------------------------------------------------------
def test_concurrency_limit_bounds_requests_in_flight(server):
    lock, state = threading.Lock(), {"now": 0, "peak": 0}

    def route(req):
        with lock:
            state["now"] += 1
            state["peak"] = max(state["peak"], state["now"])
        time.sleep(0.15)
        with lock:
            state["now"] -= 1
        return fake_llm(req)

    server.route = route
    items = [(JUDGE_1_5, JUDGE_1_5.input_model(question=f"q{i}?", ground_truth="a", answer="a"), "en")
             for i in range(8)]
    with make_client(server, concurrency=3) as c:
        started = time.monotonic()
        results = c.run_many(items)
        elapsed = time.monotonic() - started
    assert [r.score for r in results] == [5] * 8
    assert state["peak"] == 3 and elapsed >= 0.15 * 3  # 8 items, 3 at a time: at least three waves


def test_run_many_returns_errors_in_place(server, client):
    server.route = lambda req: fake_llm(req) if "good" in req.prompt else {"reasoning": "x", "score": 9}
    items = [(JUDGE_1_5, JUDGE_1_5.input_model(question=q, ground_truth="a", answer="a"), "en")
             for q in ("good?", "bad?", "good again?")]
    first, second, third = client.run_many(items)
    assert first.score == 5 and third.score == 5
    assert isinstance(second, LLMError) and "less than or equal to 5" in second.reason


def test_requests_per_minute_limit(server, monkeypatch):
    monkeypatch.setattr(LLMClient, "RATE_PERIOD", 0.5)  # a half-second "minute"
    arrivals = []
    server.route = lambda req: arrivals.append(time.monotonic()) or fake_llm(req)
    items = [(JUDGE_1_5, JUDGE_1_5.input_model(question=f"q{i}?", ground_truth="a", answer="a"), "en")
             for i in range(5)]
    with make_client(server, requests_per_minute=2, concurrency=8) as c:
        c.run_many(items)
    assert len(server.requests) == 5
    # a leaky bucket of 2 per 0.5 s: a burst of two, then one every 0.25 s (0.75 s in all;
    # unlimited, the five would arrive together)
    assert arrivals[-1] - arrivals[0] >= 0.6


def test_arun_from_another_event_loop(server, client):
    async def main():
        return await asyncio.gather(*(client.arun(JUDGE_1_5, JUDGE_1_5.input_model(
            question=f"q{i}?", ground_truth="a", answer="a"), "en") for i in range(3)))

    assert [o.score for o in asyncio.run(main())] == [5, 5, 5]


def test_identical_requests_in_flight_are_sent_once(server):
    server.latency = 0.2
    item = (JUDGE_1_5, JUDGE_1_5.input_model(question="same?", ground_truth="a", answer="a"), "en")
    with make_client(server) as c:
        results = c.run_many([item] * 5)
        assert [r.score for r in results] == [5] * 5
        assert (c.stats().cache_misses, c.stats().cache_hits) == (1, 4)
    assert len(server.requests) == 1


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
