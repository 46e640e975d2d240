"""What `ragpipe run` and `eval` print and decide at the end: the summary within 100
columns, the release gate (--fail-on) with its JUnit XML and Markdown files, progress
lines in a log, the UI command, and assert_scores for a team's own unit tests."""

import argparse
import io
import shlex
import xml.etree.ElementTree as ET

import pytest

from ragpipe.cli.eval import ProgressBar
from ragpipe.cli.run_options import add_run_options, finish, ui_command
from ragpipe.core.report.summary import Version, markdown_summary, moved_most, terminal_summary
from ragpipe.core.verdict import failures, junit_xml, parse_fail_on
from ragpipe.defs.runner import BLOCKED, RunOutcome
from ragpipe.testing import assert_scores

METRICS = {"faithfulness": (True, [0, 1]), "context_recall": (True, [0, 1]), "noise_sensitivity": (False, [0, 1]),
           "rubric_1_10": (True, [1, 10]), "context_relevance": (True, [0, 1])}


def evaluation(bot: str, checks: list[dict], comparison: dict | None = None, means: dict | None = None) -> dict:
    means = means or {}
    return {"dataset": "policy_zh", "bot_version": bot, "baseline": "refbot@v1", "checks": checks,
            "metrics": {m: {"higher_is_better": h, "range": r} for m, (h, r) in METRICS.items()},
            "aggregates": [{"metric": m, "higher_is_better": h, "mean": means.get(m, 0.8)} for m, (h, _) in METRICS.items()],
            "comparison": comparison or {}}


def threshold(metric: str, mean: float, limit: float, severity: str | None) -> dict:
    return {"name": f"{metric}_threshold", "metric": metric, "passed": severity is None, "severity": severity,
            "mean": mean, "threshold": limit, "unmeasured": False}


def paired(diff: float, low: float, high: float, drop: bool = False) -> dict:
    return {"mean_diff": diff, "ci95_low": low, "ci95_high": high, "n_pairs": 40, "significant_drop": drop,
            "p_holm": 0.0021 if drop else 0.9}


REGRESSION = {"name": "no_regression_vs_baseline", "metric": None, "passed": False, "blocking": True,
              "severity": "critical", "baseline": "refbot@v1", "drops": ["context_relevance"], "too_few": [],
              "is_baseline": False}
V1 = evaluation("refbot@v1", [threshold("faithfulness", 0.65, 0.7, "warning"), threshold("context_recall", 0.9, 0.7, None)])
V2 = evaluation("refbot@v2-with-a-rather-long-name", [
    threshold("faithfulness", 0.35, 0.5, "critical"), threshold("noise_sensitivity", 0.55, 0.3, "warning"), REGRESSION],
    {"faithfulness": paired(-0.05, -0.08, -0.02), "context_recall": paired(0.151, 0.08, 0.22),
     "context_relevance": paired(-0.191, -0.25, -0.133, drop=True), "rubric_1_10": paired(0.9, 0.1, 1.5),
     "noise_sensitivity": paired(0.01, -0.02, 0.04)})
VERSIONS = [Version("policy_zh", "refbot@v1", 1, 0.687, V1), Version("policy_zh", V2["bot_version"], 2, 0.718, V2)]


def test_summary_fits_100_columns_and_names_the_three_metrics_that_moved_most():
    text = terminal_summary("policy_zh", VERSIONS, "/somewhere/reports/policy_zh/compare.html", ("regression", "critical"))
    print(text)
    assert max(len(line) for line in text.splitlines()) <= 100
    assert "rank_score" in text and "overall" not in text
    lines = text.splitlines()
    v1 = next(line for line in lines if "refbot@v1 " in line)
    assert v1.split()[:6] == ["1", "refbot@v1", "0.687", "pass", "1", "warn"] and v1.endswith("baseline")
    # rubric_1_10 moved 0.9 on a 1-10 scale (0.1 of its range): less than context_relevance's 0.191.
    assert moved_most(V2) == ["context_relevance -0.191*", "context_recall +0.151", "rubric_1_10 +0.900"]
    assert any(line.strip() == "rubric_1_10 +0.900" for line in lines)  # wrapped between metrics, never inside one
    assert "regression, 1 crit, 1 warn" in text and "full table: /somewhere/reports/policy_zh/compare.html" in text


