"""The Dagster UI on a small evaluated project (a trimmed copy of the sample English dataset,
both reference bot versions, run through `ragpipe eval`): `dagster dev`, the command
`ragpipe run` prints, on loopback, driven in headless Chromium through the lineage, an
evaluation's materialization, the leaderboard and the checks. It asserts text, and keeps a
screenshot of each page in $RAGPIPE_SHOT_DIR (default /tmp/shots): dagster_ui_lineage.png,
dagster_ui_corpus.png, dagster_ui_evaluation.png, dagster_ui_diagnosis_markdown.png,
dagster_ui_leaderboard.png, dagster_ui_checks.png."""

import contextlib
import io
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest

from ragpipe.cli import main
from ragpipe_tests.conftest import REPO, one_dataset_project
from ragpipe_tests.test_report_site import _chromium

DATASET, BOTS = "product_en", ["refbot@v1", "refbot@v2"]
KEEP_QUESTIONS = 6
SHOTS = Path(os.environ.get("RAGPIPE_SHOT_DIR", "/tmp/shots"))
FLOW = ["corpus", "questions", "answers", "scores", "aggregates", "diagnosis"]
WAIT_MS = 120_000  # the first page waits for the code location to load on a busy machine


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory, embedding_cache):
    root = tmp_path_factory.mktemp("ui-project")
    one_dataset_project(root, DATASET, KEEP_QUESTIONS)
    env = {"RAGPIPE_CACHE_DIR": str(embedding_cache), "DAGSTER_HOME": str(root / "dagster_home"),
           "RAGPIPE_PROJECT_DIR": str(root)}
    with pytest.MonkeyPatch.context() as mp:
        for name, value in env.items():
            mp.setenv(name, value)
        for name in ("RAGPIPE_DATA_DIR", "RAGPIPE_OUTPUT_DIR", "DAGSTER_PG_HOST", "RAGPIPE_REPORT_URL"):
            mp.delenv(name, raising=False)
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            for bot in BOTS:
                main(["eval", "--dataset", DATASET, "--bot", bot, "--project-dir", str(root)])
    return root, env


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def webserver(evaluated, tmp_path_factory):
    """`dagster dev` (the webserver and the daemon) on the project's instance; stopped (its
    whole process group) after."""
    root, env = evaluated
    port = _free_port()
    log = tmp_path_factory.mktemp("webserver") / "webserver.log"
    full_env = {k: v for k, v in os.environ.items()
                if k not in ("RAGPIPE_DATA_DIR", "RAGPIPE_OUTPUT_DIR", "DAGSTER_PG_HOST", "RAGPIPE_REPORT_URL")}
    full_env.update(env, PYTHONPATH=str(REPO))
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [str(Path(sys.executable).parent / "dagster"), "dev", "-w", str(REPO / "workspace.yaml"),
             "-h", "127.0.0.1", "-p", str(port)],
            cwd=REPO, env=full_env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 180
        while True:
            assert process.poll() is None, log.read_text(errors="replace")[-3000:]
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{base}/server_info", timeout=5).status_code == 200:
                    break
            assert time.time() < deadline, log.read_text(errors="replace")[-3000:]
            time.sleep(1)
        yield base, root
    finally:
        os.killpg(process.pid, signal.SIGTERM)  # the webserver, the daemon and their code servers
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=_chromium(), args=[
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    page = browser.new_page(viewport={"width": 1600, "height": 1000})
    page.set_default_timeout(WAIT_MS)
    # The UI greets a new browser with a newsletter dialog over the page, a second after it loads,
    # unless this browser dismissed it before (Dagster's CommunityNux keeps that in localStorage).
    page.add_init_script("window.localStorage.setItem('communityNux', JSON.stringify('1'))")
    yield page
    page.close()


def _shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"dagster_ui_{name}.png"), full_page=True)


def _partition(bot: str) -> str:
    return quote(f"{bot}|{DATASET}", safe="")


