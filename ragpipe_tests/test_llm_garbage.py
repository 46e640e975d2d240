"""Schema-valid garbage from a judge (issue 19, item 8): a small model that "decomposes" the
prompt's own few-shot example, echoes the placeholders of the format line, or writes
statements that are not in the text gets NaN with the reason, never a score."""

import math

import pytest

from ragpipe.core.llm import LLMClient, LLMEvaluator, LLMSettings
from ragpipe.core.llm.settings import settings_from_env
from ragpipe.core.llm.prompts import DECOMPOSE, JUDGE_AND_RUBRIC
from ragpipe.core.llm.prompts.decompose import DecomposeInput
from ragpipe.core.llm.prompts.judge_and_rubric import JudgeAndRubricInput
from ragpipe.core.metrics import Toolkit
from ragpipe.core.metrics.scoring import score_case
from ragpipe.core.schemas import EvalCase
from ragpipe.testing.fake_judge import fake_llm, prompt_of
from ragpipe.testing.openai_server import OpenAIServer

FAST = {"timeout": 5, "backoff_base": 0.01, "backoff_max": 0.05}
CASE = EvalCase(question_id="grant", question="How long does the Harbor Storefront Grant last?",
                answer="The Harbor Storefront Grant lasts 6 months. It pays up to 5,000 dollars.",
                retrieved_contexts=["The Harbor Storefront Grant lasts 6 months and pays up to 5,000 dollars."],
                ground_truth_answer="The Harbor Storefront Grant lasts 6 months.")
EIFFEL = "The Eiffel Tower is 330 m tall."  # the decomposition prompt's few-shot example
PLACEHOLDER_RUBRIC = {"analysis": "error analysis…", "accuracy": 8, "completeness": 8, "clarity": 9,
                      "reason": "short verdict", "suggestion": "how to improve"}
ECHOES = {  # what the small model replied, prompt by prompt
    "judge_and_rubric": {"judge": {"reasoning": "why this score", "score": 2}, "rubric": PLACEHOLDER_RUBRIC},
    "llm_judge": {"reasoning": "Mostly accurate and covers the main points, but misses the detail about minor "
                               "contributors. Clear, though it could be more concise.", "score": 4},
    "rubric_1_10": PLACEHOLDER_RUBRIC,
    "statement_decomposition": {"statements": [EIFFEL]},
}


def echoing_judge(request):
    name = prompt_of(request)
    if name == "answer_analysis":  # the real questions, but the example's statements
        return {**fake_llm(request), "answer_statements": [EIFFEL], "ground_truth_statements": [EIFFEL]}
    return ECHOES.get(name) or fake_llm(request)


@pytest.mark.parametrize("batched", [True, False])
def test_echoed_examples_and_placeholders_are_nan_with_the_reason(embedder, batched):
    with OpenAIServer(route=echoing_judge) as server:
        with LLMClient(LLMSettings(base_url=server.base_url, model="small", **FAST)) as client:
            kit = Toolkit(embedder, llm=LLMEvaluator(client))
            if batched:
                kit.llm.prefetch([CASE])
            results = score_case(CASE, kit, ["llm_judge", "rubric_1_10", "faithfulness", "context_recall",
                                             "answer_relevancy", "context_relevance"])
    for name in ("llm_judge", "rubric_1_10", "faithfulness", "context_recall"):
        assert math.isnan(results[name].value), name
        assert "repeats the prompt's own example or placeholder text" in results[name].error
    assert "how to improve" in results["rubric_1_10"].error or "error analysis" in results["rubric_1_10"].error
    assert EIFFEL in results["faithfulness"].error
    # the parts the model answered properly still count
    assert not math.isnan(results["answer_relevancy"].value) and results["context_relevance"].value == 0.0


def test_statements_that_are_not_in_the_text_are_rejected(embedder):
    def inventing_judge(request):
        if prompt_of(request) in ("answer_analysis", "statement_decomposition"):
            reply = fake_llm(request)
            key = "statements" if "statements" in reply else "answer_statements"
            return {**reply, key: [*reply[key], "Paris hosts the summer Olympic Games."]}
        return fake_llm(request)

    with OpenAIServer(route=inventing_judge) as server:
        with LLMClient(LLMSettings(base_url=server.base_url, model="small", **FAST)) as client:
            kit = Toolkit(embedder, llm=LLMEvaluator(client))
            kit.llm.prefetch([CASE])
            result = score_case(CASE, kit, ["faithfulness"])["faithfulness"]
    assert math.isnan(result.value)
    assert "'Paris hosts the summer Olympic Games.' shares 0 of its 5 content words" in result.error
    assert "does not come from that text" in result.error


def test_the_checks_accept_real_output_and_excuse_an_example_the_material_is_about():
    fha = DecomposeInput(text="FHA 贷款最低首付为 3.5%，且联邦政府强制要求 FHA 贷款的首付比例不得超过 3.5%。")
    # word for word the Chinese example's statements, and a true decomposition of this text: the
    # first in other words than the text's, the second as the text has it
    statements = ["FHA 贷款的最低首付为 3.5%。", "联邦政府强制要求 FHA 贷款的首付比例不得超过 3.5%。"]
    assert DECOMPOSE.parse({"statements": statements}, fha).statements == statements
    # a placeholder is never excused, even when the material uses its words
    scored = JudgeAndRubricInput(question="Why is my credit score low?", ground_truth="Late payments lower the "
                                 "score.", documents=["Late payments lower the score."], answer="Late payments.")
    reply = {"judge": {"reasoning": "why this score", "score": 4},
             "rubric": {**PLACEHOLDER_RUBRIC, "analysis": "Names the cause.", "reason": "Accurate.",
                        "suggestion": "Say how long a late payment counts."}}
    with pytest.raises(ValueError, match=r"judge\.reasoning: 'why this score' repeats"):
        JUDGE_AND_RUBRIC.parse(reply, scored)


def test_the_per_item_deadline_is_set_like_the_other_options(monkeypatch, tmp_path):
    from ragpipe.defs.definitions import llm_resource

    env = {"RAGPIPE_LLM_BASE_URL": "http://h/v1", "RAGPIPE_LLM_MODEL": "m", "RAGPIPE_LLM_DEADLINE": "42.5"}
    assert settings_from_env(env).deadline == 42.5
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    evaluator = llm_resource(tmp_path).evaluator()
    try:
        assert evaluator.llm.settings.deadline == 42.5
    finally:
        evaluator.llm.close()
