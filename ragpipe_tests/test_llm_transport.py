"""The client's transport against a real loopback OpenAI-compatible server: HTTP failures
and retries (429 with Retry-After, 5xx, hangs, slow drips, the deadline), the API key, and
the concurrency and rate limits."""

from __future__ import annotations

import asyncio
import email.utils
import json
import re
import socket
import threading
import time

import httpx
import pytest

from ragpipe.core.llm import LLMClient, LLMError, LLMSettings
from ragpipe.core.judged import judge_1_5
from ragpipe.core.judged.prompts.judge import JUDGE_1_5
from ragpipe.core.transport import retry_after_seconds
from ragpipe_tests.drip_server import DripServer
from ragpipe.testing.fake_judge import fake_llm
from ragpipe_tests.llm_helpers import FAST_RETRIES, SECRET, client, make_client, server
from ragpipe.testing.openai_server import Reply, script

# server, client: pytest fixtures, used by name


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
