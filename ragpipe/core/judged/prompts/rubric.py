"""The 1–10 rubric judge: accuracy (50 %), completeness (30 %) and clarity
(20 %), analysis first, then scores; one prompt with reference documents and one for
the pure-LLM mode without them. Few-shot examples calibrate against score inflation
(a fabricated answer scores 2). The weighted score and the pass decision are computed
in code (ragpipe.core.judged.operations), never asked from the model."""

from __future__ import annotations

from pydantic import BaseModel, Field

from ragpipe.core.judged.prompts.judge import CALIBRATION_HEAD
from ragpipe.core.llm.examples import Example, ExampleLayout, show_examples
from ragpipe.core.llm.prompt import Language, Output, Prompt, Score10, Text


class RubricInput(BaseModel):
    question: str
    answer: str
    documents: list[str] = Field(min_length=1)


class PureRubricInput(BaseModel):
    question: str
    answer: str


class RubricOutput(Output):
    analysis: Text
    accuracy: Score10
    completeness: Score10
    clarity: Score10
    reason: Text
    suggestion: Text


# The fake judge's rubrics, with documents and without.
FAKE_RUBRIC = RubricOutput(analysis="no errors", accuracy=9, completeness=7, clarity=8, reason="accurate",
                           suggestion="add the credit score")
FAKE_PURE_RUBRIC = RubricOutput(analysis="unverifiable figures", accuracy=3, completeness=5, clarity=8,
                                reason="fabricated", suggestion="cite sources")


# Calibration examples against score inflation: a fabricated answer scores 2.
SUBSIDY_ZH = dict(question="2023 年本市小微企业贷款贴息比例是多少？",
                  documents=["本市对小微企业贷款给予贴息支持，具体比例以年度通知为准。"])
SUBSIDY_EN = dict(question="What interest subsidy rate did the city grant on small-business loans in 2023?",
                  documents=["The city subsidises interest on small-business loans; the rate is set in the annual "
                             "notice."])
