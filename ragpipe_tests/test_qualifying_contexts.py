"""A context holding a further value of the kind asked, beside one that answers (context_relevance.decide)."""

import numpy as np

from ragpipe.core.metrics.context_relevance import decide
from ragpipe.core.schemas import EvalCase


def relevant(question, contexts, probabilities, alone):
    case = EvalCase(question_id="q", question=question, retrieved_contexts=contexts)
    return [ok for ok, _ in decide(case, np.array(probabilities), alone=np.array(alone))]


def test_a_further_value_that_alone_reaches_the_cut_qualifies_the_answer():
    # The relative features sink the extension (0.07) against the due date, yet alone it reaches the cut.
    assert relevant("When are federal income tax returns due?",
                    ["Individual federal income tax returns are normally due on April 15 each year.",
                     "Taxpayers who file Form 4868 get an automatic six-month extension to file, but not to pay."],
                    [0.84, 0.07], [0.84, 0.59]) == [True, True]
    assert relevant("租车的最低年龄是多少？", ["租车须年满21周岁。", "25岁以下的驾驶人每天加收50元。"],
                    [0.80, 0.10], [0.80, 0.60]) == [True, True]


def test_without_an_answering_context_or_under_the_cut_alone_it_stays_out():
    question, contexts = "When are federal income tax returns due?", ["Returns are filed online.",
                                                                      "An extension gives six more months."]
    assert relevant(question, contexts, [0.50, 0.07], [0.50, 0.59]) == [False, False]
    assert relevant(question, ["Returns are due on April 15.", contexts[1]], [0.84, 0.07], [0.84, 0.50]) == [True, False]
