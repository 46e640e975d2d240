import pytest

from ragpipe.core.metrics.answer_relevancy import asked, gives
from ragpipe.core.metrics.asked_kinds import asked_item, asked_value


@pytest.mark.parametrize("question, context", [
    # A yes-or-no question whether one must do something is answered by a rule, a waiver too.
    ("看烟花需要买票吗？", "海港烟花免费观看，无需购票。"),
    ("进博物馆要不要带身份证？", "参观博物馆须出示有效证件。"),
    ("Do I need a ticket for the harbour fireworks?", "No ticket is needed; the viewing areas are open to all."),
    ("Is a helmet required on the rental e-scooters?", "Riders under 18 must wear a helmet."),
    # Limits are rules.
    ("What are the limits on carry-on bags?", "It must weigh under 7 kg."),
])
def test_a_must_i_question_or_limits_are_answered_by_a_rule(question, context):
    kind, gives = asked_item(question)
    assert kind == "a rule" and gives(context)


def test_a_question_asking_a_value_is_no_must_i_question():
    assert asked_item("What is the weight limit for carry-on bags?") is None


@pytest.mark.parametrize("question", ["What are the costume shop's opening hours?", "What are the clinic's business hours?",
                                      "博物馆的开放时间是？", "健身房营业时间是什么？"])
def test_a_schedule_asked_by_its_name_asks_a_time(question):
    assert asked(question) == "time" and gives("time", "Tuesday to Saturday, 10 a.m. to 6 p.m.", question)


@pytest.mark.parametrize("context", [
    "The beginner mixology workshop runs for two and a half hours, tastings included.",
    "The crossing takes about an hour and a half in calm weather.",
    "Most repairs are finished within a week.", "Allow half a day for the full tour.",
])
def test_a_duration_in_words_with_an_article_or_a_half_answers_how_long(context):
    kind, gives = asked_value("How long is the class?")
    assert kind == "a duration" and gives(context)


@pytest.mark.parametrize("context", ["The ferry sails twice a week.", "Guests get three meals a day.",
                                     "A day pass costs $20."])
def test_a_frequency_or_a_day_pass_is_no_duration(context):
    assert not asked_value("How long is the class?")[1](context)
