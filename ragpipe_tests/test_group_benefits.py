"""A benefit given to a group of people the evidence never names (group_benefits.py), read by `invented`."""

import pytest

from ragpipe.core.evidence.features import prepare
from ragpipe.core.evidence.group_benefits import unnamed_group_benefit
from ragpipe.core.evidence.invented import invented

BAGS = "Each passenger may check one bag of up to 23 kg."
PLANS = "标准会员每月25元，可同时在两台设备上观看。新用户可免费试用7天。"


@pytest.mark.parametrize("statement, evidence", [
    ("A second bag is free for students.", BAGS),
    ("Students get 50% off the Standard plan.", "The Standard plan costs $12 a month."),
    ("The museum is free of charge for seniors.", "Admission to the museum costs $10."),
    ("学生购买标准会员可享五折优惠。", PLANS),
    ("老年人乘坐地铁可以享受半价优惠。", "地铁票价为2元至8元。"),
])
def test_a_benefit_for_a_group_the_evidence_never_names_is_invented(statement, evidence):
    assert unnamed_group_benefit(statement, evidence)
    prepared = prepare([evidence])
    assert invented(statement, "", prepared.sentences, prepared.lowered, prepared.all_tokens)


@pytest.mark.parametrize("statement, evidence", [
    ("Kids under 12 get in for free.", "Admission is $12 for adults and free for children under 12."),  # its class
    ("Seniors ride free.", "Passengers aged 65 and over ride free."),  # an age bound names a group by age
    ("Members get free coffee.", "Members get unlimited free coffee and tea."),
    ("Students get in free.", "Admission is free for everyone."),  # a benefit for everyone covers the group
    ("Students do not get a discount.", "Tickets cost $25."),  # denied: polarity's business
    ("65岁以上的老人可免费乘车。", "65岁以上乘客可免费乘车。"),
    # the group is not the benefit's
    ("The business offers free WiFi, making it a popular spot for locals and tourists.", "WiFi: free"),
    ("Students must pay $25 for the course.", "The course costs $25."),  # no benefit
])
def test_a_benefit_whose_group_the_evidence_names_or_that_is_no_groups_benefit_is_not(statement, evidence):
    assert not unnamed_group_benefit(statement, evidence)
