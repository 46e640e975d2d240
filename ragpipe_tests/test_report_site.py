"""The report site built from a small real evaluation (a trimmed copy of the sample English
dataset, both reference bot versions, run through `ragpipe eval`), opened in headless
Chromium: charts drawn, cards present, filters working, planted markup inert."""

import contextlib
import io
import json
import os
import re
import shutil
from pathlib import Path
from types import SimpleNamespace

import dagster as dg
import pytest

from ragpipe.cli import main
from ragpipe.cli.report import make_app
from ragpipe.core.metrics import REGISTRY
from ragpipe.core.report import build_site, script_json, write_evaluation
from ragpipe.core.report.render import load_evaluation
from ragpipe.defs.runner import EXIT_BLOCKED
from ragpipe_tests.conftest import one_dataset_project

DATASET, BOTS = "product_en", ["refbot@v1", "refbot@v2"]
KEEP_QUESTIONS = 6
# Markup a bot could return: each piece would set window.__pwned if the page ran it.
PAYLOAD = ('<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">'
           '</script><!-- <script>window.__pwned = 3</script> \u2028 <b>bold</b>')
PLANTED_DOC = ("# Planted Widget Grant\n\nThe Planted Widget Grant pays 500 dollars to each widget shop "
               f"{PAYLOAD} in the harbour.\n")
PLANTED_QUESTION = {"id": "en-planted", "question": "How much does the Planted Widget Grant pay each widget shop?",
                    "ground_truth_answer": "The Planted Widget Grant pays 500 dollars to each widget shop.",
                    "question_type": "FACTUAL"}
SHOTS = Path(os.environ.get("RAGPIPE_SHOT_DIR", "/tmp/shots"))


def _chromium() -> str:
    path = os.environ.get("RAGPIPE_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        pytest.fail("no chromium on PATH: scripts/setup.sh installs Debian's chromium package")
    return path


@pytest.fixture(scope="module")
def site(tmp_path_factory, embedding_cache):
    root = tmp_path_factory.mktemp("site-project")
    lines = one_dataset_project(root, DATASET, KEEP_QUESTIONS)
    questions = root / "data" / "datasets" / DATASET / "questions" / "questions.jsonl"
    questions.write_text("\n".join(lines + [json.dumps(PLANTED_QUESTION)]) + "\n", encoding="utf-8")
    (root / "data" / "datasets" / DATASET / "docs" / "zz_planted.md").write_text(PLANTED_DOC, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RAGPIPE_CACHE_DIR", str(embedding_cache))
        mp.setenv("DAGSTER_HOME", str(root / "dagster_home"))
        for name in ("RAGPIPE_DATA_DIR", "RAGPIPE_OUTPUT_DIR", "DAGSTER_PG_HOST", "RAGPIPE_REPORT_URL"):
            mp.delenv(name, raising=False)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            codes = [main(["eval", "--dataset", DATASET, "--bot", bot, "--project-dir", str(root),
                           "--fail-on", "regression"]) for bot in BOTS]
        with dg.DagsterInstance.get() as instance:
            metadata = {}
            for key in (["rag_responses"], ["scores", "faithfulness"], ["aggregate_scores"], ["diagnosis_report"],
                        ["leaderboard"], ["corpus"], ["question_set"]):
                event = instance.get_latest_materialization_event(dg.AssetKey(key))
                metadata["/".join(key)] = event.asset_materialization.metadata
    reports = root / ".ragpipe" / "reports"
    return SimpleNamespace(root=root, reports=reports, codes=codes, stdout=out.getvalue(), stderr=err.getvalue(),
                           metadata=metadata,
                           data={bot: load_evaluation(reports / DATASET / bot / "diagnosis.json")
                                 for bot in BOTS})


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=_chromium(), args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    page.close()
    assert not errors, errors  # no script error on any page


def _open(page, path: Path):
    page.goto(path.as_uri())
    return page


def _shot(page, name: str, **options) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), **options)


