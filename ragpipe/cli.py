"""The `ragpipe` command line."""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import pandas as pd


def _run(args: argparse.Namespace) -> int:
    import dagster as dg

    warnings.filterwarnings("ignore", category=dg.BetaWarning)  # partition mappings, data versions

    from ragpipe.defs.definitions import build_defs
    from ragpipe.defs.instance import prepare_dagster_home
    from ragpipe.defs.runner import materialize_all

    project_dir = Path(args.project_dir).resolve()
    home = prepare_dagster_home(project_dir)
    defs = build_defs(project_dir)
    started = time.perf_counter()
    with dg.DagsterInstance.get() as instance:
        outcomes = materialize_all(defs, instance, args.dataset, args.bot)
    paths = defs.resources["paths"]
    warehouse = Path(defs.resources["io_manager"].base_path)
    print(f"\n{sum(o.success for o in outcomes)}/{len(outcomes)} runs succeeded in "
          f"{time.perf_counter() - started:.1f} s")
    for board in sorted((warehouse / "leaderboard").glob("*.parquet")):
        frame = pd.read_parquet(board)
        print(f"\nLeaderboard for {board.stem}:")
        metrics = [c for c in frame.columns if c not in ("rank", "bot_version", "overall") and not c.endswith("_ci95")]
        print(frame[["rank", "bot_version", "overall", *metrics]].to_string(index=False, float_format="%.3f"))
    print(f"\nReports (HTML and JSON): {paths.reports}")
    for html in sorted(paths.reports.glob("*/*/diagnosis.html")):
        print(f"  {html}")
    print(f"Asset values (Parquet, one file per partition): {warehouse}")
    print("Browse the same runs, lineage and reports in the Dagster UI:")
    print(f"  DAGSTER_HOME={home} {Path(sys.executable).parent / 'dagster'} dev -w {project_dir / 'workspace.yaml'}")
    failed = [o for o in outcomes if not o.success]
    if failed:
        print(f"\n{len(failed)} run(s) failed; the others completed:", file=sys.stderr)
        for outcome in failed:
            print(f"  {outcome.job} [{outcome.partition}]: {outcome.error}", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ragpipe", description="Evaluate RAG bots with Dagster assets.")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="materialize the whole asset graph for every dataset and bot version")
    run.add_argument("--project-dir", default=".", help="folder holding data/ and dagster.yaml (default: .)")
    run.add_argument("--dataset", action="append", help="only this dataset (repeatable)")
    run.add_argument("--bot", action="append", help="only this bot version, e.g. refbot@v2 (repeatable)")
    run.set_defaults(func=_run)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
