import math

import numpy as np
import pandas as pd

from ragpipe.core.diagnosis.rules import diagnose, load_rules, severity
from ragpipe.core.diagnosis.stats import summarize


def test_summary_counts_unmeasured_and_brackets_the_mean():
    values = [0.2, 0.4, float("nan"), 0.9, 0.5, float("nan")]
    s = summarize(values, higher_is_better=True, pass_threshold=0.45)
    assert (s["n"], s["n_unmeasured"]) == (4, 2)
    assert s["ci95_low"] <= s["mean"] == 0.5 <= s["ci95_high"]
    assert s["pass_rate"] == 0.5
    assert summarize(values, True, 0.45) == s  # seeded: same interval every run


def test_ci_narrows_with_more_data():
    rng = np.random.default_rng(1)
    small = summarize(rng.uniform(size=20), True, None)
    large = summarize(rng.uniform(size=2000), True, None)
    assert large["ci95_high"] - large["ci95_low"] < (small["ci95_high"] - small["ci95_low"]) / 4


def test_all_nan_is_unmeasured_not_zero():
    s = summarize([float("nan")] * 3, True, 0.7)
    assert math.isnan(s["mean"]) and s["n"] == 0 and s["n_unmeasured"] == 3


def test_severity_is_direction_aware():
    rules = load_rules()
    assert severity(rules["faithfulness"], 0.45) == ("critical", 0.5)
    assert severity(rules["faithfulness"], 0.6) == ("warning", 0.7)
    assert severity(rules["faithfulness"], 0.8) is None
    assert severity(rules["noise_sensitivity"], 0.6) == ("critical", 0.5)  # lower is better
    assert severity(rules["noise_sensitivity"], 0.35) == ("warning", 0.3)
    assert severity(rules["noise_sensitivity"], 0.1) is None
    assert severity(rules["faithfulness"], float("nan")) is None


def test_findings_carry_causes_actions_and_worst_non_nan_samples():
    per_question = pd.DataFrame({
        "question_id": ["a", "b", "c", "d"], "question": ["qa", "qb", "qc", "qd"],
        "answer": ["x"] * 4, "faithfulness": [0.9, float("nan"), 0.1, 0.3],
        "context_recall": [0.9, 0.8, 0.9, 1.0],
    })
    means = {"faithfulness": 0.43, "context_recall": 0.9}
    findings = diagnose(means, per_question, language="en", top_low_samples=2)
    assert [f.metric for f in findings] == ["faithfulness"]
    finding = findings[0]
    assert finding.severity == "critical" and finding.root_causes and finding.suggested_actions
    assert [s["question_id"] for s in finding.low_samples] == ["c", "d"]
    zh = diagnose(means, per_question, language="zh")[0]
    assert "幻觉" in zh.root_causes[0]


def _scores(rows: dict[str, list[tuple]]) -> dict[str, pd.DataFrame]:
    """Score frames as the score assets store them: question_id, value, details JSON."""
    import json

    return {metric: pd.DataFrame([{"question_id": q, "value": v, "details": json.dumps(d), "error": None}
                                  for q, v, d in values]) for metric, values in rows.items()}


def test_sample_diagnosis_reads_seed_000_and_003_details():
    from ragpipe.core.diagnosis.rules import diagnose_samples

    scores = _scores({
        "overall_score": [("a", 0.85, {"quality_level": "优秀", "diagnosis": ["答案质量: 优秀 (评分: 0.85)"]}),
                          ("b", 0.55, {"quality_level": "较差", "diagnosis": ["检测到潜在幻觉"]}),
                          ("c", 0.9, {"quality_level": "优秀"})],
        "hallucination_rate": [("a", 0.1, {}), ("b", 0.6, {}), ("c", 0.1, {})],
        "entity_coverage": [("a", 1.0, {"missing_entities": []}), ("b", 0.5, {"missing_entities": ["财政部"]}),
                            ("c", 1.0, {})],
        "unverified_entity_ratio": [("a", 0.0, {"unverified_entities": []}),
                                    ("b", 0.5, {"unverified_entities": ["某某局"]}), ("c", 0.0, {})],
        "rubric_1_10": [("a", 8.0, {"is_passing": True, "suggestion": "fine"}),
                        ("b", float("nan"), {}), ("c", 5.0, {"is_passing": False, "suggestion": "cite the notice"})],
    })
    samples = diagnose_samples(scores)
    a, b, c = samples["a"], samples["b"], samples["c"]
    assert (a.risk_level, a.regenerate, a.quality_level) == ("low", False, "优秀")
    assert (b.risk_level, b.regenerate) == ("high", True)  # above the high-risk line
    assert b.missing_entities == ["财政部"] and b.unverified_entities == ["某某局"] and b.lines == ["检测到潜在幻觉"]
    assert c.regenerate and c.judge_passing is False and c.judge_suggestion == "cite the notice"  # the judge-guided retry


