"""Continuous evaluation: one sensor launches the runs that changed files call for, and two
schedules re-evaluate on a timetable. There is no declarative automation: every run comes
from one of these, from `ragpipe run`, or from a person (UI, `ragpipe backfill`).

What is stale is decided by the Dagster instance, not by a sensor cursor. Every run that
`ragpipe_sensor` or `ragpipe run` launches carries the tag ``ragpipe/inputs``, a hash of
what the run reads:

- preparing a dataset: the content of its folder but its labels;
- evaluating a bot version on a dataset: the content of the bot's config, the data
  versions of the dataset's corpus, question set and graph entities (content hashes, so a
  re-prepared dataset whose content did not change re-evaluates nothing), the dataset's
  calibration in use (every version is scored with the same one; a new one re-applies,
  from cached answers and scores) and how scores are computed (the scores' code version,
  the evaluation settings, the embedder and the judge model: an upgrade re-scores, from
  cached answers);
- relabelling a bot version (``relabel_bot_version``: human_labels, aggregate_scores and
  diagnosis_report, from the stored answers and scores): due when the dataset's label
  files changed after the partition's newest run (an evaluation, by whatever it came,
  reads the labels too). It waits until they have not changed for LABELS_QUIET_SECONDS,
  so labels a person clicks in a row give one relabelling. Also due when one of these
  assets was last made with other report code than this installation's
  (``outdated_reports``: a change to the report code alone), once per change;
- the leaderboard of a dataset: the newest aggregate_scores materialization of any of its
  bot versions, by whatever run it came (sensor, schedule, backfill, UI).

On each tick the sensor computes these hashes and requests a run for every job and
partition that has no run with its current hash yet (finished, failed or still queued, so
a failure is not retried in a loop). It keeps the order: a dataset's evaluations wait for
its preparation and for its relabellings (which may fit a new calibration), and its
leaderboard waits until none of its evaluations or relabellings is queued or running.
So one event gives one set of runs, and starting the daemon after `ragpipe run`
launches nothing. A change to the bot kinds' code (the responses' code version) only
marks rag_responses stale: asking every bot again is for a person or a schedule to decide
(docs/automation.md). The cursor only remembers the files it has reported (deleted or invalid
configs are logged once).

Scheduled re-evaluations ask HTTP bots every question again (tag ``ragpipe/reask``).
"""

import hashlib
import json
import os
import time
from pathlib import Path

import dagster as dg

from ragpipe.core.config import load_config
from ragpipe.core.inputs.bot_config import load_bot_config, version_order
from ragpipe.core.inputs.files import hash_file
from ragpipe.core.labels.calibration import calibration_hash
from ragpipe.core.labels.reading import label_files
from ragpipe.core.schemas import InputError, InputErrors
from ragpipe.core.yaml_input import MAX_BYTES as MAX_YAML_BYTES
from ragpipe.defs.code_versions import code_version
from ragpipe.defs.evaluation.assets import REASK_TAG
from ragpipe.defs.evaluation.score_cache import scoring_version
from ragpipe.defs.instance import give_pools_their_slots
from ragpipe.defs.jobs import (EVALUATED_DATASET_ASSETS, LABELS_ASSETS, dataset_job, evaluation_job, labels_job,
                               leaderboard_job)
from ragpipe.defs.partitions import (ambiguous_bot_files, bot_version_keys, bot_versions, dataset_keys, datasets,
                                     invalid_evaluations)
from ragpipe.defs.resources import EmbedderResource, LLMResource, ProjectPaths

INPUTS_TAG = "ragpipe/inputs"
# Label files must rest this long before they are read again: a person labelling answer
# after answer on the page gives one relabelling, this long after the last click.
LABELS_QUIET_SECONDS = 60
TRIGGER_TAG = "ragpipe/trigger"
PARTITION_TAG = "dagster/partition"
DATASET_DIMENSION_TAG = "dagster/partition/dataset"  # Dagster's tag for one dimension of a multi-partition
CODE_VERSION_TAG = "dagster/code_version"  # Dagster's tag of the code version a materialization was made with
UNFINISHED = [s for s in dg.DagsterRunStatus if s not in
              (dg.DagsterRunStatus.SUCCESS, dg.DagsterRunStatus.FAILURE, dg.DagsterRunStatus.CANCELED)]


