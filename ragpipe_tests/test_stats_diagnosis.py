import math

import numpy as np
import pandas as pd

from ragpipe.core.diagnosis import diagnose, load_rules, severity
from ragpipe.core.stats import summarize


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
