"""A benefit, price or rule said of one group that the evidence gives another (evidence/group_swaps.py, through
contradiction.contradicted)."""

import pytest

from ragpipe.core.evidence.contradiction import contradicted
from ragpipe.core.evidence.group_swaps import group_swap

PASSES = ["Jump passes cost $18 an hour.", "Students get 20% off jump passes, and seniors jump free on Tuesdays."]
SKI = ["滑雪场成人日票380元，学生凭学生证享八折优惠，65岁以上老人免费。"]
CLINIC = ["Dr. Patel sees children; Dr. Moreno sees adults."]
PILLS = ["成人每次1片，每8小时1次，每日不超过3片。", "12岁以下儿童禁用。"]


@pytest.mark.parametrize("statement, evidence, mine, theirs", [
    ("Seniors get 20% off jump passes.", PASSES, "Seniors", "Students"),
    ("Students jump free on Tuesdays.", PASSES, "Students", "seniors"),
    ("学生可以免费滑雪。", SKI, "学生", "老人"),
    ("65岁以上的老人滑雪打八折。", SKI, "老人", "学生"),
    ("Adults are seen by Dr. Patel.", CLINIC, "Adults", "children"),
    ("儿童每8小时吃一片。", PILLS, "儿童", "成人"),  # the sentence's one group owns its clauses
    # new and returning customers are two groups
    ("新学员报名瑜伽课可享八折。", ["老学员报名瑜伽课可享八折优惠，新学员首期可享九五折。"], "新学员", "老学员"),
    # a sentence that opens with a pronoun speaks of the thing the one before names
    ("The eye exam is free for students.", ["An eye exam takes 30 minutes.", "It is free for seniors; others pay $40.",
                                            "Students get 10% off frames."], "students", "seniors"),
])
def test_a_value_the_evidence_gives_another_group_is_a_contradiction(statement, evidence, mine, theirs):
    assert group_swap(statement, evidence)[:3] == ("group", mine, theirs)
    found = contradicted(statement, "", evidence)
    assert found is not None and found.kind == "group"


@pytest.mark.parametrize("statement, evidence", [
    ("Students get 20% off jump passes.", PASSES),
    ("65岁以上的老人可以免费滑雪，学生凭学生证打八折。", SKI),
    ("Kids see Dr. Patel.", CLINIC),  # a group of the same class ("kids" / "children")
    ("Teachers get 20% off jump passes.", PASSES),  # a group the evidence never names: unsupported, not swapped
    ("Students and seniors get 20% off.", ["Students and seniors get 20% off."]),  # one clause gives both
    ("A family-owned shop gives students 20% off.", ["Students get 20% off at the shop, says a local family."]),
    # an organisation's name ties no group's clause (a RAGTruth statement, faithful)
    ("Dollar General was sued by the EEOC after a pregnant worker was fired.",
     ["The EEOC filed a lawsuit against Dollar General after the employee was fired.",
      "The EEOC enforces protections for pregnant workers."]),
])
def test_the_same_group_an_unnamed_one_or_a_shared_clause_is_no_swap(statement, evidence):
    assert group_swap(statement, evidence) is None


@pytest.mark.parametrize("statement, evidence, stated, said", [
    ("Women can give whole blood again after 12 weeks.",
     "Men must wait at least 12 weeks between whole blood donations; women must wait at least 16 weeks.", "Women", "Men"),
    ("女性体重要达到50公斤以上", "男性体重不低于50公斤，女性体重不低于45公斤。", "女性", "男性"),  # 不低于 is a bound, no denial
])
def test_a_value_the_evidence_gives_men_said_of_women_is_a_group_swap(statement, evidence, stated, said):
    assert group_swap(statement, [evidence])[1:3] == (stated, said)


@pytest.mark.parametrize("statement, evidence", [
    ("Women can give whole blood again after 16 weeks.",
     "Men must wait at least 12 weeks between whole blood donations; women must wait at least 16 weeks."),
    ("女性体重不低于45公斤", "男性体重不低于50公斤，女性体重不低于45公斤。"),
    ("The menu has 12 dishes for women.", "The menu has 12 dishes."),  # "menu" is no "men"
])
def test_the_value_of_the_group_itself_is_no_group_swap(statement, evidence):
    assert group_swap(statement, [evidence]) is None


# Blind batch 22b (round twenty-one, found after its blind scoring): two groups' prices in one clause joined by "and".
@pytest.mark.parametrize("statement, swapped", [("Children's tickets cost $14.", True), ("Children's tickets cost $10.", False),
                                                ("Adult tickets cost $14.", False)])
def test_an_and_before_a_value_parts_two_groups_prices(statement, swapped):
    found = group_swap(statement, ["Tickets cost $14 for adults and $10 for children; under-2s sitting on a lap go free."])
    assert (found is not None) == swapped, found
