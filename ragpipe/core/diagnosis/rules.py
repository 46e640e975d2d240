"""One diagnosis per evaluation. The rule engine compares each metric's mean with its
warning and critical thresholds (in the metric's direction, from the metric registry) and
attaches root causes, suggested actions and the worst samples. The per-sample diagnosis
(missing and unverified entities, hallucination risk, regenerate advice) and the judge's
suggestions are read from the per-question score details, and rules on how many answers
they flag add evaluation-level findings. Rules live in rules.yaml, with texts in Chinese
and English, and are validated on load (``RulesFile``)."""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Literal

import pandas as pd
import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from ragpipe.core.config import EvaluationConfig, load_config
from ragpipe.core.schemas import InputError

RULES_PATH = Path(__file__).with_name("rules.yaml")
SAMPLE_FIELDS = ("question_id", "question", "answer", "ground_truth_answer")
SAMPLE_FLAGS = ("regenerate", "high_risk", "missing_entities", "unverified_entities")  # SampleDiagnosis.flags


class Texts(BaseModel):
    """The same texts in both report languages."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    zh: list[str] = Field(min_length=1)
    en: list[str] = Field(min_length=1)

    def __getitem__(self, language: str) -> list[str]:
        return getattr(self, language)


class Text(Texts):
    zh: str = Field(min_length=1)
    en: str = Field(min_length=1)


class MetricRule(BaseModel):
    """Thresholds on one metric's mean, and what a team should look at when it crosses one.
    The direction is the metric's own (``higher_is_better`` in the registry)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    metric: str  # the key in rules.yaml
    warning: float
    critical: float
    root_causes: Texts
    suggested_actions: Texts

    @model_validator(mode="before")
    @classmethod
    def _no_direction(cls, data):
        if isinstance(data, dict) and "higher_is_better" in data:
            raise ValueError("higher_is_better: a metric's direction comes from the metric registry; "
                             "remove it from the rules file")
        return data

    @field_validator("metric")
    @classmethod
    def _registered(cls, name: str) -> str:
        from ragpipe.core.metrics import REGISTRY

        if name not in REGISTRY:
            raise ValueError(f"unknown metric {name!r}; known: {', '.join(REGISTRY)}")
        return name

    @model_validator(mode="after")
    def _critical_is_worse(self) -> MetricRule:
        if (self.critical > self.warning) if self.higher_is_better else (self.critical < self.warning):
            raise ValueError(f"critical {self.critical} must be worse than warning {self.warning} "
                             f"({'higher' if self.higher_is_better else 'lower'} is better for {self.metric})")
        return self

    @property
    def higher_is_better(self) -> bool:
        from ragpipe.core.metrics import REGISTRY

        return REGISTRY[self.metric].higher_is_better


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


class SampleRule(BaseModel):
    """Thresholds on the share of answers a per-sample flag marks, and what to do."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    warning: float = Field(ge=0, le=1)
    critical: float = Field(ge=0, le=1)
    text: Text
    actions: Texts

    @model_validator(mode="after")
    def _critical_is_worse(self) -> SampleRule:
        if self.critical < self.warning:
            raise ValueError(f"critical {self.critical} must be at least warning {self.warning}")
        return self


class RulesFile(BaseModel):
    """rules.yaml: ``metrics`` (the rule engine's per-metric rules) and ``samples`` (rules on
    the share of answers the per-sample diagnosis flags)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    metrics: dict[str, MetricRule]
    samples: dict[Literal[SAMPLE_FLAGS], SampleRule]

    @model_validator(mode="before")
    @classmethod
    def _named(cls, data):
        """Each metric rule learns its metric's name from its key."""
        if isinstance(data, dict) and isinstance(data.get("metrics"), dict):
            data = {**data, "metrics": {name: {**spec, "metric": name} if isinstance(spec, dict) else spec
                                        for name, spec in data["metrics"].items()}}
        return data


@lru_cache(maxsize=4)
def load_rules_file(path: Path = RULES_PATH) -> RulesFile:
    """The validated rules; a bad file raises InputError naming the file and the field."""
    try:
        return RulesFile.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        raise InputError(str(path), where or "(top level)", err["msg"].removeprefix("Value error, ")) from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise InputError(str(path), "yaml", str(exc), line=mark.line + 1 if mark else None) from exc


def load_rules(path: Path = RULES_PATH) -> dict[str, MetricRule]:
    return load_rules_file(path).metrics


def load_sample_rules(path: Path = RULES_PATH) -> dict[str, SampleRule]:
    return load_rules_file(path).samples


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


@dataclass
class SampleDiagnosis:
    """The per-sample diagnosis of one answer, with the judge's verdict when there is one."""

    question_id: str
    overall_score: float | None = None
    quality_level: str | None = None
    risk_level: str | None = None  # "high" | "low", from the hallucination rate
    regenerate: bool = False
    missing_entities: list[str] = field(default_factory=list)
    unverified_entities: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)  # the per-sample diagnosis text
    judge_passing: bool | None = None
    judge_suggestion: str | None = None

    @property
    def flags(self) -> dict[str, bool]:
        """Which evaluation-level sample rules (rules.yaml `samples`) this answer trips."""
        return {"regenerate": self.regenerate, "high_risk": self.risk_level == "high",
                "missing_entities": bool(self.missing_entities),
                "unverified_entities": bool(self.unverified_entities)}


