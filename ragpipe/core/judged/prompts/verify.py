"""Statement verification (NLI, batched): for each statement, is it supported by the
context passages? A verdict (1/0), the passage it rests on, and a one-line reason."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, Field

from ragpipe.core.llm.examples import Example, show_outputs
from ragpipe.core.llm.prompt import Language, Output, Prompt, Text, fence, unfence_items
from ragpipe.core.judged.prompts.decompose import unpunctuated


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


def fake_verdicts(statements: list[str], passages: dict[int, str]) -> list[StatementVerdict]:
    """The fake judge: a statement is supported by the first passage that contains it
    (end punctuation aside)."""
    out = []
    for i, s in enumerate(statements, 1):
        source = next((j for j, c in passages.items() if unpunctuated(s) in c), 0)
        out.append(StatementVerdict(index=i, reason="stated in a passage" if source else "not in any passage",
                                    verdict=int(source > 0), source=source))
    return out


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
${examples}"""

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
${examples}"""

EXAMPLES = {
    "zh": (Example(VerifyOutput.model_validate_json(
        '{"verdicts": [{"index": 1, "reason": "段落 1 写明最低首付为 3.5%。", "verdict": 1, "source": 1}, {"index": 2, "reason": "上下文没有提到联邦政府的上限要求。", "verdict": 0, "source": 0}]}')),),
    "en": (Example(VerifyOutput.model_validate_json(
        '{"verdicts": [{"index": 1, "reason": "Passage 1 states the minimum down payment of 3.5%.", "verdict": 1, "source": 1}, {"index": 2, "reason": "No passage mentions a federal upper limit.", "verdict": 0, "source": 0}]}')),),
}

VERIFY: Prompt[VerifyInput, VerifyOutput] = Prompt(
    name="statement_verification",
    version="1.0",
    input_model=VerifyInput,
    output_model=VerifyOutput,
    templates={"zh": ZH, "en": EN},
    data_fields={"evidence": "context", "statements": "statement"},
    variables=_variables,
    check=_check,
    lengths=lambda inputs: {"verdicts": len(inputs.statements)},
    fake_reply=lambda inputs: VerifyOutput(verdicts=fake_verdicts(inputs.statements,
                                                                   dict(enumerate(inputs.evidence, 1)))),
    examples=EXAMPLES,
    show_examples=show_outputs,
)


# ---- several statement lists, each against its own passages, in one call -------------
class VerifyCheck(BaseModel):
    statements: list[str] = Field(min_length=1)
    passages: list[int] = Field(min_length=1, description="numbers of the passages to judge by, from 1")


class VerifyBatchInput(BaseModel):
    passages: list[str] = Field(min_length=1)
    checks: list[VerifyCheck] = Field(min_length=1)


class CheckVerdicts(Output):
    check: int = Field(ge=1, description="number of the check, from 1")
    verdicts: list[StatementVerdict]


class VerifyBatchOutput(Output):
    checks: list[CheckVerdicts]


_CHECK_HEAD = {
    "zh": "核对 {k}：只依据段落 {passages}，判断以下 {n} 条陈述：",
    "en": "Check {k}: judge the following {n} statement(s) by passage(s) {passages} only:",
}


def _render_checks(checks: list[VerifyCheck], language: Language) -> str:
    blocks = []
    for k, check in enumerate(checks, 1):
        sep = "、" if language == "zh" else ", "
        head = _CHECK_HEAD[language].format(k=k, n=len(check.statements), passages=sep.join(map(str, check.passages)))
        items = [fence(f"check {k} statement {i}", s) for i, s in enumerate(check.statements, 1)]
        blocks.append("\n".join([head, *items]))
    return "\n\n".join(blocks)


_CHECK_PASSAGES = {"zh": r"^核对 {k}：只依据段落 ([\d、]+)，", "en": r"^Check {k}: .* by passage\(s\) ([\d, ]+) only:$"}


def _read_checks(placed: dict[str, str], language: Language) -> dict:
    """The checks of a rendered batch (the inverse of ``_render_checks``)."""
    text, checks = placed["checks"], []
    while statements := unfence_items(f"check {len(checks) + 1} statement", text):
        head = re.search(_CHECK_PASSAGES[language].format(k=len(checks) + 1), text, re.M)
        checks.append(VerifyCheck(statements=statements, passages=[int(n) for n in re.findall(r"\d+", head.group(1))]))
    return {"checks": checks}


def _batch_fake_reply(inputs: VerifyBatchInput) -> VerifyBatchOutput:
    return VerifyBatchOutput(checks=[
        CheckVerdicts(check=k, verdicts=fake_verdicts(c.statements, {j: inputs.passages[j - 1] for j in c.passages}))
        for k, c in enumerate(inputs.checks, 1)])


def _batch_variables(inputs: VerifyBatchInput, language: Language) -> dict[str, str]:
    return {"n_passages": str(len(inputs.passages)), "n_checks": str(len(inputs.checks))}


def _batch_check(inputs: VerifyBatchInput, output: VerifyBatchOutput) -> None:
    k = len(inputs.checks)
    numbers = sorted(c.check for c in output.checks)
    if numbers != list(range(1, k + 1)):
        raise ValueError(f"expected exactly one entry for each check 1..{k}, got checks {numbers}")
    for got in output.checks:
        check = inputs.checks[got.check - 1]
        n = len(check.statements)
        indices = sorted(v.index for v in got.verdicts)
        if indices != list(range(1, n + 1)):
            raise ValueError(f"check {got.check}: expected exactly one verdict for each statement index 1..{n}, "
                             f"got indices {indices}")
        allowed = set(check.passages)
        for v in got.verdicts:
            if v.source and v.source not in allowed:
                raise ValueError(f"check {got.check}, verdict {v.index}: source {v.source} is not one of this "
                                 f"check's passages {sorted(allowed)} (or 0)")
            if v.verdict == 1 and v.source == 0:
                raise ValueError(f"check {got.check}, verdict {v.index}: a supported statement needs the number of "
                                 "its supporting passage")


BATCH_ZH = """任务：进行若干项“核对”。每项核对给出一组陈述和允许使用的段落编号，逐条判断陈述是否得到这些段落的支持（自然语言推理）。

