"""Per-asset code versions: a change marks stale only the assets it touches. Editing a chart
changes the reports' version only and editing a bot kind the responses' only, so neither
changes the score cache's keys or the sensor's evaluation hash; editing a metric re-scores.
The families follow the imports: a new import joins a module to a family."""

from pathlib import Path

import grimp
import pytest

import ragpipe.core
from ragpipe.defs import code_versions
from ragpipe.defs.evaluation.score_cache import scoring_version
from ragpipe_tests.conftest import edit_core

FAMILIES = set(code_versions.FAMILIES)


def changed_by(core, edited: str) -> set[str]:
    """The families whose version an edit of ``edited`` changes; the score cache's version
    must change with the scores' and only then."""
    before, scoring = code_versions.code_versions(core), scoring_version()
    edit_core(core / edited)
    after = code_versions.code_versions(core)
    changed = {family for family in FAMILIES if after[family] != before[family]}
    assert (scoring_version() != scoring) == ("scores" in changed)
    return changed


@pytest.mark.parametrize("edited", ["report/charts.py", "report/labels.yaml", "report/templates/site.js",
                                    "report/summaries.py", "verdict.py", "diagnosis/rules.yaml", "labels/views.py"])
def test_editing_a_report_changes_the_reports_version_only(core_copy, edited):
    assert changed_by(core_copy, edited) == {"reports"}


@pytest.mark.parametrize("edited", ["inputs/bots.py", "inputs/answers.py"])
def test_editing_a_bot_kind_changes_the_responses_version_only(core_copy, edited):
    assert changed_by(core_copy, edited) == {"responses"}


# The questions change with the metrics and the judge: generated candidates are filtered by
# metrics and written by the judge. The reports' verdict imports the metrics (directions,
# thresholds). text.py and the settings are read by every family.
@pytest.mark.parametrize(("edited", "families"), [
    ("metrics/faithfulness.py", {"scores", "reports", "questions"}),
    ("evidence/support.py", {"scores", "reports", "questions"}),
    ("evidence/correctness.json", {"scores", "reports", "questions"}),
    ("judged/prompts/verify.py", {"scores", "reports", "questions"}),
    ("llm/client.py", {"scores", "reports", "questions"}),
    ("labels/calibration.py", {"scores", "reports"}),
    ("inputs/corpus.py", {"corpus"}),
    ("inputs/graph.py", {"graph"}),
    ("inputs/generation.py", {"questions"}),
    ("text.py", FAMILIES),
    ("evaluation.yaml", FAMILIES),
])
def test_editing_what_values_are_computed_with_changes_their_families(core_copy, edited, families):
    assert changed_by(core_copy, edited) == families


@pytest.mark.parametrize("edited", ["labels/page.py", "labels/page.html.j2", "report/summary.py", "web.py"])
def test_editing_what_no_asset_runs_changes_no_version(core_copy, edited):
    """The labelling page, the command line's summary, the web apps."""
    assert changed_by(core_copy, edited) == set()


def test_a_new_import_joins_the_module_to_the_family(core_copy):
    assert changed_by(core_copy, "web.py") == set()
    edit_core(core_copy / "metrics" / "faithfulness.py", "from ragpipe.core import web  # noqa: F401")
    assert changed_by(core_copy, "web.py") == {"scores", "reports", "questions"}


def test_each_family_holds_what_grimp_finds_its_modules_import():
    """grimp (import-linter's import graph) reads each module's imports on its own: the
    families' files are the same, parent packages included (importing a module runs them)."""
    graph = grimp.build_graph("ragpipe", cache_dir=None)
    core = Path(ragpipe.core.__file__).parent

    def file_of(module: str) -> Path:
        path = core.joinpath(*module.split(".")[2:])
        return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")

    for family, files in code_versions.family_files().items():
        modules, todo = set(), [f"ragpipe.core.{entry}" for entry in code_versions.FAMILIES[family]]
        while todo:
            module = todo.pop()
            if module.startswith("ragpipe.core") and module not in modules:
                modules.add(module)
                todo += [*graph.find_modules_directly_imported_by(module),
                         *(module.rsplit(".", n)[0] for n in range(1, module.count(".")))]
        assert {file_of(m) for m in modules} == {p for p in files if p.suffix == ".py"}, family


def test_every_asset_carries_its_familys_code_version():
    from ragpipe.defs.definitions import defs

    graph = defs.resolve_asset_graph()
    version = {key.to_user_string(): graph.get(key).code_version for key in graph.get_all_asset_keys()}
    family = {"corpus": "corpus", "graph_entities": "graph", "generated_questions": "questions",
              "question_set": "questions", "rag_responses": "responses", "human_labels": "reports",
              "aggregate_scores": "reports", "diagnosis_report": "reports", "leaderboard": "reports",
              **{key: "scores" for key in version if key.startswith("scores/")}}
    assert set(version) == set(family)
    assert version == {key: code_versions.code_version(family[key]) for key in version}
    assert len(set(code_versions.code_versions().values())) == len(FAMILIES)
