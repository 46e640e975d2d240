"""`ragpipe evaluations list|delete`: the named evaluations (data/evaluations/<name>.yaml,
docs/evaluations.md), and deleting one with everything it produced and nothing else."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def _list(args: argparse.Namespace) -> int:
    from ragpipe.defs.definitions import build_defs
    from ragpipe.defs.partitions import invalid_evaluations, named_evaluations

    paths = build_defs(Path(args.project_dir).resolve()).resources["paths"]
    for name, e in named_evaluations(paths.data).items():
        print(f"{name}: dataset {e.dataset}, question set {e.question_set}, "
              f"bots {', '.join(e.bots) if e.bots else 'all'}, judge model {e.judge_model or 'default'}, "
              f"metrics {', '.join(e.metrics) if e.metrics else 'all'}")
    for name, problem in invalid_evaluations(paths.data).items():
        print(f"{name}: INVALID, not evaluated: {problem}")
    return 0


def delete_evaluation(defs, instance, name: str) -> list[str]:
    """Deletes the named evaluation ``name``: the runs of its partitions with their events
    (materializations, check evaluations), its partitions' Parquet files, its report pages,
    its calibration, its partition key and its file. Returns what was removed; raises
    ValueError, removing nothing, for a dataset folder's own evaluation, an unknown name or
    an evaluation with a run still queued or running."""
    import dagster as dg

    from ragpipe.core.labels.calibration import calibration_path
    from ragpipe.core.report.render import INDEX_PAGE, build_site
    from ragpipe.defs.automation import DATASET_DIMENSION_TAG, PARTITION_TAG, UNFINISHED
    from ragpipe.defs.partitions import bot_versions, datasets

    paths = defs.resources["paths"]
    if (paths.data / "datasets" / name).is_dir():
        raise ValueError(f"{name} is the dataset folder {paths.data / 'datasets' / name}: that is data, not a named "
                         "evaluation, and `evaluations delete` leaves it alone")
    file = paths.evaluation_file(name)
    if not file.exists() and name not in instance.get_dynamic_partitions(datasets.name):
        raise ValueError(f"no evaluation {name}: neither {file} nor a registered partition")
    runs = [r.dagster_run for tags in ({PARTITION_TAG: name}, {DATASET_DIMENSION_TAG: name})
            for r in instance.get_run_records(dg.RunsFilter(tags=tags))]
    if busy := [r.run_id for r in runs if r.status in UNFINISHED]:
        raise ValueError(f"{name} has {len(busy)} run(s) queued or running ({', '.join(busy)}): "
                         "wait for them or cancel them, then delete")
    removed = []
    # Dagster's own wipe: a run and its events go together. Wiping an asset's partitions
    # (DagsterInstance.wipe_asset_partitions) raises NotImplementedError on SQLite and
    # PostgreSQL storage in Dagster 1.13. Each run of ours is one partition: no other is touched.
    for run in runs:
        instance.delete_run(run.run_id)
    removed.append(f"{len(runs)} run(s) with their events (materializations, check evaluations)")
    bots = instance.get_dynamic_partitions(bot_versions.name)
    for key in defs.resolve_all_asset_keys():
        multi = isinstance(defs.resolve_assets_def(key).partitions_def, dg.MultiPartitionsDefinition)
        partitions = [dg.MultiPartitionKey({"dataset": name, "bot": b}) for b in bots] if multi else [name]
        for partition in partitions:
            stored = paths.warehouse.partition_file(key.path, partition)
            if stored.exists():
                stored.unlink()
                removed.append(str(stored))
    pages = paths.reports / name
    if pages.exists():
        pages.fs.rm(pages.path, recursive=True)
        removed.append(str(pages))
        if (paths.reports / INDEX_PAGE).exists():
            build_site(paths.reports)  # the site's list no longer names it
    calibration = calibration_path(paths.calibrations, name)  # beside the warehouse, wherever it is
    if calibration.exists():
        calibration.unlink()
        removed.append(str(calibration))
    instance.delete_dynamic_partition(datasets.name, name)
    removed.append(f"partition key {name}")
    if file.exists():
        file.unlink()
        removed.append(str(file))
    return removed


def _delete(args: argparse.Namespace) -> int:
    import dagster as dg

    from ragpipe.defs.definitions import build_defs
    from ragpipe.defs.instance import prepare_dagster_home

    project_dir = Path(args.project_dir).resolve()
    prepare_dagster_home(project_dir)
    defs = build_defs(project_dir)
    with dg.DagsterInstance.get() as instance:
        try:
            removed = delete_evaluation(defs, instance, args.name)
        except ValueError as exc:
            print(f"not deleted: {exc}", file=sys.stderr)
            return 2
    print(f"deleted evaluation {args.name}:")
    print("\n".join(f"  {item}" for item in removed))
    return 0


def register(sub) -> None:
    evaluations = sub.add_parser("evaluations", help="list or delete named evaluations (data/evaluations/)")
    commands = evaluations.add_subparsers(dest="evaluations_command", required=True)
    listing = commands.add_parser("list", help="the named evaluations and what each picks")
    listing.add_argument("--project-dir", default=".")
    listing.set_defaults(func=_list)
    delete = commands.add_parser("delete", help="delete a named evaluation: its runs, results, reports and file")
    delete.add_argument("name")
    delete.add_argument("--project-dir", default=".")
    delete.set_defaults(func=_delete)
