"""A fee said to be none: the statement calls free what the evidence charges for, the same act under the same
condition (fees.py)."""

import pytest

from ragpipe.core.evidence.contradiction import contradiction
from ragpipe.core.evidence.fees import fee_conflict


@pytest.mark.parametrize("statement, evidence", [
    ("搬家前24小时内取消不收任何费用。", "搬家需至少提前3天预约；搬家前24小时内取消的，需支付100元违约金。"),
    ("婚期前60天内申请延期是免费的。", "婚宴如需延期，须在婚期60天前申请；60天内申请延期的，收取定金的30%作为手续费。"),
    ("Cancelling within 24 hours is free.", "Cancellations within 24 hours incur a $100 fee."),
    ("Extending the booking by an extra hour costs nothing.", "Extending a booking by one hour costs $20 per room."),
])
def test_an_act_called_free_that_the_evidence_charges_for_is_contradicted(statement, evidence):
    assert fee_conflict(statement, [evidence]) is not None
    found = contradiction(statement, [evidence])
    assert found is not None and found.kind == "antonym"


@pytest.mark.parametrize("statement, evidence", [
    ("Cancelling more than 24 hours ahead is free.", "Cancellations within 24 hours incur a $100 fee."),  # another bound
    ("Cancelling more than 24 hours ahead is free.",
     "Cancelling more than 24 hours ahead is free; within 24 hours a $100 fee applies."),  # the evidence says free
    ("儿童免费入园。", "儿童免费入园，成人门票50元。"),
    ("Parking is free for hotel guests.", "Parking costs $10 a day for visitors."),  # another group
    ("Booking ahead is free.", "Booking ahead is required; a late cancellation costs $100."),  # the fee is another act's
    ("搬家前24小时内取消需要支付违约金。", "搬家前24小时内取消的，需支付100元违约金。"),  # not called free
])
def test_no_fee_conflict_where_the_evidence_does_not_charge_for_that_act(statement, evidence):
    assert fee_conflict(statement, [evidence]) is None


def test_a_hyphenated_word_of_the_rule_holds_its_parts():
    found = fee_conflict("Cancelling on the same day is free of charge.",
                         ["Same-day cancellations are charged 50% of the service price."])
    assert found is not None and found[3].startswith("Same-day")


def test_a_fee_left_to_the_payer_is_a_charge():
    found = fee_conflict("养老院每年为老人免费体检一次。", ["养老院的体检每年一次，费用由入住老人自理。"])
    assert found is not None and found[0] == "antonym"
    assert fee_conflict("机场接送服务免费。", ["机场接送服务需自费。"]) is not None
    # 自理 of caring for oneself charges nothing.
    assert fee_conflict("生活能自理的老人免费体检一次。", ["生活能自理的老人每年体检一次。"]) is None
