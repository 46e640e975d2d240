"""Context relevance (seed 001): is one retrieved context relevant to the question?
The metric is relevant contexts / all contexts."""

from __future__ import annotations

from pydantic import BaseModel

from ragpipe.core.llm.prompts.base import Output, Prompt, Text


class ContextRelevanceInput(BaseModel):
    question: str
    context: str


class ContextRelevanceOutput(Output):
    reason: Text
    relevant: bool


ZH = """任务：判断一段检索到的上下文是否与问题相关。

${data_rule}

判断标准：
- relevant = true：这段上下文包含有助于回答该问题的信息（全部或部分）。
- relevant = false：这段上下文讲的是别的主题，或者只是字面上出现了相同的词语。
- 不要求它能完整回答问题；只依据这段上下文本身判断，不要使用外部知识。

问题：
${question}

上下文：
${context}

输出格式：只输出一个 JSON 对象 {"reason": "一句话理由", "relevant": true 或 false}"""

EN = """Task: decide whether one retrieved context passage is relevant to a question.

${data_rule}

Criteria:
- relevant = true: the passage contains information that helps answer the question (fully or in part).
- relevant = false: the passage is about something else, or only shares some words with the question.
- The passage does not need to answer the question completely; judge by the passage alone, without outside
  knowledge.

Question:
${question}

Context:
${context}

Output format: only a JSON object {"reason": "one sentence", "relevant": true or false}"""

CONTEXT_RELEVANCE: Prompt[ContextRelevanceInput, ContextRelevanceOutput] = Prompt(
    name="context_relevance",
    version="1.0",
    input_model=ContextRelevanceInput,
    output_model=ContextRelevanceOutput,
    templates={"zh": ZH, "en": EN},
    data_fields={"question": "question", "context": "context"},
)
