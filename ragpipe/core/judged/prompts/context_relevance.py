"""Context relevance: which of the retrieved contexts are relevant to the
question? All contexts of a sample are judged in one call, one verdict each; the metric
is relevant contexts / all contexts."""

from __future__ import annotations

from pydantic import BaseModel, Field

from ragpipe.core.llm.examples import Example, show_outputs
from ragpipe.core.llm.prompt import Language, Output, Prompt, Text


class ContextRelevanceInput(BaseModel):
    question: str
    contexts: list[str] = Field(min_length=1)


class ContextVerdict(Output):
    index: int = Field(ge=1, description="number of the context, from 1")
    reason: Text
    relevant: bool


class ContextRelevanceOutput(Output):
    contexts: list[ContextVerdict]


def _variables(inputs: ContextRelevanceInput, language: Language) -> dict[str, str]:
    return {"n_contexts": str(len(inputs.contexts))}


def _check(inputs: ContextRelevanceInput, output: ContextRelevanceOutput) -> None:
    n = len(inputs.contexts)
    indices = sorted(c.index for c in output.contexts)
    if indices != list(range(1, n + 1)):
        raise ValueError(f"expected exactly one verdict for each context index 1..{n}, got indices {indices}")


def _fake_reply(inputs: ContextRelevanceInput) -> ContextRelevanceOutput:
    """The fake judge: a context about FHA (the test material's subject) is relevant."""
    return ContextRelevanceOutput(contexts=[
        ContextVerdict(index=i, reason="about FHA" if "FHA" in c else "about something else", relevant="FHA" in c)
        for i, c in enumerate(inputs.contexts, 1)])


ZH = """任务：逐段判断检索到的上下文是否与问题相关。

${data_rule}

判断标准：
- relevant = true：这段上下文包含有助于回答该问题的信息（全部或部分）。
- relevant = false：这段上下文讲的是别的主题，或者只是字面上出现了相同的词语。
- 不要求它能完整回答问题；每段只依据它本身判断，不要使用外部知识，也不要受其他段落影响。

共有 ${n_contexts} 段上下文。每段都要回答且只回答一次，index 与上下文编号一致。

问题：
${question}

上下文：
${contexts}

输出格式：只输出一个 JSON 对象，例如
${examples}"""

EN = """Task: decide, passage by passage, whether the retrieved context passages are relevant to a question.

${data_rule}

Criteria:
- relevant = true: the passage contains information that helps answer the question (fully or in part).
- relevant = false: the passage is about something else, or only shares some words with the question.
- A passage does not need to answer the question completely; judge each passage by itself alone, without
  outside knowledge and without being swayed by the other passages.

There are ${n_contexts} passages. Answer every passage exactly once, with index equal to its number.

Question:
${question}

Context passages:
${contexts}

Output format: only a JSON object, for example
${examples}"""

EXAMPLES = {
    "zh": (Example(ContextRelevanceOutput.model_validate_json(
        '{"contexts": [{"index": 1, "reason": "写明了最低首付比例。", "relevant": true}, {"index": 2, "reason": "讲的是浮动利率，与首付无关。", "relevant": false}]}')),),
    "en": (Example(ContextRelevanceOutput.model_validate_json(
        '{"contexts": [{"index": 1, "reason": "States the minimum down payment.", "relevant": true}, {"index": 2, "reason": "About adjustable rates, not down payments.", "relevant": false}]}')),),
}

CONTEXT_RELEVANCE: Prompt[ContextRelevanceInput, ContextRelevanceOutput] = Prompt(
    name="context_relevance",
    version="2.0",
    input_model=ContextRelevanceInput,
    output_model=ContextRelevanceOutput,
    templates={"zh": ZH, "en": EN},
    data_fields={"question": "question", "contexts": "context"},
    variables=_variables,
    check=_check,
    lengths=lambda inputs: {"contexts": len(inputs.contexts)},
    fake_reply=_fake_reply,
    examples=EXAMPLES,
    show_examples=show_outputs,
)
