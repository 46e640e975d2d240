import pytest

from ragpipe.core.evidence.contradiction import contradiction
from ragpipe.core.evidence.forfeits import forfeit_conflict

NO_SHOW = ["A $50 deposit is required to book any session.",
           "Rescheduling is free with 24 hours' notice; clients who don't show up lose their deposit."]
LATE = ["A $30 deposit secures your appointment.", "Patients who cancel with less than 24 hours' notice forfeit the deposit."]
TOOL = ["A $100 deposit is required for the tile cutter;", "it is returned when the tool comes back clean and undamaged."]
ZH_LATE = ["预约需交30元定金，就诊前不足24小时取消的，定金不予退还。"]


@pytest.mark.parametrize("statement, evidence", [
    ("the deposit is refunded if you don't show up", NO_SHOW),
    ("You get the deposit back even if you cancel less than 24 hours before.", LATE),
    ("the deposit is kept if you return the tool clean", TOOL),  # the money named in the sentence before
    ("就诊前不足24小时取消，定金也可以全额退还。", ZH_LATE),
])
def test_money_given_the_other_fate_under_the_same_condition_is_a_contradiction(statement, evidence):
    assert forfeit_conflict(statement, evidence)[0] == "antonym"
    assert contradiction(statement, evidence) is not None


@pytest.mark.parametrize("statement, evidence", [
    ("You lose the deposit if you don't show up.", NO_SHOW),  # the same fate
    ("The deposit is refunded if you show up.", NO_SHOW),  # the condition denied on one side only
    ("The deposit is refunded if you reschedule a week ahead.", NO_SHOW),  # another condition
    ("If you cancel with under 24 hours' notice, you lose the $30 deposit.", LATE),
    ("the deposit is returned if the tool comes back clean", TOOL),
    ("不足24小时取消预约的，30元定金不退。", ZH_LATE),
])
def test_the_same_fate_or_another_condition_is_no_forfeit_conflict(statement, evidence):
    assert forfeit_conflict(statement, evidence) is None