def test_summary_header_states_the_whole_ranking_rule():
    # #1 has rank_score 0.687 and #2 0.718: the header says why (#2 regressed), not just "by rank_score".
    text = terminal_summary("policy_zh", VERSIONS, "/somewhere/compare.html", ("regression", "critical"))
    header = " ".join(text.split("\n   #")[0].split())  # wrapped at 100 columns
    assert header == "policy_zh: 2 version(s), ranked by rank_score (mean of the metrics, 0-1), regressed versions last"
    markdown = markdown_summary(VERSIONS, ("regression", "critical"))
    assert "Ranked by rank_score (mean of the metrics, 0-1), regressed versions last." in markdown


def test_each_evaluation_line_agrees_with_the_exit_code(capsys):
    # v1 crosses a warning threshold only; v2 a critical one and the regression check.
    blocked = [RunOutcome("evaluate_bot_version", "x", False, error=f"{BLOCKED}no_regression_vs_baseline: worse")]
    assert finish(blocked, VERSIONS[:1], parse(["--fail-on", "regression"])) == 0
    out = capsys.readouterr().out
    assert "Release gate (fails on regression): passed\n  refbot@v1 on policy_zh: passes; checks failed: 1 warn" in out
    assert "failed" not in out.replace("checks failed", "")
    assert finish(blocked, VERSIONS, parse(["--fail-on", "critical"])) == 3
    out = capsys.readouterr().out
    assert "Release gate (fails on critical): FAILED\n  refbot@v1 on policy_zh: passes; checks failed: 1 warn" in out
    assert "refbot@v2-with-a-rather-long-name on policy_zh: BLOCKED; checks failed: regression, 1 crit, 1 warn" in out
    text = terminal_summary("policy_zh", VERSIONS, "/somewhere/compare.html", ("critical",))
    assert [line.split()[3] for line in text.splitlines() if "refbot@" in line] == ["pass", "BLOCKED"]


@pytest.mark.parametrize("fail_on, blocking", [
    ("regression,critical", {("refbot@v2-with-a-rather-long-name", "faithfulness_threshold"),
                             ("refbot@v2-with-a-rather-long-name", "no_regression_vs_baseline")}),
    ("critical", {("refbot@v2-with-a-rather-long-name", "faithfulness_threshold")}),
    ("warning", {("refbot@v1", "faithfulness_threshold"), ("refbot@v2-with-a-rather-long-name", "faithfulness_threshold"),
                 ("refbot@v2-with-a-rather-long-name", "noise_sensitivity_threshold")}),
])
def test_gate_blocks_on_what_fail_on_names_and_says_by_how_much(fail_on, blocking):
    found = {(v.bot_version, name) for v in VERSIONS for name, _ in failures(v.evaluation, parse_fail_on(fail_on))}
    assert found == blocking
    why = dict(failures(V2, ("regression", "critical", "warning")))
    assert why["faithfulness_threshold"] == "faithfulness 0.350 is below its critical threshold 0.500 by 0.150"
    assert why["noise_sensitivity_threshold"] == "noise_sensitivity 0.550 is above its warning threshold 0.300 by 0.250"
    assert why["no_regression_vs_baseline"] == ("significantly worse than refbot@v1: context_relevance -0.191 "
                                                "(CI95 [-0.250, -0.133], Holm p 0.002)")


def test_fail_on_rejects_unknown_names():
    with pytest.raises(ValueError, match="critical, warning, regression"):
        parse_fail_on("critical,severe")


def test_junit_xml_has_a_case_per_check_and_a_failure_per_blocking_one():
    root = ET.fromstring(junit_xml([V1, V2], ("regression", "critical")))
    suites = {s.get("name"): s for s in root.iter("testsuite")}
    assert set(suites) == {"policy_zh/refbot@v1", "policy_zh/refbot@v2-with-a-rather-long-name"}
    assert [s.get("failures") for s in suites.values()] == ["0", "2"]
    failed = {c.get("name"): c.find("failure").get("message") for c in root.iter("testcase") if c.find("failure") is not None}
    assert failed["faithfulness_threshold"].startswith("faithfulness 0.350 is below")
    assert len(list(root.iter("testcase"))) == 5


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_run_options(parser)
    return parser.parse_args(argv)


