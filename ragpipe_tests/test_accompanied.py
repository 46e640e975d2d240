"""Alone where the evidence requires company (accompanied.py)."""

import pytest

from ragpipe.core.evidence.accompanied import accompaniment_conflict
from ragpipe.core.evidence.contradiction import contradiction


@pytest.mark.parametrize("statement, evidence", [
    ("Golfers under 18 can play the course without an adult.",
     "Golfers under 18 must be accompanied by an adult on the course at all times."),
    ("18岁以下的顾客可以单独进场滑冰。", "18岁以下的顾客须由成人陪同方可入场。"),
    ("Children can use the pool alone.", "Children must be accompanied by an adult in the pool."),
    # the company as the condition of a refusal (the condition used to make the clause unread)
    ("Teenagers under 16 can book a climbing session on their own.",
     "Sessions are not booked for anyone under 16 unless a parent signs the waiver and stays."),
    ("未满16岁的学员可以独自报名攀岩课。", "未满16岁的学员除非有家长全程在场不予报名攀岩课。"),
    ("10岁以下儿童可以自己进馆参观。", "10岁以下儿童须由成人陪同进馆。"),  # 自己 before a verb of going is alone
    # whoever supervises the activity keeps company too, and "only when … is present" requires them
    ("Yes, junior members can row without a coach.",
     "Junior members may only go on the water when a coach is present."),
    ("Children can swim without a lifeguard.", "Children may swim only when a lifeguard is on duty."),
    ("青少年会员可以在没有教练在场的情况下下水训练。", "青少年会员只有在教练在场时才能下水。"),
    ("青少年会员可以独自下水。", "青少年会员须在教练陪同下才能下水。"),
])
def test_a_group_let_alone_where_the_evidence_requires_company_is_contradicted(statement, evidence):
    assert accompaniment_conflict(statement, [evidence]) is not None
    assert contradiction(statement, [evidence]) is not None  # polarity may read "without" first


@pytest.mark.parametrize("statement, evidence", [
    ("Children over 12 can swim alone.", "Children under 12 must be accompanied by an adult in the pool."),  # another bound
    ("Children over 12 can swim alone.",
     "Children under 12 must be accompanied by an adult; those over 12 may swim alone."),
    ("Children under 12 must be accompanied.", "Children under 12 must be accompanied by an adult in the pool."),
    ("Adults can swim alone.", "Children must be accompanied by an adult in the pool."),  # another group
    ("Children can swim alone if they pass a swim test.", "Children must be accompanied by an adult in the pool."),
    ("Junior members can row with a coach.", "Junior members may only go on the water when a coach is present."),
    ("青少年会员在教练陪同下可以下水。", "青少年会员须在教练陪同下才能下水。"),
])
def test_no_conflict_for_another_group_or_the_same_requirement(statement, evidence):
    assert accompaniment_conflict(statement, [evidence]) is None
