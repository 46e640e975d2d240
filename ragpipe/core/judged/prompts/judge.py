"""LLM judge: the answer scored 1–5 against the ground truth, with reasoning.
Few-shot calibration examples (``EXAMPLES``, typed; the remedy for score inflation) show
that a fluent answer with a fabricated figure scores 2, not 4."""

from __future__ import annotations

from pydantic import BaseModel

from ragpipe.core.judged.prompts.decompose import unpunctuated
from ragpipe.core.llm.examples import Example, ExampleLayout, show_examples
from ragpipe.core.llm.prompt import Output, Prompt, Score5, Text


class JudgeInput(BaseModel):
    question: str
    ground_truth: str
    answer: str


class JudgeOutput(Output):
    reasoning: Text
    score: Score5


def fake_judge(inputs: JudgeInput) -> JudgeOutput:
    """The fake judge: 5 when the answer contains the ground truth (end punctuation aside), else 2."""
    good = unpunctuated(inputs.ground_truth) in inputs.answer
    return JudgeOutput(reasoning="matches the ground truth" if good else "contradicts it", score=5 if good else 2)


RUBRIC_ZH = """评分标准（5 分制）：
- 5 分（完美回答）：事实 100% 准确，与标准答案一致，全面回答了问题，无任何冗余，语言流畅。
- 4 分（高质量回答）：绝大部分信息准确，可能有极微小瑕疵，基本完整，可读性好。
- 3 分（中等质量回答）：包含部分正确信息，但也有明显错误或遗漏，需要用户自行辨别。
- 2 分（低质量回答）：包含大量错误信息，或未能解决问题，可能会误导用户。
- 1 分（错误或无法回答）：完全错误，产生幻觉，或拒绝回答。

以标准答案为事实依据：与标准答案矛盾的内容算作错误；标准答案中没有的具体细节（数字、日期、名称）不能加分。
不要因为回答流畅、语气肯定或篇幅长就给高分。"""

RUBRIC_EN = """Scoring rubric (1 to 5):
- 5 (perfect): the facts are 100% accurate and agree with the ground truth, the question is fully answered,
  nothing redundant, fluent.
- 4 (high quality): almost all information is accurate, at most very minor flaws, essentially complete, readable.
- 3 (medium quality): some correct information, but also clear errors or omissions the user has to sort out.
- 2 (low quality): much wrong information, or the question is not addressed; may mislead the user.
- 1 (wrong or no answer): completely wrong, hallucinated, or declines to answer.

The ground truth is the factual reference: content that contradicts it is an error; specific details
(numbers, dates, names) that the ground truth does not contain earn no credit. Do not reward fluency, a
confident tone or length."""

SUBSIDY_ZH = "小微企业贷款贴息比例是多少？", "贴息比例为 30%，单户上限 100 万元。"
SUBSIDY_EN = "What interest subsidy do small-business loans get?", "30%, capped at 1 million yuan per\nbusiness."


def _example(material: tuple[str, str], answer: str, note: str, reasoning: str, score: int) -> Example:
    question, ground_truth = material
    return Example(input=JudgeInput(question=question, ground_truth=ground_truth, answer=answer),
                   output=JudgeOutput(reasoning=reasoning, score=score), note=note)


# Calibration (the remedy for score inflation): a fluent answer with a fabricated figure scores 2, not 4.
CALIBRATION_HEAD = {"zh": "校准示例（只用于说明评分尺度，不是本次待评估的材料）：",
                    "en": "Calibration examples (they only illustrate the scale; they are not the material under "
                          "evaluation):"}
EXAMPLES = {
    "zh": (
        _example(SUBSIDY_ZH, "贴息比例为 50%，单户上限 200 万元，由市财政局按季度发放。", "流畅但编造，2 分",
                 "比例和上限都与标准答案矛盾，按季度发放也没有依据；表述流畅但关键数字是编造的，会误导用户。", 2),
        _example(SUBSIDY_ZH, "贴息比例为 30%。", "准确但遗漏条件，4 分", "比例正确，但遗漏了单户 100 万元的上限。", 4),
        _example(SUBSIDY_ZH, "抱歉，我无法回答这个问题。", "拒绝回答，1 分", "没有给出任何信息，属于拒绝回答。", 1),
    ),
    "en": (
        _example(SUBSIDY_EN, "The subsidy is 50%, capped at 2 million yuan per business and paid quarterly by the city "
                 "finance bureau.", "fluent but fabricated, 2",
                 "The rate and the cap contradict the ground truth and the quarterly payment has no basis; fluent, "
                 "but the key figures are fabricated and would mislead the user.", 2),
        _example(SUBSIDY_EN, "The subsidy is 30%.", "accurate but misses a condition, 4",
                 "The rate is right, but the cap of 1 million yuan per business is missing.", 4),
        _example(SUBSIDY_EN, "Sorry, I cannot answer that.", "declines, 1", "Gives no information; a refusal.", 1),
    ),
}

LAYOUTS = {
    "zh": ExampleLayout(head=CALIBRATION_HEAD["zh"], example="示例 {k}（{note}）",
                        lines=("问题：{question}　标准答案：{ground_truth}", "回答：{answer}"),
                        same="问题与标准答案：同示例 1。", output="评分：{output}"),
    "en": ExampleLayout(head=CALIBRATION_HEAD["en"], example="Example {k} ({note})",
                        lines=("Question: {question} Ground truth: {ground_truth}", "Answer: {answer}"),
                        same="Question and ground truth: as in example 1.", output="Scores: {output}"),
}


ZH = """你是一个客观、严谨的 RAG 系统回答质量评估专家。请根据原始问题和标准答案，对 RAG 系统的回答进行评分。

${data_rule}

""" + RUBRIC_ZH + """

${examples}

待评估信息：
1. 原始问题：
${question}
2. 标准答案（Ground Truth）：
${ground_truth}
3. RAG 系统回答：
${answer}

你的任务：先在 reasoning 中说明打分原因，再给出 score（1 到 5 的整数）。

输出格式：只输出一个 JSON 对象，例如
{"reasoning": "回答基本准确并涵盖了主要信息点，但遗漏了关于次要贡献者的细节。语言表达清晰，但可以更简洁一些。", "score": 4}"""

EN = """You are an objective, rigorous expert in judging the answers of RAG systems. Score the RAG system's
answer against the original question and the ground-truth answer.

${data_rule}

""" + RUBRIC_EN + """

${examples}

Material to evaluate:
1. Original question:
${question}
2. Ground-truth answer:
${ground_truth}
3. RAG system answer:
${answer}

Your task: first explain the score in reasoning, then give score (an integer from 1 to 5).

Output format: only a JSON object, for example
{"reasoning": "Mostly accurate and covers the main points, but misses the detail about minor contributors. Clear, though it could be more concise.", "score": 4}"""

JUDGE_1_5: Prompt[JudgeInput, JudgeOutput] = Prompt(
    name="llm_judge",
    version="1.1",
    input_model=JudgeInput,
    output_model=JudgeOutput,
    templates={"zh": ZH, "en": EN},
    data_fields={"question": "question", "ground_truth": "ground_truth", "answer": "answer"},
    examples=EXAMPLES,
    show_examples=show_examples(LAYOUTS),
    fake_reply=fake_judge,
)
