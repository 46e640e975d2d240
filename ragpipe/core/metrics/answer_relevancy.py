import re

import numpy as np

from ragpipe.core.evidence.features import MAX_EMBED_CHARS
from ragpipe.core.llm.prompts import ANSWER_ANALYSIS, ANSWER_RELEVANCY
from ragpipe.core.metrics.base import JudgeUse, Metric, MetricResult, Toolkit
from ragpipe.core.schemas import EvalCase
from ragpipe.core.text import content_tokens

# Answers that commit to nothing do not answer the question (RAGAS scores them 0).
NONCOMMITTAL = re.compile(
    r"(未在资料中找到|无法回答|不知道|没有相关信息|无法确定|i (?:do not|don't) know|could not find|"
    r"cannot answer|can't answer|no information)", re.I)
# A question that asks for a quantity (how much, how many, the minimum, the rate …) is
# answered directly by one, in digits or in words; an answer that talks around it ("a
# lower down payment", the worked example's rambling answer) does not answer the question asked.
ASKS_QUANTITY = re.compile(
    r"多少|几[个位项年月日天岁次倍种类名家条周]|多久|多长时间|多大|多高|多远|百分之几|最低|最高|上限|下限|比例|金额|额度|"
    r"税率|利率|费率|\bhow (?:much|many|long|old|large|big|high|tall|far|often)\b|\b(?:minimum|maximum|lowest|highest|"
    r"percentage|percent|proportion|amount|number of|rate|cost|price|fee|limit)\b", re.I)
QUANTITY = re.compile(
    r"\d|百分之|[零〇一二三四五六七八九十两百千万亿半]\s*(?:个|位|项|年|月|日|天|岁|次|倍|元|成|人|家|名|周|小时|分钟|公里|米)|"
    r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|sixty|"
    r"seventy|eighty|ninety|hundred|thousand|million|billion|half|dozen)\b", re.I)


def _llm(case: EvalCase, kit: Toolkit) -> MetricResult:
    """RAGAS: questions the answer would answer, compared with the asked one; 0 if evasive."""
    questions, noncommittal = kit.llm.answer_questions(case.answer)
    if noncommittal:
        return MetricResult(0.0, {"noncommittal": True, "generated_questions": questions})
    related = kit.relatedness(kit.embedder.similarity([case.question], questions)[0])
    return MetricResult(float(related.mean()), {"generated_questions": questions,
                                                "relatedness": [round(float(r), 4) for r in related]})


def compute(case: EvalCase, kit: Toolkit) -> MetricResult:
    if kit.llm is not None:
        return _llm(case, kit)
    if NONCOMMITTAL.search(case.answer):
        return MetricResult(0.0, {"noncommittal": True})
    question_terms = set(content_tokens(case.question))
    answer_terms = set(content_tokens(case.answer))
    coverage = len(question_terms & answer_terms) / len(question_terms) if question_terms else 0.0
    statements = list(kit.statements(case.answer)) or [case.answer]
    # Cut as the verifier cuts them, so these are the vectors it embeds (no second pass).
    vectors = kit.embedder.embed([case.question] + [s[:MAX_EMBED_CHARS] for s in statements])
    # The whole answer as the mean of its statements' vectors: e5 mean-pools tokens, so
    # this is close to embedding the answer again, at no cost.
    answer = vectors[1:].mean(axis=0)
    answer_cosine = float(vectors[0] @ answer) / max(float(np.linalg.norm(answer)), 1e-12)
    related = kit.relatedness([answer_cosine, *(vectors[1:] @ vectors[0])])
    whole, focus = float(related[0]), float((related[1:] >= 0.5).mean())
    details = {"question_term_coverage": round(coverage, 4), "semantic": round(whole, 4),
               "on_topic_statement_share": round(focus, 4)}
    parts = [coverage, whole, focus]
    if ASKS_QUANTITY.search(case.question):
        details["gives_asked_quantity"] = bool(QUANTITY.search(case.answer))
        parts.append(float(details["gives_asked_quantity"]))
    return MetricResult(sum(parts) / len(parts), details)


METRIC = Metric(
    name="answer_relevancy",
    definition=("How directly the answer addresses the question. Offline: mean of the share of the "
                "question's content words the answer takes up, the semantic relatedness of answer and question, "
                "the share of answer statements on the question's topic and, when the question asks for a "
                "quantity (how much, how many, the minimum …), whether the answer gives one. LLM mode (RAGAS): mean relatedness "
                "of the question to questions the LLM writes for the answer. Noncommittal answers score 0."),
    reads=("question", "answer"),
    higher_is_better=True,
    nan_when="no answer, or the bot failed",
    compute=compute,
    judge=JudgeUse(("analysis",), (ANSWER_ANALYSIS, ANSWER_RELEVANCY)),
)