def file_hash(path: Path) -> str:
    """Of a bot config (see hash_file: a FIFO or a link to /dev/zero is never opened)."""
    digest = hashlib.sha256()
    hash_file(digest, path, path.parent, MAX_YAML_BYTES)
    return digest.hexdigest()[:16]


def folder_hash(folder: Path, skip: str | None = None) -> str:
    """Of every file under ``folder`` but those in its subfolder ``skip``, each by
    hash_file within the limit on input files. Links to folders are not followed."""
    files = []
    for top, dirs, names in os.walk(folder):  # followlinks=False: a link to / is not walked
        if Path(top) == folder:
            dirs[:] = [d for d in dirs if d != skip]
        files += [Path(top, name) for name in names]
    digest, max_bytes = hashlib.sha256(), load_config().limits.max_file_bytes
    for path in sorted(files):
        digest.update(str(path.relative_to(folder)).encode() + b"\0")
        hash_file(digest, path, folder, max_bytes)
    return digest.hexdigest()[:16]


def _hash(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]


def dataset_inputs(paths: ProjectPaths, dataset: str) -> str:
    """Its files but the people's labels, which the evaluation reads (``evaluation_inputs``);
    for a named evaluation also its file."""
    folder = folder_hash(paths.dataset_dir(dataset), skip="labels")
    return _hash(folder, file_hash(paths.evaluation_file(dataset))) if paths.evaluation(dataset) else folder


def prepared_versions(instance: dg.DagsterInstance, dataset: str) -> list[str] | None:
    """The data versions of the dataset's corpus, question set and graph entities; None
    while it has not been prepared."""
    versions = []
    for asset in EVALUATED_DATASET_ASSETS:
        records = instance.fetch_materializations(dg.AssetRecordsFilter(asset.key, asset_partitions=[dataset]),
                                                  limit=1).records
        if not records:
            return None
        versions.append(records[0].asset_materialization.tags.get("dagster/data_version", ""))
    return versions


def scorer(embedder: EmbedderResource, llm: LLMResource) -> str:
    """How scores are computed: the scores' code version (``code_versions``) and the
    evaluation settings in use, the embedder and the judge model. Upgrading ragpipe's
    scoring code or changing any of them re-scores; editing a report changes nothing here."""
    return _hash(scoring_version(), embedder.backend, llm.model if llm.configured else "")


def evaluation_inputs(paths: ProjectPaths, dataset: str, bot: str, prepared: list[str], scoring: str) -> str:
    """The bot's config, the prepared data, the dataset's calibration in use and ``scorer``;
    for a named evaluation also its file (its judge model and metrics)."""
    named = [file_hash(paths.evaluation_file(dataset))] if paths.evaluation(dataset) else []
    return _hash(file_hash(paths.bot_file(bot)), *prepared, calibration_hash(paths.calibrations, dataset), scoring,
                 *named)


def labels_changed_at(paths: ProjectPaths, dataset: str) -> float:
    """When a label file of the dataset last changed (its folder's time changes when a file
    is added or deleted); 0 without labels."""
    folder = paths.dataset_dir(dataset) / "labels"
    times = []
    for path in label_files(paths.dataset_dir(dataset)) + ([folder] if folder.is_dir() else []):
        try:
            times.append(os.lstat(path).st_mtime)  # lstat: a dangling link is reported by the run, not here
        except OSError:  # deleted since it was listed
            continue
    return max(times, default=0.0)


def newest_run(instance: dg.DagsterInstance, partition: str) -> dg.RunRecord | None:
    records = instance.get_run_records(dg.RunsFilter(tags={PARTITION_TAG: partition}), limit=1)
    return records[0] if records else None


def labels_read(instance: dg.DagsterInstance, partition: str, changed_at: float) -> bool:
    """Whether the newest evaluation or relabelling of the partition was created after the
    labels last changed: it reads them (or has read them) as they are."""
    newest = newest_run(instance, partition)
    return newest is not None and newest.create_timestamp.timestamp() > changed_at


def outdated_reports(instance: dg.DagsterInstance, partition: str) -> str | None:
    """None when human_labels, aggregate_scores and diagnosis_report of the partition were
    last materialized with this installation's report code (``code_versions``); else the
    inputs of the relabelling that brings them to it: the version they have and the one
    they get (a relabelling that failed is not tried again in a loop, a reverted change is)."""
    current = code_version("reports")
    for asset in LABELS_ASSETS:
        records = instance.fetch_materializations(dg.AssetRecordsFilter(asset.key, asset_partitions=[partition]),
                                                  limit=1).records
        if records and (stored := records[0].asset_materialization.tags.get(CODE_VERSION_TAG)) != current:
            return f"reports:{stored}:{current}"
    return None