def _box(locator) -> dict:
    box = locator.bounding_box()
    assert box and box["width"] > 0 and box["height"] > 0
    return box


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("llm", [False, True], ids=["offline", "llm"])
def test_every_radar_label_is_drawn_inside_the_chart(page, lang, llm):
    from ragpipe.core.report import charts

    # The labels the evaluation page gives for the metrics measured offline, or in LLM mode.
    axes = [{"label": m.name + ("" if m.higher_is_better else " ↓"), "value": 0.5, "text": "0.500"}
            for m in REGISTRY.values() if llm or not m.llm_only]
    css = (Path(charts.__file__).parent / "templates" / "site.css").read_text(encoding="utf-8")
    page.set_content(f"<html lang='{lang}'><head><style>{css}</style></head><body>{charts.radar(axes)}</body></html>")
    width, height = (float(v) for v in page.locator("svg.radar").get_attribute("viewBox").split()[2:])
    boxes = page.eval_on_selector_all("svg.radar text", "ts => ts.map(t => { const b = t.getBBox(); "
                                                         "return [t.textContent, b.x, b.y, b.x + b.width, b.y + b.height]; })")
    assert len(boxes) == len(axes)
    outside = [b for b in boxes if b[1] < 0 or b[2] < 0 or b[3] > width or b[4] > height]
    assert not outside, outside  # it cut "unverified_entity_ratio ↓" to "nverified_entity_ratio ↓"


def test_eval_cli_shows_progress_and_a_summary_table(site):
    # v2 exits 1 exactly when it fails the blocking regression check against v1, and says so.
    regression = next(c for c in site.data["refbot@v2"]["checks"] if c["name"] == "no_regression_vs_baseline")
    assert site.codes == [0, 0 if regression["passed"] else EXIT_BLOCKED], site.stderr
    # stderr is no terminal here: progress is whole lines (no carriage returns), answering,
    # then every metric, each line counting its own step's questions, each step to its end.
    steps = 1 + len(REGISTRY)
    states = re.findall(r"^(rag_responses|scores/\w+): (\d+)/(\d+) \(step (\d+) of (\d+)\)$", site.stderr, re.M)
    assert "\r" not in site.stderr and states[0][0] == "rag_responses"
    assert {int(s[2]) for s in states} == {KEEP_QUESTIONS + 1} and {int(s[4]) for s in states} == {steps}
    assert len({s[0] for s in states if s[1] == s[2]}) == steps and states[-1][3] == str(steps)
    assert ("ok     evaluate_bot_version [refbot@v2|product_en]" if regression["passed"] else
            "FAILED evaluate_bot_version [refbot@v2|product_en]\n       blocked by no_regression_vs_baseline: "
            f"significantly worse than refbot@v1: {regression['drops'][0]} ") in site.stderr  # then by how much
    summary = site.stdout.split("refbot@v2 on product_en:")[1]
    assert re.search(r"metric\s+mean\s+CI95\s+n\s+unmeasured\s+pass rate\s+check", summary)
    faithfulness = next(r for r in site.data["refbot@v2"]["aggregates"] if r["metric"] == "faithfulness")
    assert re.search(rf"faithfulness\s+{faithfulness['mean']:.3f}\s+\[", summary)
    assert str(site.reports / DATASET / "refbot@v2" / "diagnosis.html") in summary


def test_every_asset_links_its_page_in_the_dagster_ui(site):
    for asset, meta in site.metadata.items():
        text = meta.get("summary") or meta.get("report") or meta.get("leaderboard")
        assert isinstance(text, dg.MarkdownMetadataValue) and "|" in text.value, asset
        link = meta.get("page") or meta.get("site")
        assert Path(link.value).is_file(), asset
    assert site.metadata["scores/faithfulness"]["page_url"].value.endswith(
        "/product_en/refbot@v2/diagnosis.html#metric=faithfulness")
    assert isinstance(site.metadata["aggregate_scores"]["scores"], dg.TableMetadataValue)
    assert "refbot@v2 on product_en" in site.metadata["diagnosis_report"]["report"].value
    assert site.metadata["leaderboard"]["page"].value.endswith("product_en/compare.html")


