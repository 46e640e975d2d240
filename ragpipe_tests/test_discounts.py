"""A priced Chinese discount written as the evidence writes the same one (discounts.as_evidence_discount)."""

import pytest

from ragpipe.core.evidence.discounts import as_evidence_discount


@pytest.mark.parametrize("statement, evidence, written", [
    # Blind batch 23b (round twenty-two): 9折 and 九折 share no word, and scored 0.12 apart.
    ("会员装裱可享9折。", "会员在店内装裱可享九折。", "会员装裱可享九折。"),
    ("学生票打8折。", "学生凭学生证购票可享八折。", "学生票打八折。"),
    ("老客户续费可享85折。", "老客户续费享受八五折优惠。", "老客户续费可享八五折。"),
    ("猫粮买第二袋可以打五折。", "本店猫粮第二袋半价。", "猫粮买第二袋可以半价。"),
])
def test_one_discount_in_the_evidences_spelling(statement, evidence, written):
    assert as_evidence_discount(statement, evidence) == written


def test_another_discount_stays_as_written():
    assert as_evidence_discount("老客户续费可享7折。", "老客户续费享受八五折优惠。") == "老客户续费可享7折。"
    assert as_evidence_discount("会员可享9折。", "营业时间：每天上午9点至下午6点。") == "会员可享9折。"


def test_a_discount_spelled_alike_keeps_its_da():
    assert as_evidence_discount("会员每周二打九折。", "会员每周二可享受九折优惠。") == "会员每周二打九折。"