def leaderboard_inputs(instance: dg.DagsterInstance, dataset: str, valid_bots: list[str]) -> str | None:
    """None while no bot version of the dataset has aggregate scores. ``valid_bots``: the
    versions whose config is valid now; one that becomes invalid or is deleted leaves the
    ranking, so the leaderboard is due again."""
    partitions = [str(dg.MultiPartitionKey({"dataset": dataset, "bot": bot}))
                  for bot in instance.get_dynamic_partitions(bot_versions.name)]
    records = instance.fetch_materializations(
        dg.AssetRecordsFilter(dg.AssetKey("aggregate_scores"), asset_partitions=partitions), limit=1).records
    return f"aggregate_scores:{records[0].storage_id}:{_hash(*sorted(valid_bots))}" if records else None


def _has_run(instance: dg.DagsterInstance, job: str, partition: str, inputs: str) -> bool:
    return bool(instance.get_run_records(
        dg.RunsFilter(job_name=job, tags={PARTITION_TAG: partition, INPUTS_TAG: inputs}), limit=1))


def _unfinished(instance: dg.DagsterInstance, job: str, tags: dict[str, str]) -> bool:
    return bool(instance.get_run_records(dg.RunsFilter(job_name=job, tags=tags, statuses=UNFINISHED), limit=1))


def _request(job: str, partition, inputs: str) -> dg.RunRequest:
    # The run key lets the daemon drop a request it already submitted (a tick that is retried).
    return dg.RunRequest(job_name=job, partition_key=partition, tags={INPUTS_TAG: inputs},
                         run_key=f"{job}:{partition}:{inputs}")


@dg.sensor(jobs=[dataset_job, evaluation_job, labels_job, leaderboard_job],
           default_status=dg.DefaultSensorStatus.RUNNING, minimum_interval_seconds=15)
def ragpipe_sensor(context: dg.SensorEvaluationContext, paths: ProjectPaths, embedder: EmbedderResource,
                   llm: LLMResource) -> dg.SensorResult:
    """Watches data/datasets/, data/evaluations/ and data/bots/. Registers new datasets, named
    evaluations and bot versions as partitions; prepares a dataset (or named evaluation)
    whose files changed, then evaluates every bot version on it (a named evaluation: its
    own) whose inputs changed, relabels every version once its label files have rested,
    or once the report code changed, then ranks the dataset's versions once none of its
    evaluations or relabellings is queued or running. Deleted and invalid files are logged."""
    instance = context.instance
    give_pools_their_slots(instance)  # a home no `ragpipe` command prepared: before any run it launches
    dataset_list = dataset_keys(paths.data)
    files = {f"datasets/{key}": dataset_inputs(paths, key) for key in dataset_list}
    files |= {f"bots/{key}": file_hash(paths.bot_file(key)) for key in bot_version_keys(paths.data)}
    reported = json.loads(context.cursor or "{}")
    for key, problem in ambiguous_bot_files(paths.data).items():
        files[f"bots/{key}"] = problem
        if reported.get(f"bots/{key}") != problem:
            context.log.error(f"bot config {key} not evaluated: {problem}")
    for name, problem in invalid_evaluations(paths.data).items():
        files[f"evaluations/{name}"] = problem
        if reported.get(f"evaluations/{name}") != problem:
            context.log.error(f"evaluation {name} not evaluated: {problem}")
    for key in sorted(set(reported) - set(files)):
        context.log.warning(f"{key} was deleted; its partition and results are kept for history")
    bots = []
    for key in bot_version_keys(paths.data):
        try:
            load_bot_config(paths.bot_file(key))
            bots.append(key)
        except (InputError, InputErrors) as exc:
            if reported.get(f"bots/{key}") != files[f"bots/{key}"]:
                context.log.error(f"bot config {key} not evaluated: {exc}")
    partition_requests = []
    for definition, keys in ((datasets, dataset_list), (bot_versions, bots)):
        known = set(instance.get_dynamic_partitions(definition.name))
        if new := [k for k in keys if k not in known]:  # in the order found: bot versions by version
            partition_requests.append(definition.build_add_request(new))

    runs, scoring = [], scorer(embedder, llm)
    for dataset in dataset_list:
        folder = files[f"datasets/{dataset}"]
        if not _has_run(instance, dataset_job.name, dataset, folder):
            runs.append(_request(dataset_job.name, dataset, folder))
            continue  # evaluations read what this run prepares
        if _unfinished(instance, dataset_job.name, {PARTITION_TAG: dataset}):
            continue
        evaluating = _unfinished(instance, evaluation_job.name, {DATASET_DIMENSION_TAG: dataset})
        if _unfinished(instance, labels_job.name, {DATASET_DIMENSION_TAG: dataset}):
            continue  # it may fit a new calibration: an input of every evaluation of the dataset
        versions = prepared_versions(instance, dataset)
        labelled = labels_changed_at(paths, dataset)
        rested = time.time() - labelled >= LABELS_QUIET_SECONDS
        for bot in paths.bots_of(dataset, bots) if versions else []:
            inputs = evaluation_inputs(paths, dataset, bot, versions, scoring)
            partition = dg.MultiPartitionKey({"dataset": dataset, "bot": bot})
            if not _has_run(instance, evaluation_job.name, str(partition), inputs):
                runs.append(_request(evaluation_job.name, partition, inputs))
                evaluating = True
            elif rested and not evaluating and not labels_read(instance, str(partition), labelled):
                after = newest_run(instance, str(partition)).dagster_run.run_id  # the run it follows
                runs.append(_request(labels_job.name, partition, f"labels:{labelled}:{after}"))
                evaluating = True
            elif not evaluating and (reports := outdated_reports(instance, str(partition))) \
                    and not _has_run(instance, labels_job.name, str(partition), reports):
                runs.append(_request(labels_job.name, partition, reports))  # from the stored answers and scores
                evaluating = True
        ranked = leaderboard_inputs(instance, dataset, paths.bots_of(dataset, bots))
        if not evaluating and ranked and not _has_run(instance, leaderboard_job.name, dataset, ranked):
            runs.append(_request(leaderboard_job.name, dataset, ranked))
    return dg.SensorResult(run_requests=runs, dynamic_partitions_requests=partition_requests,
                           cursor=json.dumps(files, sort_keys=True))


