"""Materialize the whole asset graph for every dataset and bot version found on disk,
recording each run in the Dagster instance (so `dagster dev` shows the same results).
A failing dataset or bot version is reported and the others still run."""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass

import dagster as dg

from ragpipe.defs.automation import (
    INPUTS_TAG,
    dataset_inputs,
    evaluation_inputs,
    leaderboard_inputs,
    prepared_versions,
)
from ragpipe.defs.evaluation.assets import REASK_TAG, config_problem
from ragpipe.defs.jobs import dataset_job, evaluation_job, leaderboard_job
from ragpipe.defs.liveness import held_run_lock
from ragpipe.defs.partitions import ambiguous_bot_files, bot_version_keys, misnamed_inputs, sync_partitions
from ragpipe.defs.progress import Listener, following
from ragpipe.defs.resources import ProjectPaths


# Progress goes to our own output; the event log keeps the detail for the UI.
QUIET = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}}


@dataclass
class RunOutcome:
    job: str
    partition: str
    success: bool
    run_id: str | None = None
    error: str | None = None
    materialized: tuple[str, ...] = ()  # asset keys, also of a run that failed afterwards

    @property
    def blocked(self) -> bool:
        """Failed only because a blocking quality check failed: the evaluation itself ran."""
        return not self.success and bool(self.error) and all(
            line.startswith(BLOCKED) for line in self.error.splitlines())


BLOCKED = "blocked by "
# Exit codes of `ragpipe run` and `eval`: a version held back by a quality gate is a finding,
# not a broken run, so a CI job can tell the two apart.
EXIT_FAILED, EXIT_BLOCKED = 1, 3


def exit_code(outcomes: list[RunOutcome]) -> int:
    failed = [o for o in outcomes if not o.success]
    return EXIT_FAILED if any(not o.blocked for o in failed) else EXIT_BLOCKED if failed else 0


def _failure_message(result: dg.ExecuteInProcessResult) -> str:
    # A failed blocking check stops the run after its step stored its value: say which and why.
    messages = [f"{BLOCKED}{c.check_name}: {c.description or 'failed'}" for c in result.get_asset_check_evaluations()
                if c.blocking and not c.passed and c.severity == dg.AssetCheckSeverity.ERROR]
    for event in result.get_step_failure_events():
        data = event.step_failure_data
        if data.error and data.error.cls_name == "DagsterAssetCheckFailedError" and messages:
            continue
        text = data.user_failure_data.description if data.user_failure_data else None
        messages.append(f"{event.step_key}: {text or data.error.message.strip()}")
    return "\n".join(messages) or "run failed"


def _execute(defs: dg.Definitions, instance: dg.DagsterInstance, job_name: str, partition,
             inputs: str | None, tags: dict[str, str] | None = None, on_progress: Listener | None = None) -> RunOutcome:
    job = defs.resolve_job_def(job_name)
    # Tagged with the hash of its inputs, as the sensor tags its runs: the daemon sees this work as done.
    with held_run_lock(instance) as (run_id, lock_tags), \
            following(instance, run_id, on_progress) if on_progress else nullcontext():
        result = job.execute_in_process(
            instance=instance, partition_key=partition, raise_on_error=False, run_config=QUIET, run_id=run_id,
            tags={**({INPUTS_TAG: inputs} if inputs else {}), **(tags or {}), **lock_tags})
    materialized = tuple(sorted({e.asset_key.to_user_string() for e in result.get_asset_materialization_events()}))
    return RunOutcome(job_name, str(partition), result.success, result.run_id,
                      None if result.success else _failure_message(result), materialized)


def materialize_all(defs: dg.Definitions, instance: dg.DagsterInstance,
                    only_datasets: list[str] | None = None, only_bots: list[str] | None = None,
                    progress=print, reask: bool = False, on_progress: Listener | None = None) -> list[RunOutcome]:
    """``progress`` gets a line per finished run; ``on_progress`` (step, done, total) follows
    the evaluation steps while they run. ``reask``: the evaluations ask HTTP bots every
    question again (REASK_TAG)."""
    paths: ProjectPaths = defs.resources["paths"]
    dataset_keys, bot_keys = sync_partitions(instance, paths.data)
    # A dataset asked for by name whose folder is gone, or no dataset at all, is an error:
    # reporting "0/0 runs" and the old leaderboard would pass stale results off as current.
    missing = [paths.dataset_dir(d) for d in only_datasets or [] if not paths.dataset_dir(d).is_dir()]
    if not dataset_keys and not only_datasets:
        missing.append(paths.data / "datasets")
    dataset_keys = [d for d in dataset_keys if not only_datasets or d in only_datasets]
    bot_keys = [b for b in bot_keys if not only_bots or b in only_bots]
    outcomes, tags = [], {REASK_TAG: "true"} if reask else None

    def record(outcome: RunOutcome) -> RunOutcome:
        outcomes.append(outcome)
        progress(f"{'ok    ' if outcome.success else 'FAILED'} {outcome.job} [{outcome.partition}]"
                 + (f"\n       {outcome.error}" if outcome.error else ""))
        return outcome

    for path in misnamed_inputs(paths.data):
        expected = "a folder name" if path.is_dir() else "a file name <bot>@<version>.yaml"
        record(RunOutcome("register_partition", path.name, False,
                          error=f"{path}: not registered; expected {expected} of letters, digits, _ . -"))
    for folder in missing:
        record(RunOutcome(dataset_job.name, folder.name, False,
                          error=f"{folder}: no dataset folder (deleted?); results of earlier runs are history, "
                                "not current"))
    for bot, problem in ambiguous_bot_files(paths.data).items():
        if not only_bots or bot in only_bots:
            record(RunOutcome("register_partition", bot, False, error=f"{paths.data / 'bots'}: {problem}"))
    for dataset in dataset_keys:
        if not record(_execute(defs, instance, dataset_job.name, dataset, dataset_inputs(paths, dataset))).success:
            continue
        versions = prepared_versions(instance, dataset)
        for bot in bot_keys:
            record(_execute(defs, instance, evaluation_job.name, dg.MultiPartitionKey({"dataset": dataset, "bot": bot}),
                            evaluation_inputs(paths, bot, versions), tags, on_progress))
        # A version that failed a blocking check has aggregates: the leaderboard ranks and flags it.
        if any("aggregate_scores" in o.materialized for o in outcomes
               if o.job == evaluation_job.name and o.partition.endswith(f"|{dataset}")):
            valid = [b for b in bot_version_keys(paths.data) if config_problem(paths, b) is None]
            inputs = leaderboard_inputs(instance, dataset, valid)
            record(_execute(defs, instance, leaderboard_job.name, dataset, inputs))
    return outcomes
