"""The metrics in LLM mode, against the scripted judge on a loopback server."""

import math

import pytest

from ragpipe.core.llm import LLMClient, LLMEvaluator, LLMSettings
from ragpipe.core.metrics import REGISTRY, Toolkit
from ragpipe.core.scoring import score_case
from ragpipe.core.schemas import EvalCase
from ragpipe_tests.fake_judge import fake_llm, prompt_of
from ragpipe_tests.openai_server import OpenAIServer, Reply

CASE = EvalCase(
    question_id="fha", question="FHA 贷款的最低首付是多少？",
    answer="FHA 贷款最低首付为 3.5%。联邦政府强制要求不得超过此比例。",
    retrieved_contexts=["FHA 贷款最低首付为 3.5%。", "ARM 通常以较低利率开始。"],
    ground_truth_answer="FHA 贷款最低首付为 3.5%。信用分数至少 580。",
)


@pytest.fixture
def judged(embedder):
    with OpenAIServer(route=fake_llm) as server:
        with LLMClient(LLMSettings(base_url=server.base_url, model="judge", timeout=5)) as client:
            yield server, Toolkit(embedder, llm=LLMEvaluator(client))


def test_statement_metrics_share_one_decomposition(judged):
    server, kit = judged
    results = score_case(CASE, kit, ["faithfulness", "context_recall", "factual_correctness", "noise_sensitivity"])
    assert results["faithfulness"].value == 0.5  # second sentence is in no passage
    assert results["context_recall"].value == 0.5  # the credit score is not retrieved
    assert [v["supported"] for v in results["faithfulness"].details["statements"]] == [True, False]
    decompositions = [r for r in server.requests if prompt_of(r) == "statement_decomposition"]
    # One call per distinct text: the answer and the ground truth.
    assert sorted(r.fenced("text") for r in decompositions) == sorted([CASE.answer, CASE.ground_truth_answer])


def test_judges_and_context_relevance(judged):
    _, kit = judged
    results = score_case(CASE, kit, ["llm_judge", "rubric_1_10", "context_relevance", "answer_relevancy"])
    assert results["llm_judge"].value == 2.0 and results["llm_judge"].details["reasoning"]
    rubric = results["rubric_1_10"]
    assert rubric.value == pytest.approx(0.5 * 9 + 0.3 * 7 + 0.2 * 8)
    assert rubric.details["is_passing"] and rubric.details["mode"] == "with_documents"
    assert results["context_relevance"].value == 0.5
    assert 0 <= results["answer_relevancy"].value <= 1

    pure = REGISTRY["rubric_1_10"].score(CASE.model_copy(update={"retrieved_contexts": []}), kit)
    assert pure.details["mode"] == "pure_llm" and not pure.details["is_passing"]


def test_llm_failure_is_nan_with_reason_and_spares_other_metrics(embedder):
    def broken_judge(request):
        return Reply(status=500, raw="upstream exploded") if prompt_of(request) == "llm_judge" else fake_llm(request)

    with OpenAIServer(route=broken_judge) as server:
        with LLMClient(LLMSettings(base_url=server.base_url, model="judge", timeout=5)) as client:
            kit = Toolkit(embedder, llm=LLMEvaluator(client))
            results = score_case(CASE, kit, ["llm_judge", "faithfulness"])
    assert math.isnan(results["llm_judge"].value) and "500" in results["llm_judge"].error
    assert results["faithfulness"].value == 0.5


def test_llm_only_metrics_are_unmeasured_offline(embedder):
    results = score_case(CASE, Toolkit(embedder), ["llm_judge", "rubric_1_10"])
    for result in results.values():
        assert math.isnan(result.value) and "no" in result.error and "LLM" in result.error
