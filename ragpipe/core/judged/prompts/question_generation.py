"""Question generation from the corpus: factual and inferential
questions about one document, each with its ground-truth answer and the numbers of the
passages (chunks) that answer rests on; and multi-hop questions that need two passages.

The original prompt shows the whole document; here the document comes as its numbered chunks, so
that every question can name its ground-truth contexts by chunk id."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from ragpipe.core.llm.examples import Example, show_outputs
from ragpipe.core.llm.prompt import Language, Output, Prompt, Text

QUESTION_TYPES = ("FACTUAL", "INFERENTIAL")
_TYPE_LABELS = {
    "zh": {"FACTUAL": "事实性问题 (FACTUAL)", "INFERENTIAL": "推理性问题 (INFERENTIAL)"},
    "en": {"FACTUAL": "factual (FACTUAL)", "INFERENTIAL": "inferential (INFERENTIAL)"},
}


class QuestionGenerationInput(BaseModel):
    title: str
    passages: list[str] = Field(min_length=1)
    n: int = Field(ge=1, le=20)
    question_types: list[Literal["FACTUAL", "INFERENTIAL"]] = Field(default=list(QUESTION_TYPES), min_length=1)


class GeneratedQuestion(Output):
    question_type: Literal["FACTUAL", "INFERENTIAL"]
    question_text: Text
    ground_truth: Text
    source_passages: list[int] = Field(min_length=1, description="numbers of the passages the answer rests on")


class QuestionGenerationOutput(Output):
    questions: list[GeneratedQuestion]


def _variables(inputs: QuestionGenerationInput, language: Language) -> dict[str, str]:
    sep = "、" if language == "zh" else ", "
    return {"n_passages": str(len(inputs.passages)),
            "types": sep.join(_TYPE_LABELS[language][t] for t in inputs.question_types)}


def _read_types(placed: dict[str, str], language: Language) -> dict:
    shown = placed["types"].split("、" if language == "zh" else ", ")
    return {"question_types": [t for label in shown for t, known in _TYPE_LABELS[language].items() if known == label]}


def _check(inputs: QuestionGenerationInput, output: QuestionGenerationOutput) -> None:
    if len(output.questions) != inputs.n:
        raise ValueError(f"expected exactly {inputs.n} questions, got {len(output.questions)}")
    m = len(inputs.passages)
    for k, q in enumerate(output.questions, 1):
        if q.question_type not in inputs.question_types:
            raise ValueError(f"question {k}: question_type {q.question_type} was not asked for "
                             f"(only {', '.join(inputs.question_types)})")
        wrong = [p for p in q.source_passages if not 1 <= p <= m]
        if wrong:
            raise ValueError(f"question {k}: source_passages {wrong} are not passage numbers (1..{m})")


ZH = """你是一个善于提出问题的专家。请仔细阅读以下文档内容，并根据内容生成问题和对应的标准答案。

${data_rule}

问题类型（只生成这些类型：${types}）：
1. 事实性问题 (FACTUAL)：可以直接从文本中找到明确答案的问题。
2. 推理性问题 (INFERENTIAL)：需要结合文本中多个信息点进行推理、比较或总结才能得出答案的问题。

要求：
1. 问题必须能仅凭下面的文档回答；标准答案 (ground_truth) 只能包含文档中写明或可以直接推出的内容，数字、日期、名称与原文一致。
2. 问题本身不得包含答案，也不要把原文句子原样改成问句；问题要具体到不看选项也能明确作答（写明政策名称、地区或对象）。
3. 各个问题之间不要重复，尽量覆盖文档的不同部分。
4. source_passages：标准答案所依据的段落编号（1 到 ${n_passages}），推理性问题列出用到的所有段落。
5. 使用文档本身的语言。

文档标题：
${title}

文档内容（共 ${n_passages} 个段落）：
${passages}

你的任务：根据以上文档，生成 ${n} 个问题。

输出格式：只输出一个 JSON 对象，questions 恰好包含 ${n} 个问题，例如
${examples}"""

EN = """You are an expert at asking questions. Read the following document carefully and, from its content,
write questions with their ground-truth answers.

${data_rule}

Question types (write only these: ${types}):
1. Factual (FACTUAL): the answer is stated explicitly in the text.
2. Inferential (INFERENTIAL): the answer needs several pieces of information from the text to be combined,
   compared or summarised.

Requirements:
1. Each question must be answerable from the document alone; the ground truth contains only what the document
   states or what follows directly from it, with numbers, dates and names exactly as written.
2. A question must not contain its answer and must not be a sentence of the document turned into a question;
   make it specific enough to be answered on its own (name the programme, place or party).
3. Do not repeat a question; cover different parts of the document.
4. source_passages: the numbers of the passages (1 to ${n_passages}) the ground truth rests on; an inferential
   question lists every passage it uses.
5. Write in the language of the document.

Document title:
${title}

Document content (${n_passages} passages):
${passages}

Your task: from the document above, write ${n} questions.

