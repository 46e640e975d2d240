"""The labelling page (`ragpipe label serve`), served by uvicorn on loopback from report
data written here, driven in headless Chromium: a click writes exactly one label line;
two annotators saving at once lose and tear nothing; a token guards it; bad labels are
refused with the field named and bad label files are listed by `ragpipe label validate`."""

import json
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
import uvicorn

from ragpipe.cli import main
from ragpipe.core.labels.page import PAGE_FILE, make_app
from ragpipe.core.labels.reading import load_labels
from ragpipe_tests.test_report_site import _chromium

DATASET = "demo_en"


def _card(qid: str, answer: str, value: float, qtype: str) -> dict:
    evidence = (f"The grant of {qid} opens in May.", "Shops with <i>two</i> staff qualify.")
    statements = [{"statement": s, "supported": score >= 0.5, "score": score, "evidence": e, "reason": ""}
                  for s, score, e in zip(answer.split(". "), (value, 0.9), evidence)]
    contexts = [{"rank": 1, "id": "c1", "text": f"Grants. {evidence[0]} Apply online.", "gold": True, "supports": 1},
                {"rank": 2, "id": "c2", "text": f"Eligibility: {evidence[1]}", "gold": False, "supports": 0}]
    return {"question_id": qid, "question": f"Question {qid}?", "question_type": qtype, "answer": answer,
            "ground_truth_answer": "Reference.", "contexts": contexts, "scores": {"faithfulness": {
                "value": value, "error": None,
                "details": {"statements": statements, "hallucinated": value < 0.8, "hallucination_threshold": 0.8}}}}


@pytest.fixture
def project(tmp_path):
    reports, dataset_dir = tmp_path / "reports", tmp_path / "data" / "datasets" / DATASET
    for bot, values in {"refbot@v1": (0.95, 0.81, 0.2), "refbot@v2": (0.9, 0.3, 0.25)}.items():
        cards = [_card(f"q{i}", f"Answer {i} of {bot}. It has <b>two</b> statements", v, t)
                 for i, (v, t) in enumerate(zip(values, ("FACTUAL", "FACTUAL", "INFERENTIAL")))]
        folder = reports / DATASET / bot
        folder.mkdir(parents=True)
        (folder / "diagnosis.json").write_text(json.dumps({"cards": cards}), encoding="utf-8")
    dataset_dir.mkdir(parents=True)
    return reports, dataset_dir


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def serve():
    servers = []

    def start(app) -> str:
        port = _free_port()
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        deadline = time.monotonic() + 30
        while not server.started:
            assert time.monotonic() < deadline, "the page did not start"
            time.sleep(0.05)
        servers.append((server, thread))
        return f"http://127.0.0.1:{port}/"

    yield start
    for server, thread in servers:
        server.should_exit = True
        thread.join(10)


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=_chromium(), args=["--no-sandbox", "--disable-gpu"])
        yield browser
        browser.close()


def _lines(dataset_dir) -> list[dict]:
    path = dataset_dir / "labels" / PAGE_FILE
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()] if path.exists() else []


def test_one_click_writes_exactly_one_label_line(project, serve, browser):
    reports, dataset_dir = project
    url = serve(make_app(reports, dataset_dir))
    page = browser.new_page()
    page.goto(url)
    # markup in an answer is shown as text; the suggestions put the disputed, uncertain answer first
    assert page.locator("#refbot\\@v1-q1 .answer").inner_text().endswith("<b>two</b> statements")
    assert page.locator("#next li a").first.inner_text() == "refbot@v1 · q1"
    page.fill("#annotator", "ann")
    page.dispatch_event("#annotator", "change")
    page.click("#refbot\\@v2-q1 button[data-judged=hallucinated][data-value=true]")
    page.wait_for_selector("#refbot\\@v2-q1 button.saved")
    assert [{k: r[k] for k in ("question_id", "bot_version", "judged", "value", "annotator")}
            for r in _lines(dataset_dir)] == [
        {"question_id": "q1", "bot_version": "refbot@v2", "judged": "hallucinated", "value": "true", "annotator": "ann"}]
    page.click("#refbot\\@v1-q2 li:nth-child(2) button[data-value=false]")  # the second statement: not supported
    page.wait_for_selector("#refbot\\@v1-q2 li:nth-child(2) button.saved")
    lines = _lines(dataset_dir)
    assert len(lines) == 2 and lines[1]["judged"] == "supported" and lines[1]["statement"] == 1
    labels, problems = load_labels(dataset_dir)
    assert not problems and labels["value"].tolist() == [1.0, 0.0]
    page.close()


