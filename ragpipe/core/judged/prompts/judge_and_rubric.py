"""The 1–5 judge and the 1–10 rubric in one call, for a sample that has
both a ground-truth answer and retrieved documents. The two parts stay independent: the
judge compares the answer with the ground truth only, the rubric checks it against the
documents only (the calibration examples show an answer that is honest about the
documents yet incomplete by the ground truth). The outputs are the single prompts' own
models, so the results are interchangeable with ``llm_judge`` and ``rubric_1_10``."""

from __future__ import annotations

from pydantic import BaseModel, Field

from ragpipe.core.llm.examples import Example, ExampleLayout, show_examples
from ragpipe.core.llm.prompt import Language, Output, Prompt
from ragpipe.core.judged.prompts.judge import RUBRIC_EN as JUDGE_RUBRIC_EN
from ragpipe.core.judged.prompts.judge import RUBRIC_ZH as JUDGE_RUBRIC_ZH
from ragpipe.core.judged.prompts.judge import CALIBRATION_HEAD, JudgeInput, JudgeOutput, fake_judge
from ragpipe.core.judged.prompts.rubric import CRITERIA_EN, CRITERIA_ZH, FAKE_RUBRIC, RubricOutput


class JudgeAndRubricInput(BaseModel):
    question: str
    ground_truth: str
    documents: list[str] = Field(min_length=1)
    answer: str


class JudgeAndRubricOutput(Output):
    judge: JudgeOutput
    rubric: RubricOutput


def _variables(inputs: JudgeAndRubricInput, language: Language) -> dict[str, str]:
    return {"n_documents": str(len(inputs.documents))}


SUBSIDY_ZH = dict(question="2023 年本市小微企业贷款贴息比例是多少？", ground_truth="2023 年贴息比例为 30%。",
                  documents=["本市对小微企业贷款给予贴息支持，具体比例以年度通知为准。"])
SUBSIDY_EN = dict(question="What interest subsidy rate did the city grant on small-business loans in 2023?",
                  ground_truth="The 2023 rate was 30%.",
                  documents=["The city subsidises interest on small-business loans; the rate is set in the annual "
                             "notice."])
# The second example is honest about the documents yet incomplete by the ground truth: the parts stay independent.
EXAMPLES = {
    "zh": (
        Example(JudgeAndRubricOutput(
            judge=JudgeOutput(reasoning="比例与标准答案 30% 矛盾，其余细节没有依据，会误导用户。", score=2),
            rubric=RubricOutput(analysis="文献只说明给予贴息、比例以年度通知为准；50%、200 万元上限和按季度发放都没有文献依据，属于编造。",
                                accuracy=2, completeness=3, clarity=7, reason="关键数字均为编造。",
                                suggestion="只陈述文献中有的内容，并说明具体比例需查阅年度通知。")),
            JudgeAndRubricInput(answer="2023 年贴息比例为 50%，单户上限 200 万元，由市财政局按季度发放。", **SUBSIDY_ZH),
            "流畅但编造"),
        Example(JudgeAndRubricOutput(
            judge=JudgeOutput(reasoning="没有给出标准答案中的 30%，问题没有得到解决。", score=2),
            rubric=RubricOutput(analysis="回答准确转述了文献，并如实指出文献没有给出具体比例，没有编造。",
                                accuracy=10, completeness=8, clarity=9, reason="如实、准确，并说明了资料缺口。",
                                suggestion="检索当年的年度通知以给出具体比例。")),
            JudgeAndRubricInput(answer="参考文献没有给出 2023 年的具体比例，需以当年的年度通知为准。", **SUBSIDY_ZH),
            "对文献如实，但按标准答案不完整"),
    ),
    "en": (
        Example(JudgeAndRubricOutput(
            judge=JudgeOutput(reasoning="The rate contradicts the ground truth of 30% and the other details have no "
                                        "basis; it would mislead the user.", score=2),
            rubric=RubricOutput(analysis="The document only says interest is subsidised at a rate set in the annual "
                                         "notice; the 50%, the 2 million cap and the quarterly payment have no "
                                         "support and are fabricated.",
                                accuracy=2, completeness=3, clarity=7, reason="The key figures are fabricated.",
                                suggestion="State only what the documents say and point to the annual notice for "
                                           "the rate.")),
            JudgeAndRubricInput(answer="The 2023 subsidy rate is 50%, capped at 2 million yuan per business and paid "
                                       "quarterly by the city\nfinance bureau.", **SUBSIDY_EN),
            "fluent but fabricated"),
        Example(JudgeAndRubricOutput(
            judge=JudgeOutput(reasoning="Does not give the 30% of the ground truth; the question stays unanswered.",
                              score=2),
            rubric=RubricOutput(analysis="Restates the document accurately and says honestly that the rate is not "
                                         "given; nothing is invented.",
                                accuracy=10, completeness=8, clarity=9, reason="Honest and accurate; names the gap.",
                                suggestion="Retrieve that year's annual notice to give the rate.")),
            JudgeAndRubricInput(answer="The documents do not give the 2023 rate; it is set in that year's annual "
                                       "notice.", **SUBSIDY_EN),
            "honest about the documents, incomplete by the ground truth"),
    ),
}
LAYOUTS = {
    "zh": ExampleLayout(CALIBRATION_HEAD["zh"], "示例 {k}（{note}）",
                        ("问题：{question}", "标准答案：{ground_truth}", "参考文献：{documents}", "回答：{answer}"),
                        "评分：{output}", same="问题、标准答案与参考文献：同示例 1。"),
    "en": ExampleLayout(CALIBRATION_HEAD["en"], "Example {k} ({note})",
                        ("Question: {question}", "Ground truth: {ground_truth}", "Reference documents: {documents}",
                         "Answer: {answer}"), "Scores: {output}",
                        same="Question, ground truth and documents: as in example 1."),
}


