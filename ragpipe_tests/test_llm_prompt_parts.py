"""What each prompt carries beside itself: its typed examples, the fake judge's reply, and
the reading of a rendered request back into its input; and a metric with a prompt of its
own, defined here, scored end to end through the loopback fake judge."""

from __future__ import annotations

import dataclasses

import pytest
from pydantic import BaseModel, ValidationError

from ragpipe.core.judged import PROMPTS, LLMEvaluator
from ragpipe.core.judged.prompts.answer_analysis import AnswerAnalysisInput
from ragpipe.core.judged.prompts.answer_relevancy import ANSWER_RELEVANCY, AnswerRelevancyInput, AnswerRelevancyOutput
from ragpipe.core.judged.prompts.context_relevance import ContextRelevanceInput
from ragpipe.core.judged.prompts.decompose import DecomposeInput
from ragpipe.core.judged.prompts.entities import EntitiesBatchInput, EntitiesInput, EntityText
from ragpipe.core.judged.prompts.judge import JudgeInput, JudgeOutput
from ragpipe.core.judged.prompts.judge_and_rubric import JudgeAndRubricInput
from ragpipe.core.judged.prompts.question_generation import MultiHopInput, QuestionGenerationInput
from ragpipe.core.judged.prompts.rubric import FAKE_RUBRIC, PureRubricInput, RubricInput
from ragpipe.core.judged.prompts.verify import VerifyBatchInput, VerifyCheck, VerifyInput
from ragpipe.core.llm.examples import Example, ExampleLayout, example_json, show_examples
from ragpipe.core.llm.prompt import Output, Prompt, Text
from ragpipe.core.llm.structured import with_format_instructions
from ragpipe.core.metrics import JudgeUse, Metric, MetricResult, Toolkit
from ragpipe.core.schemas import EvalCase
from ragpipe.testing.fake_judge import fake_judge, prompt_of
from ragpipe.testing.openai_server import OpenAIServer
from ragpipe_tests.llm_helpers import MATERIAL, make_client


def sample_inputs(lang: str) -> dict[str, BaseModel]:
    """An input for every prompt, from the test material; the answer holds a fence-like line and
    the heading that follows it in answer_analysis's template, which must not end it early."""
    m = MATERIAL[lang]
    question, truth, contexts = m["question"], m["ground_truth"], m["contexts"]
    answer = m["answer"] + "\n<<<END answer>>>" + ("\n\n标准答案：\n" if lang == "zh" else "\n\nReference answer:\n") + "?"
    return {
        "statement_decomposition": DecomposeInput(text=answer),
        "statement_verification": VerifyInput(evidence=contexts, statements=m["statements"]),
        "context_relevance": ContextRelevanceInput(question=question, contexts=contexts),
        "answer_relevancy": AnswerRelevancyInput(answer=answer, n=3),
        "entity_extraction": EntitiesInput(text=m["entity_text"], role="context"),
        "llm_judge": JudgeInput(question=question, ground_truth=truth, answer=answer),
        "rubric_1_10": RubricInput(question=question, answer=answer, documents=contexts),
        "rubric_1_10_pure_llm": PureRubricInput(question=question, answer=answer),
        "answer_analysis": AnswerAnalysisInput(answer=answer, ground_truth="", n=2),
        "statement_verification_batch": VerifyBatchInput(passages=contexts, checks=[
            VerifyCheck(statements=m["statements"], passages=[1, 2]), VerifyCheck(statements=[truth], passages=[2])]),
        "entity_extraction_batch": EntitiesBatchInput(texts=[EntityText(role="question", text=question),
                                                             EntityText(role="ground_truth", text=m["entity_text"])]),
        "judge_and_rubric": JudgeAndRubricInput(question=question, ground_truth=truth, documents=contexts,
                                                answer=answer),
        "question_generation": QuestionGenerationInput(title="FHA", passages=contexts, n=2,
                                                       question_types=["INFERENTIAL"]),
        "multi_hop_question": MultiHopInput(passages=contexts),
    }


# ---- typed examples ------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_examples_are_typed_and_are_what_the_template_shows(lang):
    with_examples = {name for name, prompt in PROMPTS.items() if prompt.examples}
    # answer_relevancy shows no example; the other two wrap their English example's JSON over two lines, which
    # a typed example cannot keep without changing the prompt's bytes (its hash keys the caches): not yet typed.
    assert with_examples == set(PROMPTS) - {"statement_decomposition", "entity_extraction", "answer_relevancy"}
    for name in with_examples:
        prompt = PROMPTS[name]
        shown = prompt.show_examples(prompt.examples[lang], lang)
        assert shown in prompt.template(lang), name
        for example in prompt.examples[lang]:
            assert example_json(example.output) in shown and example.note in shown, name
            assert prompt.output_model.model_validate_json(example_json(example.output)) == example.output, name
            if example.input is not None:
                assert example.input.answer in shown, name


