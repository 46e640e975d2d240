"""A may-I question's act, and the contexts that give a rule or a way of doing it (context_relevance.decide)."""

import numpy as np
import pytest

from ragpipe.core.metrics.context_relevance import decide
from ragpipe.core.metrics.permitted_acts import permitted_act
from ragpipe.core.schemas import EvalCase


def relevant(question, contexts, probabilities):
    case = EvalCase(question_id="q", question=question, retrieved_contexts=contexts)
    return [ok for ok, _ in decide(case, np.array(probabilities))]


@pytest.mark.parametrize("question, act", [
    ("戏服可以续租吗？", "续租"), ("会员卡能转让吗？", "转让"), ("Can I renew my costume rental?", "renew"),
    ("Can I bring my dog?", "dog"), ("What are the opening hours?", ""),
    # What one counts as is no act one asks leave for.
    ("在国外读研究生的留学生，能被认定为华侨吗？", ""), ("只连续住了一年半，能算华侨吗？", ""), ("Can I be considered a resident?", ""),
])
def test_the_act_a_may_i_question_asks_leave_for(question, act):
    assert permitted_act(question) == act


@pytest.mark.parametrize("question, contexts", [
    ("戏服可以续租吗？", ["本店戏服租期为3天，续租每天每套加收20元。", "续租请在租期结束前一天到店或打电话办理。"]),
    ("会员卡能转让吗？", ["会员卡仅限本人使用。", "转让需本人携带身份证到前台办理手续。"]),
    ("Can I renew my costume rental?", ["Costumes rent for three days; each extra day costs $20.",
                                        "Renewals must be requested by phone at least one day before the rental ends."]),
])
def test_a_rule_or_way_of_the_act_asked_answers_a_may_i_question(question, contexts):
    assert relevant(question, contexts, [0.64, 0.20]) == [True, True]


def test_a_rule_of_another_act_stays_under_the_cut():
    assert relevant("Can I bring my dog to the campsite?", ["Dogs must be kept on a leash at all times.",
                                                            "Fires must be kept in the pits."], [0.7, 0.2]) == [True, False]


def test_a_clock_time_between_chinese_characters_answers_what_time():
    assert relevant("夏令营几点熄灯？", ["营地每晚21:30熄灯。", "营地活动包括徒步、划船和星空观察。"], [0.64, 0.07]) == [True, False]
