import pytest

from ragpipe.core.evidence.contradiction import contradiction
from ragpipe.core.evidence.lists import list_conflict

MED = ["Take one tablet twice a day with food.", "Do not exceed four tablets in 24 hours.",
       "Common side effects include drowsiness and dry mouth."]


@pytest.mark.parametrize("statement, evidence", [
    ("Common side effects include headache and dry mouth.", MED),
    ("常见副作用包括头痛和口干。", ["每日两次，每次一片，随餐服用。", "常见副作用包括嗜睡和口干。"]),
    ("Symptoms include fever, rash and fatigue.", ["Symptoms include fever, cough and fatigue."]),
    ("The course covers Python and Java.", ["The course covers Python and SQL."]),
    ("常见症状包括发热、皮疹和乏力。", ["常见症状包括发热、咳嗽和乏力。"]),
])
def test_a_list_member_replaced_by_one_the_evidence_never_states(statement, evidence):
    found = contradiction(statement, evidence)
    assert found is not None and found.kind == "name"


@pytest.mark.parametrize("statement, evidence", [
    ("The kit includes a charger and a carrying case.", ["The kit includes a charger, a USB cable and a carrying case."]),
    ("The salad contains feta and cucumbers.", ["The salad contains tomatoes, cucumbers and feta."]),
    ("套餐包含机票和早餐。", ["套餐包含机票、酒店和早餐。"]),
    ("The hotel has a pool and a sauna.", ["The hotel has a pool and a gym.", "A sauna is on the top floor."]),
    ("Stir in the stock, fennel seed, bay leaf, cardamom and cinnamon", ["Stir in the stock, fennel seed, bay leaf, cardamon and cinnamon"]),
    ("Cook the bratwurst on the grill, turning once", ["Cook the bratwurst on the grill, turning occasionally to brown evenly"]),
])
def test_a_subset_a_reordering_or_a_member_stated_elsewhere_is_no_list_conflict(statement, evidence):
    assert list_conflict(statement, evidence) is None
