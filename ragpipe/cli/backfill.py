"""`ragpipe backfill`: re-evaluate every registered bot version of a dataset (a named
evaluation: each of its own) as one Dagster backfill, which the daemon runs."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ragpipe.cli.run_options import REASK_HELP
from ragpipe.core.schemas import InputError, InputErrors


def _backfill(args: argparse.Namespace) -> int:
    """Every registered bot version of one dataset, as one Dagster backfill (the daemon runs it)."""
    import json
    import subprocess

    import dagster as dg

    from ragpipe.defs.cluster import cluster_run_tags
    from ragpipe.defs.definitions import build_defs
    from ragpipe.defs.evaluation.assets import REASK_TAG
    from ragpipe.defs.instance import prepare_dagster_home
    from ragpipe.defs.partitions import bot_versions

    project_dir = Path(args.project_dir).resolve()
    prepare_dagster_home(project_dir)
    paths = build_defs(project_dir).resources["paths"]
    with dg.DagsterInstance.get() as instance:
        registered = instance.get_dynamic_partitions(bot_versions.name)
    try:  # a named evaluation: only its own bot versions
        bots = [b for b in paths.bots_of(args.dataset, registered) if not args.bot or b in args.bot]
    except (InputError, InputErrors) as exc:
        print(f"not backfilled: {exc}", file=sys.stderr)
        return 2
    if not bots:
        print("no bot versions registered yet: run `ragpipe run` or start the daemon first", file=sys.stderr)
        return 1
    keys = ",".join(f"{bot}|{args.dataset}" for bot in bots)
    # The daemon launches the queued runs from its own workspace, whose code location is
    # "ragpipe": the project's workspace.yaml, else the one beside this package.
    workspace = project_dir / "workspace.yaml"
    if not workspace.exists():
        workspace = Path(__file__).resolve().parents[2] / "workspace.yaml"
    command = [str(Path(sys.executable).parent / "dagster"), "job", "backfill", "-w", str(workspace),
               "-j", "evaluate_bot_version", "--partitions", keys, "--noprompt"]
    # The runs of a backfill get none of the job's run tags: the Dask tag that queues runs
    # one at a time per scheduler comes from here.
    if tags := {**cluster_run_tags(), **({REASK_TAG: "true"} if args.reask else {})}:
        command += ["--tags", json.dumps(tags)]
    print(f"backfilling {len(bots)} bot version(s) on {args.dataset}: {', '.join(bots)}", flush=True)
    done = subprocess.run(command, cwd=project_dir, capture_output=True, text=True)
    # The code server the command starts logs its start and stop at INFO (it has no option
    # to lower that): shown only when the backfill failed.
    lines = (done.stdout + done.stderr).splitlines()
    if done.returncode == 0:
        lines = [line for line in lines if " - dagster.code_server - " not in line]
    print("\n".join(line for line in lines if line.strip()), file=sys.stderr if done.returncode else sys.stdout)
    return done.returncode


def register(sub) -> None:
    backfill = sub.add_parser("backfill", help="re-evaluate every bot version of a dataset (a Dagster backfill)")
    backfill.add_argument("--dataset", required=True, help="a dataset folder or a named evaluation")
    backfill.add_argument("--bot", action="append", help="only these bot versions (repeatable)")
    backfill.add_argument("--project-dir", default=".")
    backfill.add_argument("--reask", action="store_true", help=REASK_HELP)
    backfill.set_defaults(func=_backfill)