def newest_versions(keys: list[str]) -> list[str]:
    by_bot: dict[str, str] = {}
    for key in keys:
        bot = key.split("@", 1)[0]
        if bot not in by_bot or version_order(key) > version_order(by_bot[bot]):
            by_bot[bot] = key
    return sorted(by_bot.values())


def _evaluation_requests(context: dg.ScheduleEvaluationContext, paths: ProjectPaths, bots: list[str],
                         trigger: str) -> list[dg.RunRequest]:
    tick = context.scheduled_execution_time.strftime("%Y-%m-%dT%H:%M")
    invalid = invalid_evaluations(paths.data)  # the sensor logs why
    # A re-evaluation asks HTTP bots again (an answer round of its own, see ragpipe.core.inputs.bots).
    return [dg.RunRequest(run_key=f"{trigger}:{tick}:{bot}|{dataset}", tags={TRIGGER_TAG: trigger, REASK_TAG: "true"},
                          partition_key=dg.MultiPartitionKey({"dataset": dataset, "bot": bot}))
            for dataset in context.instance.get_dynamic_partitions(datasets.name) if dataset not in invalid
            for bot in paths.bots_of(dataset, bots)]


@dg.schedule(job=evaluation_job, cron_schedule="0 2 * * *", default_status=dg.DefaultScheduleStatus.RUNNING)
def nightly_newest_versions(context: dg.ScheduleEvaluationContext, paths: ProjectPaths):
    """Every night, the newest version of each bot on every dataset (a named evaluation: of
    its own bot versions; the sensor then ranks each dataset once)."""
    return _evaluation_requests(context, paths,
                                newest_versions(context.instance.get_dynamic_partitions(bot_versions.name)), "nightly")


@dg.schedule(job=evaluation_job, cron_schedule="0 4 * * 0", default_status=dg.DefaultScheduleStatus.RUNNING)
def weekly_full_reevaluation(context: dg.ScheduleEvaluationContext, paths: ProjectPaths):
    """Every Sunday, every bot version on every dataset (a named evaluation: its own; the
    sensor then ranks each dataset once)."""
    return _evaluation_requests(context, paths, context.instance.get_dynamic_partitions(bot_versions.name), "weekly")
