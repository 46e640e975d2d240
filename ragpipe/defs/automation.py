"""Continuous evaluation.

Division of labour:
- the sensors watch the files: they register new datasets and bot versions as partitions,
  request runs when the content of a known one changes, and report deletions and bad
  configs; a cursor of content hashes makes each change count once, run keys make each
  request idempotent;
- declarative automation (``eager`` on every asset) does the ordering: a new partition is
  "newly missing" and gets materialized once its upstream exists, and an updated corpus or
  question set flows down to every bot version's scores, reports and the leaderboard;
- schedules re-evaluate the newest version of each bot nightly and everything weekly,
  asking HTTP bots every question again (tag ``ragpipe/reask``).
"""

import hashlib
import json
from pathlib import Path

import dagster as dg

from ragpipe.core.bots import load_bot_config, version_order
from ragpipe.core.schemas import InputError, InputErrors
from ragpipe.defs.evaluation.assets import REASK_TAG
from ragpipe.defs.jobs import dataset_job, evaluation_job
from ragpipe.defs.partitions import bot_version_keys, bot_versions, dataset_keys, datasets
from ragpipe.defs.resources import ProjectPaths

RUNNING = dg.DefaultSensorStatus.RUNNING


def file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def folder_hash(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def _diff(old: dict[str, str], new: dict[str, str]) -> tuple[list[str], list[str], list[str]]:
    added = sorted(k for k in new if k not in old)
    changed = sorted(k for k in new if k in old and old[k] != new[k])
    deleted = sorted(k for k in old if k not in new)
    return added, changed, deleted


@dg.sensor(job=evaluation_job, default_status=RUNNING, minimum_interval_seconds=15)
def bot_config_sensor(context: dg.SensorEvaluationContext, paths: ProjectPaths) -> dg.SensorResult:
    """Watches data/bots/: a new valid config becomes a bot_versions partition (automation
    then evaluates it on every dataset); a changed config re-evaluates that version on every
    dataset; a deleted config or an invalid one is reported in the sensor's log."""
    seen = json.loads(context.cursor or "{}")
    current = {key: file_hash(paths.bot_file(key)) for key in bot_version_keys(paths.data)}
    added, changed, deleted = _diff(seen, current)
    valid = []
    for key in added + changed:
        try:
            load_bot_config(paths.bot_file(key))
            valid.append(key)
        except (InputError, InputErrors) as exc:
            context.log.error(f"bot config {key} not evaluated: {exc}")
    for key in deleted:
        context.log.warning(f"bot config {key} was deleted; its partition and results are kept for history")
    known = set(context.instance.get_dynamic_partitions(bot_versions.name))
    new_partitions = [k for k in valid if k not in known]
    dataset_partitions = context.instance.get_dynamic_partitions(datasets.name)
    runs = [
        dg.RunRequest(run_key=f"{key}:{current[key]}:{dataset}",
                      partition_key=dg.MultiPartitionKey({"dataset": dataset, "bot": key}))
        for key in valid if key in known for dataset in dataset_partitions
    ]
    return dg.SensorResult(
        run_requests=runs,
        dynamic_partitions_requests=[bot_versions.build_add_request(new_partitions)] if new_partitions else [],
        cursor=json.dumps(current, sort_keys=True),
    )


@dg.sensor(job=dataset_job, default_status=RUNNING, minimum_interval_seconds=15)
def dataset_sensor(context: dg.SensorEvaluationContext, paths: ProjectPaths) -> dg.SensorResult:
    """Watches data/datasets/: a new folder becomes a datasets partition (automation then
    prepares and evaluates it); changed files re-prepare it, and the update flows down to
    every bot version's evaluation."""
    seen = json.loads(context.cursor or "{}")
    current = {key: folder_hash(paths.dataset_dir(key)) for key in dataset_keys(paths.data)}
    added, changed, deleted = _diff(seen, current)
    for key in deleted:
        context.log.warning(f"dataset {key} was deleted; its partition and results are kept for history")
    known = set(context.instance.get_dynamic_partitions(datasets.name))
    new_partitions = [k for k in added if k not in known]
    runs = [dg.RunRequest(run_key=f"{key}:{current[key]}", partition_key=key)
            for key in added + changed if key in known]
    return dg.SensorResult(
        run_requests=runs,
        dynamic_partitions_requests=[datasets.build_add_request(new_partitions)] if new_partitions else [],
        cursor=json.dumps(current, sort_keys=True),
    )


def newest_versions(keys: list[str]) -> list[str]:
    by_bot: dict[str, str] = {}
    for key in keys:
        bot = key.split("@", 1)[0]
        if bot not in by_bot or version_order(key) > version_order(by_bot[bot]):
            by_bot[bot] = key
    return sorted(by_bot.values())


def _evaluation_requests(context: dg.ScheduleEvaluationContext, bots: list[str], tag: str) -> list[dg.RunRequest]:
    tick = context.scheduled_execution_time.strftime("%Y-%m-%dT%H:%M")
    return [dg.RunRequest(run_key=f"{tag}:{tick}:{bot}|{dataset}",
                          partition_key=dg.MultiPartitionKey({"dataset": dataset, "bot": bot}),
                          tags={REASK_TAG: "true"})  # a re-evaluation asks HTTP bots again
            for bot in bots for dataset in context.instance.get_dynamic_partitions(datasets.name)]


@dg.schedule(job=evaluation_job, cron_schedule="0 2 * * *", default_status=dg.DefaultScheduleStatus.RUNNING)
def nightly_newest_versions(context: dg.ScheduleEvaluationContext):
    """Every night, the newest version of each bot on every dataset."""
    return _evaluation_requests(context, newest_versions(context.instance.get_dynamic_partitions(bot_versions.name)),
                                "nightly")


@dg.schedule(job=evaluation_job, cron_schedule="0 4 * * 0", default_status=dg.DefaultScheduleStatus.RUNNING)
def weekly_full_reevaluation(context: dg.ScheduleEvaluationContext):
    """Every Sunday, every bot version on every dataset."""
    return _evaluation_requests(context, context.instance.get_dynamic_partitions(bot_versions.name), "weekly")


automation_sensor = dg.AutomationConditionSensorDefinition(
    "ragpipe_automation", target=dg.AssetSelection.all(), default_status=RUNNING, minimum_interval_seconds=15)
