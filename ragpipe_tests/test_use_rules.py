"""Rules of use: "can take" / "do not give … to" the same group are a permission and a prohibition."""

import pytest

from ragpipe.core.evidence.contradiction import contradiction
from ragpipe.core.evidence.use_rules import use_rule_conflict

LABEL = ["Adults should take one tablet every 8 hours, no more than three tablets a day.",
         "Do not give this medicine to children under 12.",
         "Common side effects include drowsiness and a dry mouth."]


@pytest.mark.parametrize("statement, evidence", [
    ("Children under 12 can take it too.", LABEL),
    ("Dogs can eat them.", ["Never give these treats to dogs."]),
    ("Kids under 3 can drink it.", ["Never give this drink to kids under 3."]),
    ("Children under 6 must not use it.", ["The spray can be given to children under 6."]),
])
def test_a_group_let_use_what_the_evidence_forbids_it_or_the_other_way_round(statement, evidence):
    found = contradiction(statement, evidence)
    assert found is not None and found.kind == "modality"


@pytest.mark.parametrize("statement, evidence", [
    ("Children over 12 can take it.", LABEL),                     # another bound: another group
    ("Adults can take one tablet every 8 hours.", LABEL),         # a group the prohibition does not name
    ("Children under 12 can take it if a doctor agrees.", LABEL),  # a condition
    ("Pregnant women can take it.", LABEL),
    ("The soil can dry out quickly in summer.", ["Don't let the soil dry out."]),  # no verb of use: no rule
])
def test_another_group_a_condition_or_no_rule_of_use_is_no_conflict(statement, evidence):
    assert use_rule_conflict(statement, evidence) is None


def test_chinese_rules_of_use_are_left_to_polarity():
    assert use_rule_conflict("12岁以下儿童可以服用。", ["12岁以下儿童禁用。"]) is None
