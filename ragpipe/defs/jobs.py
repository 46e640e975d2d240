"""The jobs behind `ragpipe run`, the sensors and schedules, and UI backfills."""

import dagster as dg

from ragpipe.defs.cluster import cluster_run_tags
from ragpipe.defs.datasets.assets import corpus, generated_questions, graph_entities, question_set
from ragpipe.defs.evaluation.assets import (
    aggregate_scores,
    diagnosis_report,
    rag_responses,
    scores,
)
from ragpipe.defs.evaluation.leaderboard import leaderboard
from ragpipe.defs.evaluation.labels import human_labels

RUN_TAGS = cluster_run_tags()  # read where the definitions load: the code server, the daemon, a run worker

DATASET_ASSETS = [corpus, graph_entities, generated_questions, question_set]
# What an evaluation reads of a prepared dataset: pending candidates are no input of it.
EVALUATED_DATASET_ASSETS = [corpus, question_set, graph_entities]
EVALUATION_ASSETS = [rag_responses, scores, human_labels, aggregate_scores, diagnosis_report]

dataset_job = dg.define_asset_job(
    "prepare_dataset", run_tags=RUN_TAGS, selection=dg.AssetSelection.assets(*DATASET_ASSETS),
    description="Chunk one dataset's corpus, import its question set and snapshot its graph entities.")
evaluation_job = dg.define_asset_job(
    "evaluate_bot_version", run_tags=RUN_TAGS, selection=dg.AssetSelection.assets(*EVALUATION_ASSETS),
    description="Ask one bot version every question of one dataset, score, aggregate and diagnose.")
# What a person's new labels change: agreement, calibration fit, prediction-powered means and the
# report, from the stored answers and scores (nothing is asked or scored again).
LABELS_ASSETS = [human_labels, aggregate_scores, diagnosis_report]
labels_job = dg.define_asset_job(
    "relabel_bot_version", run_tags=RUN_TAGS, selection=dg.AssetSelection.assets(*LABELS_ASSETS),
    description="Read one dataset's labels again for one bot version: agreement, calibration, "
                "prediction-powered means and the report, from its stored answers and scores.")
leaderboard_job = dg.define_asset_job(
    "rank_bot_versions", run_tags=RUN_TAGS, selection=dg.AssetSelection.assets(leaderboard),
    description="Compare every evaluated bot version of one dataset.")