def test_exit_code_follows_the_gate_and_the_files_are_written(tmp_path, capsys):
    blocked = [RunOutcome("evaluate_bot_version", "x", False, error=f"{BLOCKED}no_regression_vs_baseline: worse")]
    junit, summary = tmp_path / "checks.xml", tmp_path / "summary.md"
    assert finish(blocked, VERSIONS, parse(["--junit-xml", str(junit), "--summary-md", str(summary)])) == 3
    out = capsys.readouterr().out
    assert "Release gate (fails on regression, critical): FAILED" in out
    assert "FAIL refbot@v2-with-a-rather-long-name on policy_zh: faithfulness_threshold: faithfulness 0.350" in out
    assert max(len(line) for line in out.splitlines()) <= 100
    assert ET.parse(junit).getroot().tag == "testsuites"
    assert "## Release gate (fails on regression, critical): FAILED" in summary.read_text(encoding="utf-8")
    assert "| 2 | refbot@v2-with-a-rather-long-name | 0.718 | BLOCKED | regression, 1 crit, 1 warn |" in markdown_summary(
        VERSIONS, ("regression",))
    # Only warnings fail in v1: a gate on critical checks passes it, although its run was blocked.
    assert finish(blocked, VERSIONS[:1], parse(["--fail-on", "critical"])) == 0
    broken = [RunOutcome("prepare_dataset", "policy_zh", False, error="corpus: no documents")]
    assert finish(broken, VERSIONS[:1], parse(["--fail-on", "critical"])) == 1
    assert "prepare_dataset [policy_zh]: corpus: no documents" in capsys.readouterr().err


def test_a_blocked_run_is_reported_within_100_columns():
    why = ("significantly worse than refbot@v1: context_recall -0.137 (CI95 [-0.213, -0.064], Holm p 0.001); "
           "answer_correctness -0.091 (CI95 [-0.160, -0.020], Holm p 0.030)")
    outcome = RunOutcome("evaluate_bot_version", "refbot@v3|product_en", False,
                         error=f"{BLOCKED}no_regression_vs_baseline: {why}")
    lines = outcome.report().splitlines()
    assert lines[0] == "FAILED evaluate_bot_version [refbot@v3|product_en]"
    assert max(map(len, lines)) <= 100 and len(lines) > 2
    assert " ".join(" ".join(lines[1:]).split()) == f"{BLOCKED}no_regression_vs_baseline: {why}"


def test_progress_in_a_log_is_whole_lines_every_few_seconds():
    log = io.StringIO()  # not a terminal
    bar = ProgressBar(steps=2, stream=log, line_every=3600)
    for step in ("rag_responses", "scores/faithfulness"):
        for done in range(1, 51):
            bar(step, done, 50)
    bar.note("ok     evaluate_bot_version [refbot@v1|policy_zh]")
    assert "\r" not in log.getvalue()
    # Each line counts its own step's questions, not the evaluation's (it read "rag_responses: 1/100").
    assert log.getvalue().splitlines() == ["rag_responses: 1/50 (step 1 of 2)", "rag_responses: 50/50 (step 1 of 2)",
                                           "scores/faithfulness: 50/50 (step 2 of 2)",
                                           "ok     evaluate_bot_version [refbot@v1|policy_zh]"]


def test_progress_on_a_terminal_counts_each_step_on_its_own():
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    screen = Terminal()
    bar = ProgressBar(steps=2, stream=screen)
    for step in ("rag_responses", "scores/faithfulness"):
        for done in range(1, 51):
            bar(step, done, 50)
    bar.close()
    shown = screen.getvalue()
    assert "rag_responses (step 1 of 2)" in shown and "scores/faithfulness (step 2 of 2)" in shown
    assert "50/50" in shown and "/100" not in shown