EXAMPLES = {
    "zh": (
        Example(RubricOutput(analysis="文献只说明给予贴息、比例以年度通知为准；回答中的 50%、200 万元上限和按季度发放在文献中都没有依据，属于编造。",
                             accuracy=2, completeness=3, clarity=7, reason="关键数字均为编造。",
                             suggestion="只陈述文献中有的内容，并说明具体比例需查阅年度通知。"),
                RubricInput(answer="2023 年贴息比例为 50%，单户上限 200 万元，由市财政局按季度发放。", **SUBSIDY_ZH),
                "编造，accuracy 2 分"),
        Example(RubricOutput(analysis="回答准确转述了文献，并如实指出文献没有给出具体比例，没有编造任何数字。",
                             accuracy=10, completeness=8, clarity=9, reason="如实、准确，并说明了资料缺口。",
                             suggestion="可以告诉用户应查阅哪一份年度通知。"),
                RubricInput(answer="参考文献只说明本市对小微企业贷款给予贴息支持，没有给出 2023 年的具体比例，具体比例需以当年的年度通知为准。",
                            **SUBSIDY_ZH),
                "如实说明文献没有资料，accuracy 10 分"),
    ),
    "en": (
        Example(RubricOutput(analysis="The document only says interest is subsidised at a rate set in the annual "
                                      "notice; the 50%, the 2 million cap and the quarterly payment have no support "
                                      "and are fabricated.",
                             accuracy=2, completeness=3, clarity=7, reason="The key figures are fabricated.",
                             suggestion="State only what the documents say and point to the annual notice for the "
                                        "rate."),
                RubricInput(answer="The 2023 subsidy rate is 50%, capped at 2 million yuan per business and paid "
                                   "quarterly by the city\nfinance bureau.", **SUBSIDY_EN),
                "fabricated, accuracy 2"),
        Example(RubricOutput(analysis="Restates the document accurately and says honestly that the rate is not "
                                      "given; nothing is invented.",
                             accuracy=10, completeness=8, clarity=9, reason="Honest and accurate; names the gap.",
                             suggestion="Tell the user which annual notice to consult."),
                RubricInput(answer="The documents only say that the city subsidises interest on small-business loans; "
                                   "they do not give\nthe 2023 rate, which is set in that year's annual notice.",
                            **SUBSIDY_EN),
                "honestly says the documents lack the information, accuracy 10"),
    ),
}
PURE_LLM_EXAMPLES = {
    "zh": (
        Example(RubricOutput(analysis="没有任何公认来源能证实该条例、第 18 条以及每月 3000 元、5 年这些细节，回答却用确定的语气给出，属于编造。",
                             accuracy=2, completeness=4, clarity=8, reason="具体条款和金额均为编造。",
                             suggestion="说明无法确认具体标准，并建议查阅当地人社部门发布的通知。"),
                PureRubricInput(question="某市 2023 年人才公寓的租金补贴标准是多少？",
                                answer="根据《某市人才安居条例》第 18 条，补贴标准为每月 3000 元，连续发放 5 年。"),
                "编造，accuracy 2 分"),
        Example(RubricOutput(analysis="公认标准为每月 5000 元（每年 6 万元）；回答只说“大概几千块”，没有给出准确数字，“要看情况”也不准确。",
                             accuracy=5, completeness=4, clarity=6, reason="方向没错但含糊不精确。",
                             suggestion="直接给出每月 5000 元、每年 6 万元的标准。"),
                PureRubricInput(question="中国个人所得税综合所得的基本减除费用标准是多少？",
                                answer="大概每个月几千块钱，具体要看情况。"),
                "模糊，accuracy 5 分"),
    ),
    "en": (
        Example(RubricOutput(analysis="No established source confirms this regulation, its Article 18, or the 3,000 "
                                      "yuan and five years; they are stated with confidence but fabricated.",
                             accuracy=2, completeness=4, clarity=8, reason="The clause and the amounts are fabricated.",
                             suggestion="Say that the rate cannot be confirmed and point to the local "
                                        "human-resources bureau's notice."),
                PureRubricInput(question="What rent subsidy did the city pay for talent apartments in 2023?",
                                answer="Under Article 18 of the City Talent Housing Regulation, the subsidy is 3,000 "
                                       "yuan a month for five years."),
                "fabricated, accuracy 2"),
        Example(RubricOutput(analysis='The established value is 100 °C at standard sea-level pressure; the answer is '
                                      'vague and "ninety-something" is wrong.',
                             accuracy=5, completeness=4, clarity=6, reason="Vague and imprecise.",
                             suggestion="State 100 °C at standard atmospheric pressure."),
                PureRubricInput(question="At what temperature does water boil at sea level, in degrees Celsius?",
                                answer="Somewhere around ninety-something degrees, it depends."),
                "vague, accuracy 5"),
    ),
}
LAYOUTS = {
    "zh": ExampleLayout(CALIBRATION_HEAD["zh"], "示例 {k}（{note}）", ("问题：{question}", "参考文献：{documents}",
                                                                  "AI 回答：{answer}"), "评分：{output}",
                        same="问题与参考文献：同示例 1。"),
    "en": ExampleLayout(CALIBRATION_HEAD["en"], "Example {k} ({note})",
                        ("Question: {question}", "Reference documents: {documents}", "AI answer: {answer}"),
                        "Scores: {output}", same="Question and documents: as in example 1."),
}
PURE_LLM_LAYOUTS = {
    "zh": ExampleLayout(CALIBRATION_HEAD["zh"], "示例 {k}（{note}）", ("问题：{question}", "AI 回答：{answer}"),
                        "评分：{output}"),
    "en": ExampleLayout(CALIBRATION_HEAD["en"], "Example {k} ({note})", ("Question: {question}", "AI answer: {answer}"),
                        "Scores: {output}"),
}


def _variables(inputs: RubricInput, language: Language) -> dict[str, str]:
    return {"n_documents": str(len(inputs.documents))}


CRITERIA_ZH = """评分标准（每项为 1 到 10 的数，可以带小数，如 7.5）：
1. accuracy 准确性（权重 50%）：数据与引用是否精确？有无幻觉？
   - 10：数据精确，引用无误；或者资料中没有相关信息时，如实指出没有。
   - 7–9：数据大致正确，没有明显幻觉。
   - 5–6：使用模糊词汇（大约、很多等），缺乏精确度。
   - 1–4：严重幻觉、数据错误，或者资料中没有相关信息却编造答案。
2. completeness 完整性（权重 30%）：
   - 10：完整覆盖问题的所有子方面。
   - 5–9：遗漏次要观点。
   - 1–4：遗漏关键论点或断章取义。
3. clarity 表达与逻辑（权重 20%）：
   - 10：结构清晰，推理连贯，没有冗言。
   - 1–4：逻辑混乱，语句不通，答非所问。"""

CRITERIA_EN = """Scoring rubric (each a number from 1 to 10; fractions such as 7.5 are allowed):
1. accuracy (weight 50%): are the data and citations precise? Any hallucination?
   - 10: precise data, correct citations; or, when the sources hold no such information, says so honestly.
   - 7–9: data broadly correct, no evident hallucination.
   - 5–6: vague wording (about, many, …), lacks precision.
   - 1–4: serious hallucination, wrong data, or an invented answer where the sources hold no such information.
2. completeness (weight 30%):
   - 10: covers every sub-aspect of the question.
   - 5–9: misses secondary points.
   - 1–4: misses key points or quotes out of context.
3. clarity (weight 20%):
   - 10: clear structure, coherent reasoning, no padding.
   - 1–4: confused logic, broken sentences, or does not answer the question asked."""

