import pytest

from ragpipe.core.metrics.asked_kinds import asked_item, asked_value
from ragpipe.core.metrics.money import without_rates


@pytest.mark.parametrize("text, left", [
    ("The studio charges $150 an hour.", "The studio charges  ."),
    ("Rooms are 90 euros per night, minimum 3 nights.", "Rooms are  , minimum 3 nights."),
    ("工作室每小时收费150元。", "工作室 收费150元。"),
    ("按150元/小时计费。", "按 计费。"),
    ("向导费一天300元。", "向导费 300元。"),
    ("Healing takes 2 weeks.", "Healing takes 2 weeks."),
])
def test_a_price_per_period_is_taken_out(text, left):
    assert without_rates(text) == left


@pytest.mark.parametrize("question, context, holds", [
    # The period of a rate is no duration; a duration beside a rate still is.
    ("How long does a tattoo take to heal?", "The studio charges $150 an hour for custom tattoo work.", False),
    ("皮肤护理疗程需要多长时间？", "皮肤护理疗程150元一次，年卡200元一个月。", False),
    ("这次徒步要走多久？", "向导费一天300元，含午餐。", False),
    ("How long can I rent a bike?", "Bikes rent for $5 per hour for up to 4 hours.", True),
    ("自行车最多能租多久？", "自行车每小时5元，最长可租4小时。", True),
])
def test_a_rate_holds_no_duration(question, context, holds):
    kind, gives = asked_value(question)
    assert kind == "a duration"
    assert gives(context) == holds


def test_what_does_it_cost_asks_an_amount_of_money():
    assert asked_value("What does a wedding cake cost at the bakery?")[0] == "an amount of money"


def test_how_much_is_a_thing_asks_its_price_not_what_is_left():
    # Blind batch 24a (round twenty-three): "How much is entry to the cat café?" had asked no kind of value.
    assert asked_value("How much is entry to the cat café?")[0] == "an amount of money"
    assert asked_value("How much are tickets on Tuesdays?")[0] == "an amount of money"
    assert (asked_value("How much is left on my data plan?") or ("",))[0] != "an amount of money"


@pytest.mark.parametrize("question, context", [
    ("报名合唱团有哪些要求？", "团员每月至少参加三次排练。"),
    ("加入登山队有什么要求？", "每年参加训练不少于十次。"),
])
def test_a_minimum_is_a_requirement(question, context):
    kind, gives = asked_item(question)
    assert kind == "a requirement" and gives(context)
