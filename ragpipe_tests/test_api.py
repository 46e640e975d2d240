"""`ragpipe.evaluate`: the real-time integration's call and output, offline and with a judge that is down."""

import re
import socket

import pytest

import ragpipe
from ragpipe.core.llm import LLMClient, LLMEvaluator, LLMSettings
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
