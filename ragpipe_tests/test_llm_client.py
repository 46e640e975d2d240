"""The client against a real loopback OpenAI-compatible server: re-ask on invalid output
(never a clamped or defaulted value) and the response_format fallback. Transport, retries
and limits: test_llm_transport.py; the cache and accounting: test_llm_cache.py."""

from __future__ import annotations

import json

import pytest

from ragpipe.core.llm import LLMError
from ragpipe.core.judged import LLMVerifier, answer_questions, extract_entities, judge_1_5, rubric_1_10
from ragpipe.core.llm.prompt import FORMAT_INSTRUCTION
from ragpipe.core.judged.prompts.judge import JUDGE_1_5
from ragpipe.testing.fake_judge import fake_llm
from ragpipe_tests.llm_helpers import MATERIAL, client, make_client, sequence, server
from ragpipe.testing.openai_server import Reply

# server, client: pytest fixtures, used by name


# ---- invalid output: re-ask once, then LLMError ----------------------------------------
def test_malformed_json_is_reasked_once_then_accepted(server, client):
    server.route = sequence('{"reasoning": "ok", "score": ', {"reasoning": "fine", "score": 4})
    assert judge_1_5(client, "FHA 贷款的最低首付是多少？", "3.5%", "3.5%") == (4, "fine")
    first, second = server.requests
    assert second.messages[:2] == first.messages
    assert second.messages[2] == {"role": "assistant", "content": '{"reasoning": "ok", "score": '}
    assert second.messages[3]["role"] == "user"
    assert "你上一次的回复无法使用" in second.messages[3]["content"]
    assert "no JSON object" in second.messages[3]["content"]


def test_out_of_range_score_is_reasked_not_clamped(server, client):
    server.route = sequence({"reasoning": "great", "score": 7}, {"reasoning": "great", "score": 5})
    assert judge_1_5(client, "q?", "a", "a") == (5, "great")
    reask = server.requests[1].messages[-1]["content"]
    assert "score" in reask and "less than or equal to 5" in reask and "got 7" in reask


@pytest.mark.parametrize("bad", [{"reasoning": "x", "score": 7}, {"reasoning": "x", "score": 0},
                                 {"reasoning": "x", "score": 3.5}, {"reasoning": "x", "score": True},
                                 {"reasoning": "", "score": 3}, {"score": 3}, "I'd say 4 out of 5."])
def test_invalid_judge_output_twice_raises(server, client, bad):
    server.route = lambda req: bad
    with pytest.raises(LLMError) as err:
        judge_1_5(client, "q?", "a", "a")
    assert err.value.reason.startswith("llm_judge@1.1: invalid output after one re-ask")
    assert err.value.kind == "invalid_output"
    assert len(server.requests) == 2


def test_rubric_out_of_range_raises_and_code_computes_the_rest(server, client):
    valid = {"analysis": "a", "accuracy": 7, "completeness": 4, "clarity": 9, "reason": "r", "suggestion": "s",
             "weighted_score": 10, "is_passing": False}  # the model's own totals are ignored
    server.route = lambda req: valid
    result = rubric_1_10(client, "q?", "a", ["d"])
    assert result.weighted_score == pytest.approx(3.5 + 1.2 + 1.8) and result.is_passing is True
    server.route = lambda req: {**valid, "accuracy": 6}
    assert rubric_1_10(client, "q?", "a", ["d"]).is_passing is False
    server.route = lambda req: {**valid, "accuracy": 11}
    with pytest.raises(LLMError, match="accuracy"):
        rubric_1_10(client, "q?", "a", ["d"])


def test_verification_needs_one_verdict_per_statement(server, client):
    good = {"verdicts": [{"index": 1, "reason": "r", "verdict": 1, "source": 1},
                         {"index": 2, "reason": "r", "verdict": 0, "source": 0}]}
    server.route = sequence({"verdicts": good["verdicts"][:1]}, good)
    verdicts = LLMVerifier(client).verify(["s1", "s2"], ["c1"])
    assert [v.supported for v in verdicts] == [True, False]
    assert "exactly one verdict" in server.requests[1].messages[-1]["content"]

    for bad in ({"verdicts": [good["verdicts"][0], {**good["verdicts"][1], "source": 5}]},  # no passage 5
                {"verdicts": [{**good["verdicts"][0], "source": 0}, good["verdicts"][1]]},  # supported by nothing
                {"verdicts": [good["verdicts"][0], {**good["verdicts"][1], "verdict": 2}]}):
        server.route = lambda req, bad=bad: bad
        with pytest.raises(LLMError, match="statement_verification"):
            LLMVerifier(client).verify(["s1", "s2"], ["c1"])


