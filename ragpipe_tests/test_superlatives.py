import pytest

from ragpipe.core.evidence.contradiction import borne_out, contradiction
from ragpipe.core.evidence.superlatives import ranked

PLANS = "The Basic plan costs $12 a month, the Plus plan $9 and the Pro plan $20."
ZH_PLANS = "基础版每月12元，进阶版每月9元，专业版每月20元。"


@pytest.mark.parametrize("statement, evidence", [
    ("The Basic plan is the cheapest.", PLANS),
    ("The Plus plan is the most expensive.", PLANS),
    ("基础版最便宜。", ZH_PLANS),
    ("The Mill Bridge is the oldest.", "The Mill Bridge opened in 1921, the Stone Bridge in 1887 and the Harbor Bridge in 1964."),
    ("二号仓库面积最大。", "一号仓库面积为1200平方米，二号仓库面积为800平方米，三号仓库面积为1500平方米。"),
])
def test_a_superlative_another_side_holds_by_the_stated_values(statement, evidence):
    found = contradiction(statement, [evidence])
    assert found is not None and found.kind == "comparison"


@pytest.mark.parametrize("statement, evidence", [
    ("The Plus plan is the cheapest.", PLANS),
    ("The Pro plan is the most expensive.", PLANS),
    ("进阶版最便宜。", ZH_PLANS),
    ("The Stone Bridge is the oldest.", "The Mill Bridge opened in 1921, the Stone Bridge in 1887 and the Harbor Bridge in 1964."),
])
def test_a_superlative_the_named_side_holds(statement, evidence):
    assert ranked(statement, [evidence])[0] is True
    assert contradiction(statement, [evidence]) is None


@pytest.mark.parametrize("statement, evidence", [
    ("The Basic plan is the cheapest.", "The Basic plan costs $12 a month and the Plus plan $9."),  # two sides: comparisons.py
    ("The Basic plan is not the cheapest.", PLANS),
    ("Most people choose the Basic plan.", PLANS),
    ("The Gold plan is the cheapest.", PLANS),  # a side the evidence does not value
])
def test_no_ranking_without_three_valued_sides_or_the_named_one(statement, evidence):
    assert ranked(statement, [evidence]) is None


def test_a_word_of_the_side_that_no_value_clause_holds_names_no_side():
    found = contradiction("销售部人数最少。", ["销售部有32人，财务部有9人，技术部有57人。"])
    assert found is not None and found.kind == "comparison"
    assert ranked("财务部人数最少。", ["销售部有32人，财务部有9人，技术部有57人。"])[0] is True


@pytest.mark.parametrize("statement, evidence", [
    ("The Plus plan is the cheapest.", PLANS),
    ("越野版最重。", "轿车版重1.4吨，越野版重2.1吨，旅行版重1.6吨。"),
])
def test_a_superlative_the_values_bear_out_is_borne_out(statement, evidence):
    assert borne_out(statement, "", [evidence])


def test_a_superlative_of_a_measure_the_sentence_does_not_list_is_not_ranked():
    scores = ["Southwest had the highest satisfaction score (86), followed by JetBlue (85), Delta (70) and United (62)."]
    assert ranked("JetBlue has the lowest percentage of award seats.", scores) is None
    assert ranked("Southwest has the highest satisfaction score.", scores)[0] is True


def test_the_noun_after_a_superlative_of_a_kind_is_no_measure():
    found = contradiction("The library is the newest building on campus.", ["The library was built in 1968, the gym in 2015 and the chapel in 1902."])
    assert found is not None and found.kind == "comparison"


@pytest.mark.parametrize("statement", ["The Basic plan is one of the cheapest.", "基础版是最便宜的套餐之一。"])
def test_one_of_the_extremes_is_no_extreme(statement):
    assert ranked(statement, [PLANS, ZH_PLANS]) is None


def test_a_later_member_of_a_list_counts_what_the_first_counts():
    found = ranked("The Leeds branch has the most employees.", ["The Leeds branch employs 45 people, the York branch 120 and the Hull branch 80."])
    assert found is not None and found[0] is False


def test_values_of_a_measure_the_statement_does_not_name_rank_nothing():
    scores = ["Southwest had the highest customer satisfaction score (86), followed by JetBlue (85), Delta (70), American (66) and United (63)."]
    assert ranked("JetBlue was the least generous of the five airlines.", scores) is None


def test_a_price_beside_a_word_of_time_is_still_read():
    found = ranked("The day pass is the most expensive ticket.", ["A single ride costs $3, a day pass costs $9 and a weekly pass costs $30."])
    assert found is not None and found[0] is False


DATA = "The Basic plan includes 5 GB, the Plus plan 20 GB and the Max plan 50 GB."


def test_the_most_of_a_thing_no_clause_names_is_read_in_the_one_unit_every_value_carries():
    assert ranked("The Basic plan offers the most data.", [DATA])[0] is False
    assert ranked("The Max plan offers the most data.", [DATA])[0] is True
    # values in no one unit name no measure of the thing
    assert ranked("The Basic plan has the most users.", ["The Basic plan costs $5, the Plus plan $9 and the Max plan $20."]) is None
