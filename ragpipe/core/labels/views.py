"""The metric's side of each labelled item (its value on the label's scale and its own
yes/no call), and the unlabelled items a person could label next."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd

from ragpipe.core.labels.calibration import failure_probability
from ragpipe.core.labels.reading import KINDS
from ragpipe.core.labels.suggest import margins
from ragpipe.core.metrics.answer_correctness import ANSWER_CORRECTNESS_WRONG_THRESHOLD

# The value at which a metric flags the failure a yes/no label names, when its details do not say.
FLAG_BELOW = {"faithfulness": 0.5, "answer_correctness": ANSWER_CORRECTNESS_WRONG_THRESHOLD}


def _details(row) -> dict:
    return json.loads(row["details"]) if isinstance(row.get("details"), str) else {}


def judged_value(judged: str, row: dict, statement: int | None = None) -> tuple[float, bool | None, float]:
    """The metric's view of one item: (value on the label's scale, flagged, threshold)."""
    kind, value = KINDS[judged], row.get("value")
    details = _details(row)
    if judged == "supported":
        verdicts = details.get("statements", [])
        if statement is None or not 0 <= statement < len(verdicts):
            return math.nan, None, math.nan
        return float(verdicts[statement]["score"]), not verdicts[statement]["supported"], 0.5
    if kind.dimension:
        value = details.get(kind.dimension)
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return math.nan, None, math.nan
    if not kind.binary:
        return float(value), None, (kind.scale[0] + kind.scale[1]) / 2
    threshold = details.get("hallucination_threshold", FLAG_BELOW[kind.metric])
    return float(value), bool(details.get("hallucinated", value < threshold)), float(threshold)


def metric_view(labels: pd.DataFrame, scores: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """``labels`` of one bot version with ``metric_value`` and ``flagged`` from its scores
    (NaN and None where the metric has no measured value for the item)."""
    by_metric = {name: frame.set_index("question_id") for name, frame in scores.items() if frame is not None}
    values, flags = [], []
    for label in labels.to_dict("records"):
        frame = by_metric.get(KINDS[label["judged"]].metric)
        if frame is None or label["question_id"] not in frame.index:
            values.append(math.nan)
            flags.append(None)
            continue
        statement = None if pd.isna(label["statement"]) else int(label["statement"])
        value, flagged, _ = judged_value(label["judged"], frame.loc[label["question_id"]].to_dict(), statement)
        values.append(value)
        flags.append(flagged)
    return labels.assign(metric_value=np.array(values, dtype=float), flagged=pd.array(flags, dtype="boolean"))


def candidates(bot_version: str, scores: dict[str, pd.DataFrame], question_types: dict[str, str]) -> pd.DataFrame:
    """Every measured answer of one bot version, once per kind of answer-level judgement
    its metrics can be checked on, with the metric's margin from its threshold (on the
    metric's range) and its call."""
    rows = []
    for judged, kind in KINDS.items():
        frame = scores.get(kind.metric)
        if judged == "supported" or frame is None:
            continue
        scale = kind.scale[1] - kind.scale[0] if kind.scale else 1.0
        for row in frame.to_dict("records"):
            value, flagged, threshold = judged_value(judged, row)
            if not math.isnan(value):
                rows.append({"question_id": row["question_id"], "bot_version": bot_version, "judged": judged,
                             "question_type": question_types.get(row["question_id"], ""), "metric": kind.metric,
                             "metric_value": value, "flagged": bool(flagged) if kind.binary else value < threshold,
                             "margin": float(margins([value], [threshold], scale)[0])})
    return pd.DataFrame(rows, columns=["question_id", "bot_version", "judged", "question_type", "metric",
                                       "metric_value", "flagged", "margin"])


def labelling_pool(evaluations: dict[str, tuple[dict[str, pd.DataFrame], dict[str, str]]],
                   calibrations: dict[str, dict]) -> pd.DataFrame:
    """The candidates of every bot version (bot version -> its scores and the question
    types); where the dataset has its own calibration of a metric, certainty is the
    calibrated probability's distance from the calibrated threshold."""
    frames = [candidates(bot, scores, types) for bot, (scores, types) in evaluations.items()]
    pool = pd.concat(frames, ignore_index=True) if frames else candidates("", {}, {})
    for metric, calibration in calibrations.items():
        mine = pool["metric"] == metric
        pool.loc[mine, "margin"] = np.abs(failure_probability(calibration, pool.loc[mine, "metric_value"])
                                          - calibration["threshold"])
    return pool
