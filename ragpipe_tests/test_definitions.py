import subprocess
import sys
from pathlib import Path

import dagster as dg

from ragpipe.core.metrics import REGISTRY
from ragpipe.defs.definitions import defs
from ragpipe_tests.conftest import REPO


def test_one_score_asset_per_registered_metric():
    keys = {k.to_user_string() for k in defs.resolve_all_asset_keys()}
    assert keys == {"corpus", "generated_questions", "question_set", "graph_entities", "rag_responses", "human_labels", "aggregate_scores", "diagnosis_report",
                    "leaderboard", *(f"scores/{m}" for m in REGISTRY)}
    spec = defs.resolve_assets_def(dg.AssetKey(["scores", "context_precision"])).specs_by_key[dg.AssetKey(["scores", "context_precision"])]
    assert "NaN when" in spec.description and "ground_truth_contexts" in spec.description


def spec_summary(definitions: dg.Definitions) -> dict:
    """What a change to the asset graph changes: each asset's group, partitions, parents,
    kinds and checks, and the jobs, sensors and schedules (not descriptions or code)."""
    graph = definitions.resolve_asset_graph()

    def partitions(key):
        p = graph.get(key).partitions_def
        return None if p is None else getattr(p, "name", None) or [f"{d.name}: {d.partitions_def.name}" for d in p.partitions_defs]

    return {
        "assets": {key.to_user_string(): {
            "group": graph.get(key).group_name, "partitions": partitions(key),
            "parents": sorted(k.to_user_string() for k in graph.get(key).parent_keys),
            "kinds": sorted(graph.get(key).kinds),
            "checks": sorted(c.name for c in graph.get(key).check_keys)} for key in sorted(graph.get_all_asset_keys())},
        "jobs": sorted(j.name for j in definitions.resolve_all_job_defs() if not j.name.startswith("__")),
        "sensors": sorted(s.name for s in definitions.sensors or []),
        "schedules": sorted(s.name for s in definitions.schedules or []),
    }


def test_asset_specs_match_their_snapshot(snapshot):
    """The fast tier's stand-in for `dg check defs` (next test, slow): the definitions load and
    the graph is the one reviewed. After an intended change: `pytest --snapshot-update -k snapshot`."""
    assert spec_summary(defs) == snapshot


def test_dg_check_defs_passes(tmp_path):
    dg_cli = Path(sys.executable).parent / "dg"
    result = subprocess.run([str(dg_cli), "check", "defs"], cwd=REPO, capture_output=True, text=True, timeout=300,
                            env={"PATH": str(dg_cli.parent), "HOME": str(tmp_path), "DAGSTER_HOME": str(tmp_path)})
    assert result.returncode == 0, result.stdout + result.stderr
    assert "All definitions loaded successfully" in result.stdout + result.stderr


def test_metric_reference_is_generated_from_the_registry():
    from ragpipe.core.metrics import metrics_markdown

    assert (REPO / "docs" / "metrics.md").read_text(encoding="utf-8") == metrics_markdown(), \
        "docs/metrics.md is stale: run `ragpipe metrics > docs/metrics.md`"


FLOW = ["corpus", "questions", "answers", "scores", "labels", "aggregates", "diagnosis"]


def test_groups_read_as_the_flow_and_no_asset_feeds_an_earlier_group():
    graph = defs.resolve_asset_graph()
    group = {key: graph.get(key).group_name for key in graph.get_all_asset_keys()}
    assert set(group.values()) == set(FLOW)
    assert [group[dg.AssetKey(k)] for k in ("corpus", "question_set", "rag_responses")] == FLOW[:3]
    assert group[dg.AssetKey("generated_questions")] == "questions"
    assert graph.get(dg.AssetKey("generated_questions")).parent_keys >= {dg.AssetKey("corpus")}
    assert dg.AssetKey("generated_questions") in graph.get(dg.AssetKey("question_set")).parent_keys
    assert {group[k] for k in group if k.path[0] == "scores"} == {"scores"}
    assert (group[dg.AssetKey("aggregate_scores")], group[dg.AssetKey("diagnosis_report")]) == ("aggregates", "diagnosis")
    for key, name in group.items():
        for parent in graph.get(key).parent_keys:
            assert FLOW.index(group[parent]) <= FLOW.index(name), (parent, key)


