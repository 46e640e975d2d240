"""`ragpipe run`: materialize the whole asset graph for every dataset and bot version, then
print each dataset's leaderboard."""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import pandas as pd

from ragpipe.cli.eval import REASK_HELP


def leaderboard_text(dataset: str, frame: pd.DataFrame) -> str:
    """One dataset's leaderboard for the terminal: means, the versions that fail a blocking
    check (ranked after those that pass), and the paired differences from the baseline."""
    from ragpipe.core.metrics import REGISTRY

    frame = frame.dropna(axis=1, how="all")
    metrics = [c for c in frame.columns if c in REGISTRY]
    blocked = frame[frame["blocked"]] if "blocked" in frame else frame.iloc[:0]
    lines = [f"\nLeaderboard for {dataset} (mean per metric; unmeasured metrics left out):",
             frame[["rank", "bot_version", "overall", *(["failed_checks"] if len(blocked) else []), *metrics]]
             .to_string(index=False, float_format="%.3f")]
    lines += [f"{row['bot_version']} fails the blocking check {row['failed_checks']} (significantly worse than "
              f"{row['baseline']} in {row['significant_drops']}): ranked after the versions that pass it"
              for row in blocked.to_dict("records")]
    lines += [f"{bot} is not ranked: its scores are stale, they came from a config that is no longer valid "
              f"({problem})" for bot, problem in frame.attrs.get("stale", {}).items()]
    deltas = [c for c in frame.columns if c.startswith("Δ") and c.endswith("_ci95")]
    if deltas:
        lines += ["Paired difference from the baseline version, CI95 (bootstrap over questions):",
                  frame[["bot_version", "baseline", *deltas]].dropna(subset=deltas, how="all")
                  .rename(columns=lambda c: c.removesuffix("_ci95")).to_string(index=False)]
    return "\n".join(lines)


def _run(args: argparse.Namespace) -> int:
    import dagster as dg

    warnings.filterwarnings("ignore", category=dg.BetaWarning)  # partition mappings, data versions

    from ragpipe.defs.definitions import build_defs
    from ragpipe.defs.instance import prepare_dagster_home, ui_command
    from ragpipe.defs.runner import exit_code, materialize_all

    project_dir = Path(args.project_dir).resolve()
    home = prepare_dagster_home(project_dir)
    defs = build_defs(project_dir)
    started = time.perf_counter()
    with dg.DagsterInstance.get() as instance:
        outcomes = materialize_all(defs, instance, args.dataset, args.bot, reask=args.reask)
    paths = defs.resources["paths"]
    print(f"\n{sum(o.success for o in outcomes)}/{len(outcomes)} runs succeeded in "
          f"{time.perf_counter() - started:.1f} s")
    for dataset in paths.warehouse.partitions(["leaderboard"]):
        if paths.dataset_dir(dataset).is_dir():
            print(leaderboard_text(dataset, paths.warehouse.stored(["leaderboard"], dataset)))
        else:  # the dataset was deleted: its last leaderboard is history, not a current result
            print(f"\nNo leaderboard for {dataset}: its folder {paths.dataset_dir(dataset)} is gone; the last one "
                  f"is kept in {paths.warehouse.partition_file(['leaderboard'], dataset)}")
    print(f"\nReports (HTML, browse with `ragpipe report serve`): {paths.reports / 'index.html'}")
    print(f"Asset values (Parquet, one file per partition): {paths.warehouse_dir}")
    print("Browse the same runs, lineage and reports in the Dagster UI:")
    print(f"  {ui_command(project_dir, home)}")
    failed = [o for o in outcomes if not o.success]
    if failed:
        print(f"\n{len(failed)} run(s) failed; the others completed:", file=sys.stderr)
        for outcome in failed:
            print(f"  {outcome.job} [{outcome.partition}]: {outcome.error}", file=sys.stderr)
    return exit_code(outcomes)


def register(sub) -> None:
    run = sub.add_parser("run", help="materialize the whole asset graph for every dataset and bot version")
    run.add_argument("--project-dir", default=".", help="folder holding data/ and dagster.yaml (default: .)")
    run.add_argument("--dataset", action="append", help="only this dataset (repeatable)")
    run.add_argument("--bot", action="append", help="only this bot version, e.g. refbot@v2 (repeatable)")
    run.add_argument("--reask", action="store_true", help=REASK_HELP)
    run.set_defaults(func=_run)
