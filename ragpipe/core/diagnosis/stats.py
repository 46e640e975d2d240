"""Aggregate per-question scores: mean with a bootstrap CI95, counts, pass rate."""

from __future__ import annotations

import math

import numpy as np

BOOTSTRAP_RESAMPLES = 2000


def bootstrap_ci(values: np.ndarray, resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0) -> tuple[float, float]:
    """Percentile bootstrap CI95 of the mean; seeded so a re-run gives the same interval."""
    if len(values) == 0:
        return math.nan, math.nan
    if len(values) == 1:
        return float(values[0]), float(values[0])
    rng = np.random.default_rng(seed)
    means = values[rng.integers(0, len(values), size=(resamples, len(values)))].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return float(low), float(high)


def summarize(values, higher_is_better: bool, pass_threshold: float | None) -> dict:
    array = np.asarray(values, dtype=float)
    measured = array[~np.isnan(array)]
    low, high = bootstrap_ci(measured)
    if pass_threshold is None or len(measured) == 0:
        pass_rate = math.nan
    elif higher_is_better:
        pass_rate = float((measured >= pass_threshold).mean())
    else:
        pass_rate = float((measured <= pass_threshold).mean())
    return {
        "mean": float(measured.mean()) if len(measured) else math.nan,
        "ci95_low": low,
        "ci95_high": high,
        "n": int(len(measured)),
        "n_unmeasured": int(len(array) - len(measured)),
        "pass_rate": pass_rate,
    }


def paired_bootstrap(candidate, baseline, resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0) -> dict:
    """Mean of per-question differences (candidate − baseline) over the questions both
    measured, with a percentile-bootstrap CI95 that resamples questions, not scores."""
    a, b = np.asarray(candidate, dtype=float), np.asarray(baseline, dtype=float)
    both = ~np.isnan(a) & ~np.isnan(b)
    diffs = a[both] - b[both]
    low, high = bootstrap_ci(diffs, resamples, seed)
    return {"mean_diff": float(diffs.mean()) if len(diffs) else math.nan,
            "ci95_low": low, "ci95_high": high, "n_pairs": int(both.sum())}


SIGN_FLIPS = 10_000


def drop_p_value(candidate, baseline, higher_is_better: bool, flips: int = SIGN_FLIPS, seed: int = 0) -> float:
    """One-sided p-value that the candidate is worse than the baseline, by a paired sign-flip
    test over the questions both measured: with no difference between the versions, each
    per-question difference is as likely positive as negative, so flipping signs at random
    gives the mean's null distribution. Its level holds for any number of questions (the
    percentile bootstrap's does not, with 20 or so). NaN when no question has both."""
    a, b = np.asarray(candidate, dtype=float), np.asarray(baseline, dtype=float)
    both = ~np.isnan(a) & ~np.isnan(b)
    better = (a[both] - b[both]) * (1 if higher_is_better else -1)  # > 0: the candidate is better
    if not len(better):
        return math.nan
    rng = np.random.default_rng(seed)
    observed, as_low = better.mean(), 0
    for start in range(0, flips, 1000):  # in blocks: memory stays small for long question sets
        signs = rng.integers(0, 2, size=(min(1000, flips - start), len(better))) * 2.0 - 1.0
        as_low += int(((signs * better).mean(axis=1) <= observed + 1e-12).sum())
    return (1 + as_low) / (1 + flips)


def holm(p_values: dict[str, float]) -> dict[str, float]:
    """Holm's step-down adjusted p-values: rejecting where one is at most alpha keeps the
    chance of any false rejection among these tests at most alpha, whatever their dependence."""
    adjusted, running = {}, 0.0
    for i, name in enumerate(sorted(p_values, key=p_values.get)):
        running = max(running, min(1.0, (len(p_values) - i) * p_values[name]))
        adjusted[name] = running
    return adjusted
