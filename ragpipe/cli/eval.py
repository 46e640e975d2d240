"""`ragpipe eval --dataset D --bot B@V`: one evaluation now, outside the scheduler, with a
progress bar on stderr and a summary table at the end. The runs go through the same jobs
as `ragpipe run`, recorded in the Dagster instance."""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
import warnings
from pathlib import Path

from ragpipe.cli.run_options import add_run_options, finish
from ragpipe.core.report.summary import Version


class ProgressBar:
    """Progress of an evaluation on stderr, step by step (answering, then each metric): the
    count is that step's questions, and "step k of n" says how far the evaluation is. On a
    terminal one bar, reset at each step; otherwise (a log file, CI) a plain line every few
    seconds and at the end of each step, since a redrawn bar leaves carriage returns in a log."""

    def __init__(self, steps: int, stream=None, line_every: float = 5.0):
        from tqdm import tqdm

        self.tqdm, self.steps, self.stream = tqdm, steps, stream or sys.stderr
        self.line_every = None if self.stream.isatty() else line_every
        self.close()

    def __call__(self, step: str, done: int, total: int) -> None:
        if step != self.step:
            self.step, self.step_number = step, self.step_number + 1
            label = f"{step} (step {self.step_number} of {self.steps})"
            if self.line_every is None:
                if self.bar is None:
                    self.bar = self.tqdm(unit="q", file=self.stream, dynamic_ncols=True)
                self.bar.reset(total=total)
                self.bar.set_description(f"{label:<44}")
        if self.bar is not None:
            self.bar.update(done - self.bar.n)
        elif time.monotonic() - self.last_line >= self.line_every or done == total:
            self.last_line = time.monotonic()
            print(f"{step}: {done}/{total} (step {self.step_number} of {self.steps})", file=self.stream, flush=True)

    def note(self, line: str) -> None:
        """A finished run: the bar stays as its last state, the line goes below it."""
        self.close()
        print(line, file=self.stream, flush=True)

    def close(self) -> None:
        if getattr(self, "bar", None) is not None:
            self.bar.close()
        self.bar, self.step, self.step_number, self.last_line = None, None, 0, -math.inf


def summary_table(evaluation: dict) -> str:
    """Per metric: mean, CI95, n, unmeasured, pass rate and the threshold check."""
    import pandas as pd

    checks = {c["metric"]: c for c in evaluation["checks"] if c["metric"]}
    rows = []
    for r in evaluation["aggregates"]:
        check = checks.get(r["metric"])
        rows.append({"metric": r["metric"] + ("" if r["higher_is_better"] else " ↓"), "mean": r["mean"],
                     "CI95": "—" if r["ci95_low"] is None else f"[{r['ci95_low']:.3f}, {r['ci95_high']:.3f}]",
                     "n": r["n"], "unmeasured": r["n_unmeasured"], "pass rate": r["pass_rate"],
                     "check": "" if check is None else ("ok" if check["passed"] else check["severity"])})
    return pd.DataFrame(rows).to_string(index=False, float_format="%.3f", na_rep="—")


def _eval(args: argparse.Namespace) -> int:
    import dagster as dg

    warnings.filterwarnings("ignore", category=dg.BetaWarning)

    from ragpipe.core.report import page_url
    from ragpipe.defs.definitions import build_defs
    from ragpipe.defs.instance import prepare_dagster_home
    from ragpipe.defs.partitions import bot_version_keys, dataset_keys
    from ragpipe.defs.runner import materialize_all

    project_dir = Path(args.project_dir).resolve()
    prepare_dagster_home(project_dir)
    defs = build_defs(project_dir)
    paths = defs.resources["paths"]
    for what, value, known in (("dataset", args.dataset, dataset_keys(paths.data)),
                               ("bot version", args.bot, bot_version_keys(paths.data))):
        if value not in known:
            print(f"unknown {what} {value!r}; known: {', '.join(known) or 'none'}", file=sys.stderr)
            return 2
    from ragpipe.core.metrics import REGISTRY

    bar = ProgressBar(steps=1 + len(REGISTRY))  # answering, then each metric
    with dg.DagsterInstance.get() as instance:
        outcomes = materialize_all(defs, instance, [args.dataset], [args.bot], progress=bar.note, reask=args.reask,
                                   on_progress=bar, force=args.force)
    data_file = paths.reports / args.dataset / args.bot / "diagnosis.json"
    versions = []
    # The report is written even when a blocking check then fails the run.
    if any("diagnosis_report" in o.materialized for o in outcomes):
        evaluation = json.loads(data_file.read_text(encoding="utf-8"))
        versions.append(Version(args.dataset, args.bot, None, None, evaluation))
        page = data_file.with_name("diagnosis.html")
        print(f"\n{args.bot} on {args.dataset}: {evaluation['n_questions']} questions, "
              f"{evaluation['n_bot_errors']} bot errors\n")
        print(summary_table(evaluation))
        print(f"\nReport: {page}\n  or {page_url(paths.reports, page)} with `ragpipe report serve`")
    return finish(outcomes, versions, args)


def register(sub) -> None:
    run = sub.add_parser("eval", help="evaluate one bot version on one dataset now, with progress and a summary")
    run.add_argument("--dataset", required=True)
    run.add_argument("--bot", required=True, help="bot version key, e.g. refbot@v2")
    add_run_options(run)
    run.set_defaults(func=_eval)
