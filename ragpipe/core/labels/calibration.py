"""Per-domain calibration: with enough yes/no labels in a dataset, map a metric's value
to the probability that a person calls the answer a failure (hallucinated, wrong), and
pick the threshold that flags it. Isotonic regression or a logistic curve, whichever
predicts held-out labels better (Brier score, k-fold cross-validation); the figures it
reports are cross-validated too, so no item is scored by a fit that saw its label."""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd

from ragpipe.core.labels.agreement import auroc, f1

FOLDS = 5


def _pav(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Isotonic (non-decreasing) fit by pool-adjacent-violators over the distinct x: the
    knots of a curve flat over each pooled block and linear between blocks."""
    unique, inverse, counts = np.unique(x, return_inverse=True, return_counts=True)
    sums = np.bincount(inverse, weights=y)
    blocks = []  # [sum y, count, first x, last x]
    for xi, total, n in zip(unique, sums, counts):
        blocks.append([total, n, xi, xi])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] >= blocks[-1][0] / blocks[-1][1]:
            last = blocks.pop()
            blocks[-1] = [blocks[-1][0] + last[0], blocks[-1][1] + last[1], blocks[-1][2], last[3]]
    knots = [(edge, total / n) for total, n, first, last in blocks for edge in dict.fromkeys((first, last))]
    return np.array([k[0] for k in knots]), np.array([k[1] for k in knots])


def _logistic(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3, steps: int = 50) -> tuple[float, float]:
    """Intercept and slope of P(y) = 1 / (1 + exp(-(a + b x))) by Newton's method."""
    design = np.column_stack([np.ones_like(x), x])
    w = np.zeros(2)
    for _ in range(steps):
        p = 1 / (1 + np.exp(-design @ w))
        gradient = design.T @ (p - y) + ridge * w
        hessian = design.T @ (design * (p * (1 - p))[:, None]) + ridge * np.eye(2)
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return float(w[0]), float(w[1])


def fit_curve(method: str, x, y) -> dict:
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if method == "isotonic":
        knots_x, knots_y = _pav(x, y)
        return {"method": method, "x": knots_x.tolist(), "y": knots_y.tolist()}
    a, b = _logistic(x, y)
    return {"method": method, "intercept": a, "slope": b}


def predict(curve: dict, x) -> np.ndarray:
    x = np.asarray(x, dtype=float)
    if curve["method"] == "isotonic":
        return np.interp(x, curve["x"], curve["y"])
    return 1 / (1 + np.exp(-(curve["intercept"] + curve["slope"] * x)))


def folds(n: int, k: int = FOLDS, seed: int = 0) -> list[np.ndarray]:
    return np.array_split(np.random.default_rng(seed).permutation(n), min(k, n))


def out_of_fold(x, y, fit, k: int = FOLDS) -> np.ndarray:
    """Each item's prediction from ``fit(x_train, y_train)`` (a function of x), trained on the other folds."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    out = np.full(len(x), math.nan)
    for held in folds(len(x), k):
        train = np.setdiff1d(np.arange(len(x)), held)
        out[held] = fit(x[train], y[train])(x[held])
    return out


def best_threshold(probabilities, positives) -> float:
    """The probability at or above which flagging maximises F1."""
    probabilities = np.asarray(probabilities, dtype=float)
    candidates = np.unique(probabilities)
    scores = [f1(probabilities >= t, positives) for t in candidates]
    return float(candidates[int(np.nanargmax(scores))]) if len(candidates) else 0.5


def fit_domain(x, y) -> dict:
    """The curve (method chosen by cross-validated Brier score) and its flag threshold
    (chosen on out-of-fold probabilities). ``x`` grows with the failure's likelihood."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    brier = {m: float(np.mean((out_of_fold(x, y, lambda a, b, m=m: lambda z: predict(fit_curve(m, a, b), z)) - y) ** 2))
             for m in ("isotonic", "logistic")}
    method = min(brier, key=brier.get)
    threshold = best_threshold(out_of_fold(x, y, lambda a, b: lambda z: predict(fit_curve(method, a, b), z)), y)
    return {**fit_curve(method, x, y), "threshold": threshold, "cv_brier": brier}


