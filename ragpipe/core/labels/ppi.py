"""Prediction-powered inference of a mean (Angelopoulos et al., 2023, as ARES uses it,
with the power tuning of PPI++): the metric's predictions on every item, corrected by the
gap between people and the metric on the labelled items. The interval is valid whatever
the metric's quality, provided the labelled items are a random sample of the items; a
good metric makes it narrower than the labels alone give."""

from __future__ import annotations

import math

import numpy as np

Z95 = 1.959964
# Fewer labelled items make the normal interval meaningless (three labels that agree give a
# zero-width one): the mean is then not given.
MIN_LABELLED = 10


def ppi_mean(labels, predicted_labelled, predicted_all) -> dict:
    """The labelled quantity's mean over all items, with its CI95.

    ``labels`` and ``predicted_labelled`` are the people's values and the metric's on the
    labelled items; ``predicted_all`` the metric's on every item (labelled ones included).
    The weight λ of the predictions minimises the variance (λ = 1 is classic PPI, 0 the
    labels alone)."""
    y, f = np.asarray(labels, dtype=float), np.asarray(predicted_labelled, dtype=float)
    f_all = np.asarray(predicted_all, dtype=float)
    n, big_n = len(y), len(f_all)
    if n < MIN_LABELLED or big_n < 2:
        return {"mean": math.nan, "ci95_low": math.nan, "ci95_high": math.nan, "n_labels": n, "weight": math.nan}
    var_f = float(np.var(f_all, ddof=1))
    weight = 0.0 if var_f == 0 else float(np.clip(np.cov(y, f)[0, 1] / ((1 + n / big_n) * var_f), 0, 1))
    mean = weight * f_all.mean() + (y - weight * f).mean()
    se = math.sqrt(weight ** 2 * var_f / big_n + np.var(y - weight * f, ddof=1) / n)
    return {"mean": float(mean), "ci95_low": float(mean - Z95 * se), "ci95_high": float(mean + Z95 * se),
            "n_labels": n, "weight": weight}


def labels_only_mean(labels) -> dict:
    """The classical CI95 of the labelled items' mean, for comparison."""
    y = np.asarray(labels, dtype=float)
    se = math.sqrt(np.var(y, ddof=1) / len(y)) if len(y) > 1 else math.nan
    return {"mean": float(y.mean()) if len(y) else math.nan, "ci95_low": float(y.mean() - Z95 * se),
            "ci95_high": float(y.mean() + Z95 * se), "n_labels": len(y)}


# The answer-level judgement behind each metric's mean, and the label on the metric's scale.
ON_METRIC_SCALE = {
    "faithfulness": ("hallucinated", lambda v: 1 - v),  # the share of answers a person finds faithful
    "answer_correctness": ("answer_correct", lambda v: v),
    "llm_judge": ("rating", lambda v: v),
    "rubric_1_10": ("rubric", lambda v: v),
}
NO_LABELS = {"ppi_mean": math.nan, "ppi_ci95_low": math.nan, "ppi_ci95_high": math.nan, "n_labels": 0}


def prediction_powered(labels, metric: str, values) -> dict:
    """The prediction-powered mean of ``metric`` for one bot version: ``labels`` is the
    human_labels frame (each label with the metric's value for its item), ``values`` the
    metric's value for every question. Several annotators of one item count as their mean."""
    if labels is None or metric not in ON_METRIC_SCALE:
        return dict(NO_LABELS)
    judged, to_scale = ON_METRIC_SCALE[metric]
    mine = labels[(labels["judged"] == judged) & labels["metric_value"].notna()]
    items = mine.groupby("question_id").agg(y=("value", "mean"), f=("metric_value", "first"))
    measured = np.asarray(values, dtype=float)
    result = ppi_mean(to_scale(items["y"].to_numpy()), items["f"].to_numpy(), measured[~np.isnan(measured)])
    return {"ppi_mean": result["mean"], "ppi_ci95_low": result["ci95_low"], "ppi_ci95_high": result["ci95_high"],
            "n_labels": result["n_labels"]}
