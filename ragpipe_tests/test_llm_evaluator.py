"""The evaluator: memoised operations, the batched prefetch (five calls per sample, the
single-prompt fallbacks), the refine loop and the prompt hash per metric."""

from __future__ import annotations

import json
import re

import pytest

from ragpipe.core.llm import LLMError
from ragpipe.core.judged import PROMPTS, LLMEvaluator, LLMVerifier, refine
from ragpipe.core.judged.prompts.rubric import FAKE_RUBRIC as RUBRIC
from ragpipe.core.metrics import REGISTRY, judge_use
from ragpipe.core.schemas import EvalCase
from ragpipe.testing.fake_judge import fake_llm, prompt_of
from ragpipe_tests.llm_helpers import MATERIAL, SAMPLE, client, make_client, server
from ragpipe.testing.openai_server import Reply, script

# server, client: pytest fixtures, used by name


# ---- memoised decomposition ---------------------------------------------------------------
def test_decomposition_is_done_once_per_text(server, client):
    verifier = LLMVerifier(client)
    text = MATERIAL["zh"]["answer"]
    first = verifier.decompose(text)
    first.append("mutating the returned list does not touch the memo")
    for _ in range(3):
        assert verifier.decompose(text) == first[:-1]
    assert len(server.calls("statement_decomposition")) == 1
    verifier.decompose(MATERIAL["en"]["answer"])
    assert len(server.calls("statement_decomposition")) == 2
    LLMVerifier(client).decompose(text)  # memoised per verifier instance
    assert len(server.calls("statement_decomposition")) == 3
    assert verifier.decompose("  ") == [] and len(server.requests) == 3


def test_failed_decomposition_is_remembered(server, client):
    server.route = lambda req: "not json"
    verifier = LLMVerifier(client)
    for _ in range(3):
        with pytest.raises(LLMError, match="statement_decomposition"):
            verifier.decompose("FHA 贷款允许最低 3.5% 的首付。")
    assert len(server.requests) == 2  # one call and its re-ask, not one per metric


def test_verify_without_evidence_makes_no_call(server, client):
    verdicts = LLMVerifier(client).verify(["a claim"], [])
    assert [(v.supported, v.score, v.reason) for v in verdicts] == [(False, 0.0, "no evidence to check against")]
    assert LLMVerifier(client).verify([], ["context"]) == []
    assert server.requests == []


def ask_like_the_metrics(ev: LLMEvaluator, case: EvalCase) -> list:
    """What the LLM suite's metrics ask of the evaluator for one case."""
    a, g = ev.decompose(case.answer), ev.decompose(case.ground_truth_answer)
    out = [a, g]
    for stmts, evidence in ((a, case.retrieved_contexts), (g, case.retrieved_contexts),
                            (a, [case.ground_truth_answer]), (g, [case.answer])):
        out.append([v.as_dict() for v in ev.verify(stmts, evidence)])
    out += [ev.context_relevance(case.question, case.retrieved_contexts), ev.answer_questions(case.answer),
            ev.extract_entities(case.question), ev.extract_entities(case.answer),
            ev.extract_entities("\n".join(case.retrieved_contexts)),
            ev.judge_1_5(case.question, case.ground_truth_answer, case.answer),
            ev.rubric_1_10(case.question, case.answer, case.retrieved_contexts).model_dump()]
    return out


def test_prefetch_answers_a_sample_in_five_calls_with_the_same_results(server, client):
    direct = ask_like_the_metrics(LLMEvaluator(client), SAMPLE)
    direct_calls = server.count()
    server.reset()
    ev = LLMEvaluator(client)
    report = ev.prefetch([SAMPLE])
    assert server.count() == 5 and report.batched_calls == 5 and report.fallback_calls == 0
    assert sorted(prompt_of(r) for r in server.requests) == sorted(
        ["answer_analysis", "entity_extraction_batch", "context_relevance", "judge_and_rubric",
         "statement_verification_batch"])
    assert ask_like_the_metrics(ev, SAMPLE) == direct
    assert server.count() == 5  # the metrics found everything in the memo
    assert direct_calls == 13


def test_prefetch_verify_batch_fences_every_statement_and_passage(server, client):
    LLMEvaluator(client).prefetch([SAMPLE])
    (req,) = [r for r in server.requests if prompt_of(r) == "statement_verification_batch"]
    passages = req.fenced_items("passage")
    assert passages == SAMPLE.retrieved_contexts + [SAMPLE.ground_truth_answer, SAMPLE.answer]
    assert len(req.fenced_items("check 1 statement")) == 2 and len(req.fenced_items("check 4 statement")) == 2
    assert req.fenced_items("check 5 statement") == []


def test_prefetch_only_the_parts_the_metrics_need(server, client):
    LLMEvaluator(client).prefetch([SAMPLE], judge_use(["llm_judge"]))
    assert [prompt_of(r) for r in server.requests] == ["judge_and_rubric"]
    server.reset()
    LLMEvaluator(client).prefetch([SAMPLE], judge_use(["faithfulness"]))
    assert [prompt_of(r) for r in server.requests] == ["answer_analysis", "statement_verification_batch"]
    server.reset()
    LLMEvaluator(client).prefetch([SAMPLE.model_copy(update={"bot_error": "timeout"})])
    assert server.count() == 0


def test_prefetch_falls_back_to_single_prompts_on_invalid_batched_output(server, client):
    server.route = lambda req: {"checks": []} if prompt_of(req) == "statement_verification_batch" else fake_llm(req)
    ev = LLMEvaluator(client)
    report = ev.prefetch([SAMPLE])
    assert report.failures == {"verify": 1} and report.fallback_calls == 4
    singles = [r for r in server.requests if prompt_of(r) == "statement_verification"]
    assert len(singles) == 4
    before = server.count()
    server.route = fake_llm
    assert ask_like_the_metrics(ev, SAMPLE) == ask_like_the_metrics(LLMEvaluator(client), SAMPLE)
    assert server.count() > before  # (the second, fresh evaluator asked; the prefetched one did not)


