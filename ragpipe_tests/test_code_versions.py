"""Per-asset code versions: a change marks stale only the assets it touches. Editing a chart
leaves the scores' version, the score cache's keys and the sensor's evaluation hash as
they were, so it re-runs no evaluation; editing a metric changes them."""

import shutil
from pathlib import Path

import pytest

import ragpipe.core
from ragpipe.defs import code_versions
from ragpipe.defs.evaluation.score_cache import scoring_version


@pytest.fixture
def core(tmp_path, monkeypatch):
    """A copy of the core, standing in for the installed one."""
    installed = Path(ragpipe.core.__file__).parent
    copy = shutil.copytree(installed, tmp_path / "core", ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(ragpipe.core, "__file__", str(copy / "__init__.py"))
    code_versions.code_version.cache_clear()
    yield copy
    code_versions.code_version.cache_clear()


def versions() -> tuple[str, str]:
    code_versions.code_version.cache_clear()
    return scoring_version(), code_versions.code_version("reports")


def append(path, line: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + line, encoding="utf-8")


@pytest.mark.parametrize("edited", ["report/charts.py", "report/labels.yaml", "report/templates/site.js",
                                    "verdict.py", "diagnosis/rules.yaml"])
def test_editing_a_report_re_scores_nothing(core, edited):
    scores, reports = versions()
    append(core / edited, "\n# edited\n")
    new_scores, new_reports = versions()
    assert new_scores == scores and new_reports != reports


@pytest.mark.parametrize("edited", ["metrics/faithfulness.py", "evidence/support.py", "evidence/calibration.json",
                                    "judged/prompts/verify.py", "text.py"])
def test_editing_what_scores_are_computed_with_re_scores(core, edited):
    scores, reports = versions()
    append(core / edited, "\n# edited\n" if edited.endswith(".py") else "\n")
    new_scores, new_reports = versions()
    assert new_scores != scores and new_reports != reports


def test_the_assets_carry_their_parts_code_version():
    from ragpipe.defs.definitions import defs

    graph = defs.resolve_asset_graph()
    version = {key.to_user_string(): graph.get(key).code_version for key in graph.get_all_asset_keys()}
    assert version["scores/faithfulness"] == code_versions.code_version("scores")
    for name in ("aggregate_scores", "diagnosis_report", "leaderboard", "human_labels"):
        assert version[name] == code_versions.code_version("reports"), name
    assert code_versions.code_version("scores") != code_versions.code_version("reports")
