"""One call that reads a sample's answer and ground truth for every statement-based
metric and for answer relevancy: both texts decomposed into atomic statements (the
rules of ``statement_decomposition``), plus the questions the answer would answer and
whether it is noncommittal (the rules of ``answer_relevancy``). The parts are stored
exactly as the single prompts' results would be, so the metrics cannot tell them apart."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from ragpipe.core.judged.prompts.answer_relevancy import AnswerRelevancyInput, fake_questions
from ragpipe.core.judged.prompts.decompose import fake_statements
from ragpipe.core.llm.examples import Example, ExampleLayout, show_examples
from ragpipe.core.llm.prompt import Output, Prompt, Text


class AnswerAnalysisInput(BaseModel):
    answer: str
    ground_truth: str = ""  # empty when the sample has none
    n: int = Field(ge=1, le=10)


class AnswerAnalysisOutput(Output):
    answer_statements: list[Text]
    ground_truth_statements: list[Text]
    questions: list[Text]
    noncommittal: Literal[0, 1]


def _check(inputs: AnswerAnalysisInput, output: AnswerAnalysisOutput) -> None:
    if len(output.questions) != inputs.n:
        raise ValueError(f"expected exactly {inputs.n} questions, got {len(output.questions)}")
    if not inputs.ground_truth.strip() and output.ground_truth_statements:
        raise ValueError("the reference answer is empty, so ground_truth_statements must be []")


def _fake_reply(inputs: AnswerAnalysisInput) -> AnswerAnalysisOutput:
    relevancy = fake_questions(AnswerRelevancyInput(answer=inputs.answer, n=inputs.n))
    return AnswerAnalysisOutput(answer_statements=fake_statements(inputs.answer),
                                ground_truth_statements=fake_statements(inputs.ground_truth),
                                questions=relevancy.questions, noncommittal=relevancy.noncommittal)


ZH = """任务：阅读一个 RAG 系统的回答和一份标准答案，完成三件事：
A. 把回答分解为原子陈述（answer_statements）；
B. 把标准答案分解为原子陈述（ground_truth_statements）；
C. 根据回答反推它所回答的 ${n} 个问题（questions），并判断回答是否含糊回避（noncommittal）。

${data_rule}

分解规则（A 和 B）：
1. 每条陈述只表达文本中的一个事实、论断或条件。
2. 每条陈述必须能脱离上下文独立理解：把代词和指代（“它”“该政策”“前者”等）替换为文本中所指的名称。
3. 数字、单位、日期、名称和限定词（至少、最多、仅、不得等）必须与原文完全一致。
4. 不得添加文本没有说的内容，不得合并或遗漏论断，也不要判断其真假；两份文本各自分解，互不参照。
5. 用文本本身的语言书写陈述。
6. 问候、客套话等没有实际内容的句子不算陈述；文本中没有任何论断（或标准答案为空）时输出空列表。

反推问题的规则（C）：
1. 写出 ${n} 个不同的问题，每个问题都应当能由这段回答（按其原文内容）直接回答；可以从不同角度或用不同措辞提问。
2. 问题使用回答本身的语言，不要引入回答中没有的信息，也不要参考标准答案。
3. noncommittal：回答含糊其辞、回避或拒绝回答时为 1（例如“我不知道”“无法确定”“资料中没有相关信息”）；否则为 0。

${examples}

回答：
${answer}

标准答案：
${ground_truth}

输出格式：只输出一个 JSON 对象 {"answer_statements": [...], "ground_truth_statements": [...], "questions": [...], "noncommittal": 0 或 1}，questions 恰好包含 ${n} 个问题。"""

EN = """Task: read a RAG system's answer and a reference answer, and do three things:
A. decompose the answer into atomic statements (answer_statements);
B. decompose the reference answer into atomic statements (ground_truth_statements);
C. infer ${n} questions that the answer responds to (questions), and decide whether the answer is noncommittal
   (noncommittal).

${data_rule}

Decomposition rules (A and B):
1. Each statement expresses exactly one fact, claim or condition from the text.
2. Each statement must be understandable on its own: replace pronouns and references ("it", "this policy",
   "the former") with the names they refer to in the text.
3. Keep numbers, units, dates, names and qualifiers (at least, at most, only, must not) exactly as written.
4. Do not add anything the text does not say, do not merge or drop claims, and do not judge whether they are
   true; decompose each text on its own, without looking at the other.
5. Write the statements in the language of the text.
6. Greetings and filler without content are not statements; a text without any claim (or an empty reference
   answer) gives an empty list.

Question rules (C):
1. Write ${n} different questions, each of which the answer (as written) answers directly; vary the angle or
   the wording.
2. Write the questions in the language of the answer; do not bring in information the answer does not contain,
   and do not use the reference answer.
3. noncommittal: 1 when the answer is evasive, vague or declines to answer (e.g. "I don't know", "I'm not sure",
   "the documents do not say"); otherwise 0.

${examples}

Answer:
${answer}

Reference answer:
${ground_truth}

Output format: only a JSON object {"answer_statements": [...], "ground_truth_statements": [...], "questions": [...],
"noncommittal": 0 or 1}, with exactly ${n} questions."""

EXAMPLES = {
    "zh": (Example(AnswerAnalysisOutput(
        answer_statements=["FHA 贷款的最低首付为 3.5%。", "联邦政府强制要求 FHA 贷款的首付比例不得超过 3.5%。"],
        ground_truth_statements=["FHA 贷款的最低首付为 3.5%。"],
        questions=["FHA 贷款的最低首付是多少？", "FHA 贷款的首付比例有上限吗？", "联邦政府对 FHA 首付有什么要求？"],
        noncommittal=0),
        AnswerAnalysisInput(answer="FHA 贷款最低首付为 3.5%，且联邦政府强制要求不得超过此比例。",
                            ground_truth="FHA 贷款最低首付为 3.5%。", n=3)),),
    "en": (Example(AnswerAnalysisOutput(
        answer_statements=["The Eiffel Tower was completed in 1889.", "The Eiffel Tower is 330 m tall."],
        ground_truth_statements=["The Eiffel Tower is 330 m tall."],
        questions=["How tall is the Eiffel Tower?", "When was the Eiffel Tower completed?",
                   "What is the height of the Eiffel Tower in metres?"],
        noncommittal=0),
        AnswerAnalysisInput(answer="The Eiffel Tower, completed in 1889, is 330 m tall.",
                            ground_truth="The Eiffel Tower is 330 m tall.", n=3)),),
}
LAYOUTS = {
    "zh": ExampleLayout("示例（仅用于说明格式）：", "", ("回答：{answer}", "标准答案：{ground_truth}"), "输出：{output}"),
    "en": ExampleLayout("Example (format only):", "", ("Answer: {answer}", "Reference answer: {ground_truth}"),
                        "Output: {output}"),
}

ANSWER_ANALYSIS: Prompt[AnswerAnalysisInput, AnswerAnalysisOutput] = Prompt(
    name="answer_analysis",
    version="1.0",
    input_model=AnswerAnalysisInput,
    output_model=AnswerAnalysisOutput,
    templates={"zh": ZH, "en": EN},
    data_fields={"answer": "answer", "ground_truth": "ground_truth"},
    check=_check,
    lengths=lambda inputs: {"questions": inputs.n},
    grounded={"answer_statements": "answer", "ground_truth_statements": "ground_truth"},
    examples=EXAMPLES,
    show_examples=show_examples(LAYOUTS),
    fake_reply=_fake_reply,
)