${data_rule}

判断标准：
- verdict = 1：该核对允许使用的段落明确陈述了该内容，或可以从中直接推出。
- verdict = 0：这些段落没有提到、说法不同或与之矛盾。只依据该核对允许使用的段落判断，不要使用其他段落、常识或背景知识；陈述中的数字、日期、名称或条件只要这些段落中没有，就判 0。
- source：作出判断所依据的段落编号（必须是该核对允许使用的段落）；没有任何段落涉及该陈述时填 0。verdict 为 1 时，source 必须是支持它的段落编号。
- reason：用一句话说明理由。

共有 ${n_passages} 个段落和 ${n_checks} 项核对。每项核对都要回答且只回答一次（check 与核对编号一致）；每条陈述都要回答且只回答一次（index 与陈述编号一致）。

段落：
${passages}

核对：
${checks}

输出格式：只输出一个 JSON 对象，例如
${examples}"""

BATCH_EN = """Task: carry out a number of checks. Each check gives a list of statements and the passages it may use;
decide, statement by statement, whether those passages support it (natural language inference).

${data_rule}

Criteria:
- verdict = 1: the passages the check may use state it explicitly or it follows directly from them.
- verdict = 0: those passages do not mention it, say something different, or contradict it. Judge only by the
  passages the check may use, not by other passages or common or background knowledge; a statement with a
  number, date, name or condition that those passages do not contain gets 0.
- source: the number of the passage the verdict rests on (one the check may use); 0 when no passage addresses
  it. When verdict is 1, source must be the number of a supporting passage.
- reason: one sentence explaining the verdict.

There are ${n_passages} passages and ${n_checks} checks. Answer every check exactly once (check equal to the
check's number) and every statement in it exactly once (index equal to the statement's number).

Passages:
${passages}

Checks:
${checks}

Output format: only a JSON object, for example
${examples}"""

BATCH_EXAMPLES = {
    "zh": (Example(VerifyBatchOutput.model_validate_json(
        '{"checks": [{"check": 1, "verdicts": [{"index": 1, "reason": "段落 1 写明最低首付为 3.5%。", "verdict": 1, "source": 1}, {"index": 2, "reason": "段落中没有提到联邦政府的上限要求。", "verdict": 0, "source": 0}]}, {"check": 2, "verdicts": [{"index": 1, "reason": "段落 3 给出的比例是 5%，与陈述矛盾。", "verdict": 0, "source": 3}]}]}')),),
    "en": (Example(VerifyBatchOutput.model_validate_json(
        '{"checks": [{"check": 1, "verdicts": [{"index": 1, "reason": "Passage 1 states the minimum down payment of 3.5%.", "verdict": 1, "source": 1}, {"index": 2, "reason": "No passage mentions a federal upper limit.", "verdict": 0, "source": 0}]}, {"check": 2, "verdicts": [{"index": 1, "reason": "Passage 3 gives 5%, which contradicts the statement.", "verdict": 0, "source": 3}]}]}')),),
}

VERIFY_BATCH: Prompt[VerifyBatchInput, VerifyBatchOutput] = Prompt(
    name="statement_verification_batch",
    version="1.0",
    input_model=VerifyBatchInput,
    output_model=VerifyBatchOutput,
    templates={"zh": BATCH_ZH, "en": BATCH_EN},
    data_fields={"passages": "passage", "checks": _render_checks},
    variables=_batch_variables,
    check=_batch_check,
    lengths=lambda inputs: {"checks": len(inputs.checks)},
    fake_reply=_batch_fake_reply,
    read_back=_read_checks,
    examples=BATCH_EXAMPLES,
    show_examples=show_outputs,
)
