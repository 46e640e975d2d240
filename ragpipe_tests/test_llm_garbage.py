"""Schema-valid garbage from a judge (issue 19, item 8): a small model that "decomposes" the
prompt's own few-shot example, echoes the placeholders of the format line, or writes
statements that are not in the text gets NaN with the reason, never a score."""

import math
import re

import pytest

from ragpipe.core.llm import LLMClient, LLMSettings
from ragpipe.core.judged import LLMEvaluator
from ragpipe.core.llm.settings import settings_from_env
from ragpipe.core.judged.prompts import CONTEXT_RELEVANCE, DECOMPOSE, JUDGE_1_5, JUDGE_AND_RUBRIC
from ragpipe.core.judged.prompts.context_relevance import ContextRelevanceInput
from ragpipe.core.judged.prompts.decompose import DecomposeInput
from ragpipe.core.judged.prompts.judge import JudgeInput
from ragpipe.core.judged.prompts.judge_and_rubric import JudgeAndRubricInput
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


# The judge's format-line example, and what a small model made of it (issue: a score of 4 for
# a hallucinated answer, its reasoning cut from the example).
JUDGED = JudgeInput(question=CASE.question, ground_truth=CASE.ground_truth_answer,
                    answer="The Harbor Storefront Grant lasts 12 months and is paid by the port authority.")
PARTIAL_ECHOES = {
    "truncated": "Mostly accurate and covers the main points, but misses the detail about minor",
    "prefix": "Mostly accurate and covers the main points",
    "changed punctuation": "Mostly accurate, and covers the main points -- but misses the detail about minor "
                           "contributors; clear (though it could be more concise)",
    "with a short addition": "Mostly accurate and covers the main points, but misses the detail about minor "
                             "contributors. Score 4.",
    "Chinese, truncated": "回答基本准确并涵盖了主要信息点，但遗漏了关于次要",
}


@pytest.mark.parametrize("reasoning", PARTIAL_ECHOES.values(), ids=PARTIAL_ECHOES.keys())
def test_a_partial_echo_of_an_example_or_placeholder_is_rejected(reasoning):
    with pytest.raises(ValueError, match=r"reasoning: .* repeats the prompt's own example or placeholder text"):
        JUDGE_1_5.parse({"reasoning": reasoning, "score": 4}, JUDGED)


@pytest.mark.parametrize("part,field,placeholder", [("judge", "reasoning", "[why this score]"),
                                                    ("rubric", "suggestion", "<how to improve>")])
def test_a_placeholder_in_brackets_is_rejected(part, field, placeholder):
    scored = JudgeAndRubricInput(question=CASE.question, ground_truth=CASE.ground_truth_answer,
                                 documents=CASE.retrieved_contexts, answer=JUDGED.answer)
    reply = {"judge": {"reasoning": "The duration contradicts the ground truth of 6 months.", "score": 2},
             "rubric": {"analysis": "The 12 months and the port authority have no support.", "accuracy": 3,
                        "completeness": 5, "clarity": 8, "reason": "Wrong duration.",
                        "suggestion": "Keep to 6 months."}}
    reply[part][field] = placeholder
    with pytest.raises(ValueError, match=rf"{part}\.{field}: {re.escape(repr(placeholder))} repeats"):
        JUDGE_AND_RUBRIC.parse(reply, scored)


LEGITIMATE = [
    # quotes the answer under evaluation, which shares a run of words with the example
    ("The answer covers the main points: the grant lasts 6 months and pays up to 5,000 dollars.",
     'It "covers the main points": the 6 months match the ground truth.'),
    # borrows the example's frame for its own finding
    (JUDGED.answer, "The answer is fluent, but misses the detail about the 6 months: 12 months contradicts it."),
    (JUDGED.answer, "The rate is right, but the cap of 5,000 dollars is missing."),
    ("Sorry, I cannot answer that.", "Gives no information about the grant; the answer declines."),
    ("该补贴为期12个月。", "回答与标准答案矛盾，属于编造。"),
]


@pytest.mark.parametrize("answer,reasoning", LEGITIMATE)
def test_a_reasoning_of_its_own_is_accepted_even_where_it_shares_words_with_an_example(answer, reasoning):
    judged = JudgeInput(question=CASE.question, ground_truth=CASE.ground_truth_answer, answer=answer)
    assert JUDGE_1_5.parse({"reasoning": reasoning, "score": 2}, judged).reasoning == reasoning


def test_a_reason_about_what_the_context_is_about_is_accepted():
    asked = ContextRelevanceInput(question="What is the minimum down payment for an FHA loan?",
                                  contexts=["FHA loans allow a minimum down payment as low as 3.5%."])
    verdicts = [{"index": 1, "relevant": True, "reason": "States the minimum down payment of 3.5%."}]
    assert CONTEXT_RELEVANCE.parse({"contexts": verdicts}, asked).contexts[0].reason.startswith("States")


def test_a_truncated_echo_from_the_judge_is_nan_with_the_reason(embedder):
    def truncating_judge(request):
        if prompt_of(request) == "llm_judge":
            return {"reasoning": PARTIAL_ECHOES["truncated"], "score": 4}
        return fake_llm(request)

    hallucinated = CASE.model_copy(update={"answer": JUDGED.answer})
    with OpenAIServer(route=truncating_judge) as server:
        with LLMClient(LLMSettings(base_url=server.base_url, model="small", **FAST)) as client:
            result = score_case(hallucinated, Toolkit(embedder, llm=LLMEvaluator(client)), ["llm_judge"])["llm_judge"]
    assert math.isnan(result.value)
    assert "repeats the prompt's own example or placeholder text" in result.error


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
