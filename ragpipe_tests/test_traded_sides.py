"""traded_sides: sides of a relation traded where roles.py's readers lose them (round twenty-one, i62-zhfaith)."""

import pytest

from ragpipe.core.evidence.contradiction import contradiction
from ragpipe.core.evidence.traded_sides import traded_sides


@pytest.mark.parametrize("statement, sentence", [
    # jieba reads 学生会 ("student union") and 会为 across the sides.
    ("每位学生会为老师的演奏录音", "每节课结束时，老师会为每位学生的演奏录音，并把录音发给家长。"),
    # A verb between the side and 给.
    ("学徒负责给师傅打分", "每季度由师傅给学徒打分，成绩计入考核。"),
    # A modal and a time between the side and the preposition in the evidence.
    ("客人需要提前一天给酒店打电话确认", "酒店会在入住前一天给客人打电话确认。"),
    ("球迷向裁判公开道歉", "赛后，裁判向球迷公开道歉。"),
    ("店员会帮顾客包装礼物", "顾客可以帮店员包装礼物。"),
    # A quantifier on the evidence's side ("各队", "所有").
    ("队员给裁判记分", "每局结束后，由裁判给各队队员记分。"),
    ("病人给护士量体温", "每天早上护士会给所有病人量体温。"),
])
def test_chinese_sides_of_a_preposition_traded_are_read_by_characters(statement, sentence):
    found = traded_sides(statement, [sentence])
    assert found and found[2] == sentence
    assert contradiction(statement, [sentence]).kind == "roles"


@pytest.mark.parametrize("statement, sentence", [
    ("The apprentices grade their masters every quarter.",
     "Every quarter the masters grade their apprentices, and the grades count toward certification."),
    ("Every spring the lifeguards train the instructors.", "The instructors train the lifeguards every spring at the main pool."),
    ("Once a week the tenants inspect the landlord.", "The landlord inspects the tenants once a week."),
])
def test_english_sides_traded_around_a_time_phrase_that_moved(statement, sentence):
    assert traded_sides(statement, [sentence])
    assert contradiction(statement, [sentence]).kind == "roles"


@pytest.mark.parametrize("statement, sentence", [
    ("导师要为学生写推荐信", "申请时，导师需为学生写两封推荐信。"),  # the same sides
    ("导游为游客讲解", "导游会为每位游客讲解。"),
    ("护士每天替病人测量血压", "病人每天早上由护士替他测量血压。"),
    ("租客每月向房东交物业费", "物业费由房东每月向租客收取。"),  # a converse verb, not the same act
    ("这种药对儿童有效", "儿童对这种药过敏。"),
    ("老师给学生打分", "老师给学生打分，学生也给老师打分。"),  # both ways
    ("Every spring the instructors train the lifeguards.", "The instructors train the lifeguards every spring."),
])
def test_sides_kept_or_another_act_are_no_trade(statement, sentence):
    assert traded_sides(statement, [sentence]) is None
