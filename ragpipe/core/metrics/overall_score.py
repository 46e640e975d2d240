import math

from ragpipe.core.judged.prompts import ANSWER_RELEVANCY
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
# What to do about each finding above, for the bot that gave the answer (seed 000's recommendations).
RECOMMENDATIONS = {
    "zh": {"coverage": "在答案中写明问题涉及的实体: {}", "unverified": "核实或删除知识图谱无法验证的实体: {}",
           "relevancy": "让答案直接回答所问的问题", "sufficiency": "检索更多关于{}的信息",
           "hallucination": "只陈述检索到的上下文支持的内容", "regenerate": "重新生成答案"},
    "en": {"coverage": "Name the question's entities in the answer: {}",
           "unverified": "Check or remove the entities the knowledge graph cannot verify: {}",
           "relevancy": "Make the answer address the question asked", "sufficiency": "Retrieve more about {}",
           "hallucination": "State only what the retrieved contexts support", "regenerate": "Regenerate the answer"},
}


def dimension_scores(case: EvalCase, kit: Toolkit) -> tuple[dict[str, float], dict]:
    results = {dim: kit.result(metric, case) for dim, metric in DIMENSION_METRICS.items()}
    scores = {dim: r.value for dim, r in results.items()}
    unverified = kit.result("unverified_entity_ratio", case)
    scores["faithfulness"] = penalised_faithfulness(scores["faithfulness"], unverified, kit)
    return scores, {dim: r.details for dim, r in results.items()} | {"unverified": unverified.details}


def diagnosis(scores: dict, details: dict, overall: float, level: str, kit: Toolkit,
              language: str) -> tuple[list[str], list[str]]:
    """The diagnosis lines and, for the same findings, what to do (the recommendations)."""
    t, th, lines, todo = TEXTS[language], kit.config.thresholds, [], []
    r = RECOMMENDATIONS[language]
    ok = lambda dim: not math.isnan(scores[dim])  # noqa: E731
    if ok("entity_coverage") and scores["entity_coverage"] < th["entity_coverage"]:
        missing = details["entity_coverage"].get("missing_entities", [])
        lines.append(t["coverage"].format(missing))
        todo.append(r["coverage"].format(missing))
    unverified = details["unverified"].get("unverified_entities", [])
    checked = [*details["unverified"].get("answer_entities", []), *details["unverified"].get("answer_quantities", [])]
    if checked and len(unverified) / len(checked) > th["unverified_entities"]:
        lines.append(t["unverified"].format(unverified))
        todo.append(r["unverified"].format(unverified))
    if ok("relevancy") and scores["relevancy"] < th["relevancy"]:
        lines.append(t["relevancy"])
        todo.append(r["relevancy"])
    if ok("sufficiency") and scores["sufficiency"] < th["sufficiency"]:
        uncovered = details["sufficiency"].get("uncovered_entities", [])
        lines.append(t["sufficiency"].format(uncovered))
        todo.append(r["sufficiency"].format(uncovered))
    if scores["hallucination"] > th["hallucination"]:
        lines.append(t["hallucination"])
        todo.append(r["hallucination"])
    if scores["hallucination"] > th["high_risk_hallucination"]:
        lines.append(t["high_risk"])
    summary = t["summary"].format(kit.config.quality_label(level, language), overall)
    lines.append(summary + (t["regenerate"] if overall < th["regenerate_below"] else ""))
    if overall < th["regenerate_below"] or scores["hallucination"] > th["high_risk_hallucination"]:
        todo.append(r["regenerate"])
    return lines, todo


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
    used = {d: w * scale for d, w in measured.items()} | {d: w for d, w in weights.items() if w < 0}
    overall = max(0.0, min(1.0, sum(w * scores[d] for d, w in used.items())))
    level = kit.config.quality_level(overall)
    language = "zh" if is_chinese(case.question) else "en"
    lines, recommendations = diagnosis(scores, details, overall, level, kit, language)
    return MetricResult(overall, {
        "quality_level": level, "dimension_scores": scores, "weights_used": used,
        "unmeasured_dimensions": sorted(set(positive) - set(measured)),
        "diagnosis": lines, "recommendations": recommendations,
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