def test_the_page_shows_the_contexts_and_hides_the_verdict_until_answered(project, serve, browser):
    """The question "supported by the contexts?" comes with the contexts, each statement
    links to the sentence closest to it (highlighted when followed), and the verifier's
    probability shows only once the person has labelled the statement."""
    reports, dataset_dir = project
    page = browser.new_page()
    page.goto(serve(make_app(reports, dataset_dir)))
    card = "#refbot\\@v1-q2"
    contexts = page.locator(f"{card} .context")
    assert contexts.count() == 2 and "Apply online." in contexts.first.inner_text()
    assert page.locator(f"{card} .context i").count() == 0  # context markup is shown as text
    second = page.locator(f"{card} li:nth-child(2)")
    second.locator("a.evidence").click()
    target = page.evaluate("[document.querySelector(':target').textContent, getComputedStyle("
                           "document.querySelector(':target')).backgroundColor]")
    assert target[0] == "Shops with <i>two</i> staff qualify." and target[1] != "rgba(0, 0, 0, 0)"
    assert "verifier" not in page.locator(card).inner_text()  # neither the probability nor the suggestions' value
    assert "faithfulness 0." not in page.locator("#next").inner_text()
    page.fill("#annotator", "ann")
    second.locator("button[data-value=true]").click()
    page.wait_for_selector(f"{card} li:nth-child(2) button.saved")
    assert second.locator(".verdict").inner_text() == "(verifier 0.90)"  # answered: now shown
    assert "verifier" not in page.locator(f"{card} li:nth-child(1)").inner_text()
    page.close()


def test_a_token_guards_the_page_and_the_browser_sends_it(project, serve, browser):
    reports, dataset_dir = project
    url = serve(make_app(reports, dataset_dir, token="s3cret"))
    assert httpx.get(url).status_code == 401
    assert httpx.post(url + "api/labels", json={}).status_code == 401
    page = browser.new_page()
    page.goto(url + "?token=s3cret")
    page.fill("#annotator", "ann")
    page.click("#refbot\\@v1-q0 button[data-judged=rating][data-value='4']")
    page.wait_for_selector("#refbot\\@v1-q0 button.saved")
    assert [r["value"] for r in _lines(dataset_dir)] == ["4"]
    page.close()


def test_two_annotators_at_once_lose_and_tear_nothing_and_bad_labels_are_refused(project, serve):
    reports, dataset_dir = project
    url = serve(make_app(reports, dataset_dir)) + "api/labels"

    def post(i: int) -> int:
        body = {"question_id": f"q{i % 3}", "bot_version": "refbot@v1", "judged": "rating", "value": 1 + i % 5,
                "annotator": ("ann", "bob")[i % 2], "note": "x" * 3000}  # long lines: a torn write would show
        return httpx.post(url, json=body, timeout=30).status_code

    with ThreadPoolExecutor(8) as pool:
        assert list(pool.map(post, range(80))) == [200] * 80
    lines = _lines(dataset_dir)
    assert len(lines) == 80 and {r["annotator"] for r in lines} == {"ann", "bob"}
    bad = httpx.post(url, json={"question_id": "q0", "bot_version": "refbot@v1", "judged": "rating", "value": 9,
                                "annotator": "ann"})
    assert bad.status_code == 422 and bad.json()["errors"][0]["field"] == "value"
    assert "1 to 5" in bad.json()["errors"][0]["message"]
    unknown = httpx.post(url, json={"question_id": "q9", "bot_version": "refbot@v1", "judged": "rating", "value": 2,
                                    "annotator": "ann"})
    assert unknown.status_code == 422 and "q9" in unknown.json()["errors"][0]["message"]
    assert len(_lines(dataset_dir)) == 80


def test_foreign_hosts_and_writes_from_other_sites_are_refused(project, serve):
    reports, dataset_dir = project
    url = serve(make_app(reports, dataset_dir))
    label = {"question_id": "q0", "bot_version": "refbot@v1", "judged": "rating", "value": 4, "annotator": "ann"}
    # a DNS-rebinding page reaches loopback under its own name: no page, no data
    for path in ("", "api/next"):
        assert httpx.get(url + path, headers={"Host": "attacker.example:8767"}).status_code == 400
    # what a page of another site may send without asking first: text/plain, with its Origin or none
    plain = {"Content-Type": "text/plain"}
    assert httpx.post(url + "api/labels", content=json.dumps(label), headers=plain).status_code == 415
    assert httpx.post(url + "api/labels", content=json.dumps(label),
                      headers={**plain, "Origin": "http://attacker.example"}).status_code == 403
    assert httpx.post(url + "api/labels", json=label, headers={"Origin": "http://attacker.example"}).status_code == 403
    assert not _lines(dataset_dir)
    assert httpx.post(url + "api/labels", json=label, headers={"Origin": url.rstrip("/")}).status_code == 200
    assert len(_lines(dataset_dir)) == 1


