"""A condition waived where the evidence grants the thing only without it (waived_conditions.py)."""

import pytest

from ragpipe.core.evidence.contradiction import contradiction
from ragpipe.core.evidence.waived_conditions import waived_condition
from ragpipe.core.text import split_statements


@pytest.mark.parametrize("statement, evidence", [
    ("Members can freeze their membership for free even if they have already used a guest pass.",
     "Memberships can be frozen for free, provided no guest pass has been used that month."),
    ("You get your deposit back even after the bike has been damaged.",
     "The deposit is returned in full as long as the bike has not been damaged."),
    ("即使已经使用过优惠券，7天内退货也能全额退款。", "7天内退货且未使用优惠券的，全额退款。"),
])
def test_a_condition_waived_that_the_evidence_requires_is_a_contradiction(statement, evidence):
    assert waived_condition(statement, [evidence]) is not None
    assert contradiction(statement, [evidence]) is not None  # polarity may read the evidence's "no" first


@pytest.mark.parametrize("statement, evidence", [
    # the same condition, or a waived condition the evidence does not set
    ("You can freeze your membership for free if no guest pass has been used.",
     "Memberships can be frozen for free, provided no guest pass has been used that month."),
    ("Even if it rains, the tour goes ahead.", "Tours run in all weather, provided no storm warning is issued."),
])
def test_no_waived_condition_where_the_conditions_differ_or_agree(statement, evidence):
    assert waived_condition(statement, [evidence]) is None


def test_a_chinese_concession_stays_with_the_clause_it_concedes_to():
    assert split_statements("即使已经使用过优惠券，7天内退货也能全额退款。") == ["即使已经使用过优惠券，7天内退货也能全额退款"]