def test_lineage_reads_as_the_flow_with_the_score_assets_collapsed(webserver, page):
    base, _ = webserver
    page.goto(f"{base}/asset-groups")
    nodes = {}
    for group in FLOW:  # each group one collapsed node, left to right in the order of the flow
        node = page.get_by_text(group, exact=True).last  # the graph's node; the sidebar's comes first
        node.wait_for()
        nodes[group] = node.bounding_box()
    _shot(page, "lineage")
    xs = [nodes[g]["x"] for g in FLOW]
    assert xs[:4] == sorted(xs[:4]) and min(xs[4:]) > xs[3], nodes  # aggregates and diagnosis both follow scores
    assert not page.get_by_text("context_precision", exact=True).count()  # no score asset's own box


def test_descriptions_show_their_placeholders(webserver, page):
    base, _ = webserver
    page.goto(f"{base}/assets/corpus")
    page.get_by_text("The documents of one dataset").first.wait_for()
    _shot(page, "corpus")
    assert "(data/datasets/<dataset>/docs/)" in page.inner_text("body")


def test_an_evaluation_shows_its_summary_tables_and_page(webserver, page):
    base, root = webserver
    page.goto(f"{base}/assets/diagnosis_report?view=events&partition={_partition('refbot@v2')}")
    table = page.locator("table").filter(has_text="pass_rate").last  # inside the table of all metadata
    table.wait_for()
    data = json.loads((root / ".ragpipe" / "reports" / DATASET / "refbot@v2" / "diagnosis.json").read_text("utf-8"))
    faithfulness = next(r for r in data["aggregates"] if r["metric"] == "faithfulness")
    row = table.locator("tr").filter(has=page.locator("td").get_by_text("faithfulness", exact=True)).inner_text()
    assert f"{faithfulness['mean']:.3f}".rstrip("0").rstrip(".") in row.split()
    body = page.inner_text("body")
    assert not re.search(r"\d\.\d{4,}", table.inner_text()), "scores are rounded to 3 digits"
    assert f"/{DATASET}/refbot@v2/diagnosis.html" in body and "page_url" in body
    _shot(page, "evaluation")
    page.get_by_text("[Show Markdown]").first.click()
    dialog = page.get_by_role("dialog").filter(has_text=f"refbot@v2 on {DATASET}")
    dialog.get_by_text(f"refbot@v2 on {DATASET}").wait_for()
    text = dialog.inner_text()
    assert ("Root causes" in text) == bool(data["diagnosis"]["findings"]) and "baseline refbot@v1" in text
    _shot(page, "diagnosis_markdown")


def test_the_leaderboard_is_a_table(webserver, page):
    base, _ = webserver
    page.goto(f"{base}/assets/leaderboard?view=events")
    table = page.locator("table").filter(has_text="bot_version").last
    table.wait_for()
    ranks = [row.inner_text().split()[:2] for row in table.locator("tr").all()[1:]]
    assert sorted(r[1] for r in ranks) == BOTS and [r[0] for r in ranks] == ["1", "2"]
    assert not re.search(r"\d\.\d{4,}", table.inner_text())
    _shot(page, "leaderboard")


def test_checks_say_what_failed_and_by_how_much(webserver, page):
    base, root = webserver
    data = json.loads((root / ".ragpipe" / "reports" / DATASET / "refbot@v2" / "diagnosis.json").read_text("utf-8"))
    page.goto(f"{base}/assets/aggregate_scores?view=checks")
    failed = next(c for c in data["checks"] if c["metric"] and not c["passed"])
    page.get_by_text(failed["name"], exact=True).first.click()
    page.get_by_text(re.compile(rf"^{failed['metric']} mean \d\.\d{{3}} is (below|above) the "
                                rf"{failed['severity']} threshold \d\.\d{{3}} by \d\.\d{{3}}$")).wait_for()
    page.get_by_text("no_regression_vs_baseline", exact=True).first.click()
    regression = next(c for c in data["checks"] if c["name"] == "no_regression_vs_baseline")
    expected = (f"significantly worse than refbot@v1: {regression['drops'][0]} " if regression["drops"]
                else "no gate metric significantly worse than refbot@v1 (")
    page.get_by_text(expected).first.wait_for()
    assert "Partition" in page.inner_text("body") and f"refbot@v2|{DATASET}" in page.inner_text("body")
    _shot(page, "checks")
