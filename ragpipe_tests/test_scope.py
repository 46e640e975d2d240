"""Claims wider than their evidence (ragpipe/core/evidence/scope.py), as the contradiction route reads them."""

import pytest

from ragpipe.core.evidence.contradiction import contradicted


@pytest.mark.parametrize("statement, question, evidence", [
    ("All employees receive a year-end bonus.", "Who receives a year-end bonus?",
     "Only full-time employees receive a year-end bonus."),
    ("所有员工都有年终奖。", "哪些员工有年终奖？", "只有全职员工享有年终奖。"),
    ("Every order ships free of charge.", "Which orders ship free?", "Orders ship free of charge only within the EU."),
    ("Students can always borrow laptops.", "Can students borrow laptops?", "Students can borrow laptops on weekends."),
    ("All tickets are refundable.", "Are tickets refundable?", "All tickets are refundable except promotional fares."),
    ("All patients recover within a week.", "How fast do patients recover?", "Most patients recover within a week."),
    ("所有门店都支持夜间配送。", "哪些门店支持夜间配送？", "部分门店支持夜间配送。"),
    ("每位会员都能使用贵宾室。", "谁能使用贵宾室？", "除普通会员外，会员均可使用贵宾室。"),
    ("超市每天都营业到晚上十点。", "超市营业到几点？", "超市仅周末营业到晚上十点。"),
    # The whole named in the clause too: its words with the statement's align where the rest alone is cut otherwise.
    ("全部课程都可以线上学习。", "哪些课程可以线上学习？", "除实验课以外，课程均可线上学习。"),
])
def test_a_universal_claim_against_evidence_that_limits_it(statement, question, evidence):
    found = contradicted(statement, question, [evidence])
    assert found is not None and found.kind == "scope"


@pytest.mark.parametrize("statement, question, evidence", [
    # The limited claim itself, and a universal the evidence also makes universally.
    ("Full-time employees receive a year-end bonus.", "Who receives a year-end bonus?",
     "Only full-time employees receive a year-end bonus."),
    ("只有全职员工有年终奖。", "哪些员工有年终奖？", "只有全职员工享有年终奖。"),
    ("All rooms have free Wi-Fi.", "Do rooms have Wi-Fi?", "All rooms at the inn have free Wi-Fi."),
    ("所有客房都提供免费早餐。", "客房含早餐吗？", "酒店所有客房均提供免费早餐。"),
    # The question carries the limit.
    ("Yes, all full-time employees get health insurance.", "Do full-time employees get health insurance?",
     "Health insurance is provided only to full-time employees."),
    # A share per head, "at most", the 除 of 扣除, and a part that is not the statement's whole.
    ("Each resident can bring up to two guests.", "How many guests can each resident bring?",
     "Residents may bring at most two guests each."),
    ("子女教育专项附加扣除标准为每个子女每月2000元。", "子女教育扣除标准是多少？",
     "自2023年1月1日起，子女教育专项附加扣除标准提高到每个子女每月2000元。"),
    ("The nervous and immune systems all work together to keep the body healthy.", "How do body systems work?",
     "Several systems in the human body work together to keep it healthy."),
])
def test_a_claim_no_wider_than_its_evidence(statement, question, evidence):
    found = contradicted(statement, question, [evidence])
    assert found is None or found.kind != "scope"