def test_only_what_was_evaluated_is_labelled_and_parameters_are_bounded(project, serve):
    reports, dataset_dir = project
    url = serve(make_app(reports, dataset_dir))
    label = {"question_id": "q0", "bot_version": "refbot@v1", "judged": "supported", "value": "yes",
             "statement": 1, "annotator": "ann"}
    for change, field in (({"bot_version": "ghost@v9"}, "bot_version"), ({"statement": 10**30}, "statement"),
                          ({"statement": 2}, "statement"), ({"question_id": "q9"}, "question_id")):
        reply = httpx.post(url + "api/labels", json={**label, **change})
        assert reply.status_code == 422 and reply.json()["errors"][0]["field"] == field, reply.text
    assert httpx.post(url + "api/labels", json=label).status_code == 200  # the card's second statement
    assert [line["statement"] for line in _lines(dataset_dir)] == [1]
    for k in ("abc", "1e9", "1000000000", "0", "-1"):
        reply = httpx.get(url + f"api/next?k={k}")
        assert reply.status_code == 400 and reply.json()["errors"][0]["field"] == "k", reply.text
    assert len(httpx.get(url + "api/next?k=2").json()) == 2
    # a 200 MB body is refused by its Content-Length before a byte of it is read
    with socket.create_connection((httpx.URL(url).host, httpx.URL(url).port), timeout=30) as sock:
        sock.sendall(b"POST /api/labels HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 200000000\r\n\r\n")
        assert sock.recv(65536).startswith(b"HTTP/1.1 413")


def test_validate_lists_every_bad_row_with_file_line_and_field(tmp_path, capsys, monkeypatch):
    folder = tmp_path / "data" / "datasets" / DATASET / "labels"
    folder.mkdir(parents=True)
    (folder / "people.csv").write_text("question_id,bot_version,judged,value,annotator\n"
                                       "q1,refbot@v1,hallucinated,yes,ann\nq1,refbot@v1,rating,0,ann\n", encoding="utf-8")
    (folder / "page.jsonl").write_text('{"question_id": "q1", "bot_version": "refbot@v1", "judged": "rat', encoding="utf-8")
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dh"))
    for name in ("RAGPIPE_DATA_DIR", "RAGPIPE_OUTPUT_DIR"):
        monkeypatch.delenv(name, raising=False)
    assert main(["label", "validate", "--dataset", DATASET, "--project-dir", str(tmp_path)]) == 1
    out = capsys.readouterr()
    assert f"{folder / 'people.csv'}:3: field 'value'" in out.err and "from 1 to 5" in out.err
    assert f"{folder / 'page.jsonl'}:1: field 'json'" in out.err
    assert "1 valid labels, 2 problem(s)" in out.out


def test_bound_beyond_loopback_the_page_makes_and_requires_a_token(tmp_path, capsys, monkeypatch):
    import uvicorn
    from starlette.testclient import TestClient

    served = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, host, port, **_: served.update(app=app, host=host))
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dh"))
    monkeypatch.delenv("RAGPIPE_LABEL_TOKEN", raising=False)
    for name in ("RAGPIPE_DATA_DIR", "RAGPIPE_OUTPUT_DIR"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "data" / "datasets" / DATASET).mkdir(parents=True)
    assert main(["label", "serve", "--dataset", DATASET, "--host", "0.0.0.0", "--project-dir", str(tmp_path)]) == 0
    token = capsys.readouterr().out.split("?token=")[1].split()[0]
    client = TestClient(served["app"], base_url="http://127.0.0.1:8767")
    assert served["host"] == "0.0.0.0" and len(token) >= 20
    assert client.get("/").status_code == 401 and client.get(f"/?token={token}").status_code == 200
    # the printed URL's host is allowed, another name only with --allow-host
    assert TestClient(served["app"], base_url="http://0.0.0.0:8767").get(f"/?token={token}").status_code == 200
    assert client.get(f"/?token={token}", headers={"Host": "labels.example"}).status_code == 400
    assert main(["label", "serve", "--dataset", DATASET, "--host", "0.0.0.0", "--allow-host", "labels.example",
                 "--project-dir", str(tmp_path)]) == 0
    token = capsys.readouterr().out.split("?token=")[1].split()[0]
    assert TestClient(served["app"], base_url="http://labels.example").get(f"/?token={token}").status_code == 200
    # on loopback no token is asked for
    assert main(["label", "serve", "--dataset", DATASET, "--project-dir", str(tmp_path)]) == 0
    assert "token" not in capsys.readouterr().out and TestClient(served["app"], base_url="http://localhost:8767").get("/").status_code == 200
    # a token that was given is required and never printed
    monkeypatch.setenv("RAGPIPE_LABEL_TOKEN", "given-label-token-0123")
    assert main(["label", "serve", "--dataset", DATASET, "--host", "0.0.0.0", "--project-dir", str(tmp_path)]) == 0
    assert "given-label-token" not in capsys.readouterr().out
    assert TestClient(served["app"], base_url="http://127.0.0.1:8767").get("/?token=given-label-token-0123").status_code == 200
