"""Seed 004's rule engine: compare each metric's mean with its warning and critical
thresholds (direction-aware) and attach root causes, suggested actions and the worst
samples. Rules live in rules.yaml, with texts in Chinese and English."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path

import pandas as pd
import yaml

RULES_PATH = Path(__file__).with_name("rules.yaml")
SAMPLE_FIELDS = ("question_id", "question", "answer", "ground_truth_answer")


@dataclass(frozen=True)
class MetricRule:
    warning: float
    critical: float
    higher_is_better: bool
    root_causes: dict[str, list[str]]
    suggested_actions: dict[str, list[str]]


@dataclass
class Finding:
    metric: str
    mean_score: float
    threshold: float
    severity: str  # "warning" | "critical"
    higher_is_better: bool
    root_causes: list[str] = field(default_factory=list)
    suggested_actions: list[str] = field(default_factory=list)
    low_samples: list[dict] = field(default_factory=list)

    def as_dict(self) -> dict:
        return asdict(self)


@lru_cache(maxsize=4)
def load_rules(path: Path = RULES_PATH) -> dict[str, MetricRule]:
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    return {name: MetricRule(**spec) for name, spec in raw.items()}


def severity(rule: MetricRule, mean: float) -> tuple[str, float] | None:
    """(severity, crossed threshold), or None when the mean is fine or unmeasured."""
    if mean is None or math.isnan(mean):
        return None
    worse = (lambda t: mean < t) if rule.higher_is_better else (lambda t: mean > t)
    if worse(rule.critical):
        return "critical", rule.critical
    if worse(rule.warning):
        return "warning", rule.warning
    return None


def worst_samples(per_question: pd.DataFrame, metric: str, rule: MetricRule, top_n: int) -> list[dict]:
    rows = per_question[per_question[metric].notna()]
    rows = rows.sort_values(metric, ascending=rule.higher_is_better, kind="stable").head(top_n)
    keep = [c for c in (*SAMPLE_FIELDS, metric) if c in rows.columns]
    return rows[keep].to_dict(orient="records")


def diagnose(means: dict[str, float], per_question: pd.DataFrame, language: str = "zh",
             top_low_samples: int = 3, rules: dict[str, MetricRule] | None = None) -> list[Finding]:
    """One finding per metric whose mean crosses a threshold, the worst first."""
    rules = rules or load_rules()
    findings = []
    for metric, mean in means.items():
        rule = rules.get(metric)
        verdict = severity(rule, mean) if rule else None
        if verdict is None:
            continue
        level, threshold = verdict
        findings.append(Finding(
            metric=metric, mean_score=round(mean, 4), threshold=threshold, severity=level,
            higher_is_better=rule.higher_is_better,
            root_causes=list(rule.root_causes[language]),
            suggested_actions=list(rule.suggested_actions[language]),
            low_samples=worst_samples(per_question, metric, rule, top_low_samples),
        ))
    return sorted(findings, key=lambda f: (f.severity != "critical", f.metric))