@dataclass
class SampleFinding:
    rule: str
    severity: str
    count: int
    total: int
    text: str
    suggested_actions: list[str]
    question_ids: list[str]


@dataclass
class Diagnosis:
    findings: list[Finding]
    sample_findings: list[SampleFinding]
    samples: dict[str, SampleDiagnosis]
    judge_suggestions: list[dict]  # the judge's distinct suggestions of failed answers, most frequent first

    def as_dict(self) -> dict:
        return {"findings": [f.as_dict() for f in self.findings],
                "sample_findings": [asdict(f) for f in self.sample_findings],
                "samples": {k: asdict(v) for k, v in self.samples.items()},
                "judge_suggestions": self.judge_suggestions}


def _value(frame: pd.DataFrame | None, qid: str) -> tuple[float, dict]:
    if frame is None or qid not in frame.index:
        return math.nan, {}
    row = frame.loc[qid]
    details = row["details"]
    return float(row["value"]), json.loads(details) if isinstance(details, str) else (details or {})


def diagnose_samples(scores: dict[str, pd.DataFrame], config: EvaluationConfig | None = None) -> dict[str, SampleDiagnosis]:
    """Per question, from the stored score details (question_id, value, details JSON)."""
    config = config or load_config()
    th = config.thresholds
    by_id = {name: frame.set_index("question_id") for name, frame in scores.items()}
    ids = next(iter(scores.values()))["question_id"] if scores else []
    out = {}
    for qid in ids:
        overall, overall_details = _value(by_id.get("overall_score"), qid)
        hallucination, _ = _value(by_id.get("hallucination_rate"), qid)
        _, coverage = _value(by_id.get("entity_coverage"), qid)
        _, unverified = _value(by_id.get("unverified_entity_ratio"), qid)
        _, rubric = _value(by_id.get("rubric_1_10"), qid)
        risk = None if math.isnan(hallucination) else ("high" if hallucination > th["high_risk_hallucination"] else "low")
        passing = rubric.get("is_passing")
        regenerate = ((not math.isnan(overall) and overall < th["regenerate_below"]) or risk == "high"
                      or passing is False)
        out[qid] = SampleDiagnosis(
            question_id=qid, overall_score=None if math.isnan(overall) else round(overall, 4),
            quality_level=overall_details.get("quality_level"), risk_level=risk, regenerate=regenerate,
            missing_entities=list(coverage.get("missing_entities", [])),
            unverified_entities=list(unverified.get("unverified_entities", [])),
            lines=list(overall_details.get("diagnosis", [])),
            judge_passing=passing, judge_suggestion=rubric.get("suggestion"),
        )
    return out


def sample_findings(samples: dict[str, SampleDiagnosis], language: str = "zh", top_n: int = 5,
                    rules: dict[str, SampleRule] | None = None) -> list[SampleFinding]:
    """One finding per sample rule whose share of flagged answers crosses a threshold."""
    rules = rules or load_sample_rules()
    total = len(samples)
    found = []
    for name, rule in rules.items():
        flagged = [s for s in samples.values() if s.flags.get(name)]
        share = len(flagged) / total if total else 0.0
        if share <= rule.warning:
            continue
        entities = Counter(e for s in flagged for e in (s.missing_entities if name == "missing_entities"
                                                         else s.unverified_entities))
        text = rule.text[language].format(n=len(flagged), total=total, share=f"{share:.0%}",
                                          entities=", ".join(e for e, _ in entities.most_common(top_n)) or "—")
        worst = sorted(flagged, key=lambda s: math.inf if s.overall_score is None else s.overall_score)
        found.append(SampleFinding(
            rule=name, severity="critical" if share > rule.critical else "warning", count=len(flagged), total=total,
            text=text, suggested_actions=list(rule.actions[language]), question_ids=[s.question_id for s in worst[:top_n]]))
    return sorted(found, key=lambda f: (f.severity != "critical", -f.count))


def judge_suggestions(samples: dict[str, SampleDiagnosis]) -> list[dict]:
    """What the judge suggests for the answers it did not pass, grouped."""
    grouped: dict[str, list[str]] = {}
    for s in samples.values():
        if s.judge_passing is False and s.judge_suggestion:
            grouped.setdefault(s.judge_suggestion, []).append(s.question_id)
    return [{"suggestion": k, "question_ids": v} for k, v in sorted(grouped.items(), key=lambda kv: -len(kv[1]))]


def diagnose_evaluation(means: dict[str, float], per_question: pd.DataFrame, scores: dict[str, pd.DataFrame],
                        language: str = "zh", top_low_samples: int = 3) -> Diagnosis:
    """The whole diagnosis of one evaluation: metric findings, sample findings, per-sample
    diagnoses and the judge's suggestions."""
    samples = diagnose_samples(scores)
    return Diagnosis(findings=diagnose(means, per_question, language, top_low_samples),
                     sample_findings=sample_findings(samples, language), samples=samples,
                     judge_suggestions=judge_suggestions(samples))