def test_descriptions_survive_markdown_and_name_no_internals():
    # The UI renders descriptions as Markdown: a bare <dataset> is an HTML tag and vanishes
    # ("reports///"); a module path or constant name means nothing to a reader.
    import re

    graph = defs.resolve_asset_graph()
    texts = {key.to_user_string(): graph.get(key).description for key in graph.get_all_asset_keys()}
    texts.update({f"check {spec.name}": spec.description for c in defs.asset_checks for spec in c.check_specs})
    for name, text in texts.items():
        assert text, name
        outside_code = re.sub(r"`[^`]*`", "", text)
        assert not re.search(r"<[A-Za-z][^>]*>", outside_code), (name, text)
        assert not re.search(r"\bragpipe\.|\b[A-Z]{2,}_[A-Z_]+\b", text), (name, text)


def test_check_results_say_what_failed_and_by_how_much():
    from ragpipe.core.diagnosis.rules import load_rules
    from ragpipe.core.report.data import regression_check, threshold_checks
    from ragpipe.core.gate import regression_verdict
    from ragpipe.defs.evaluation.checks import threshold_verdict

    rule = load_rules()["faithfulness"]
    row = {"metric": "faithfulness", "n": 10, "mean": rule.critical - 0.05}
    check = threshold_checks([row])[0]
    assert threshold_verdict(check, rule) == (f"faithfulness mean {rule.critical - 0.05:.3f} is below the critical "
                                              f"threshold {rule.critical:.3f} by 0.050")
    passing = threshold_checks([{**row, "mean": rule.warning + 0.1}])[0]
    assert threshold_verdict(passing, rule).endswith(f"above the warning threshold {rule.warning:.3f} by 0.100")
    comparison = {"context_recall": {"mean_diff": -0.125, "ci95_low": -0.2, "ci95_high": -0.05, "n_pairs": 30,
                                     "significant_drop": True, "p_holm": 0.004, "not_gated": None},
                  "faithfulness": {"mean_diff": 0.01, "ci95_low": -0.02, "ci95_high": 0.04, "n_pairs": 9,
                                   "significant_drop": False, "p_holm": None,
                                   "not_gated": "measured on 9 paired questions, fewer than 20"}}
    verdict = regression_verdict(regression_check("refbot@v1", "refbot@v2", comparison), comparison)
    assert verdict == ("significantly worse than refbot@v1: context_recall -0.125 (CI95 [-0.200, -0.050], Holm p "
                       "0.004); not gated, too few paired questions: faithfulness (9)")


def test_the_ui_command_carries_the_settings_of_the_runs_and_no_secret(tmp_path, monkeypatch):
    from ragpipe.cli.run_options import ui_command

    settings = {"DAGSTER_PG_HOST": "127.0.0.1", "DAGSTER_PG_PORT": "5433", "DAGSTER_PG_USER": "ragpipe",
                "DAGSTER_PG_DB": "runs", "RAGPIPE_OUTPUT_DIR": str(tmp_path / "out dir"), "RAGPIPE_EMBEDDER": "minilm"}
    secrets = {"DAGSTER_PG_PASSWORD": "pg-s3cret-value", "RAGPIPE_LLM_API_KEY": "sk-ui-command-secret"}
    for name, value in {**settings, **secrets}.items():
        monkeypatch.setenv(name, value)
    project, home = tmp_path / "project", tmp_path / "home"
    command = ui_command(home, project).replace(" \\\n    ", " ")  # one line
    assert not any(value in command for value in secrets.values())
    # the line as a shell runs it, with `env` in place of `dagster dev -w <workspace>`
    assignments = command.rsplit(" ", 4)[0]
    assert command.endswith(f"dagster dev -w {project / 'workspace.yaml'}")
    shown = subprocess.run(["bash", "-c", f"{assignments} env"], capture_output=True, text=True, check=True,
                           env={"PATH": "/usr/bin:/bin", **secrets}).stdout.splitlines()
    assert {**settings, **secrets, "DAGSTER_HOME": str(home), "RAGPIPE_PROJECT_DIR": str(project)}.items() \
        <= dict(line.split("=", 1) for line in shown if "=" in line).items()
