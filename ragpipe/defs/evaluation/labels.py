"""People in the loop: the human_labels asset (a dataset's labels of one bot version, with
the metrics' view of each labelled item and their agreement), the per-dataset calibration
it fits when there are enough labels, and the check that warns when people and metrics
disagree."""

import json

import dagster as dg
import pandas as pd

from ragpipe.core.config import load_config
from ragpipe.core.labels.agreement import agreement, below
from ragpipe.core.labels.calibration import calibrate, calibration_path
from ragpipe.core.labels.reading import KINDS, load_labels
from ragpipe.core.labels.views import metric_view
from ragpipe.core.report.data import clean
from ragpipe.core.storage import atomic_write
from ragpipe.defs.code_versions import code_version
from ragpipe.defs.evaluation.assets import DATASET_INPUT, dataset_and_bot
from ragpipe.defs.partitions import evaluations, partitioned_check
from ragpipe.defs.resources import ProjectPaths

LABELLED_METRICS = sorted({kind.metric for kind in KINDS.values()})
LABEL_SCORE_INS = {f"score_{m}": dg.AssetIn(key=["scores", m]) for m in LABELLED_METRICS}
CALIBRATED = ("hallucinated", "answer_correct")  # answer-level yes/no judgements a metric's value predicts
AGREEMENT_CHECK = "labels_agree_with_metrics"


def _fit_calibrations(paths: ProjectPaths, dataset: str, labels: pd.DataFrame,
                      own: tuple[str, dict[str, pd.DataFrame]]) -> dict[str, dict]:
    """Fit each answer-level yes/no judgement with enough measured labels, over every bot
    version's labels (the other versions' scores as stored), and keep them for scoring."""
    views = []
    for bot, group in labels[labels["judged"].isin(CALIBRATED)].groupby("bot_version"):
        key = dg.MultiPartitionKey({"dataset": dataset, "bot": bot})
        scores = own[1] if bot == own[0] else {m: paths.warehouse.stored(["scores", m], key) for m in LABELLED_METRICS}
        views.append(metric_view(group, scores))
    view = pd.concat(views) if views else pd.DataFrame(columns=[*labels.columns, "metric_value", "flagged"])
    fitted = {}
    minimum = load_config().labels.min_labels_for_calibration
    for judged in CALIBRATED:
        rows = view[(view["judged"] == judged) & view["metric_value"].notna()]
        positive = rows["value"] == float(KINDS[judged].positive)
        if len(rows) >= minimum and 0 < positive.sum() < len(rows):
            fitted[KINDS[judged].metric] = calibrate(dataset, KINDS[judged].metric, judged, rows["metric_value"],
                                                     positive, rows["flagged"].astype(bool))
    path, text = calibration_path(paths.calibrations, dataset), json.dumps(fitted, indent=1, sort_keys=True)
    if not path.is_file() or path.read_text(encoding="utf-8") != text:  # unchanged: the evaluations stay current
        atomic_write(path, text.encode())  # written whole: two versions' runs may race
    return fitted


def _table(rows: list[dict]) -> str:
    return pd.DataFrame(rows).to_markdown(index=False, floatfmt=".3f") if rows else "no labels"


@dg.asset(partitions_def=evaluations, group_name="labels", kinds={"parquet"},
          code_version=code_version("reports"),
          ins={"question_set": dg.AssetIn(**DATASET_INPUT), **LABEL_SCORE_INS})
def human_labels(context: dg.AssetExecutionContext, paths: ProjectPaths, question_set: pd.DataFrame,
                 **score_inputs: pd.DataFrame) -> pd.DataFrame:
    """The people's labels of this bot version's answers, read from the dataset's
    labels/ folder (CSV, JSONL, XLSX), each with the metric's value and call for the
    item; agreement per kind of judgement (AUROC and F1, Spearman and the share within
    ±1 point, Cohen's kappa between annotators). With enough yes/no labels in the
    dataset it fits the dataset's own calibration, which every version's next scoring
    uses where it beats the shipped one out of fold (a changed calibration re-evaluates
    every version of the dataset). Bad
    label rows are listed with file, line and field and the others are kept."""
    dataset, bot_version = dataset_and_bot(context)
    labels, problems = load_labels(paths.dataset_dir(dataset), set(question_set["question_id"]))
    scores = {m: score_inputs[f"score_{m}"] for m in LABELLED_METRICS}
    view = metric_view(labels[labels["bot_version"] == bot_version].reset_index(drop=True), scores)
    rows = agreement(view)
    calibrations = _fit_calibrations(paths, dataset, labels, (bot_version, scores))
    cv = [{"metric": m, "method": c["method"], "n_labels": c["n_labels"], **c["cv"],
           "used": "domain" if c["used"] else "shipped"} for m, c in calibrations.items()]
    view.attrs.update(agreement=rows, problems=[str(p) for p in problems], calibrations=cv)
    context.add_output_metadata({
        "labels": len(view), "labels_in_dataset": len(labels), "problems": len(problems),
        **({"label_problems": dg.MetadataValue.md("\n".join(f"- {p}" for p in problems))} if problems else {}),
        "agreement": dg.MetadataValue.md(_table(rows)),
        "calibration": dg.MetadataValue.md(_table(cv) + "\n\n(cross-validated: before = shipped, after = this "
                                           "dataset's calibration; `used`: domain only where it flags better, "
                                           "ranks no worse and predicts better than the shipped one)"
                                           if cv else "not enough labels yet"),
    })
    return view


@dg.multi_asset_check(
    specs=[partitioned_check(AGREEMENT_CHECK, "human_labels", evaluations,
                             description="people and metrics agree: every figure at or above its minimum in "
                                         "evaluation.yaml (labels.agreement_minimum), and every label row valid; "
                                         "warns otherwise")],
    ins={"human_labels": dg.AssetIn()})
def labels_agree_with_metrics(human_labels: pd.DataFrame):
    rows, problems = human_labels.attrs.get("agreement", []), human_labels.attrs.get("problems", [])
    low = below(rows, load_config().labels.agreement_minimum)
    yield dg.AssetCheckResult(
        check_name=AGREEMENT_CHECK, passed=not low and not problems, severity=dg.AssetCheckSeverity.WARN,
        description="; ".join(low + problems[:5]) or None,
        metadata={"below_minimum": dg.MetadataValue.json(low), "label_problems": len(problems),
                  "agreement": dg.MetadataValue.json(clean(rows))})