def test_list_page_shows_each_evaluation_with_status_scores_and_checks(site, page):
    _open(page, site.reports / "index.html")
    rows = page.locator("tr.evaluation")
    assert rows.count() == 2
    for i, bot in enumerate(BOTS):
        row, data = rows.nth(i), site.data[bot]
        assert row.locator("td").nth(1).inner_text() == bot
        assert row.get_attribute("data-status") == data["status"]
        assert row.locator(".score").count() >= 3
        passed = sum(c["passed"] for c in data["checks"])
        assert f"{passed}/{len(data['checks'])}" in row.locator("td").nth(5).inner_text()
    _shot(page, "list", full_page=True)
    rows.nth(1).locator("a").click()
    assert page.locator("h1").inner_text().startswith("refbot@v2")


def test_detail_page_draws_charts_and_a_card_per_question(site, page):
    data = site.data["refbot@v2"]
    _open(page, site.reports / DATASET / "refbot@v2" / "diagnosis.html")
    radar = page.locator("svg.radar")
    _box(radar)
    measured = [r for r in data["aggregates"] if r["n"]]
    assert radar.locator("polygon.series").count() == 1
    assert radar.locator("circle").count() >= len(measured)  # a point per metric, plus threshold rings
    histograms = page.locator("svg.histogram")
    assert histograms.count() == len(measured)
    _box(histograms.first)
    assert page.locator("svg.cibar").count() == len(measured)
    forest = page.locator("svg.forest")  # v2 against its baseline v1
    _box(forest)
    assert forest.locator("circle").count() == sum(1 for c in data["comparison"].values() if c["n_pairs"]) > 0
    cards = page.locator("article.card")
    assert cards.count() == len(data["cards"]) == KEEP_QUESTIONS + 1
    first = next(c for c in data["cards"] if any(ctx["gold"] for ctx in c["contexts"]))
    card = page.locator(f"#q-{first['question_id']}")
    assert first["question"] in card.inner_text()
    assert card.locator("li.context").count() == len(first["contexts"])
    assert card.locator("li.context.gold").count() == sum(c["gold"] for c in first["contexts"]) > 0
    assert card.locator("details.statements[open] li").count() == len(
        first["scores"]["faithfulness"]["details"]["statements"])
    assert card.locator("table.metric-rows tr").count() == len(first["scores"])
    _shot(page, "detail")
    _shot(page, "detail_full", full_page=True)


def test_filters_change_which_cards_are_shown(site, page):
    data = site.data["refbot@v2"]
    _open(page, site.reports / DATASET / "refbot@v2" / "diagnosis.html")
    visible = lambda: page.locator("article.card:visible").count()  # noqa: E731
    assert visible() == len(data["cards"])
    values = {c["question_id"]: c["scores"]["semantic_similarity"]["value"] for c in data["cards"]}
    measured = [v for v in values.values() if v is not None]
    cut = round((min(measured) + max(measured)) / 2, 3)
    page.select_option("#f-metric", "semantic_similarity")
    page.fill("#f-max", str(cut))
    expected = {q for q, v in values.items() if v is not None and v <= cut}
    assert 0 < len(expected) < len(data["cards"])
    assert {page.locator("article.card:visible").nth(i).get_attribute("data-qid") for i in range(visible())} == expected
    assert page.locator("#f-shown").inner_text() == str(len(expected))
    assert f"#metric=semantic_similarity&min=0&max={cut}" in page.url

    page.click("#f-reset")
    assert visible() == len(data["cards"])
    page.fill("#f-text", "planted widget")
    assert visible() == 1

    page.click("#f-reset")
    bar = page.locator("rect.bin[data-metric='context_recall']").last
    bar.click()
    low, high = float(bar.get_attribute("data-lo")), float(bar.get_attribute("data-hi"))
    in_bin = [c for c in data["cards"] if c["scores"]["context_recall"]["value"] is not None
              and low <= c["scores"]["context_recall"]["value"] <= high]
    assert page.input_value("#f-metric") == "context_recall" and visible() == len(in_bin)

    # A link from the Dagster UI opens the page filtered.
    _open(page, site.reports / DATASET / "refbot@v2" / "diagnosis.html")
    page.goto(page.url + f"#metric=semantic_similarity&max={cut}")
    page.reload()
    assert visible() == len(expected)


