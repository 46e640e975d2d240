import subprocess
import sys
from pathlib import Path

import dagster as dg

from ragpipe.core.metrics import REGISTRY
from ragpipe.defs.definitions import defs
from ragpipe_tests.conftest import REPO


def test_one_score_asset_per_registered_metric():
    keys = {k.to_user_string() for k in defs.resolve_all_asset_keys()}
    assert keys == {"corpus", "question_set", "graph_entities", "rag_responses", "human_labels", "aggregate_scores", "diagnosis_report",
                    "leaderboard", *(f"scores/{m}" for m in REGISTRY)}
    spec = defs.resolve_assets_def(dg.AssetKey(["scores", "context_precision"])).specs_by_key[dg.AssetKey(["scores", "context_precision"])]
    assert "NaN when" in spec.description and "ground_truth_contexts" in spec.description


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
