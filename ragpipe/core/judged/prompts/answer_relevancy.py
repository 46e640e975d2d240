"""Answer relevancy (RAGAS style): questions the answer would answer, and whether the
answer is noncommittal. The metric embeds the questions and compares them with the
original question."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from ragpipe.core.judged.prompts.decompose import unpunctuated
from ragpipe.core.llm.prompt import Output, Prompt, Text


class AnswerRelevancyInput(BaseModel):
    answer: str
    n: int = Field(ge=1, le=10)


class AnswerRelevancyOutput(Output):
    questions: list[Text]
    noncommittal: Literal[0, 1]


def _check(inputs: AnswerRelevancyInput, output: AnswerRelevancyOutput) -> None:
    if len(output.questions) != inputs.n:
        raise ValueError(f"expected exactly {inputs.n} questions, got {len(output.questions)}")


def fake_questions(inputs: AnswerRelevancyInput) -> AnswerRelevancyOutput:
    """The fake judge's questions: the answer itself, numbered; noncommittal for "I don't know"."""
    answer = inputs.answer
    return AnswerRelevancyOutput(questions=[f"Q{i}: {unpunctuated(answer)}?" for i in range(1, inputs.n + 1)],
                                 noncommittal=int("不知道" in answer or "don't know" in answer))


ZH = """任务：根据一段回答反推它所回答的问题，并判断这段回答是否含糊回避。

${data_rule}

要求：
1. 写出 ${n} 个不同的问题，每个问题都应当能由这段回答（按其原文内容）直接回答；可以从不同角度或用不同措辞提问。
2. 问题使用回答本身的语言，不要引入回答中没有的信息。
3. noncommittal：回答含糊其辞、回避或拒绝回答时为 1（例如“我不知道”“无法确定”“资料中没有相关信息”）；否则为 0。

回答：
${answer}

输出格式：只输出一个 JSON 对象 {"questions": ["问题1", ...], "noncommittal": 0 或 1}，questions 恰好包含 ${n} 个问题。"""

EN = """Task: infer the questions that an answer responds to, and decide whether the answer is noncommittal.

${data_rule}

Requirements:
1. Write ${n} different questions, each of which the answer (as written) answers directly; vary the angle or
   the wording.
2. Write the questions in the language of the answer and do not bring in information the answer does not contain.
3. noncommittal: 1 when the answer is evasive, vague or declines to answer (e.g. "I don't know", "I'm not sure",
   "the documents do not say"); otherwise 0.

Answer:
${answer}

Output format: only a JSON object {"questions": ["question 1", ...], "noncommittal": 0 or 1}, with exactly ${n}
questions."""

ANSWER_RELEVANCY: Prompt[AnswerRelevancyInput, AnswerRelevancyOutput] = Prompt(
    name="answer_relevancy",
    version="1.0",
    input_model=AnswerRelevancyInput,
    output_model=AnswerRelevancyOutput,
    templates={"zh": ZH, "en": EN},
    data_fields={"answer": "answer"},
    check=_check,
    lengths=lambda inputs: {"questions": inputs.n},
    fake_reply=fake_questions,
)