WITH_DOCUMENTS_ZH = """你是一位严格的评审。请针对下面的“问题”与“参考文献”，评估“AI 回答”的质量。

${data_rule}

""" + CRITERIA_ZH + """

评估步骤（先分析，后打分）：
先在 analysis 中做“错误分析”：逐条列出回答中具体的事实错误、没有文献依据的内容和遗漏点；然后再按上述标准给出三个分数。
不要因为回答流畅或篇幅长就给高分；参考文献中没有依据的具体数字、名称和条款属于编造。

${examples}

评估资料：
问题：
${question}

参考文献（共 ${n_documents} 篇）：
${documents}

AI 回答：
${answer}

输出格式：只输出一个 JSON 对象：
{"analysis": "错误分析……", "accuracy": <1-10>, "completeness": <1-10>, "clarity": <1-10>, "reason": "简短评语", "suggestion": "如何改进"}"""

WITH_DOCUMENTS_EN = """You are a strict reviewer. Evaluate the quality of the "AI answer" to the "question" below,
given the "reference documents".

${data_rule}

""" + CRITERIA_EN + """

Procedure (analyse first, then score):
First write an error analysis in analysis: list the concrete factual errors, the content without support in the
documents, and the omissions; only then give the three scores according to the rubric.
Do not reward fluency or length; specific numbers, names and clauses without support in the documents are
fabrications.

${examples}

Material to evaluate:
Question:
${question}

Reference documents (${n_documents}):
${documents}

AI answer:
${answer}

Output format: only a JSON object:
{"analysis": "error analysis…", "accuracy": <1-10>, "completeness": <1-10>, "clarity": <1-10>, "reason": "short verdict", "suggestion": "how to improve"}"""

PURE_LLM_ZH = """你是一位严格的评审。请针对下面的“问题”，评估“AI 回答”的质量。

${data_rule}

参考文献：无参考文献 (Pure LLM Mode)

本次评估没有参考文献，accuracy 只能依据公认、可靠的知识判断：你无法确认的具体数字、日期、名称和条款编号不能当作正确；
凭空给出的具体细节按编造处理；如实说明不确定或不知道不算错误。

""" + CRITERIA_ZH + """

评估步骤（先分析，后打分）：
先在 analysis 中做“错误分析”：逐条列出回答中的事实错误、无法确认的具体细节和遗漏点；然后再按上述标准给出三个分数。
不要因为回答流畅、语气肯定或篇幅长就给高分。

${examples}

评估资料：
问题：
${question}

AI 回答：
${answer}

输出格式：只输出一个 JSON 对象：
{"analysis": "错误分析……", "accuracy": <1-10>, "completeness": <1-10>, "clarity": <1-10>, "reason": "简短评语", "suggestion": "如何改进"}"""

PURE_LLM_EN = """You are a strict reviewer. Evaluate the quality of the "AI answer" to the "question" below.

${data_rule}

Reference documents: none (Pure LLM Mode)

There are no reference documents, so judge accuracy by well-established, reliable knowledge only: specific
numbers, dates, names and clause numbers that you cannot confirm do not count as correct; specific details given
without basis count as fabricated; saying honestly that something is uncertain or unknown is not an error.

""" + CRITERIA_EN + """

Procedure (analyse first, then score):
First write an error analysis in analysis: list the factual errors, the specific details that cannot be
confirmed, and the omissions; only then give the three scores according to the rubric.
Do not reward fluency, a confident tone or length.

${examples}

Material to evaluate:
Question:
${question}

AI answer:
${answer}

Output format: only a JSON object:
{"analysis": "error analysis…", "accuracy": <1-10>, "completeness": <1-10>, "clarity": <1-10>, "reason": "short verdict", "suggestion": "how to improve"}"""

RUBRIC_1_10: Prompt[RubricInput, RubricOutput] = Prompt(
    name="rubric_1_10",
    version="1.1",
    input_model=RubricInput,
    output_model=RubricOutput,
    templates={"zh": WITH_DOCUMENTS_ZH, "en": WITH_DOCUMENTS_EN},
    data_fields={"question": "question", "documents": "document", "answer": "answer"},
    variables=_variables,
    examples=EXAMPLES,
    show_examples=show_examples(LAYOUTS),
    fake_reply=lambda inputs: FAKE_RUBRIC,
)

RUBRIC_1_10_PURE_LLM: Prompt[PureRubricInput, RubricOutput] = Prompt(
    name="rubric_1_10_pure_llm",
    version="1.1",
    input_model=PureRubricInput,
    output_model=RubricOutput,
    templates={"zh": PURE_LLM_ZH, "en": PURE_LLM_EN},
    data_fields={"question": "question", "answer": "answer"},
    examples=PURE_LLM_EXAMPLES,
    show_examples=show_examples(PURE_LLM_LAYOUTS),
    fake_reply=lambda inputs: FAKE_PURE_RUBRIC,
)
