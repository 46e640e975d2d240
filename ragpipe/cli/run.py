"""`ragpipe run`: materialize the whole asset graph for every dataset and bot version, then
print each dataset's ranked versions; exit non-zero when a run fails (1) or a check that
blocks a release fails (3)."""

from __future__ import annotations

import argparse
import textwrap
import time
import warnings
from pathlib import Path

from ragpipe.cli.run_options import add_run_options, finish, ui_command
from ragpipe.core.report.summary import WIDTH, load_versions, terminal_summary


def _run(args: argparse.Namespace) -> int:
    import dagster as dg

    warnings.filterwarnings("ignore", category=dg.BetaWarning)  # partition mappings, data versions

    from ragpipe.defs.definitions import build_defs
    from ragpipe.defs.instance import prepare_dagster_home
    from ragpipe.defs.partitions import dataset_keys
    from ragpipe.defs.runner import materialize_all

    project_dir = Path(args.project_dir).resolve()
    home = prepare_dagster_home(project_dir)
    defs = build_defs(project_dir)
    started = time.perf_counter()
    with dg.DagsterInstance.get() as instance:
        outcomes = materialize_all(defs, instance, args.dataset, args.bot, reask=args.reask, force=args.force)
    paths = defs.resources["paths"]
    fresh = sum(o.fresh for o in outcomes)
    print(f"\n{sum(o.success for o in outcomes)}/{len(outcomes)} runs succeeded in "
          f"{time.perf_counter() - started:.1f} s ({len(outcomes) - fresh} launched, {fresh} fresh"
          f"{': inputs unchanged, --force runs them' if fresh else ''})\n")
    versions, current = [], dataset_keys(paths.data)
    for dataset in paths.warehouse.partitions(["leaderboard"]):
        if args.dataset and dataset not in args.dataset:
            continue
        if dataset not in current:  # deleted (or now invalid): its last leaderboard is history, not a result
            gone = f"its evaluation file {paths.evaluation_file(dataset)}" if paths.evaluation_file(dataset).exists() \
                else f"its folder {paths.data / 'datasets' / dataset}"
            print(f"No leaderboard for {dataset}: {gone} is gone or invalid; the last one "
                  f"is kept in {paths.warehouse.partition_file(['leaderboard'], dataset)}\n")
            continue
        board = paths.warehouse.stored(["leaderboard"], dataset)
        ranked = load_versions(paths.reports, dataset, board)
        versions += [v for v in ranked if not args.bot or v.bot_version in args.bot]  # the gate judges these
        print(terminal_summary(dataset, ranked, paths.reports / dataset / "compare.html", args.fail_on))
        for bot, problem in board.attrs.get("stale", {}).items():
            print(textwrap.fill(f"{bot} is not ranked: its scores came from a config that is no longer valid "
                                f"({problem})", WIDTH, initial_indent="  ", subsequent_indent="    "))
        print()
    print(f"Reports (HTML; `ragpipe report serve` serves them): {paths.reports / 'index.html'}")
    print(f"Asset values (Parquet, one file per partition): {paths.warehouse_dir}")
    print("The same runs, lineage and reports in the Dagster UI:")
    print(f"  {ui_command(home, project_dir)}")
    return finish(outcomes, versions, args)


def register(sub) -> None:
    run = sub.add_parser("run", help="materialize the whole asset graph for every dataset and bot version")
    run.add_argument("--dataset", action="append", help="only this dataset (repeatable)")
    run.add_argument("--bot", action="append", help="only this bot version, e.g. refbot@v2 (repeatable)")
    add_run_options(run)
    run.set_defaults(func=_run)
