"""`ragpipe bench gate`: how often the regression gate blocks a version that did not change
(false alarms), and how often it blocks one that got worse (detection), under the rule in
use and under the rule before it (any metric whose paired-bootstrap CI95 lies wholly on the
worse side of zero). Per-question scores come from a project's warehouse, so run
`ragpipe run` first.

False alarms: one version's questions are split at random into two halves, paired at
random and compared as baseline and candidate: two "versions" with no real difference.
Detection: a version that is worse than another on gate metrics (by default refbot@v1
against refbot@v2, whose context recall is 0.11-0.14 lower) on random subsets of as many
questions as a half above, so both rates are at the same number of pairs."""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

from ragpipe.core.diagnosis.stats import paired_bootstrap
from ragpipe.core.verdict import compare_versions, significant_drop
from ragpipe.core.metrics import REGISTRY


def load_scores(warehouse: Path, bot: str, dataset: str) -> dict[str, pd.DataFrame]:
    """Per metric, a version's per-question scores (question_id, value), in question order."""
    out = {}
    for name in REGISTRY:
        path = warehouse / "scores" / name / bot / f"{dataset}.parquet"
        if path.is_file():
            out[name] = pd.read_parquet(path, columns=["question_id", "value"]).sort_values("question_id")
    return out


def verdicts(candidate: dict, baseline: dict) -> tuple[bool, bool]:
    """(the rule before blocks, the rule in use blocks)."""
    before = False
    for name, metric in REGISTRY.items():
        if name in candidate and name in baseline:
            paired = candidate[name].merge(baseline[name], on="question_id", suffixes=("", "_b"))
            before |= significant_drop(paired_bootstrap(paired["value"], paired["value_b"]), metric.higher_is_better)
    now = any(c["significant_drop"] for c in compare_versions(candidate, baseline).values())
    return before, now


def _subset(scores: dict, ids: list[str], new_ids: list[str] | None = None) -> dict:
    """The scores of questions ``ids`` (in that order), renamed to ``new_ids`` to pair them."""
    out = {}
    for name, frame in scores.items():
        part = frame.set_index("question_id").reindex(ids).reset_index()
        part["question_id"] = new_ids or ids
        out[name] = part
    return out


def split_null(scores: dict, rng: np.random.Generator) -> tuple[dict, dict]:
    ids = list(next(iter(scores.values()))["question_id"])
    order = list(rng.permutation(ids))
    half = len(order) // 2
    pairs = [f"p{i}" for i in range(half)]
    return _subset(scores, order[half:2 * half], pairs), _subset(scores, order[:half], pairs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ragpipe bench gate")
    parser.add_argument("--warehouse", type=Path, default=Path(".ragpipe/warehouse"),
                        help="the project's warehouse, after `ragpipe run` (default: .ragpipe/warehouse)")
    parser.add_argument("--draws", type=int, default=200, help="random splits or subsets per case")
    parser.add_argument("--worse", default="refbot@v1", help="the version that is worse (detection)")
    parser.add_argument("--better", default="refbot@v2", help="its baseline for detection")
    args = parser.parse_args(argv)

    rng = np.random.default_rng(0)
    datasets = sorted(p.stem for p in (args.warehouse / "scores" / "faithfulness" / args.worse).glob("*.parquet"))
    print(f"regression gate, {args.draws} draws per case; 'before': any metric's CI95 wholly worse than 0; "
          "'now': the gate in use (evaluation.yaml)")
    print(f"{'case':<50} {'pairs':>5}  {'before':>7}  {'now':>7}")
    totals = {"false alarm": np.zeros(2), "detection": np.zeros(2)}
    counts = {"false alarm": 0, "detection": 0}
    for dataset in datasets:
        cases = [(f"false alarm: {bot} split in two", "false alarm", load_scores(args.warehouse, bot, dataset), None)
                 for bot in (args.worse, args.better)]
        cases.append((f"detection: {args.worse} vs {args.better}", "detection",
                      load_scores(args.warehouse, args.worse, dataset), load_scores(args.warehouse, args.better, dataset)))
        for label, kind, scores, baseline in cases:
            fired = np.zeros(2)
            ids = list(next(iter(scores.values()))["question_id"])
            for _ in range(args.draws):
                if baseline is None:
                    candidate, base = split_null(scores, rng)
                else:
                    chosen = list(rng.choice(ids, size=len(ids) // 2, replace=False))
                    candidate, base = _subset(scores, chosen), _subset(baseline, chosen)
                fired += verdicts(candidate, base)
            totals[kind] += fired
            counts[kind] += args.draws
            print(f"{dataset + ' ' + label:<50} {len(ids) // 2:>5}  {fired[0] / args.draws:>7.1%}  "
                  f"{fired[1] / args.draws:>7.1%}")
    for kind, fired in totals.items():
        if counts[kind]:
            print(f"{kind + ', all cases':<50} {'':>5}  {fired[0] / counts[kind]:>7.1%}  {fired[1] / counts[kind]:>7.1%}")
    return 0