def test_planted_markup_in_an_answer_renders_as_text(site, page):
    card = next(c for c in site.data["refbot@v2"]["cards"] if c["question_id"] == "en-planted")
    assert "<script>window.__pwned = 1</script>" in card["answer"]  # the bot really quoted the markup
    _open(page, site.reports / DATASET / "refbot@v2" / "diagnosis.html")
    assert page.evaluate("typeof window.__pwned") == "undefined"
    answer = page.locator("#q-en-planted p.answer")
    assert "<script>window.__pwned = 1</script>" in answer.inner_text()
    assert answer.locator("script, img, b").count() == 0
    assert page.locator("script").count() == 2  # the page's data block and its own code, nothing planted
    _open(page, site.reports / "index.html")
    assert page.evaluate("typeof window.__pwned") == "undefined"


def test_comparison_page_shows_trends_and_paired_differences(site, page):
    comparison = json.loads((site.reports / DATASET / "comparison.json").read_text(encoding="utf-8"))
    _open(page, site.reports / DATASET / "compare.html")
    measured = {m for v in comparison["versions"] for m, a in v["aggregates"].items() if a["n"]}
    trends = page.locator("svg.trend")
    assert trends.count() == len(measured)
    _box(trends.first)
    assert trends.first.locator("circle").count() == len(BOTS)
    v2 = next(v for v in comparison["versions"] if v["bot_version"] == "refbot@v2")
    assert v2["baseline"] == "refbot@v1" and v2["paired"]["context_recall"]["n_pairs"] == KEEP_QUESTIONS + 1
    forest = page.locator("svg.forest")
    assert forest.count() == 1
    _box(forest)
    assert forest.locator("circle").count() == sum(1 for c in v2["paired"].values() if c["n_pairs"])
    assert page.locator("table.versions thead th").count() == 1 + len(BOTS)
    # A version failing the blocking check is flagged and ranked after the versions that pass.
    blocked = [v["bot_version"] for v in comparison["versions"] if v["failed_checks"]]
    assert page.locator("table.versions thead .badge.failed").count() == len(blocked)
    assert all(v["rank"] > len(BOTS) - len(blocked) for v in comparison["versions"] if v["bot_version"] in blocked)
    assert page.locator("table.versions tr.metric").count() == len(measured)
    _shot(page, "compare", full_page=True)


def test_report_serve_serves_the_site_on_loopback_to_loopback_names_only(site):
    from starlette.testclient import TestClient

    client = TestClient(make_app(site.reports), base_url="http://127.0.0.1:8765")
    index = client.get("/index.html")
    assert index.status_code == 200 and "refbot@v2" in index.text
    assert client.get("/").text == index.text
    assert client.get(f"/{DATASET}/refbot%40v2/diagnosis.html").status_code == 200
    # a DNS-rebinding page reaches loopback under its own name: no report for it
    assert client.get("/index.html", headers={"Host": "attacker.example:8765"}).status_code == 400
    assert client.get("/index.html", headers={"Host": "[::1]:8765"}).status_code == 200
    assert client.get("/index.html", headers={"Host": "localhost"}).status_code == 200
    named = TestClient(make_app(site.reports, ("reports.example",)), base_url="http://reports.example")
    assert named.get("/index.html").status_code == 200
    assert client.post("/index.html", json={}).status_code == 405  # the site is read-only


def test_site_rebuilds_from_the_stored_page_data(site):
    page = site.reports / DATASET / "refbot@v1" / "diagnosis.html"
    page.unlink()
    assert build_site(site.reports) == site.reports / "index.html"
    assert "refbot@v1" in page.read_text(encoding="utf-8")


def test_the_list_bears_another_run_replacing_a_page_data_file(site):
    """The list is rebuilt from each evaluation's small summary, not its whole page data: a
    version's page data that another run is replacing right now (here: gone for the moment)
    neither breaks nor empties another version's list."""
    data, moved = site.reports / DATASET / BOTS[0] / "diagnosis.json", site.root / "replacing.json"
    data.rename(moved)
    try:
        other = site.data[BOTS[1]]
        write_evaluation(site.reports, {k: v for k, v in other.items() if k != "cards"}, other["cards"])
    finally:
        moved.rename(data)
    listed = (site.reports / "index.html").read_text(encoding="utf-8")
    assert all(f"{bot}</a>" in listed for bot in BOTS), listed
    summary = json.loads(data.with_name("summary.json").read_text(encoding="utf-8"))
    assert summary["bot_version"] == BOTS[0] and "cards" not in summary  # nothing per question


