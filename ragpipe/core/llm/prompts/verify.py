"""Statement verification (NLI, batched): for each statement, is it supported by the
context passages? A verdict (1/0), the passage it rests on, and a one-line reason."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from ragpipe.core.llm.prompts.base import Language, Output, Prompt, Text


class VerifyInput(BaseModel):
    evidence: list[str] = Field(min_length=1)
    statements: list[str] = Field(min_length=1)


class StatementVerdict(Output):
    index: int = Field(ge=1, description="number of the statement, from 1")
    reason: Text
    verdict: Literal[0, 1]
    source: int = Field(ge=0, description="number of the passage the verdict rests on; 0 when none")


class VerifyOutput(Output):
    verdicts: list[StatementVerdict]


def _variables(inputs: VerifyInput, language: Language) -> dict[str, str]:
    return {"n_contexts": str(len(inputs.evidence)), "n_statements": str(len(inputs.statements))}


def _check(inputs: VerifyInput, output: VerifyOutput) -> None:
    n, m = len(inputs.statements), len(inputs.evidence)
    indices = sorted(v.index for v in output.verdicts)
    if indices != list(range(1, n + 1)):
        raise ValueError(f"expected exactly one verdict for each statement index 1..{n}, got indices {indices}")
    for v in output.verdicts:
        if v.source > m:
            raise ValueError(f"verdict {v.index}: source {v.source} is not a passage number (1..{m}, or 0)")
        if v.verdict == 1 and v.source == 0:
            raise ValueError(f"verdict {v.index}: a supported statement needs the number of its supporting passage")


ZH = """任务：根据检索到的上下文段落，逐条判断陈述是否得到支持（自然语言推理）。

${data_rule}

判断标准：
- verdict = 1：上下文段落明确陈述了该内容，或可以从中直接推出。
- verdict = 0：上下文没有提到、说法不同或与之矛盾。只依据上下文判断，不要使用常识或背景知识；陈述中的数字、日期、名称或条件只要上下文中没有，就判 0。
- source：作出判断所依据的段落编号（支持或反驳该陈述的段落）；没有任何段落涉及该陈述时填 0。verdict 为 1 时，source 必须是支持它的段落编号。
- reason：用一句话说明理由。

共有 ${n_contexts} 个上下文段落和 ${n_statements} 条陈述。每条陈述都要回答且只回答一次，index 与陈述编号一致。

上下文段落：
${evidence}

陈述：
${statements}

输出格式：只输出一个 JSON 对象，例如
{"verdicts": [{"index": 1, "reason": "段落 1 写明最低首付为 3.5%。", "verdict": 1, "source": 1}, {"index": 2, "reason": "上下文没有提到联邦政府的上限要求。", "verdict": 0, "source": 0}]}"""

EN = """Task: decide, statement by statement, whether the retrieved context passages support it (natural
language inference).

${data_rule}

Criteria:
- verdict = 1: the passages state it explicitly or it follows directly from them.
- verdict = 0: the passages do not mention it, say something different, or contradict it. Judge only by the
  passages, not by common or background knowledge; a statement with a number, date, name or condition that the
  passages do not contain gets 0.
- source: the number of the passage the verdict rests on (the one that supports or contradicts the statement);
  0 when no passage addresses it. When verdict is 1, source must be the number of a supporting passage.
- reason: one sentence explaining the verdict.

There are ${n_contexts} context passages and ${n_statements} statements. Answer every statement exactly once,
with index equal to the statement's number.

Context passages:
${evidence}

Statements:
${statements}

Output format: only a JSON object, for example
{"verdicts": [{"index": 1, "reason": "Passage 1 states the minimum down payment of 3.5%.", "verdict": 1, "source": 1}, {"index": 2, "reason": "No passage mentions a federal upper limit.", "verdict": 0, "source": 0}]}"""

VERIFY: Prompt[VerifyInput, VerifyOutput] = Prompt(
    name="statement_verification",
    version="1.0",
    input_model=VerifyInput,
    output_model=VerifyOutput,
    templates={"zh": ZH, "en": EN},
    data_fields={"evidence": "context", "statements": "statement"},
    variables=_variables,
    check=_check,
)
