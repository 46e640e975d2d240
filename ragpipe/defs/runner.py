"""Materialize the whole asset graph for every dataset and bot version found on disk,
recording each run in the Dagster instance (so `dagster dev` shows the same results).
A failing dataset or bot version is reported and the others still run."""

from __future__ import annotations

import textwrap
from contextlib import nullcontext
from dataclasses import dataclass

import dagster as dg

from ragpipe.core.report.summary import WIDTH
from ragpipe.defs.automation import (
    INPUTS_TAG,
    PARTITION_TAG,
    dataset_inputs,
    evaluation_inputs,
    labels_changed_at,
    labels_read,
    leaderboard_inputs,
    outdated_reports,
    prepared_versions,
    scorer,
)
from ragpipe.core.inputs.bot_config import MAX_NAME
from ragpipe.core.labels.calibration import calibration_hash
from ragpipe.defs.evaluation.assets import REASK_TAG, config_problem
from ragpipe.defs.jobs import dataset_job, evaluation_job, labels_job, leaderboard_job
from ragpipe.defs.liveness import fail_dead_runs, held_run_lock
from ragpipe.defs.partitions import (ambiguous_bot_files, bot_version_keys, invalid_evaluations, misnamed_inputs,
                                     sync_partitions)
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
    fresh: bool = False  # not run again: an earlier run with the same inputs stands

    def report(self) -> str:
        """'ok     evaluate_bot_version [refbot@v1|policy_zh]', and the error below it, wrapped to
        the summary's width."""
        status = "fresh " if self.fresh else "ok    " if self.success else "FAILED"
        lines = [f"{status} {self.job} [{self.partition}]"]
        for line in (self.error or "").splitlines():
            lines += textwrap.wrap(line, WIDTH, initial_indent=" " * 7, subsequent_indent=" " * 9,
                                   break_on_hyphens=False)
        return "\n".join(lines)

    @property
    def blocked(self) -> bool:
        """Failed only because a blocking quality check failed: the evaluation itself ran."""
        return not self.success and bool(self.error) and all(
            line.startswith(BLOCKED) for line in self.error.splitlines())


BLOCKED = "blocked by "
# Exit codes of `ragpipe run` and `eval`: a version held back by a quality gate is a finding,
# not a broken run, so a CI job can tell the two apart.
EXIT_FAILED, EXIT_BLOCKED = 1, 3


def _failure_message(checks: list[dg.AssetCheckEvaluation], step_failures: list[dg.DagsterEvent]) -> str:
    # A failed blocking check stops the run after its step stored its value: say which and why.
    messages = [f"{BLOCKED}{c.check_name}: {c.description or 'failed'}" for c in checks
                if c.blocking and not c.passed and c.severity == dg.AssetCheckSeverity.ERROR]
    for event in step_failures:
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
    error = None if result.success else _failure_message(result.get_asset_check_evaluations(),
                                                         result.get_step_failure_events())
    return RunOutcome(job_name, str(partition), result.success, result.run_id, error, materialized)


def _fresh(instance: dg.DagsterInstance, job_name: str, partition, inputs: str | None) -> RunOutcome | None:
    """The outcome of the newest finished run of this job and partition with these inputs,
    when running again would do the same: it succeeded, or it failed only on a blocking
    check. None when there is none, or it failed otherwise (a bot that was down: try again)."""
    if inputs is None:
        return None
    records = instance.get_run_records(dg.RunsFilter(
        job_name=job_name, tags={PARTITION_TAG: str(partition), INPUTS_TAG: inputs},
        statuses=[dg.DagsterRunStatus.SUCCESS, dg.DagsterRunStatus.FAILURE]), limit=1)
    if not records:
        return None
    run = records[0].dagster_run
    events = [r.event_log_entry.dagster_event for r in instance.get_records_for_run(run.run_id, of_type={
        dg.DagsterEventType.ASSET_MATERIALIZATION, dg.DagsterEventType.ASSET_CHECK_EVALUATION,
        dg.DagsterEventType.STEP_FAILURE}).records]
    materialized = tuple(sorted({e.asset_key.to_user_string() for e in events if e.is_step_materialization}))
    outcome = RunOutcome(job_name, str(partition), run.status == dg.DagsterRunStatus.SUCCESS, run.run_id,
                         materialized=materialized, fresh=True)
    if not outcome.success:
        outcome.error = _failure_message([e.asset_check_evaluation_data for e in events
                                          if e.event_type == dg.DagsterEventType.ASSET_CHECK_EVALUATION],
                                         [e for e in events if e.is_step_failure])
    return outcome if outcome.success or outcome.blocked else None


