"""The jobs behind `ragpipe run`, the sensors and schedules, and UI backfills."""

import dagster as dg

from ragpipe.defs.cluster import cluster_run_tags
from ragpipe.defs.datasets.assets import corpus, graph_entities, question_set
from ragpipe.defs.evaluation.assets import (
    aggregate_scores,
    diagnosis_report,
    rag_responses,
    scores,
)
from ragpipe.defs.evaluation.leaderboard import leaderboard
from ragpipe.defs.evaluation.labels import human_labels

RUN_TAGS = cluster_run_tags()  # read where the definitions load: the code server, the daemon, a run worker

DATASET_ASSETS = [corpus, question_set, graph_entities]
EVALUATION_ASSETS = [rag_responses, scores, human_labels, aggregate_scores, diagnosis_report]

dataset_job = dg.define_asset_job(
    "prepare_dataset", run_tags=RUN_TAGS, selection=dg.AssetSelection.assets(*DATASET_ASSETS),
    description="Chunk one dataset's corpus, import its question set and snapshot its graph entities.")
evaluation_job = dg.define_asset_job(
    "evaluate_bot_version", run_tags=RUN_TAGS, selection=dg.AssetSelection.assets(*EVALUATION_ASSETS),
    description="Ask one bot version every question of one dataset, score, aggregate and diagnose.")
leaderboard_job = dg.define_asset_job(
    "rank_bot_versions", run_tags=RUN_TAGS, selection=dg.AssetSelection.assets(leaderboard),
    description="Compare every evaluated bot version of one dataset.")
