"""`ragpipe.evaluate`: the real-time integration's call and output, offline and with a judge that is down."""

import re
import socket

import pytest

import ragpipe
from ragpipe.core.llm import LLMClient, LLMSettings
from ragpipe.core.judged import LLMEvaluator
from ragpipe.core.metrics import REGISTRY, Toolkit
from ragpipe.core.schemas import EvalCase

QUESTION = "中小企业税收优惠政策有哪些？"
ANSWER = "中小企业享受所得税减免、增值税优惠等政策支持，由财政部发布。"
CONTEXTS = ["国家对中小企业实行所得税减免和增值税优惠政策支持，由财政部发布。"]
GRAPH = ["中小企业", "财政部"]


def closed_port() -> int:
    """A loopback port nothing listens on: bound, then released."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_seed_000_context_keyword_as_list_or_string_gives_the_same_result():
    by_contexts = ragpipe.evaluate(QUESTION, ANSWER, contexts=CONTEXTS, graph_entities=GRAPH)
    assert ragpipe.evaluate(question=QUESTION, answer=ANSWER, context=CONTEXTS, graph_entities=set(GRAPH)) \
        == by_contexts
    assert ragpipe.evaluate(QUESTION, ANSWER, context=CONTEXTS[0], graph_entities=GRAPH) == by_contexts
    assert ragpipe.evaluate(QUESTION, ANSWER, CONTEXTS, GRAPH) == by_contexts  # the integration's positional order
    assert by_contexts["metrics"]["faithfulness"]["value"] is not None


def test_contexts_given_twice_or_not_at_all_is_a_clear_error():
    with pytest.raises(TypeError, match="not both"):
        ragpipe.evaluate(QUESTION, ANSWER, contexts=CONTEXTS, context=CONTEXTS)
    with pytest.raises(TypeError, match="contexts"):
        ragpipe.evaluate(QUESTION, ANSWER)


def test_a_judge_that_is_down_gives_none_with_reasons_not_an_exception(embedder):
    settings = LLMSettings(base_url=f"http://127.0.0.1:{closed_port()}/v1", model="judge", max_retries=0, timeout=2)
    with LLMClient(settings) as client:
        kit = Toolkit(embedder, llm=LLMEvaluator(client))
        result = ragpipe.evaluate(QUESTION, ANSWER, CONTEXTS, graph_entities=GRAPH, toolkit=kit)
    assert result["overall_score"] is None
    assert "cannot reach" in result["diagnosis"]
    assert result["entity_analysis"]["question_entities"] is None
    assert result["entity_analysis"]["answer_entities"] is None
    for name in ("faithfulness", "entity_coverage", "answer_relevancy"):
        assert result["metrics"][name]["value"] is None
        assert "cannot reach" in result["metrics"][name]["error"]


def test_english_readers_see_an_english_quality_level_while_the_stored_level_stays_seed_000s(embedder):
    question = "How long does the Harbor Storefront Grant last?"
    answer = "The Harbor Storefront Grant lasts 6 months from March 1."
    result = ragpipe.evaluate(question, answer, context=answer, graph_entities=["Harbor Storefront Grant"])
    assert result["quality_level"] in {"excellent", "good", "fair", "poor"}
    assert f"Answer quality: {result['quality_level']} (score" in result["diagnosis"]
    assert not re.search(r"[\u4e00-\u9fff]", result["diagnosis"])

    case = EvalCase(question_id="q", question=question, answer=answer, retrieved_contexts=[answer])
    stored = REGISTRY["overall_score"].score(case, Toolkit(embedder))
    assert stored.details["quality_level"] in {"优秀", "良好", "一般", "较差"}
    chinese = ragpipe.evaluate(QUESTION, ANSWER, CONTEXTS, graph_entities=GRAPH)
    assert chinese["quality_level"] in {"优秀", "良好", "一般", "较差"}
    assert f"答案质量: {chinese['quality_level']}" in chinese["diagnosis"]


def test_seed_000s_service_fields_quality_warning_recommendations_weights_and_risk():
    good = ragpipe.evaluate(QUESTION, ANSWER, CONTEXTS, graph_entities=GRAPH)
    poor = ragpipe.evaluate(QUESTION, "注册资本最低100万元，需要验资报告。", CONTEXTS, graph_entities=GRAPH)
    # seed 000 warns below 0.7 (regenerate_below) and then recommends
    assert good["overall_score"] >= 0.7 and good["quality_warning"] is False
    assert poor["overall_score"] < 0.7 and poor["quality_warning"] is True
    assert "重新生成答案" in poor["recommendations"]
    assert any("100万元" in r for r in poor["recommendations"])  # the unverified amount, to check or remove
    assert (good["risk_level"], poor["risk_level"]) == ("低风险", "高风险")
    for result in (good, poor):  # the weights that made the score
        weights, scores = result["weights_used"], result["dimension_scores"]
        assert weights == {"entity_coverage": 0.3, "faithfulness": 0.25, "relevancy": 0.15, "sufficiency": 0.15,
                           "hallucination": -0.15}
        assert result["overall_score"] == pytest.approx(max(0, min(1, sum(w * scores[d] for d, w in weights.items()))),
                                                        abs=1e-3)
        assert result["cut_dimensions"] == []


def test_english_answers_get_english_recommendations_and_the_weights_of_the_measured_dimensions():
    result = ragpipe.evaluate("Who approves the subsidy?", "The Hangzhou Bureau of Commerce approves it within 30 days.",
                              "Applications are approved by the Hangzhou Bureau of Commerce.")
    assert result["risk_level"] in {"high risk", "low risk"}
    assert result["quality_warning"] is True and "Regenerate the answer" in result["recommendations"]
    assert not any(re.search(r"[\u4e00-\u9fff]", r) for r in result["recommendations"])
    # no entity in the question: coverage and sufficiency unmeasured, their weight went to the others
    unmeasured = {d for d, v in result["dimension_scores"].items() if v is None}
    assert unmeasured == {"entity_coverage", "sufficiency"} and not unmeasured & set(result["weights_used"])
    assert sum(w for w in result["weights_used"].values() if w > 0) == pytest.approx(0.85, abs=1e-3)


def test_a_spent_time_budget_names_every_dimension_as_cut_and_fakes_none():
    result = ragpipe.evaluate(QUESTION, ANSWER, CONTEXTS, graph_entities=GRAPH, time_budget=0)
    assert result["cut_dimensions"] == ["entity_coverage", "faithfulness", "relevancy", "sufficiency",
                                        "hallucination", "unverified_entities"]
    assert result["overall_score"] is None and result["quality_warning"] is None and result["risk_level"] is None
    assert result["recommendations"] == [] and result["weights_used"] is None
    assert result["entity_analysis"]["missing_entities"] is None
    assert "not measured within the time budget" in result["diagnosis"]
    for name, metric in result["metrics"].items():
        assert metric["value"] is None and "not measured within the time budget" in metric["error"], name