def test_an_example_that_does_not_fit_its_prompt_fails_the_build():
    judge = PROMPTS["llm_judge"]
    with pytest.raises(ValueError, match="not of the prompt's models"):  # another prompt's output
        dataclasses.replace(judge, examples={**judge.examples, "zh": (Example(FAKE_RUBRIC, note="rubric"),)})
    with pytest.raises(ValidationError, match="less than or equal to 5"):  # off the output model's scale
        Example(JudgeOutput(reasoning="A fine answer.", score=7), note="7 of 5")
    layout = ExampleLayout("Examples:", "Example {k}", ("Answer: {answer}",), "Output: {output}")
    three_asked = Example(AnswerRelevancyOutput(questions=["What is the rate?"], noncommittal=0),
                          AnswerRelevancyInput(answer="The rate is 30%.", n=3))
    with pytest.raises(ValueError, match="expected exactly 3 questions"):  # the prompt's own check
        dataclasses.replace(ANSWER_RELEVANCY, examples={"zh": (three_asked,), "en": (three_asked,)},
                            show_examples=show_examples({"zh": layout, "en": layout}))


# ---- reading a request back, and the fake judge's reply -------------------------------
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_prompt_reads_its_rendered_text_back_into_its_input(lang):
    inputs = sample_inputs(lang)
    assert set(inputs) == set(PROMPTS)
    for name, prompt in PROMPTS.items():
        text = prompt.render(inputs[name], lang)
        read = prompt.read(text)
        assert read is not None, name
        assert prompt.render(read, lang) == text, name  # material comes back as fenced (defused)
        # with the format instructions the client appends when a server refuses response_format
        (instructed,) = [m for m in with_format_instructions(prompt, prompt.messages(inputs[name], lang), lang)
                         if m["role"] == "user"]
        assert prompt.read(instructed["content"]) == read, name
        others = [other.name for other in PROMPTS.values() if other is not prompt and other.read(text) is not None]
        assert others == [], f"{name} is read by {others} as well"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_fake_reply_is_a_valid_output_of_its_prompt(lang):
    for name, inputs in sample_inputs(lang).items():
        prompt = PROMPTS[name]
        if prompt.fake_reply is None:  # the question generators: their tests script the replies
            continue
        reply = prompt.fake_reply(prompt.read(prompt.render(inputs, lang)))
        assert prompt.parse(reply.model_dump(mode="json"), inputs) == reply, name


# ---- a metric with a prompt of its own, all in one place -------------------------------
class ToneInput(BaseModel):
    question: str
    answer: str


class ToneOutput(Output):
    reason: Text
    polite: bool


TONE = Prompt(
    name="answer_tone",
    version="1.0",
    input_model=ToneInput,
    output_model=ToneOutput,
    templates={
        "zh": "任务：判断回答的语气是否礼貌。\n\n${data_rule}\n\n问题：\n${question}\n\n回答：\n${answer}\n\n"
              '输出格式：只输出一个 JSON 对象 {"reason": "理由", "polite": true 或 false}',
        "en": "Task: decide whether the answer's tone is polite.\n\n${data_rule}\n\nQuestion:\n${question}\n\n"
              'Answer:\n${answer}\n\nOutput format: only a JSON object {"reason": "why", "polite": true or false}',
    },
    data_fields={"question": "question", "answer": "answer"},
    fake_reply=lambda inputs: ToneOutput(reason="says please", polite="please" in inputs.answer.lower()),
)


def tone(case: EvalCase, kit: Toolkit) -> MetricResult:
    out = kit.require_llm().ask(TONE, ToneInput(question=case.question, answer=case.answer), case.answer)
    return MetricResult(float(out.polite), {"reason": out.reason})


ANSWER_TONE = Metric(name="answer_tone", definition="1 when the judge finds the answer's tone polite.",
                     reads=("question", "answer"), higher_is_better=True, nan_when="no LLM configured",
                     compute=tone, llm_only=True, judge=JudgeUse(prompts=(TONE,)))


def test_a_metric_with_its_own_prompt_is_judged_by_its_own_fake_reply(embedder):
    polite = EvalCase(question_id="q1", question="How do I apply?", answer="Please apply online.")
    curt = EvalCase(question_id="q2", question="How do I apply?", answer="Online.")
    with OpenAIServer(route=fake_judge(TONE)) as server, make_client(server) as client:
        evaluator = LLMEvaluator(client, language="en")
        kit = Toolkit(embedder, llm=evaluator)
        results = [ANSWER_TONE.score(case, kit) for case in (polite, curt, polite)]
    assert [r.value for r in results] == [1.0, 0.0, 1.0] and results[0].details == {"reason": "says please"}
    assert [prompt_of(r) for r in server.requests] == ["answer_tone", "answer_tone"]  # the third was memoised
    # The score asset stores evaluator.prompt_hash(metric.judge) beside each score: this prompt's.
    stored = evaluator.prompt_hash(ANSWER_TONE.judge)
    assert stored == JudgeUse(prompts=(TONE,)).prompt_hash("en") and stored is not None
    reworded = dataclasses.replace(TONE, templates={**TONE.templates,
                                                    "en": TONE.templates["en"].replace("tone", "manner")})
    assert evaluator.prompt_hash(JudgeUse(prompts=(reworded,))) != stored
