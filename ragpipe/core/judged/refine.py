"""The rubric's refine loop as an API: generate an answer, judge it with the 1–10 rubric,
and while its accuracy is below the bar, generate again with the judge's suggestion, up
to a number of rounds. Every round is returned, judged or not.

The loop stops at the first round whose accuracy reaches the bar, after ``max_rounds``
rounds, or at the first round that cannot be judged (the rubric's output stayed invalid,
the model was unreachable) or whose generation failed: without a score there is nothing
to compare with the bar, and no score is ever made up.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ragpipe.core.llm.settings import LLMError
from ragpipe.core.judged.operations import RubricResult, rubric_1_10

DEFAULT_BAR = 8.0  # the rubric's integration: retry while accuracy < 8
DEFAULT_ROUNDS = 3

Generate = Callable[[str, str | None], tuple[str, Sequence[str] | None]]


@dataclass
class RefineRound:
    """One round: the suggestion the answer was generated with (None in round 1), the
    answer and its documents, and the rubric's result or the reason there is none."""

    round: int
    suggestion: str | None
    answer: str | None
    documents: list[str]
    rubric: RubricResult | None = None
    error: str | None = None

    @property
    def accuracy(self) -> float | None:
        return self.rubric.accuracy if self.rubric else None

    def as_dict(self) -> dict:
        return {"round": self.round, "suggestion": self.suggestion, "answer": self.answer,
                "documents": list(self.documents), "rubric": self.rubric.model_dump() if self.rubric else None,
                "error": self.error}


@dataclass
class RefineResult:
    question: str
    bar: float
    max_rounds: int
    rounds: list[RefineRound] = field(default_factory=list)

    @property
    def final(self) -> RefineRound:
        return self.rounds[-1]

    @property
    def reached_bar(self) -> bool:
        """The last round's accuracy is at or above the bar."""
        acc = self.final.accuracy if self.rounds else None
        return acc is not None and acc >= self.bar

    @property
    def stopped_because(self) -> str:
        if self.reached_bar:
            return "reached the bar"
        if self.rounds and self.final.error:
            return "error"
        return "no rounds left"

    def as_dict(self) -> dict:
        return {"question": self.question, "bar": self.bar, "max_rounds": self.max_rounds,
                "reached_bar": self.reached_bar, "stopped_because": self.stopped_because,
                "rounds": [r.as_dict() for r in self.rounds]}


def refine(judge: Any, question: str, generate: Generate, *, bar: float = DEFAULT_BAR,
           max_rounds: int = DEFAULT_ROUNDS) -> RefineResult:
    """Run the loop (see the module docstring).

    ``judge`` is an ``LLMEvaluator`` (anything with ``rubric_1_10(question, answer,
    documents)``) or a bare ``LLM``. ``generate(question, suggestion)`` returns the answer
    and the documents it rests on (None or empty: the rubric's pure-LLM mode); the
    suggestion is None in the first round and the previous round's rubric suggestion after."""
    if max_rounds < 1:
        raise ValueError("max_rounds must be at least 1")
    score: Callable[[str, str, list[str] | None], RubricResult]
    if hasattr(judge, "rubric_1_10"):
        score = judge.rubric_1_10
    else:
        def score(q: str, a: str, docs: list[str] | None) -> RubricResult:
            return rubric_1_10(judge, q, a, docs)

    result = RefineResult(question=question, bar=bar, max_rounds=max_rounds)
    suggestion: str | None = None
    for number in range(1, max_rounds + 1):
        try:
            answer, documents = generate(question, suggestion)
        except Exception as exc:  # the caller's generator failed: record it, judge nothing
            result.rounds.append(RefineRound(number, suggestion, None, [],
                                             error=f"generate failed: {type(exc).__name__}: {exc}"))
            break
        docs = [d for d in (documents or []) if d]
        current = RefineRound(number, suggestion, answer, docs)
        result.rounds.append(current)
        if not answer or not answer.strip():
            current.error = "generate returned an empty answer"
            break
        try:
            current.rubric = score(question, answer, docs or None)
        except LLMError as exc:
            current.error = exc.reason
            break
        if current.rubric.accuracy >= bar:
            break
        suggestion = current.rubric.suggestion
    return result