def test_answer_questions_needs_exactly_n(server, client):
    server.route = lambda req: {"questions": ["only one?"], "noncommittal": 0}
    with pytest.raises(LLMError, match="expected exactly 3 questions, got 1"):
        answer_questions(client, "an answer", n=3)


def test_entity_failure_raises_never_a_default(server, client):
    server.route = lambda req: "抱歉，我无法完成。"
    with pytest.raises(LLMError) as err:
        extract_entities(client, "中小企业税收优惠政策有哪些？", "question")
    assert "generic_query" not in str(err.value)
    assert len(server.requests) == 2

    server.route = lambda req: [{"name": "国家税务总局", "type": "organization"}]  # not in the text
    with pytest.raises(LLMError, match="not found verbatim"):
        extract_entities(client, "中小企业税收优惠政策有哪些？", "question")
    server.route = lambda req: [{"name": "中小企业", "type": "company"}]  # not one of the five types
    with pytest.raises(LLMError, match="type"):
        extract_entities(client, "中小企业税收优惠政策有哪些？", "question")


def test_empty_reply_and_truncation_are_reported(server, client):
    server.route = lambda req: Reply(content='{"reasoning": "long', finish_reason="length")
    with pytest.raises(LLMError, match="cut off at max_tokens=2048"):
        judge_1_5(client, "q?", "a", "a")
    server.route = lambda req: Reply(content="")
    with pytest.raises(LLMError, match="the reply is empty"):
        judge_1_5(client, "q?", "a", "a")


# ---- response_format fallback ------------------------------------------------------------
def test_response_format_rejected_falls_back_to_instructions(server, client):
    server.reject_response_format = True
    server.route = lambda req: f"好的，评分如下：\n```json\n{json.dumps(fake_llm(req), ensure_ascii=False)}\n```\n以上。"
    m = MATERIAL["zh"]
    assert judge_1_5(client, m["question"], m["ground_truth"], m["answer"]) == (5, "matches the ground truth")
    schema_req, object_req, fallback = server.requests
    assert schema_req.response_format_type == "json_schema" and object_req.response_format_type == "json_object"
    assert object_req.body["response_format"]["schema"] == JUDGE_1_5.response_schema()
    assert "response_format" not in fallback.body
    assert FORMAT_INSTRUCTION["zh"].split("{schema}")[0] in fallback.prompt
    assert '"maximum": 5' in fallback.prompt  # the output schema is spelled out
    assert not client.uses_response_format and client.response_format_type is None

    # later calls go straight to instructions, and array outputs come out of the text too
    server.route = lambda req: "Entities: " + json.dumps(fake_llm(req)["items"]) + " (2 found)"
    assert extract_entities(client, MATERIAL["en"]["entity_text"], "context") == MATERIAL["en"]["entities"]
    assert len(server.requests) == 4 and "response_format" not in server.requests[3].body


@pytest.mark.parametrize("status", [400, 422, 500])
def test_json_schema_rejected_uses_json_object_with_the_schema(server, client, status):
    """llama-cpp-python's server takes {"type": "json_object", "schema": ...} (enforced by a
    grammar) and answers the json_schema type with HTTP 500 naming response_format."""
    server.reject_response_format, server.reject_status = "json_schema", status
    assert judge_1_5(client, "q?", "a", "a")[0] == 5
    assert judge_1_5(client, "q2?", "a", "a")[0] == 5
    assert [r.response_format_type for r in server.requests] == ["json_schema", "json_object", "json_object"]
    assert client.uses_response_format and client.response_format_type == "json_object"
    assert client.stats().retries == 0  # a rejection is not a transient 5xx


def test_fallback_reask_keeps_the_instructions(server, client):
    server.reject_response_format = True
    server.route = sequence("no idea", {"reasoning": "ok", "score": 3})
    assert judge_1_5(client, "q?", "a", "b") == (3, "ok")
    _, _, first, second = server.requests
    assert "response_format" not in first.body and "response_format" not in second.body
    assert second.prompt == first.prompt and FORMAT_INSTRUCTION["en"].split("{schema}")[0] in second.prompt
    assert second.messages[-2] == {"role": "assistant", "content": "no idea"}


def test_bad_request_without_response_format_is_an_error(server):
    server.route = lambda req: Reply(status=400, content="context length exceeded")
    with make_client(server) as c, pytest.raises(LLMError, match="HTTP 400 .*context length exceeded"):
        judge_1_5(c, "q?", "a", "b")
    assert len(server.requests) == 3  # json_schema, json_object, then one instructed attempt; no loop
    assert c.uses_response_format  # a fallback that also failed proves nothing about response_format
