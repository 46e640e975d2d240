"""How well a metric agrees with people: AUROC and F1 for yes/no labels, Spearman and
the share within ±1 point for ratings, and Cohen's kappa between annotators on the items
two of them labelled. Plain numpy, so the pipeline needs no scikit-learn."""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np
import pandas as pd

from ragpipe.core.labels.reading import KINDS


def average_ranks(values) -> np.ndarray:
    """1-based ranks, ties sharing their average rank."""
    values = np.asarray(values, dtype=float)
    _, inverse, counts = np.unique(values, return_inverse=True, return_counts=True)
    ends = np.cumsum(counts)
    return ((ends - counts + 1 + ends) / 2)[inverse]


def auroc(scores, positives) -> float:
    """The probability that a random positive scores above a random negative (ties ½)."""
    scores, positives = np.asarray(scores, dtype=float), np.asarray(positives, dtype=bool)
    n_pos, n_neg = int(positives.sum()), int((~positives).sum())
    if not n_pos or not n_neg:
        return math.nan
    ranks = average_ranks(scores)
    return float((ranks[positives].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def f1(predicted, positives) -> float:
    predicted, positives = np.asarray(predicted, dtype=bool), np.asarray(positives, dtype=bool)
    denominator = int(predicted.sum() + positives.sum())
    return 2 * int((predicted & positives).sum()) / denominator if denominator else math.nan


def spearman(a, b) -> float:
    a, b = average_ranks(a), average_ranks(b)
    if len(a) < 3 or a.std() == 0 or b.std() == 0:
        return math.nan
    return float(np.corrcoef(a, b)[0, 1])


def cohen_kappa(a, b) -> float:
    """Agreement of two raters beyond chance, over the categories either used."""
    a, b = np.asarray(a), np.asarray(b)
    if not len(a):
        return math.nan
    categories = np.union1d(a, b)
    observed = float((a == b).mean())
    expected = float(sum((a == c).mean() * (b == c).mean() for c in categories))
    return 1.0 if expected == 1 else (observed - expected) / (1 - expected)


def annotator_pairs(labels: pd.DataFrame) -> tuple[list, list]:
    """The two values of every pair of annotators who labelled the same item."""
    first, second = [], []
    item = ["question_id", "bot_version", "judged", "statement"]
    for _, group in labels.assign(statement=labels["statement"].fillna(-1)).groupby(item):
        latest = group.drop_duplicates("annotator", keep="last")  # a changed mind counts once
        for (_, x), (_, y) in combinations(latest.iterrows(), 2):
            first.append(x["value"])
            second.append(y["value"])
    return first, second


def agreement(labels: pd.DataFrame) -> list[dict]:
    """One row per kind of judgement present: counts and the figures its scale allows.
    ``labels`` carries the metric's view of each labelled item: ``metric_value`` (on the
    label's scale for ratings) and, for yes/no, ``flagged`` (the metric's own call)."""
    rows = []
    for judged, group in labels.groupby("judged", sort=False):
        kind = KINDS[judged]
        pairs = annotator_pairs(group)
        row = {"judged": judged, "metric": kind.metric, "labels": len(group),
               "annotators": int(group["annotator"].nunique()), "double_labelled": len(pairs[0]),
               "kappa": cohen_kappa(*pairs) if pairs[0] else math.nan}
        measured = group[group["metric_value"].notna()]
        row.update(measured=len(measured), positives=None, auroc=math.nan, f1=math.nan, spearman=math.nan,
                   within_one=math.nan)  # every row has every figure: NaN where the scale has none
        if kind.binary:
            positive = measured["value"] == float(kind.positive)
            row.update(positives=int(positive.sum()), auroc=auroc(-measured["metric_value"], positive),
                       f1=f1(measured["flagged"].astype(bool), positive))
        else:
            gap = (measured["metric_value"] - measured["value"]).abs()
            row.update(spearman=spearman(measured["metric_value"], measured["value"]),
                       within_one=float((gap <= 1).mean()) if len(gap) else math.nan)
        rows.append(row)
    return rows


def below(rows: list[dict], minimum: dict[str, float]) -> list[str]:
    """Each figure under its configured minimum, as 'judged figure value < minimum'."""
    out = []
    for row in rows:
        for figure, floor in minimum.items():
            value = row.get(figure)
            if value is not None and not math.isnan(value) and value < floor:
                out.append(f"{row['judged']} {figure} {value:.3f} < {floor}")
    return out
