"""The `ragpipe` command line: one module per subcommand, each with a ``register(sub)``
that adds its parser."""

from __future__ import annotations

import argparse
import sys

from ragpipe.cli import backfill, bench, evaluations, graph, label, metrics, questions, report, run, score, serve
from ragpipe.cli import eval as evaluate  # the subcommand is `eval`; the name would hide the builtin
from ragpipe.core.secrets import environment_problems

SUBCOMMANDS = (run, score, metrics, questions, graph, evaluate, evaluations, report, label, backfill, bench,
               serve)  # the order of --help


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ragpipe", description="Evaluate RAG bots with Dagster assets.")
    sub = parser.add_subparsers(dest="command", required=True)
    for module in SUBCOMMANDS:
        module.register(sub)
    args = parser.parse_args(argv)
    if problems := environment_problems():  # a credential where ragpipe would store it: before anything runs
        print("\n".join(problems), file=sys.stderr)
        return 2
    return args.func(args)
