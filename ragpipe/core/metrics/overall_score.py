import math

from ragpipe.core.llm.prompts import ANSWER_RELEVANCY
from ragpipe.core.metrics.base import (ENTITY_JUDGE, STATEMENT_JUDGE, JudgeUse, Metric, MetricResult, Toolkit,
                                       Unmeasurable)
from ragpipe.core.metrics.unverified_entity_ratio import penalised_faithfulness
from ragpipe.core.schemas import EvalCase
from ragpipe.core.text import is_chinese

# The overall score's dimensions and the metric each one reads.
DIMENSION_METRICS = {
    "entity_coverage": "entity_coverage",
    "faithfulness": "faithfulness",
    "relevancy": "answer_relevancy",
    "sufficiency": "context_sufficiency",
    "hallucination": "hallucination_rate",
}
TEXTS = {
    "zh": {"coverage": "实体覆盖不足，遗漏: {}", "unverified": "包含未验证实体: {}", "relevancy": "答案与问题相关性较低",
           "sufficiency": "上下文覆盖不足，建议检索更多关于{}的信息", "hallucination": "检测到潜在幻觉",
           "high_risk": "高风险，建议重新生成答案", "summary": "答案质量: {} (评分: {:.2f})", "regenerate": " - 建议重新生成答案"},
    "en": {"coverage": "Entities missing from the answer: {}", "unverified": "Entities the knowledge graph cannot verify: {}",
           "relevancy": "The answer is weakly related to the question",
           "sufficiency": "The contexts miss entities of the question; retrieve more about {}",
           "hallucination": "Possible hallucination", "high_risk": "High risk: regenerate the answer",
           "summary": "Answer quality: {} (score {:.2f})", "regenerate": " - regenerate the answer"},
}


def dimension_scores(case: EvalCase, kit: Toolkit) -> tuple[dict[str, float], dict]:
    results = {dim: kit.result(metric, case) for dim, metric in DIMENSION_METRICS.items()}
    scores = {dim: r.value for dim, r in results.items()}
    unverified = kit.result("unverified_entity_ratio", case)
    scores["faithfulness"] = penalised_faithfulness(scores["faithfulness"], unverified, kit)
    return scores, {dim: r.details for dim, r in results.items()} | {"unverified": unverified.details}


def diagnosis(scores: dict, details: dict, overall: float, level: str, kit: Toolkit, language: str) -> list[str]:
    t, th, lines = TEXTS[language], kit.config.thresholds, []
    ok = lambda dim: not math.isnan(scores[dim])  # noqa: E731
    if ok("entity_coverage") and scores["entity_coverage"] < th["entity_coverage"]:
        lines.append(t["coverage"].format(details["entity_coverage"].get("missing_entities", [])))
    unverified = details["unverified"].get("unverified_entities", [])
    checked = [*details["unverified"].get("answer_entities", []), *details["unverified"].get("answer_quantities", [])]
    if checked and len(unverified) / len(checked) > th["unverified_entities"]:
        lines.append(t["unverified"].format(unverified))
    if ok("relevancy") and scores["relevancy"] < th["relevancy"]:
        lines.append(t["relevancy"])
    if ok("sufficiency") and scores["sufficiency"] < th["sufficiency"]:
        lines.append(t["sufficiency"].format(details["sufficiency"].get("uncovered_entities", [])))
    if scores["hallucination"] > th["hallucination"]:
        lines.append(t["hallucination"])
    if scores["hallucination"] > th["high_risk_hallucination"]:
        lines.append(t["high_risk"])
    summary = t["summary"].format(kit.config.quality_label(level, language), overall)
    lines.append(summary + (t["regenerate"] if overall < th["regenerate_below"] else ""))
    return lines


def compute(case: EvalCase, kit: Toolkit) -> MetricResult:
    scores, details = dimension_scores(case, kit)
    if math.isnan(scores["hallucination"]):
        raise Unmeasurable(f"hallucination unmeasured: {kit.result('hallucination_rate', case).error}")
    weights = kit.config.weights
    positive = {d: w for d, w in weights.items() if w > 0}
    measured = {d: w for d, w in positive.items() if not math.isnan(scores[d])}
    if not measured:
        raise Unmeasurable("no positive dimension measured")
    # Unmeasured dimensions give their weight to the measured ones, never a made-up score.
    scale = sum(positive.values()) / sum(measured.values())
    total = sum(w * scores[d] for d, w in measured.items()) * scale
    total += sum(w * scores[d] for d, w in weights.items() if w < 0)
    overall = max(0.0, min(1.0, total))
    level = kit.config.quality_level(overall)
    language = "zh" if is_chinese(case.question) else "en"
    return MetricResult(overall, {
        "quality_level": level, "dimension_scores": scores, "weights_used": weights,
        "unmeasured_dimensions": sorted(set(positive) - set(measured)),
        "diagnosis": diagnosis(scores, details, overall, level, kit, language),
    })


METRIC = Metric(
    name="overall_score",
    definition=("The entity-aware weighted score: 0.30 entity coverage + 0.25 faithfulness (less 0.1 × unverified "
                "ratio) + 0.15 relevancy + 0.15 sufficiency − 0.15 hallucination, clipped to [0, 1], with a "
                "quality level 优秀 ≥ 0.8, 良好 ≥ 0.7, 一般 ≥ 0.6, else 较差. Weights and levels in evaluation.yaml; "
                "an unmeasured positive dimension hands its weight to the measured ones."),
    reads=("question", "answer", "retrieved_contexts"),
    higher_is_better=True,
    nan_when="faithfulness (and so hallucination) is unmeasured, or no positive dimension is measured",
    compute=compute,
    judge=STATEMENT_JUDGE + ENTITY_JUDGE + JudgeUse(prompts=(ANSWER_RELEVANCY,)),
)