def cross_validated(values, positives, shipped_flags) -> dict:
    """Agreement before (the metric's value and its shipped flag) and after the domain
    calibration, each item judged by a calibration fitted on the other folds."""
    x, y = -np.asarray(values, dtype=float), np.asarray(positives, dtype=float)
    probability, flagged = np.full(len(x), math.nan), np.zeros(len(x), dtype=bool)
    for held in folds(len(x)):
        train = np.setdiff1d(np.arange(len(x)), held)
        calibration = fit_domain(x[train], y[train])
        probability[held] = predict(calibration, x[held])
        flagged[held] = probability[held] >= calibration["threshold"]
    return {"auroc_before": auroc(x, y), "f1_before": f1(shipped_flags, y),
            "auroc_after": auroc(probability, y), "f1_after": f1(flagged, y),
            "brier_before": float(np.mean((1 - np.asarray(values, dtype=float) - y) ** 2)),
            "brier_after": float(np.mean((probability - y) ** 2))}


def calibrate(dataset: str, metric: str, judged: str, values, positives, shipped_flags) -> dict:
    """A dataset's calibration of one metric, named by what it was fitted on, with its
    cross-validated agreement before and after."""
    x = -np.asarray(values, dtype=float)
    fitted = fit_domain(x, np.asarray(positives, dtype=float))
    cv = cross_validated(values, positives, shipped_flags)
    flagged = np.asarray(shipped_flags, dtype=bool)
    # A domain threshold that flags worse than the shipped flag out of fold is not used: the
    # flag stays the metric's own (faithfulness's reads more than the value: how many statements).
    fitted["threshold_from"] = "domain" if not cv["f1_after"] < cv["f1_before"] or not flagged.any() else "shipped"
    digest = hashlib.sha256(json.dumps([dataset, metric, fitted], sort_keys=True).encode()).hexdigest()[:10]
    return {"id": f"{dataset}/{metric}/{fitted['method']}-{digest}", "dataset": dataset, "metric": metric,
            "judged": judged, "n_labels": int(len(x)), "positives": int(np.sum(positives)), **fitted,
            "cv": cv}


def failure_probability(calibration: dict, values) -> np.ndarray:
    """P(a person calls the answer a failure) for metric values, by a stored calibration."""
    return predict(calibration, -np.asarray(values, dtype=float))


def calibration_path(output_dir, dataset: str) -> Path:
    return Path(output_dir) / "calibrations" / f"{dataset}.json"


def load_calibrations(output_dir, dataset: str) -> dict[str, dict]:
    """A dataset's calibrations by metric (empty until it has enough labels)."""
    path = calibration_path(output_dir, dataset)
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


SHIPPED = "shipped"  # the calibration that ships with the verifier (ragpipe/core/evidence/calibration.json)


def with_calibration(frame: pd.DataFrame, calibration: dict | None) -> pd.DataFrame:
    """A score frame whose rows name the calibration they used; a calibrated metric's rows
    also get the probability that a person calls the answer a failure, and the flag."""
    if calibration is None:
        return frame.assign(calibration=SHIPPED)
    probability = failure_probability(calibration, frame["value"])
    if calibration.get("threshold_from") == "shipped":
        flags = [None if np.isnan(p) else shipped_flag(calibration["metric"], v, d)
                 for p, v, d in zip(probability, frame["value"], frame.get("details", [None] * len(frame)))]
    else:
        flags = [None if np.isnan(p) else bool(p >= calibration["threshold"]) for p in probability]
    return frame.assign(calibration=calibration["id"], failure_probability=probability,
                        flagged=pd.array(flags, dtype="boolean"))


def shipped_flag(metric: str, value: float, details) -> bool:
    """The metric's own flag of a score row: faithfulness's hallucinated (in its details),
    else the value below the metric's decision threshold."""
    found = json.loads(details) if isinstance(details, str) else details or {}
    if "hallucinated" in found:
        return bool(found["hallucinated"])
    from ragpipe.core.labels.views import FLAG_BELOW

    return bool(value < FLAG_BELOW.get(metric, 0.5))