def test_prefetch_transport_failure_is_remembered_not_retried_by_each_metric(server):
    def route(req):
        return Reply(status=500, content="judge down") if prompt_of(req) == "judge_and_rubric" else fake_llm(req)

    server.route = route
    with make_client(server, max_retries=1) as c:
        ev = LLMEvaluator(c)
        report = ev.prefetch([SAMPLE])
        assert report.failures == {"judges": 1}
        sent = server.count()
        for ask in (lambda: ev.judge_1_5(SAMPLE.question, SAMPLE.ground_truth_answer, SAMPLE.answer),
                    lambda: ev.rubric_1_10(SAMPLE.question, SAMPLE.answer, SAMPLE.retrieved_contexts)):
            with pytest.raises(LLMError, match="judge_and_rubric@1.1: HTTP 500 .*judge down"):
                ask()
        assert server.count() == sent


def test_prefetch_many_samples_runs_concurrently(server):
    server.latency = 0.1
    cases = [SAMPLE.model_copy(update={"question_id": str(i), "question": f"{SAMPLE.question} {i}",
                                       "answer": f"{SAMPLE.answer}编号 {i}。"}) for i in range(16)]
    with make_client(server, concurrency=16) as c:
        LLMEvaluator(c).prefetch(cases)
    assert server.count() == 16 * 5
    assert server.most_in_flight >= 8  # one at a time would be 1: the samples' calls overlap


# ---- the rubric's refine loop -----------------------------------------------------------------------
def rubric_reply(accuracy: int, suggestion: str) -> dict:
    return {**RUBRIC.model_dump(), "accuracy": accuracy, "suggestion": suggestion}


def test_refine_feeds_the_suggestion_back_until_the_bar(server, client):
    server.route = script(rubric_reply(4, "cite the rate"), rubric_reply(7, "add the cap"), rubric_reply(9, "ok"))
    seen = []

    def generate(question, suggestion):
        seen.append(suggestion)
        return f"answer {len(seen)}", ["doc"]

    result = refine(LLMEvaluator(client), "What is the rate?", generate, max_rounds=5)
    assert seen == [None, "cite the rate", "add the cap"]
    assert [r.accuracy for r in result.rounds] == [4, 7, 9] and result.reached_bar
    assert result.stopped_because == "reached the bar" and result.bar == 8.0
    assert [r.answer for r in result.rounds] == ["answer 1", "answer 2", "answer 3"]
    assert server.requests[1].fenced("answer") == "answer 2"
    assert json.dumps(result.as_dict())


def test_refine_stops_after_n_rounds_and_on_errors(server, client):
    server.route = lambda req: rubric_reply(5, "try harder")
    result = refine(client, "q?", lambda q, s: ("an answer", None), max_rounds=2, bar=6)
    assert [r.accuracy for r in result.rounds] == [5, 5] and not result.reached_bar
    assert result.stopped_because == "no rounds left" and result.rounds[0].rubric.mode == "pure_llm"

    server.route = lambda req: {**RUBRIC.model_dump(), "accuracy": 11}
    result = refine(client, "q2?", lambda q, s: ("another answer", ["d"]), max_rounds=3)
    assert len(result.rounds) == 1 and result.rounds[0].rubric is None and result.rounds[0].accuracy is None
    assert "accuracy" in result.rounds[0].error and result.stopped_because == "error"

    def failing(q, s):
        raise TimeoutError("bot down")
    result = refine(client, "q3?", failing)
    assert result.rounds[0].error == "generate failed: TimeoutError: bot down"
    with pytest.raises(ValueError):
        refine(client, "q?", failing, max_rounds=0)


# ---- prompt provenance ---------------------------------------------------------------------------
def test_prompt_hash_per_metric(client):
    ev = LLMEvaluator(client, language="zh")
    h = ev.prompt_hash(REGISTRY["faithfulness"].judge)
    assert re.fullmatch(r"[0-9a-f]{64}", h) and h == REGISTRY["faithfulness"].judge.prompt_hash("zh")
    assert h == ev.prompt_hash(REGISTRY["context_recall"].judge) and h != ev.prompt_hash(REGISTRY["faithfulness"].judge, "en")
    assert h != ev.prompt_hash(REGISTRY["llm_judge"].judge) and ev.prompt_hash(REGISTRY["context_precision"].judge) is None
    assert ev.prompt_hashes(REGISTRY["llm_judge"].judge) == {"judge_and_rubric@1.1": PROMPTS["judge_and_rubric"].hash("zh"),
                                             "llm_judge@1.1": PROMPTS["llm_judge"].hash("zh")}
    with pytest.raises(ValueError, match="name the language"):
        LLMEvaluator(client).prompt_hash(REGISTRY["faithfulness"].judge)


def test_prefetch_verifies_filtered_statement_lists_too(server, client):
    ev = LLMEvaluator(client)
    ev.statement_filters = (lambda stmts: [s for s in stmts if "联邦" not in s],)
    ev.prefetch([SAMPLE], judge_use(["faithfulness"]))
    assert server.count() == 2
    answer = ev.decompose(SAMPLE.answer)
    kept = ev.statement_filters[0](answer)
    assert len(kept) == len(answer) - 1
    for stmts in (answer, kept):
        assert len(ev.verify(stmts, SAMPLE.retrieved_contexts)) == len(stmts)
    assert server.count() == 2  # both lists were in the one verification call
