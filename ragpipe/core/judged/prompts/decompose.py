"""Statement decomposition (RAGAS style): a text becomes atomic, self-contained
statements that can be verified one by one."""

from __future__ import annotations

import re

from pydantic import BaseModel

from ragpipe.core.llm.prompt import Output, Prompt, Text


class DecomposeInput(BaseModel):
    text: str


class DecomposeOutput(Output):
    statements: list[Text]


def fake_statements(text: str) -> list[str]:
    """The fake judge's decomposition: one statement per sentence."""
    return [s.strip() for s in re.split(r"(?<=[。！？])|(?<=[.!?])\s+", text) if s.strip()]


def unpunctuated(text: str) -> str:
    """The text without its end punctuation: how the fake judge compares statements."""
    return text.strip().rstrip("。.！!？?")


ZH = """任务：把一段文本分解为可以逐条核实的原子陈述。

${data_rule}

规则：
1. 每条陈述只表达文本中的一个事实、论断或条件。
2. 每条陈述必须能脱离上下文独立理解：把代词和指代（“它”“该政策”“前者”等）替换为文本中所指的名称。
3. 数字、单位、日期、名称和限定词（至少、最多、仅、不得等）必须与原文完全一致。
4. 不得添加文本没有说的内容，不得合并或遗漏论断，也不要判断其真假。
5. 用文本本身的语言书写陈述。
6. 问候、客套话等没有实际内容的句子不算陈述；文本中没有任何论断时输出空列表。

示例（仅用于说明格式）：
文本：FHA 贷款最低首付为 3.5%，且联邦政府强制要求不得超过此比例。
输出：{"statements": ["FHA 贷款的最低首付为 3.5%。", "联邦政府强制要求 FHA 贷款的首付比例不得超过 3.5%。"]}

待分解的文本：
${text}

输出格式：只输出一个 JSON 对象 {"statements": ["陈述1", "陈述2", ...]}，不要输出其他内容。"""

EN = """Task: decompose a text into atomic statements that can be verified one by one.

${data_rule}

Rules:
1. Each statement expresses exactly one fact, claim or condition from the text.
2. Each statement must be understandable on its own: replace pronouns and references ("it", "this policy",
   "the former") with the names they refer to in the text.
3. Keep numbers, units, dates, names and qualifiers (at least, at most, only, must not) exactly as written.
4. Do not add anything the text does not say, do not merge or drop claims, and do not judge whether they are true.
5. Write the statements in the language of the text.
6. Greetings and filler without content are not statements; a text without any claim gives an empty list.

Example (format only):
Text: The Eiffel Tower, completed in 1889, is 330 m tall. It was the tallest structure in the world until 1930.
Output: {"statements": ["The Eiffel Tower was completed in 1889.", "The Eiffel Tower is 330 m tall.",
"The Eiffel Tower was the tallest structure in the world until 1930."]}

Text to decompose:
${text}

Output format: only a JSON object {"statements": ["statement 1", "statement 2", ...]}, nothing else."""

DECOMPOSE: Prompt[DecomposeInput, DecomposeOutput] = Prompt(
    name="statement_decomposition",
    version="1.0",
    input_model=DecomposeInput,
    output_model=DecomposeOutput,
    templates={"zh": ZH, "en": EN},
    data_fields={"text": "text"},
    grounded={"statements": "text"},
    fake_reply=lambda inputs: DecomposeOutput(statements=fake_statements(inputs.text)),
)