def test_english_pages_name_quality_levels_in_english(site):
    """The stored level stays the overall score's (良好 …); readers of the English page see English."""
    samples = [card["sample"] for card in site.data["refbot@v1"]["cards"]]
    assert {s["quality_level"] for s in samples} & {"优秀", "良好", "一般", "较差"}
    html = (site.reports / DATASET / "refbot@v1" / "diagnosis.html").read_text(encoding="utf-8")
    shown = re.findall(r"Quality: ([^<]+)</span>", html)
    assert shown and set(shown) <= {"excellent", "good", "fair", "poor"}
    assert not any(re.search(r"Answer quality: .*[\u4e00-\u9fff]", line) for s in samples for line in s["lines"])


@pytest.mark.parametrize("text", [PAYLOAD, "a</script>b", "<!--x-->", "line\u2028sep\u2029", "&amp; <b>"])
def test_script_json_cannot_end_the_script_element(text):
    encoded = script_json({"answer": text})
    assert json.loads(encoded) == {"answer": text}
    assert not re.search(r"</|<!--|[<>&\u2028\u2029]", encoded)


def test_cards_come_in_pages_and_the_aggregates_stay_whole(tmp_path, embedding_cache, monkeypatch):
    """A page holds a bounded number of cards (here 2, as a 1M-answer evaluation holds 100);
    the first page keeps every question's aggregates and distributions, and each question
    the diagnosis names links to the page that holds its card."""
    from ragpipe.core.report import data as report_data

    lines = one_dataset_project(tmp_path, DATASET, 5)
    monkeypatch.setattr(report_data, "CARDS_PER_PAGE", 2, raising=False)
    monkeypatch.setenv("RAGPIPE_CACHE_DIR", str(embedding_cache))
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster_home"))
    for name in ("RAGPIPE_DATA_DIR", "RAGPIPE_OUTPUT_DIR", "DAGSTER_PG_HOST", "RAGPIPE_REPORT_URL"):
        monkeypatch.delenv(name, raising=False)
    with contextlib.redirect_stdout(io.StringIO()):
        main(["eval", "--dataset", DATASET, "--bot", "refbot@v2", "--project-dir", str(tmp_path)])
    folder = tmp_path / ".ragpipe" / "reports" / DATASET / "refbot@v2"
    cards_on = {name: re.findall(r'<article class="card" id="q-[^"]+" data-qid="([^"]+)"',
                                 (folder / name).read_text(encoding="utf-8"))
                for name in ("diagnosis.html", "diagnosis-2.html", "diagnosis-3.html")}
    questions = [json.loads(line)["id"] for line in lines]
    assert list(map(len, cards_on.values())) == [2, 2, 1] and sum(cards_on.values(), []) == questions
    assert not (folder / "diagnosis-4.html").exists()

    first = (folder / "diagnosis.html").read_text(encoding="utf-8")
    summary = json.loads((folder / "diagnosis.json").read_text(encoding="utf-8"))
    assert "cards" not in summary and "samples" not in summary["diagnosis"]
    for row in summary["aggregates"]:  # every question counted, not the page's two
        assert row["n"] + row["n_unmeasured"] == 5
        if row["n"]:
            bars = re.findall(rf"data-metric='{row['metric']}'[^>]*><title>[^:]+: (\d+)</title>", first)
            assert sum(map(int, bars)) == row["n"]
    links = set(re.findall(r'<a href="((?:diagnosis-\d\.html)?)#q-([^"]+)">', first))
    assert links
    for page, qid in links:
        assert qid in cards_on[page or "diagnosis.html"]
    assert 'href="diagnosis-2.html"' in first and 'href="diagnosis-3.html"' in first
    assert [c["question_id"] for c in load_evaluation(folder / "diagnosis.json")["cards"]] == questions