def test_ui_command_carries_storage_and_output_settings_but_not_the_password(monkeypatch, tmp_path):
    for name, value in {"DAGSTER_PG_HOST": "db.internal", "DAGSTER_PG_PORT": "5433", "DAGSTER_PG_USER": "rag",
                        "DAGSTER_PG_DB": "dagster", "DAGSTER_PG_PASSWORD": "s3cret-pw",
                        "RAGPIPE_OUTPUT_DIR": str(tmp_path / "out dir")}.items():
        monkeypatch.setenv(name, value)
    command = ui_command(tmp_path / "home", tmp_path / "project")
    assert "s3cret" not in command
    # Wrapped at 100 columns; only a line of one word (a long path) can be wider.
    assert all(len(line) <= 100 or len(shlex.split(line.rstrip("\\"))) == 1 for line in command.splitlines())
    words = shlex.split(command.replace("\\\n", ""))  # continued lines: one shell command
    assert words[-3:] == ["dev", "-w", str(tmp_path / "project" / "workspace.yaml")]
    command = command.replace("\\\n   ", "")
    for part in ("DAGSTER_PG_HOST=db.internal", "DAGSTER_PG_PORT=5433", "DAGSTER_PG_USER=rag", "DAGSTER_PG_DB=dagster",
                 'DAGSTER_PG_PASSWORD="$DAGSTER_PG_PASSWORD"', f"RAGPIPE_OUTPUT_DIR='{tmp_path / 'out dir'}'",
                 f"DAGSTER_HOME={tmp_path / 'home'}", f"RAGPIPE_PROJECT_DIR={tmp_path / 'project'}", " dev -w "):
        assert part in command, part


ROWS = [{"question": "When did the store open?", "answer": "The store opened in 1925 in Boston.",
         "retrieved_contexts": ["The store opened in 1925 in Boston, on Main Street."]},
        {"question": "What does the warranty cover?", "answer": "The warranty covers parts and labour for two years.",
         "retrieved_contexts": ["Our warranty covers parts and labour for two years from purchase."]}]


def test_assert_scores_passes_grounded_answers_and_fails_invented_ones(embedding_cache):
    means = assert_scores(ROWS, {"faithfulness": 0.7}, embedding_cache=str(embedding_cache))
    assert means["faithfulness"] >= 0.7
    invented = [{**row, "answer": "It was founded by Napoleon in Paris in 1802 with 40 million euros."} for row in ROWS]
    with pytest.raises(AssertionError, match=r"faithfulness: mean 0\.\d{3} over 2 rows is below 0\.700 by"):
        assert_scores(invented, {"faithfulness": 0.7}, embedding_cache=str(embedding_cache))
    with pytest.raises(AssertionError, match="llm_judge: unmeasured on all 2 rows"):
        assert_scores(ROWS, {"llm_judge": 3})


def scores(values: dict[str, list[float]]) -> dict:
    import pandas as pd

    return {m: pd.DataFrame({"question_id": [f"q{i}" for i in range(len(v))], "value": v}) for m, v in values.items()}


def test_an_unchanged_bot_is_blocked_in_at_most_five_percent_of_draws():
    # Two "versions" drawn from one distribution (correlated metrics, 23 questions each), as
    # when one version's answers are split in two: the rule before blocked on any of the
    # metrics' CI95 below zero; the gate's error rate is controlled over its metrics.
    import numpy as np

    from ragpipe.core.diagnosis.stats import paired_bootstrap
    from ragpipe.core.verdict import compare_versions, significant_drop

    rng = np.random.default_rng(1)
    names = ["answer_correctness", "faithfulness", "answer_relevancy", "context_recall", "context_relevance",
             "context_precision", "semantic_similarity", "factual_correctness"]

    def version() -> dict:
        quality = rng.uniform(0, 1, 23)
        return scores({m: np.clip(quality + rng.normal(0, 0.3, 23), 0, 1) for m in names})

    before = now = 0
    draws = 100
    for _ in range(draws):
        candidate, baseline = version(), version()
        verdicts = compare_versions(candidate, baseline)
        now += any(c["significant_drop"] for c in verdicts.values())
        before += any(significant_drop(paired_bootstrap(candidate[m]["value"], baseline[m]["value"]), True)
                      for m in names)
    assert now / draws <= 0.05 < 0.15 <= before / draws


