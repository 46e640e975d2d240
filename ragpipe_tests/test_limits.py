"""limits.bound_conflict: a floor against a ceiling, and what the evidence says past its bound."""

from ragpipe.core.evidence.limits import bound_conflict
from ragpipe.core.evidence.sentences import evidence_sentences

FEE = evidence_sentences("会员如果每月消费满300元，可免收当月服务费；否则收取服务费15元。")


def test_the_side_past_a_bound_that_the_evidence_states_after_otherwise_is_no_conflict():
    assert bound_conflict("会员当月消费不满300元要收15元服务费", FEE) is None
    assert bound_conflict("Orders under $50 pay a $5 delivery fee",
                          evidence_sentences("Orders of at least $50 ship free. Otherwise, the delivery fee is $5.")) is None


def test_the_opposite_bound_on_the_near_side_is_still_a_conflict():
    assert bound_conflict("消费不到300元的会员可免收服务费", FEE) is not None
    assert bound_conflict("会员每月消费不到300元可免收服务费", evidence_sentences("会员每月消费满300元可免收服务费。")) is not None
