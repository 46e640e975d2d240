import re

from ragpipe.core.metrics.base import Metric, MetricResult, Toolkit
from ragpipe.core.schemas import EvalCase
from ragpipe.core.text import content_tokens

# Answers that commit to nothing do not answer the question (RAGAS scores them 0).
NONCOMMITTAL = re.compile(
    r"(未在资料中找到|无法回答|不知道|没有相关信息|无法确定|i (?:do not|don't) know|could not find|"
    r"cannot answer|can't answer|no information)", re.I)


def compute(case: EvalCase, kit: Toolkit) -> MetricResult:
    if NONCOMMITTAL.search(case.answer):
        return MetricResult(0.0, {"noncommittal": True})
    question_terms = set(content_tokens(case.question))
    answer_terms = set(content_tokens(case.answer))
    coverage = len(question_terms & answer_terms) / len(question_terms) if question_terms else 0.0
    statements = list(kit.statements(case.answer)) or [case.answer]
    related = kit.relatedness(kit.embedder.similarity([case.question], [case.answer] + statements)[0])
    whole, focus = float(related[0]), float((related[1:] >= 0.5).mean())
    value = (coverage + whole + focus) / 3
    return MetricResult(value, {"question_term_coverage": round(coverage, 4), "semantic": round(whole, 4),
                                "on_topic_statement_share": round(focus, 4)})


METRIC = Metric(
    name="answer_relevancy",
    definition=("How directly the answer addresses the question: mean of the share of the question's "
                "content words the answer takes up, the semantic relatedness of answer and question, and "
                "the share of answer statements on the question's topic. Noncommittal answers score 0."),
    reads=("question", "answer"),
    higher_is_better=True,
    nan_when="no answer, or the bot failed",
    compute=compute,
)
