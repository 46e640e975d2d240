"""Evaluation settings from YAML (the overall score's weights and thresholds)."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ragpipe.core.schemas import InputError
from ragpipe.core.yaml_input import read_yaml

DEFAULT_PATH = Path(__file__).with_name("evaluation.yaml")
DIMENSIONS = ("entity_coverage", "faithfulness", "relevancy", "sufficiency", "hallucination")


class EntityMatching(BaseModel):
    model_config = ConfigDict(extra="forbid")
    # Least difflib similarity for a fuzzy match to a graph name or alias; 1 turns it off.
    fuzzy_threshold: float = Field(default=0.8, ge=0.5, le=1.0)


class Limits(BaseModel):
    """Bounds on what users and bots hand in, so that no input can stall a run: larger input
    is refused or cut, and the reason recorded."""

    model_config = ConfigDict(extra="forbid")
    max_file_bytes: int = Field(default=5_000_000, ge=1)  # a larger document, question or graph file is not read
    # Longer text is cut into chunks of at most this size; changing it renumbers the chunks of such text.
    max_chunk_chars: int = Field(default=1200, ge=100)
    max_answer_chars: int = Field(default=20_000, ge=1)  # a longer bot answer is refused
    max_contexts: int = Field(default=50, ge=1)  # a bot's retrieved contexts beyond these are dropped
    max_context_chars: int = Field(default=20_000, ge=1)  # a longer retrieved context is cut

    def answer_problem(self, answer: str) -> str | None:
        """Why an answer is refused (too long to score), or None."""
        if len(answer) > self.max_answer_chars:
            return f"{len(answer):,} characters, more than limits.max_answer_chars ({self.max_answer_chars:,})"
        return None

    def cut_contexts(self, contexts: list[str], ids: list[str]) -> tuple[list[str], list[str], str | None]:
        """The contexts (and their ids) within max_contexts, each cut to max_context_chars, and
        what was cut (None when nothing was)."""
        cut = [f"{len(contexts) - self.max_contexts} contexts past limits.max_contexts ({self.max_contexts})"
               ] if len(contexts) > self.max_contexts else []
        contexts, ids = contexts[:self.max_contexts], ids[:self.max_contexts]
        long = sum(len(c) > self.max_context_chars for c in contexts)
        if long:
            cut.append(f"{long} contexts cut to limits.max_context_chars ({self.max_context_chars:,})")
            contexts = [c[:self.max_context_chars] for c in contexts]
        return contexts, ids, "; ".join(cut) or None


class LabelSettings(BaseModel):
    """Human labels: when a dataset gets its own calibration, and the agreement with people
    below which the human_labels check warns."""

    model_config = ConfigDict(extra="forbid")
    min_labels_for_calibration: int = Field(default=50, ge=10)
    agreement_minimum: dict[Literal["auroc", "f1", "spearman", "within_one", "kappa"], float] = {
        "auroc": 0.7, "f1": 0.5, "spearman": 0.4, "within_one": 0.7, "kappa": 0.4}


class GateSettings(BaseModel):
    """The regression gate (no_regression_vs_baseline): which metrics block a release, the
    family-wise error rate over them (Holm), the fewest paired questions a metric needs to
    gate, and the smallest drop that blocks, as a share of the metric's range."""

    model_config = ConfigDict(extra="forbid")
    metrics: list[str] = ["answer_correctness", "faithfulness", "answer_relevancy", "context_recall",
                          "llm_judge", "rubric_1_10"]
    alpha: float = Field(default=0.05, gt=0, lt=0.5)
    min_pairs: int = Field(default=20, ge=2)
    # "default" for every gating metric, or a metric's own name.
    min_effect: dict[str, Annotated[float, Field(ge=0, le=1)]] = {"default": 0.05}


class RubricSettings(BaseModel):
    """The 1-10 rubric judge (seed 003): how many retrieved documents it reads."""

    model_config = ConfigDict(extra="forbid")
    # The bot's first (top-ranked) documents only: 30 chunks made one 15k-character prompt.
    max_documents: int = Field(default=5, ge=1)


class EvaluationConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    weights: dict[str, float]
    thresholds: dict[str, float]
    quality_levels: dict[str, float]
    quality_level_names: dict[str, dict[str, str]] = {}  # per language: stored level -> shown name
    unverified_penalty: dict[str, float]
    entity_matching: EntityMatching = EntityMatching()
    limits: Limits = Limits()
    labels: LabelSettings = LabelSettings()
    gate: GateSettings = GateSettings()
    rubric: RubricSettings = RubricSettings()

    def quality_level(self, overall: float) -> str:
        for level, lower in sorted(self.quality_levels.items(), key=lambda kv: -kv[1]):
            if overall >= lower:
                return level
        return min(self.quality_levels, key=self.quality_levels.get)

    def quality_label(self, level: str, language: str) -> str:
        """The stored level as readers of ``language`` see it."""
        return self.quality_level_names.get(language, {}).get(level, level)


def config_path() -> Path:
    """The evaluation settings in use: RAGPIPE_EVAL_CONFIG, else the shipped evaluation.yaml."""
    return Path(os.environ.get("RAGPIPE_EVAL_CONFIG") or DEFAULT_PATH)


def load_config(path: str | None = None) -> EvaluationConfig:
    path = Path(path) if path else config_path()
    # Keyed by content: an edited file or a new RAGPIPE_EVAL_CONFIG is read, also in a long-lived process.
    return _load_config(path, path.read_bytes() if path.is_file() else None)


@lru_cache(maxsize=8)
def _load_config(path: Path, content: bytes | None) -> EvaluationConfig:
    raw = read_yaml(path) or {}
    if not isinstance(raw, dict):
        raise InputError(str(path), "evaluation", "expected a mapping of weights, thresholds and quality levels")
    try:
        config = EvaluationConfig.model_validate(raw.get("evaluation", raw))
    except ValidationError as exc:
        err = exc.errors()[0]
        raise InputError(str(path), ".".join(str(p) for p in err["loc"]), err["msg"]) from exc
    unknown = set(config.weights) - set(DIMENSIONS)
    if unknown:
        raise InputError(str(path), "weights", f"unknown dimensions {sorted(unknown)}; known: {DIMENSIONS}")
    return config
