"""What to label next: the answers where a label teaches the most. An answer ranks high
when the metric is least certain about it (its value, or its calibrated probability,
close to the flag threshold) and when the bot versions disagree on the same question;
the picks take turns over the strata (kind of judgement × question type), so no metric
or question type is left without labels."""

from __future__ import annotations

import numpy as np
import pandas as pd

ITEM = ["question_id", "bot_version", "judged"]


def priorities(candidates: pd.DataFrame) -> pd.Series:
    """Uncertainty plus disagreement, each in [0, 1]. ``candidates`` has one row per
    (question_id, bot_version, judged) with ``margin`` (distance of the metric's value or
    probability from its decision threshold, smaller is less certain) and ``flagged``
    (the metric's call)."""
    margin = candidates["margin"].astype(float)
    spread = margin.max() or 1.0
    uncertainty = 1 - margin / spread
    share = candidates.groupby(["question_id", "judged"])["flagged"].transform("mean").astype(float)
    disagreement = 1 - (2 * share - 1).abs()
    return (uncertainty + disagreement).fillna(0)


def suggest(candidates: pd.DataFrame, labelled: pd.DataFrame, k: int = 10) -> pd.DataFrame:
    """The next ``k`` items to label, none already labelled, taking turns over the strata."""
    candidates = candidates.reset_index(drop=True)
    done = set(map(tuple, labelled[ITEM].itertuples(index=False))) if len(labelled) else set()
    todo = candidates[np.array([tuple(r) not in done for r in candidates[ITEM].itertuples(index=False)], dtype=bool)]
    todo = todo[todo["margin"].notna()].assign(priority=priorities(candidates))
    strata = [g.sort_values("priority", ascending=False, kind="mergesort")
              for _, g in todo.groupby(["judged", "question_type"], sort=True)]
    picks, depth = [], 0
    while len(picks) < k and any(depth < len(s) for s in strata):
        # the strata in order of their best remaining item, one pick from each per turn
        turn = sorted((s.iloc[depth] for s in strata if depth < len(s)), key=lambda r: -r["priority"])
        picks.extend(turn[: k - len(picks)])
        depth += 1
    return pd.DataFrame(picks, columns=[*todo.columns]).reset_index(drop=True)


def margins(values, thresholds, scale: float = 1.0) -> np.ndarray:
    """Distance of each value from its threshold, on a metric range of width ``scale``."""
    return np.abs(np.asarray(values, dtype=float) - np.asarray(thresholds, dtype=float)) / scale