Output format: only a JSON object whose questions list holds exactly ${n} questions, for example
${examples}"""

EXAMPLES = {
    "zh": (Example(QuestionGenerationOutput.model_validate_json(
        '{"questions": [{"question_type": "FACTUAL", "question_text": "文档中提到的项目启动于哪一年？", "ground_truth": "该项目于2021年正式启动。", "source_passages": [1]}, {"question_type": "INFERENTIAL", "question_text": "项目早期阶段和后期阶段的主要挑战有何不同？", "ground_truth": "项目早期挑战主要是技术选型和团队组建，后期挑战则转变为系统性能优化和市场推广。", "source_passages": [2, 3]}]}')),),
    "en": (Example(QuestionGenerationOutput.model_validate_json(
        '{"questions": [{"question_type": "FACTUAL", "question_text": "In which year did the project mentioned in the document start?", "ground_truth": "The project started in 2021.", "source_passages": [1]}, {"question_type": "INFERENTIAL", "question_text": "How did the project\'s main challenges differ between its early and later stages?", "ground_truth": "Early on the challenges were choosing the technology and building the team; later they were performance tuning and marketing.", "source_passages": [2, 3]}]}')),),
}

QUESTION_GENERATION: Prompt[QuestionGenerationInput, QuestionGenerationOutput] = Prompt(
    name="question_generation",
    version="1.0",
    input_model=QuestionGenerationInput,
    output_model=QuestionGenerationOutput,
    templates={"zh": ZH, "en": EN},
    data_fields={"title": "title", "passages": "passage"},
    variables=_variables,
    check=_check,
    lengths=lambda inputs: {"questions": inputs.n},
    read_back=_read_types,
    examples=EXAMPLES,
    show_examples=show_outputs,
)


# ---- a question that needs two passages -------------------------------------------
class MultiHopInput(BaseModel):
    passages: list[str] = Field(min_length=2, max_length=2)


class MultiHopOutput(Output):
    question_text: Text
    ground_truth: Text
    fact_from_passage_1: Text = Field(description="what the answer takes from passage 1")
    fact_from_passage_2: Text = Field(description="what the answer takes from passage 2")


MULTI_HOP_ZH = """你是一个善于提出问题的专家。下面有两个相关的文档段落。请提出一个“多跳”问题：回答它必须同时用到两个段落中的信息，只看其中任何一个段落都无法完整回答。

${data_rule}

要求：
1. 问题必须能仅凭这两个段落回答；标准答案 (ground_truth) 只能包含段落中写明或可以直接推出的内容，数字、日期、名称与原文一致。
2. fact_from_passage_1 / fact_from_passage_2：标准答案分别从段落 1 和段落 2 中用到的信息（各一句话）。
3. 问题本身不得包含答案，也不要把原文句子原样改成问句；问题要写明所涉及的政策名称、地区或对象。
4. 使用段落本身的语言。

段落：
${passages}

输出格式：只输出一个 JSON 对象，例如
${examples}"""

MULTI_HOP_EN = """You are an expert at asking questions. Below are two related document passages. Write one
multi-hop question: answering it must need information from both passages, so that neither passage alone
answers it fully.

${data_rule}

Requirements:
1. The question must be answerable from the two passages alone; the ground truth contains only what the passages
   state or what follows directly from them, with numbers, dates and names exactly as written.
2. fact_from_passage_1 / fact_from_passage_2: what the ground truth takes from passage 1 and from passage 2
   (one sentence each).
3. The question must not contain its answer and must not be a sentence of a passage turned into a question;
   name the programme, place or party it is about.
4. Write in the language of the passages.

Passages:
${passages}

Output format: only a JSON object, for example
${examples}"""

MULTI_HOP_EXAMPLES = {
    "zh": (Example(MultiHopOutput.model_validate_json(
        '{"question_text": "甲市和乙市的一次性创业补贴哪个更高？", "ground_truth": "甲市的一次性创业补贴为1万元，乙市为2万元，乙市更高。", "fact_from_passage_1": "甲市一次性创业补贴1万元。", "fact_from_passage_2": "乙市一次性创业补贴2万元。"}')),),
    "en": (Example(MultiHopOutput.model_validate_json(
        '{"question_text": "Which city\'s one-off start-up grant is larger, City A\'s or City B\'s?", "ground_truth": "City A grants 10,000 dollars and City B 20,000 dollars, so City B\'s is larger.", "fact_from_passage_1": "City A\'s start-up grant is 10,000 dollars.", "fact_from_passage_2": "City B\'s start-up grant is 20,000 dollars."}')),),
}

MULTI_HOP_QUESTION: Prompt[MultiHopInput, MultiHopOutput] = Prompt(
    name="multi_hop_question",
    version="1.0",
    input_model=MultiHopInput,
    output_model=MultiHopOutput,
    templates={"zh": MULTI_HOP_ZH, "en": MULTI_HOP_EN},
    data_fields={"passages": "passage"},
    examples=MULTI_HOP_EXAMPLES,
    show_examples=show_outputs,
)
