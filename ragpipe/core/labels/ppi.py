"""Prediction-powered inference of a mean (Angelopoulos et al., 2023, as ARES uses it,
with the power tuning of PPI++): the metric's predictions on every item, corrected by the
gap between people and the metric on the labelled items. The interval is valid whatever
the metric's quality, provided the labelled items are a random sample of the items; a
good metric makes it narrower than the labels alone give.

The interval holds for a few labels too. The normal interval plugs in the labels' sample
variance, which is 0 when they all agree (20 labels that all say "faithful" gave
[1.000, 1.000]). Here, as in Wilson's interval for a proportion, the interval is every
mean m that a z-test at m does not reject, with the labels' variance at m taken as the
largest a variable on the label scale [lo, hi] can have with mean m, (m - lo)(hi - m)
(exact for yes/no labels), times the share the metric cannot explain, 1 - rho^2. With
labels that all agree rho is unknown (0) and the interval is Wilson's."""

from __future__ import annotations

import math

import numpy as np

from ragpipe.core.labels.reading import KINDS

Z95 = 1.959964
# Fewer labelled items give no interval worth showing: the mean is then not given.
MIN_LABELLED = 10
GRID = 4001  # candidate means tested across the label scale: a 0.00025 step on [0, 1]


def _interval(estimate: float, fixed_variance: float, residual_variance: float, unexplained: float, n: int,
              scale: tuple[float, float]) -> tuple[float, float]:
    """The means m in ``scale`` that a z-test does not reject: (estimate - m)^2 <= Z95^2 v(m),
    v(m) = fixed_variance + max(residual_variance, unexplained (m - lo)(hi - m)) / n."""
    lo, hi = scale
    m = np.linspace(lo, hi, GRID)
    variance = fixed_variance + np.maximum(residual_variance, unexplained * (m - lo) * (hi - m)) / n
    kept = m[(estimate - m) ** 2 <= Z95 ** 2 * variance]
    if not len(kept):  # the estimate is off the scale by more than the interval reaches: the nearest end
        nearest = float(np.clip(estimate, lo, hi))
        return nearest, nearest
    return float(kept.min()), float(kept.max())


def ppi_mean(labels, predicted_labelled, predicted_all, scale: tuple[float, float] = (0.0, 1.0),
             tuned: bool = True) -> dict:
    """The labelled quantity's mean over all items, with its CI95.

    ``labels`` and ``predicted_labelled`` are the people's values and the metric's on the
    labelled items; ``predicted_all`` the metric's on every item (labelled ones included);
    ``scale`` the range of a label. The weight λ of the predictions minimises the variance
    (λ = 1 is classic PPI, 0 the labels alone; ``tuned=False`` fixes it at 0)."""
    y, f = np.asarray(labels, dtype=float), np.asarray(predicted_labelled, dtype=float)
    f_all = np.asarray(predicted_all, dtype=float)
    n, big_n = len(y), len(f_all)
    if n < MIN_LABELLED or big_n < 2:
        return {"mean": math.nan, "ci95_low": math.nan, "ci95_high": math.nan, "n_labels": n, "weight": math.nan}
    var_f, var_y = float(np.var(f_all, ddof=1)), float(np.var(y, ddof=1))
    covariance = float(np.cov(y, f)[0, 1])
    weight = 0.0 if not tuned or var_f == 0 else float(np.clip(covariance / ((1 + n / big_n) * var_f), 0, 1))
    var_f_labelled = float(np.var(f, ddof=1))
    rho2 = covariance ** 2 / (var_y * var_f_labelled) if weight and var_y and var_f_labelled else 0.0
    mean = weight * f_all.mean() + (y - weight * f).mean()
    low, high = _interval(mean, weight ** 2 * var_f / big_n, float(np.var(y - weight * f, ddof=1)),
                          1 - min(rho2, 1.0), n, scale)
    return {"mean": float(mean), "ci95_low": low, "ci95_high": high, "n_labels": n, "weight": weight}


def labels_only_mean(labels, scale: tuple[float, float] = (0.0, 1.0)) -> dict:
    """The labelled items' mean with the same interval and no predictions (Wilson's, for yes/no)."""
    y = np.asarray(labels, dtype=float)
    return ppi_mean(y, y, y, scale, tuned=False)


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
    scale = KINDS[judged].scale or (0, 1)
    mine = labels[(labels["judged"] == judged) & labels["metric_value"].notna()]
    items = mine.groupby("question_id").agg(y=("value", "mean"), f=("metric_value", "first"))
    measured = np.asarray(values, dtype=float)
    result = ppi_mean(to_scale(items["y"].to_numpy()), items["f"].to_numpy(), measured[~np.isnan(measured)],
                      scale)
    return {"ppi_mean": result["mean"], "ppi_ci95_low": result["ci95_low"], "ppi_ci95_high": result["ci95_high"],
            "n_labels": result["n_labels"]}