def materialize_all(defs: dg.Definitions, instance: dg.DagsterInstance,
                    only_datasets: list[str] | None = None, only_bots: list[str] | None = None,
                    progress=print, reask: bool = False, on_progress: Listener | None = None,
                    force: bool = False) -> list[RunOutcome]:
    """``progress`` gets a line per finished run; ``on_progress`` (step, done, total) follows
    the evaluation steps while they run. ``reask``: the evaluations ask HTTP bots every
    question again (REASK_TAG). A job and partition whose inputs (the ``ragpipe/inputs``
    hash the sensor uses) have a finished run already is not run again, unless ``force``."""
    paths: ProjectPaths = defs.resources["paths"]
    scoring = scorer(defs.resources["embedder"], defs.resources["llm"])
    for run in fail_dead_runs(instance):  # killed earlier: its pool slots would block these runs
        progress(f"marked failed: {run.job_name} [{run.tags.get('dagster/partition')}], its process died")
    dataset_keys, bot_keys = sync_partitions(instance, paths.data)
    # A dataset asked for by name whose folder is gone, or no dataset at all, is an error:
    # reporting "0/0 runs" and the old leaderboard would pass stale results off as current.
    invalid = invalid_evaluations(paths.data)
    missing = [paths.data / "datasets" / d for d in only_datasets or []
               if d not in dataset_keys and d not in invalid and not (paths.data / "datasets" / d).is_dir()]
    if not dataset_keys and not only_datasets:
        missing.append(paths.data / "datasets")
    dataset_keys = [d for d in dataset_keys if not only_datasets or d in only_datasets]
    bot_keys = [b for b in bot_keys if not only_bots or b in only_bots]
    outcomes, tags = [], {REASK_TAG: "true"} if reask else None

    def record(outcome: RunOutcome) -> RunOutcome:
        outcomes.append(outcome)
        progress(outcome.report())
        return outcome

    def run(job_name: str, partition, inputs: str | None, run_tags=None, listener=None) -> RunOutcome:
        # A reask opens a new answer round: that is new work whatever the inputs.
        fresh = None if force or run_tags else _fresh(instance, job_name, partition, inputs)
        return record(fresh or _execute(defs, instance, job_name, partition, inputs, run_tags, listener))

    for path in misnamed_inputs(paths.data):
        expected = "a folder name" if path.is_dir() else "a file name <bot>@<version>.yaml"
        record(RunOutcome("register_partition", path.name, False,
                          error=f"{path}: not registered; expected {expected} of letters, digits, _ . - "
                                f"(at most {MAX_NAME} characters each)"))
    for name, problem in invalid.items():
        if not only_datasets or name in only_datasets:
            record(RunOutcome("register_partition", name, False, error=f"not evaluated: {problem}"))
    for folder in missing:
        record(RunOutcome(dataset_job.name, folder.name, False,
                          error=f"{folder}: no dataset folder (deleted?); results of earlier runs are history, "
                                "not current"))
    for bot, problem in ambiguous_bot_files(paths.data).items():
        if not only_bots or bot in only_bots:
            record(RunOutcome("register_partition", bot, False, error=f"{paths.data / 'bots'}: {problem}"))
    for dataset in dataset_keys:
        if not run(dataset_job.name, dataset, dataset_inputs(paths, dataset)).success:
            continue
        versions = prepared_versions(instance, dataset)
        labelled = labels_changed_at(paths, dataset)  # no quiet period: the person asked for this run
        for _ in range(2):  # again if the pass fitted a new calibration: every version is scored with it
            calibration = calibration_hash(paths.calibrations, dataset)
            for bot in paths.bots_of(dataset, bot_keys):
                partition = dg.MultiPartitionKey({"dataset": dataset, "bot": bot})
                outcome = run(evaluation_job.name, partition, evaluation_inputs(paths, dataset, bot, versions, scoring),
                              tags, on_progress)
                if outcome.fresh and not labels_read(instance, str(partition), labelled):  # new labels only
                    run(labels_job.name, partition, None)
                elif outcome.fresh and (reports := outdated_reports(instance, str(partition))):  # new report code
                    run(labels_job.name, partition, reports)
            if calibration_hash(paths.calibrations, dataset) == calibration:
                break
        # A version that failed a blocking check has aggregates: the leaderboard ranks and flags it.
        if any("aggregate_scores" in o.materialized for o in outcomes
               if o.job in (evaluation_job.name, labels_job.name) and o.partition.endswith(f"|{dataset}")):
            valid = [b for b in paths.bots_of(dataset, bot_version_keys(paths.data)) if config_problem(paths, b) is None]
            inputs = leaderboard_inputs(instance, dataset, valid)
            run(leaderboard_job.name, dataset, inputs)
    return outcomes
