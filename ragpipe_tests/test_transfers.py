"""transfers: the giver and receiver of a Chinese hand-over swapped across 给 / 向 (round twenty-three, i64-contrazh)."""

import pytest

from ragpipe.core.evidence.contradiction import contradiction
from ragpipe.core.evidence.transfers import swapped_transfer


@pytest.mark.parametrize("statement, sentence", [
    # The verb before 给 in both, the giver after 由 in the evidence.
    ("顾客需要按发票价格赔给本店", "送修手表在维修期间如有遗失，由本店按购买发票价格赔偿给顾客。"),
    ("本店会按修复费用赔偿给租客", "戏服如有破损，由租客按修复费用照价赔偿给本店。"),
    # 给 in the statement, 向 before a verb of giving in the evidence.
    ("鱼塘按每斤15元付给钓友", "钓到的鱼超过5斤的部分，由钓友按每斤15元向鱼塘付费。"),
    ("乙方应向甲方支付违约金", "如乙方逾期交房，甲方应向乙方支付违约金。"),
    ("押金由租客退给房东", "租客搬走时，押金由房东在七日内退还给租客。"),
    # 向 before a verb of taking names the giver.
    ("驾校需向学员缴纳考试费", "考试费由驾校向学员收取。"),
    ("钓友按每斤15元向鱼塘收费", "钓到的鱼超过5斤的部分，由钓友按每斤15元付给鱼塘。"),
])
def test_a_hand_over_with_its_parties_swapped_is_contradicted(statement, sentence):
    found = swapped_transfer(statement, [sentence])
    assert found and found[2] == sentence
    assert contradiction(statement, [sentence]).kind == "roles"


@pytest.mark.parametrize("statement, sentence", [
    ("本店会按发票价赔给顾客", "送修手表在维修期间如有遗失，由本店按购买发票价格赔偿给顾客。"),  # the same parties
    ("钓友按每斤15元付给鱼塘", "钓到的鱼超过5斤的部分，由钓友按每斤15元向鱼塘付费。"),
    ("学员需向驾校缴纳考试费", "考试费由驾校向学员收取。"),  # taking and giving, one direction
    ("本馆向读者提供免费借阅服务", "读者可以向本馆申请免费借阅服务。"),  # 向 before 申请: whom one asks
    ("本店退给顾客押金", "顾客付给本店押金，本店退给顾客余款。"),  # the evidence has both hand-overs
])
def test_a_hand_over_in_its_own_direction_is_no_swap(statement, sentence):
    assert swapped_transfer(statement, [sentence]) is None