def _fake_reply(inputs: JudgeAndRubricInput) -> JudgeAndRubricOutput:
    judged = JudgeInput(question=inputs.question, ground_truth=inputs.ground_truth, answer=inputs.answer)
    return JudgeAndRubricOutput(judge=fake_judge(judged), rubric=FAKE_RUBRIC)


ZH = """任务：对同一个 RAG 回答做两项互相独立的评估：A. 对照标准答案打 1–5 分；B. 对照参考文献按三个维度各打 1–10 分。

${data_rule}

A 部分 judge（只以标准答案为依据，不看参考文献）：
""" + JUDGE_RUBRIC_ZH + """
先在 reasoning 中说明理由，再给出 score（1 到 5 的整数）。

B 部分 rubric（只以参考文献为依据，不看标准答案）：
""" + CRITERIA_ZH + """
先在 analysis 中做“错误分析”：逐条列出回答中具体的事实错误、没有文献依据的内容和遗漏点；然后再给出三个分数，
并写出简短评语 reason 和改进建议 suggestion。参考文献中没有依据的具体数字、名称和条款属于编造。

两部分分别打分：一部分的结论不能影响另一部分。不要因为回答流畅或篇幅长就给高分。

${examples}

待评估信息：
问题：
${question}

标准答案（只用于 A 部分）：
${ground_truth}

参考文献（共 ${n_documents} 篇，只用于 B 部分）：
${documents}

RAG 系统回答：
${answer}

输出格式：只输出一个 JSON 对象：
{"judge": {"reasoning": "打分理由", "score": <1-5>}, "rubric": {"analysis": "错误分析……", "accuracy": <1-10>, "completeness": <1-10>, "clarity": <1-10>, "reason": "简短评语", "suggestion": "如何改进"}}"""

EN = """Task: make two independent assessments of the same RAG answer: A. a 1–5 score against the ground-truth
answer; B. three 1–10 scores against the reference documents.

${data_rule}

Part A, judge (by the ground truth only, ignoring the documents):
""" + JUDGE_RUBRIC_EN + """
First explain the score in reasoning, then give score (an integer from 1 to 5).

Part B, rubric (by the reference documents only, ignoring the ground truth):
""" + CRITERIA_EN + """
First write an error analysis in analysis: list the concrete factual errors, the content without support in the
documents, and the omissions; then give the three scores, a short verdict in reason and an improvement in
suggestion. Specific numbers, names and clauses without support in the documents are fabrications.

Score the parts separately: the verdict of one must not sway the other. Do not reward fluency or length.

${examples}

Material to evaluate:
Question:
${question}

Ground-truth answer (for part A only):
${ground_truth}

Reference documents (${n_documents}, for part B only):
${documents}

RAG system answer:
${answer}

Output format: only a JSON object:
{"judge": {"reasoning": "why this score", "score": <1-5>}, "rubric": {"analysis": "error analysis…", "accuracy": <1-10>, "completeness": <1-10>, "clarity": <1-10>, "reason": "short verdict", "suggestion": "how to improve"}}"""

JUDGE_AND_RUBRIC: Prompt[JudgeAndRubricInput, JudgeAndRubricOutput] = Prompt(
    name="judge_and_rubric",
    version="1.1",
    input_model=JudgeAndRubricInput,
    output_model=JudgeAndRubricOutput,
    templates={"zh": ZH, "en": EN},
    data_fields={"question": "question", "ground_truth": "ground_truth", "documents": "document",
                 "answer": "answer"},
    variables=_variables,
    examples=EXAMPLES,
    show_examples=show_examples(LAYOUTS),
    fake_reply=_fake_reply,
)