def test_a_drop_blocks_only_on_a_gate_metric_measured_enough_and_large_enough():
    from ragpipe.core.config import GateSettings
    from ragpipe.core.verdict import judge_regression, regression_check, regression_verdict

    def c(diff: float, p: float, n: int = 47) -> dict:
        return {"mean_diff": diff, "ci95_low": diff - 0.05, "ci95_high": diff + 0.05, "n_pairs": n, "p_drop": p}

    settings = GateSettings()
    # refbot@v3's case: entity_coverage -0.167 on 20 of 48 questions, improvements elsewhere.
    verdicts = judge_regression({"entity_coverage": c(-0.167, 0.001, 20), "answer_correctness": c(0.1, 1.0),
                                 "context_recall": c(-0.02, 0.0001),  # significant, but below the minimum effect
                                 "faithfulness": c(-0.3, 0.001, 12)}, settings)  # large, on too few questions
    assert not any(v["significant_drop"] for v in verdicts.values())
    assert verdicts["entity_coverage"]["not_gated"] == "not a gate metric"
    assert verdicts["faithfulness"]["not_gated"] == "measured on 12 paired questions, fewer than 20"
    assert verdicts["context_recall"]["gated"] and verdicts["context_recall"]["min_effect"] == 0.05
    check = regression_check("refbot@v1", "refbot@v3", verdicts)
    assert check["passed"] and regression_verdict(check, verdicts) == (
        "no gate metric significantly worse than refbot@v1 (2 compared); not gated, too few paired questions: "
        "faithfulness (12)")
    # Holm over the four gate metrics measured: raw p 0.02 and 0.03 are not enough ...
    four = {"answer_correctness": c(-0.1, 0.02), "context_recall": c(-0.1, 0.03), "faithfulness": c(0.0, 0.5),
            "answer_relevancy": c(0.0, 0.6)}
    assert not any(v["significant_drop"] for v in judge_regression(four, settings).values())
    # ... 0.01 is (0.04 adjusted), and the drop of 0.1 is past the minimum effect; the rubric's
    # minimum effect is in its own units (a 1-10 scale).
    verdicts = judge_regression({**four, "answer_correctness": c(-0.1, 0.01), "rubric_1_10": c(-0.4, 1.0)}, settings)
    assert [m for m, v in verdicts.items() if v["significant_drop"]] == ["answer_correctness"]
    assert verdicts["answer_correctness"]["p_holm"] == pytest.approx(0.05)
    assert verdicts["rubric_1_10"]["min_effect"] == pytest.approx(0.45)


def test_the_gate_reads_its_metrics_and_effects_from_evaluation_yaml(tmp_path, monkeypatch):
    from ragpipe.core.config import DEFAULT_PATH
    from ragpipe.core.verdict import gate_settings, judge_regression
    from ragpipe.core.schemas import InputError

    shipped = DEFAULT_PATH.read_text(encoding="utf-8")
    config = tmp_path / "evaluation.yaml"
    config.write_text(shipped.replace("metrics: [answer_correctness, faithfulness,", "metrics: [context_relevance,")
                      .replace("min_effect: {default: 0.05}", "min_effect: {default: 0.05, context_relevance: 0.3}"),
                      encoding="utf-8")
    monkeypatch.setenv("RAGPIPE_EVAL_CONFIG", str(config))
    drop = {"mean_diff": -0.2, "ci95_low": -0.25, "ci95_high": -0.15, "n_pairs": 47, "p_drop": 0.0001}
    assert not judge_regression({"context_relevance": drop})["context_relevance"]["significant_drop"]  # < 0.3
    assert judge_regression({"context_relevance": {**drop, "mean_diff": -0.35}})["context_relevance"]["significant_drop"]
    config.write_text(shipped.replace("metrics: [answer_correctness,", "metrics: [answer_corectness,"), encoding="utf-8")
    with pytest.raises(InputError, match=r"evaluation\.yaml: field 'gate\.metrics': unknown metric\(s\) answer_corectness"):
        gate_settings()
