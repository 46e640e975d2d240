"""intervals.interval_conflict: another "every N minutes" in the sentence that speaks of the same thing contradicts,
though a clock time or another rule states the number; the same interval anywhere, or none, does not."""

import pytest

from ragpipe.core.evidence.contradiction import contradiction
from ragpipe.core.evidence.intervals import interval_conflict

_RULES = ["开车前30分钟以上可以退票，收取票价5%的手续费。", "首班机场列车早上5点30分发车，每15分钟一班。"]


@pytest.mark.parametrize("statement, evidence", [
    ("机场列车每30分钟一班。", _RULES),
    ("The airport train runs every 30 minutes.", ["The first airport train leaves at 5:30 a.m. and runs every 15 minutes."]),
    ("渡轮每隔2小时发一班。", ["渡轮早上8点起航，每隔3小时发一班。"]),
])
def test_another_interval_of_the_same_thing_contradicts(statement, evidence):
    found = interval_conflict(statement, evidence)
    assert found is not None and found[0] == "number" and found[3] == evidence[-1]
    assert contradiction(statement, evidence) is not None


@pytest.mark.parametrize("statement, evidence", [
    ("机场列车每15分钟一班。", _RULES),
    ("Take one tablet every 8 hours.", ["Adults take one tablet every 6 hours, children every 8 hours."]),
    ("The airport train runs every 30 minutes.", ["The first airport train leaves at 5:30 a.m."]),
    ("The museum shop restocks every 2 weeks.", ["The airport train runs every 15 minutes."]),
])
def test_the_same_interval_or_none_of_the_same_thing_is_no_conflict(statement, evidence):
    assert interval_conflict(statement, evidence) is None
