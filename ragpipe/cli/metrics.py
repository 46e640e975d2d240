"""`ragpipe metrics`: print the metric reference (Markdown; docs/metrics.md is its output)."""

from __future__ import annotations

import argparse


def _metrics(args: argparse.Namespace) -> int:
    from ragpipe.core.metrics import metrics_markdown

    print(metrics_markdown(), end="")
    return 0


def register(sub) -> None:
    sub.add_parser("metrics", help="print the metric reference (Markdown)").set_defaults(func=_metrics)
