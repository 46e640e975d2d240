"""Per-domain calibration: with enough yes/no labels in a dataset, map a metric's value
to the probability that a person calls the answer a failure (hallucinated, wrong), and
pick the threshold that flags it. Isotonic regression or a logistic curve, whichever
predicts held-out labels better (Brier score, k-fold cross-validation); the figures it
reports are cross-validated too, so no item is scored by a fit that saw its label."""

from __future__ import annotations

import hashlib
import json
import math

import numpy as np
import pandas as pd
from upath import UPath

from ragpipe.core.labels.agreement import auroc, f1
from ragpipe.core.storage import location

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
    return {"positives": int(y.sum()), "negatives": int(len(y) - y.sum()),
            "auroc_before": auroc(x, y), "f1_before": f1(shipped_flags, y),
            "auroc_after": auroc(probability, y), "f1_after": f1(flagged, y),
            "brier_before": float(np.mean((1 - np.asarray(values, dtype=float) - y) ** 2)),
            "brier_after": float(np.mean((probability - y) ** 2))}


def auroc_standard_error(a: float, n_pos: int, n_neg: int) -> float:
    """Hanley and McNeil's (1982) standard error of an AUROC ``a`` over these counts."""
    q1, q2 = a / (2 - a), 2 * a * a / (1 + a)
    return math.sqrt(max(a * (1 - a) + (n_pos - 1) * (q1 - a * a) + (n_neg - 1) * (q2 - a * a), 0) / (n_pos * n_neg))


def beats_shipped(cv: dict) -> bool:
    """Whether, out of fold on its labels, the domain calibration flags better than the
    shipped flag (F1) and predicts better (Brier score), without ranking worse (AUROC).
    A monotone curve cannot rank better; refitted per fold it ties and reorders a few
    items, so the AUROC may fall within its standard error, not beyond (fitted on few or
    uninformative labels it falls far: 0.665 to 0.362 on RAGTruth summaries)."""
    noise = auroc_standard_error(cv["auroc_before"], cv["positives"], cv["negatives"])
    return cv["f1_after"] > cv["f1_before"] and cv["brier_after"] < cv["brier_before"] \
        and cv["auroc_after"] >= cv["auroc_before"] - noise


def calibrate(dataset: str, metric: str, judged: str, values, positives, shipped_flags) -> dict:
    """A dataset's calibration of one metric, named by what it was fitted on, with its
    cross-validated agreement before and after, and whether it is ``used``: only where it
    beats the shipped one (``beats_shipped``); otherwise the scores keep the shipped
    probabilities and flags, exactly."""
    x = -np.asarray(values, dtype=float)
    fitted = fit_domain(x, np.asarray(positives, dtype=float))
    cv = cross_validated(values, positives, shipped_flags)
    digest = hashlib.sha256(json.dumps([dataset, metric, fitted], sort_keys=True).encode()).hexdigest()[:10]
    return {"id": f"{dataset}/{metric}/{fitted['method']}-{digest}", "dataset": dataset, "metric": metric,
            "judged": judged, "n_labels": int(len(x)), "positives": int(np.sum(positives)), **fitted,
            "cv": cv, "used": beats_shipped(cv)}


def failure_probability(calibration: dict, values) -> np.ndarray:
    """P(a person calls the answer a failure) for metric values, by a stored calibration."""
    return predict(calibration, -np.asarray(values, dtype=float))


SHIPPED = "shipped"  # the calibration that ships with the verifier (ragpipe/core/evidence/calibration.json)


def calibration_path(folder, dataset: str) -> UPath:
    """A dataset's calibrations in ``folder`` (``ProjectPaths.calibrations``: shared state,
    a local folder or an fsspec URL that every machine of a cluster reads)."""
    return location(folder) / f"{dataset}.json"


def load_calibrations(folder, dataset: str) -> dict[str, dict]:
    """A dataset's calibrations in use, by metric (empty until one beats the shipped one)."""
    path = calibration_path(folder, dataset)
    fitted = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    return {metric: c for metric, c in fitted.items() if c.get("used")}


def calibration_hash(folder, dataset: str) -> str:
    """Of the calibrations a dataset's scores use: an input of every version's evaluation."""
    found = load_calibrations(folder, dataset)
    return hashlib.sha256(json.dumps(found, sort_keys=True).encode()).hexdigest()[:16] if found else SHIPPED


def with_calibration(frame: pd.DataFrame, calibration: dict | None) -> pd.DataFrame:
    """A score frame whose rows name the calibration they used. With a domain calibration
    in use, a calibrated metric's rows also get the probability that a person calls the
    answer a failure, and the flag by the calibration's threshold; without one (None, or
    one that does not beat the shipped one) the rows are the metric's own, unchanged."""
    if calibration is None or not calibration.get("used"):
        return frame.assign(calibration=SHIPPED)
    probability = failure_probability(calibration, frame["value"])
    flags = [None if np.isnan(p) else bool(p >= calibration["threshold"]) for p in probability]
    return frame.assign(calibration=calibration["id"], failure_probability=probability,
                        flagged=pd.array(flags, dtype="boolean"))