def test_sample_findings_follow_the_share_of_flagged_answers():
    from ragpipe.core.diagnosis.rules import SampleDiagnosis, judge_suggestions, sample_findings

    samples = {f"q{i}": SampleDiagnosis(question_id=f"q{i}", overall_score=0.9, risk_level="low") for i in range(10)}
    assert sample_findings(samples, "en") == []
    for i in range(3):  # 30 %: above the 0.2 warning, below the 0.4 critical line
        samples[f"q{i}"].missing_entities = ["Harbor District"] if i else ["Harbor District", "Eastfield"]
        samples[f"q{i}"].overall_score = 0.5 - i / 10
    findings = sample_findings(samples, "en")
    assert [(f.rule, f.severity, f.count) for f in findings] == [("missing_entities", "warning", 3)]
    assert "Harbor District, Eastfield" in findings[0].text and findings[0].question_ids == ["q2", "q1", "q0"]
    assert "最常遗漏: Harbor District" in sample_findings(samples, "zh")[0].text
    samples["q4"].judge_passing, samples["q4"].judge_suggestion = False, "name the annual notice"
    samples["q5"].judge_passing, samples["q5"].judge_suggestion = False, "name the annual notice"
    assert judge_suggestions(samples) == [{"suggestion": "name the annual notice", "question_ids": ["q4", "q5"]}]


def _config_paths(model, prefix: str = "") -> set[str]:
    """Every dotted setting a bot config can hold ("retrieval.top_k", "http.timeout")."""
    import typing

    from pydantic import BaseModel

    paths = set()
    for name, field in model.model_fields.items():
        paths.add(prefix + name)
        for kind in (field.annotation, *typing.get_args(field.annotation)):
            if isinstance(kind, type) and issubclass(kind, BaseModel):
                paths |= _config_paths(kind, f"{prefix}{name}.")
    return paths


def test_suggested_actions_name_only_settings_a_bot_config_has():
    """An action that names a setting (snake_case or dotted) names a real BotConfig key
    or a metric; "relevance_filter", "use_multi_query" and "recall_top_k" were neither."""
    import re

    import yaml

    from ragpipe.core.inputs.bot_config import BotConfig
    from ragpipe.core.diagnosis.rules import RULES_PATH
    from ragpipe.core.metrics import REGISTRY

    rules = yaml.safe_load(RULES_PATH.read_text(encoding="utf-8"))
    actions = [a for spec in rules["metrics"].values() for texts in spec["suggested_actions"].values() for a in texts]
    actions += [a for spec in rules["samples"].values() for texts in spec["actions"].values() for a in texts]
    known = _config_paths(BotConfig) | set(REGISTRY)
    assert "retrieval.top_k" in known
    named = {m for a in actions for m in re.findall(r"\b[a-z]{2,}(?:_[a-z]+)*(?:\.[a-z]{2,}(?:_[a-z]+)*)+\b"
                                                      r"|\b[a-z]+(?:_[a-z]+)+\b", a)}
    assert named and not named - known, f"actions name settings no bot config has: {sorted(named - known)}"


RULE_TEXTS = {"root_causes": {"zh": ["原因"], "en": ["cause"]}, "suggested_actions": {"zh": ["做法"], "en": ["action"]}}


def write_rules(tmp_path, metrics: dict, samples: dict | None = None):
    import yaml

    path = tmp_path / "rules.yaml"
    path.write_text(yaml.safe_dump({"metrics": metrics, "samples": samples or {}}, allow_unicode=True),
                    encoding="utf-8")
    return path


def test_a_metrics_direction_comes_from_the_registry(tmp_path):
    """rules.yaml holds thresholds only: noise_sensitivity's "lower is better" is the registry's."""
    path = write_rules(tmp_path, {"noise_sensitivity": {"warning": 0.3, "critical": 0.5, **RULE_TEXTS},
                                  "faithfulness": {"warning": 0.7, "critical": 0.5, **RULE_TEXTS}})
    rules = load_rules(path)
    assert severity(rules["noise_sensitivity"], 0.6) == ("critical", 0.5)
    assert severity(rules["faithfulness"], 0.6) == ("warning", 0.7)


def test_the_shipped_rules_state_no_direction():
    from ragpipe.core.diagnosis.rules import RULES_PATH

    assert "higher_is_better" not in RULES_PATH.read_text(encoding="utf-8")


def test_a_bad_rules_file_is_refused_naming_the_field(tmp_path):
    import pytest

    from ragpipe.core.schemas import InputError

    good = {"warning": 0.7, "critical": 0.5, **RULE_TEXTS}
    cases = [
        ({"faithfulness": {**good, "warning": "high"}}, "metrics.faithfulness.warning", "number"),
        ({"faithfulness": {**good, "root_causes": {"zh": ["原因"]}}}, "metrics.faithfulness.root_causes.en", "required"),
        ({"faithfulnes": good}, "metrics.faithfulnes.metric", "unknown metric 'faithfulnes'"),
        ({"faithfulness": {**good, "higher_is_better": True}}, "metrics.faithfulness", "metric registry"),
        ({"faithfulness": {**good, "critical": 0.8}}, "metrics.faithfulness", "must be worse than warning"),
        ({"faithfulness": {**good, "treshold": 0.6}}, "metrics.faithfulness.treshold", "not permitted"),
    ]
    for metrics, field, problem in cases:
        path = write_rules(tmp_path, metrics)
        with pytest.raises(InputError) as caught:
            load_rules(path)
        assert (caught.value.file, caught.value.field) == (str(path), field)
        assert problem in caught.value.problem
        tmp_path = tmp_path / "next"  # a fresh path each time: loading is cached per path
        tmp_path.mkdir()
    samples = {"regenrate": {"warning": 0.2, "critical": 0.4, "text": {"zh": "文", "en": "text"},
                             "actions": RULE_TEXTS["root_causes"]}}
    with pytest.raises(InputError) as caught:
        load_rules(write_rules(tmp_path, {}, samples))
    assert caught.value.field.startswith("samples.regenrate") and "regenerate" in caught.value.problem
