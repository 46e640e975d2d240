"""A yes to a yes/no question claims the question's own thing: invented where the evidence never names it."""

import pytest

from ragpipe.core.evidence.asked_things import yes_no
from ragpipe.core.evidence.features import prepare
from ragpipe.core.evidence.invented import invented

LABEL = ["Adults should take one tablet every 8 hours, no more than three tablets a day.",
         "Common side effects include drowsiness and a dry mouth."]
ZH_LABEL = ["成人每次1片，每8小时1次，每日不超过3片。", "常见不良反应包括嗜睡和口干。"]
KAYAKS = ["A single kayak costs $20 an hour.", "Life jackets are included with every rental.",
          "The dock is open from May to September."]
ESCAPE = ["每场密室逃脱时长60分钟。", "每组2至6人，每人100元。"]


def fires(statement, evidence, question):
    prepared = prepare(evidence)
    return invented(statement, question, prepared.sentences, prepared.lowered, prepared.all_tokens)


@pytest.mark.parametrize("question, statement, evidence", [
    ("Does it cause headaches?", "Yes, headaches are a common side effect.", LABEL),
    ("会头痛吗？", "头痛是常见不良反应。", ZH_LABEL),           # the splitter has cut off "会，"
    ("Do you have wetsuits?", "Yes, wetsuits are included with every rental.", KAYAKS),
    ("密室逃脱提供饮料吗？", "每人送一瓶饮料。", ESCAPE),
    # Blind batch 24a (round twenty-three): half the reply's other words (馆内) are the evidence's, the rest new.
    ("馆里有空调吗？", "有，馆内全场都开空调。", ["本馆营业时间为每天早上8点到晚上10点。", "馆内设有淋浴间，供客人免费使用。"]),
    ("Do the rooms have air conditioning?", "Yes, all rooms have quiet air conditioning.",
     ["All rooms have a private bathroom.", "Breakfast is served from 7 a.m."]),
])
def test_an_affirmed_asked_thing_the_evidence_never_names_is_invented(question, statement, evidence):
    assert fires(statement, evidence, question)


@pytest.mark.parametrize("question, statement, evidence", [
    ("Does it cause drowsiness?", "Yes, drowsiness is a common side effect.", LABEL),       # named
    ("Does it cause headaches?", "No, headaches are not a side effect.", LABEL),            # denied
    ("会头痛吗？", "不会，头痛不是常见不良反应。", ZH_LABEL),
    ("Is breakfast included?", "Yes, breakfast is included in the rate.",                    # the thing is held
     ["The room rate covers a buffet breakfast."]),
    ("可以刷卡吗？", "支持刷卡支付。", ["本店支持银联卡和信用卡支付。"]),                  # 卡 heads both
    ("我在寿宴上可以祝爷爷长命百岁吗？", "因为爷爷已经100岁了。",                           # grounds, no reply
     ["百岁寿宴上祝福老人长命百岁是不太合适的，因为此时老人已经百岁高龄了。"]),
    ("What does it cause?", "Headaches are a common side effect.", LABEL),                  # no yes/no question
    ("Does the museum charge for entry?", "Entry to the museum is free of charge.",          # its museum is held
     ["Admission to the museum is free for all visitors."]),
    ("所有员工都有体检吗？", "所有员工每年都有一次免费体检。", ["公司为全体员工每年提供一次免费体检。"]),
    ("这个药孩子能吃吗？", "12岁以下的儿童不能服用这个药。", ["本品12岁以下儿童禁用。"]),  # 这个 points, names no thing
])
def test_a_named_denied_or_explained_thing_or_another_question_is_not(question, statement, evidence):
    assert not fires(statement, evidence, question)


def test_yes_no_questions():
    assert yes_no("Does it cause headaches?") and yes_no("会头痛吗？") and yes_no("会不会头痛？")
    assert not yes_no("What does it cause?") and not yes_no("会有什么副作用吗？")
