"""The records that flow between the assets (field names follow the metric specification's EvalCase)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from typing import Annotated

from pydantic import BaseModel, Field, StringConstraints, field_validator, model_validator


class InputError(ValueError):
    """Bad user input; the message names the file, the line when there is one, and the field."""

    def __init__(self, file: str, field: str, problem: str, line: int | None = None):
        self.file, self.field, self.problem, self.line = file, field, problem, line
        where = f"{file}:{line}" if line is not None else file
        super().__init__(f"{where}: field '{field}': {problem}")


class Chunk(BaseModel):
    chunk_id: str
    doc_id: str
    title: str
    position: int
    text: str


# Chinese names of the question types (事实性问题 and 推理性问题, the question generator's names), as people write them.
_QUESTION_TYPE_NAMES = {
    "事实": "FACTUAL", "事实性": "FACTUAL", "事实性问题": "FACTUAL", "事实类": "FACTUAL",
    "推理": "INFERENTIAL", "推理性": "INFERENTIAL", "推理性问题": "INFERENTIAL", "推理类": "INFERENTIAL",
    "自定义": "USER_DEFINED", "用户自定义": "USER_DEFINED",
}


class QuestionType(str, Enum):
    FACTUAL = "FACTUAL"
    INFERENTIAL = "INFERENTIAL"
    USER_DEFINED = "USER_DEFINED"

    @classmethod
    def _missing_(cls, value: object) -> "QuestionType | None":
        """Any case (factual) and the Chinese names (事实, 推理 …) give the canonical value."""
        if not isinstance(value, str):
            return None
        name = value.strip()
        return cls.__members__.get(_QUESTION_TYPE_NAMES.get(name, name.upper()))


Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]


class Question(BaseModel):
    question_id: Annotated[Text, StringConstraints(max_length=200)]
    question: Annotated[Text, StringConstraints(max_length=4000)]
    ground_truth_answer: Annotated[Text, StringConstraints(max_length=20000)]
    ground_truth_contexts: list[Annotated[Text, StringConstraints(max_length=300)]] = Field(
        default_factory=list, description="chunk ids")
    question_type: QuestionType = QuestionType.USER_DEFINED
    origin: str | None = Field(default=None, description="generator, model and prompt version, for generated questions")
    source: str = Field(description="file (and line) the question came from")


# A lone UTF-16 surrogate: JSON may carry one ("\\ud800"), UTF-8 (Parquet, the reports) cannot.
LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class RagResponse(BaseModel):
    question_id: str
    answer: str | None
    retrieved_contexts: list[str]
    retrieved_ids: list[str]
    latency_ms: float
    error: str | None = None
    truncated: str | None = Field(default=None, description="what the input limits cut or replaced in the reply, "
                                                            "if anything")

    @model_validator(mode="after")
    def _storable(self) -> RagResponse:
        """Lone surrogates become U+FFFD, counted in ``truncated``: the answer is kept and
        scored (an answer cached before this check is cleaned as it is read)."""
        texts = [self.answer or "", *self.retrieved_contexts, *self.retrieved_ids, self.error or ""]
        if found := sum(len(LONE_SURROGATE.findall(t)) for t in texts):
            def clean(text):
                return LONE_SURROGATE.sub("\ufffd", text) if text is not None else None

            self.answer, self.error = clean(self.answer), clean(self.error)
            self.retrieved_contexts = [clean(c) for c in self.retrieved_contexts]
            self.retrieved_ids = [clean(i) for i in self.retrieved_ids]
            self.truncated = "; ".join(filter(None, [self.truncated, f"{found} lone surrogates (no UTF-8 "
                                                                     "character) replaced with U+FFFD"]))
        return self


# Full-width digits, Latin letters and "％" ("１４２０年", "ＦＨＡ") are their half-width forms to every reader; not
# all of NFKC, which would also turn Chinese punctuation into ASCII. A thousands comma ("6,300") is no clause or list
# break to any reader: numbers are read without it.
_HALF_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F) if chr(code - 0xFEE0).isalnum() or code == 0xFF05}
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")


def _as_read(text: str) -> str:
    return _THOUSANDS.sub("", text.translate(_HALF_WIDTH))


class EvalCase(BaseModel):
    """One question joined with one bot version's response: what a metric reads."""

    question_id: str
    question: str
    ground_truth_answer: str | None = None
    ground_truth_contexts: list[str] = Field(default_factory=list, description="chunk ids, or passages' texts")
    answer: str | None = None
    retrieved_contexts: list[str] = Field(default_factory=list)
    retrieved_ids: list[str] = Field(default_factory=list)
    bot_error: str | None = None

    # Ids too, so that ground-truth ids (ground_truth_contexts may hold them) still match the retrieved ones.
    @field_validator("question", "ground_truth_answer", "answer", "ground_truth_contexts", "retrieved_contexts", "retrieved_ids")
    @classmethod
    def _read_alike(cls, value):
        if isinstance(value, list):
            return [_as_read(v) for v in value]
        return _as_read(value) if value else value


@dataclass
class Verdict:
    """Whether one statement is supported by the evidence, how strongly, and why."""

    statement: str
    supported: bool
    score: float
    evidence: str
    reason: str

    def as_dict(self) -> dict:
        return {"statement": self.statement, "supported": self.supported, "score": round(self.score, 4),
                "evidence": self.evidence, "reason": self.reason}


class InputErrors(ValueError):
    """Every problem found in one input, so a user fixes them all in one pass."""

    def __init__(self, problems: list[InputError]):
        self.problems = problems
        super().__init__(f"{len(problems)} problem(s):\n" + "\n".join(f"  {p}" for p in problems))
