"""A negation worded apart from the statement it opposes: the statement's verb read as the evidence's
interchangeable one (reworded_denials.py, synonyms.reworded_as), what a plan pays for read as what it holds in
(stances.INCLUSION), and a list before a head noun naming each item with it (polarity._halves)."""

import pytest

from ragpipe.core.evidence.contradiction import contradiction
from ragpipe.core.synonyms import reworded_as


@pytest.mark.parametrize("statement, evidence", [
    ("绝育手术可以报销。", ["绝育、洁牙等预防性或选择性手术不在赔付范围内。"]),
    ("牙齿美白可以用医保报销。", ["牙齿美白、正畸等美容类项目不属于医保支付范围。"]),
    ("茶馆允许顾客自带茶叶。", ["本馆不接受客人自带茶叶，敬请谅解。"]),
    ("Studio bookings can be refunded in full.", ["All studio bookings are final and non-refundable."]),
    ("Parking is included in the coworking membership.", ["The membership does not extend to parking, which is billed separately."]),
    # a rule on a kind holds for each thing of it (one way: a dog is a pet)
    ("可以带狗进店。", ["店内禁止携带宠物。"]),
])
def test_a_negation_worded_apart_from_its_statement_contradicts_it(statement, evidence):
    found = contradiction(statement, evidence)
    assert found is not None and found.kind in ("negation", "modality")


@pytest.mark.parametrize("statement, evidence", [
    ("洁牙不能报销。", ["洁牙、美白等项目不在医保报销范围内。"]),
    ("绝育手术可以报销。", ["绝育、洁牙等手术均在赔付范围内。"]),
    ("住院伙食费可以报销。", ["住院伙食费可以按标准赔付。"]),
    ("茶馆不允许顾客自带茶叶。", ["本馆不接受客人自带茶叶，敬请谅解。"]),
    ("Studio bookings are non-refundable.", ["All studio bookings are final and cannot be refunded."]),
    ("Physiotherapy is reimbursed under the plan.", ["The plan covers physiotherapy up to ten sessions a year."]),
])
def test_the_same_rule_in_other_words_is_no_conflict(statement, evidence):
    assert contradiction(statement, evidence) is None


def test_a_word_the_evidence_lacks_is_written_as_its_word_of_the_class():
    assert reworded_as("学生买票不打折。", "学生凭学生证购票可享半价。") == "学生购票不打折。"
    assert reworded_as("穿鞋也能进场。", "蹦床区禁止穿鞋进入。") == "穿鞋也能进入。"
    assert reworded_as("购票需排队。", "购票请到窗口。") == "购票需排队。"  # the evidence has the word itself


def test_an_opposite_modal_word_in_the_clause_the_rewording_aligns_contradicts():
    found = contradiction("储物柜可以过夜存放个人物品。", ["储物柜仅限当日使用，闭馆后不得留存物品，否则统一清理。"])
    assert found is not None and (found.kind, found.stated) == ("antonym", "可以")


def test_the_same_prohibition_in_the_evidence_words_is_no_conflict():
    assert contradiction("储物柜不能过夜存放个人物品。", ["储物柜仅限当日使用，闭馆后不得留存物品，否则统一清理。"]) is None


def test_a_providers_refusal_forbids_what_the_statement_permits():
    found = contradiction("预订录音棚后可以全额退款。", ["录音棚一经预订，费用概不退还。"])
    assert found is not None and (found.kind, found.evidence) == ("modality", "概不")


def test_a_rewording_that_aligns_only_the_subject_clause_is_no_denial():
    assert contradiction("录音棚预订后不能退款。", ["录音棚一经预订，费用概不退还。"]) is None


def test_a_replys_can_too_permits_what_the_evidence_forbids():
    found = contradiction("穿鞋也能进场。", ["蹦床区禁止穿鞋进入，须穿防滑袜。"])
    assert found is not None and (found.kind, found.stated) == ("modality", "也能")


def test_a_replys_can_too_that_the_evidence_allows_is_no_conflict():
    assert contradiction("老人和小孩都能参加。", ["活动不限年龄，老人和小孩均可参加。"]) is None
