"""answer_relevancy on a how-to question answered about the thing alone: no way given, the action asked not named."""

import pytest

from ragpipe.core.metrics import REGISTRY, Toolkit
from ragpipe.core.metrics.asked_actions import asked_action, takes_up_action
from ragpipe.core.schemas import EvalCase


@pytest.fixture(scope="module")
def kit(embedder):
    return Toolkit(embedder)


def relevancy(kit, question, answer):
    return REGISTRY["answer_relevancy"].score(EvalCase(question_id="q", question=question, answer=answer), kit)


@pytest.mark.parametrize("question, action", [
    ("How do I tie a bowline knot?", ["tie"]),
    ("What's the best way to prune a rose bush?", ["prune"]),
    ("How do I get a refund?", ["get", "refund"]),  # a light verb: its object names the action too
    ("怎么给多肉植物浇水？", ["浇水"]),  # after the preposition's object
    ("投影仪怎么连接手机？", ["连接"]),
    ("电动车怎么办理上牌？", ["办理", "上牌"]),
    ("发烧了该怎么办？", []),
])
def test_the_action_a_how_to_question_asks(question, action):
    assert asked_action(question) == action


@pytest.mark.parametrize("question, answer, taken_up", [
    ("How do I apply for the grant?", "Applications go through the city's portal.", True),
    ("How do I get a refund?", "Refunds are handled at the service desk.", True),
    ("怎么给绿萝施肥？", "绿萝每月施一次液体肥。", True),
    ("How do I clean a down jacket?", "With a mild detergent, by hand.", True),  # a means
    ("How do I tie a bowline knot?", "The bowline has been used by sailors for centuries.", False),
    ("投影仪怎么连接手机？", "本店投影仪支持七天无理由退货。", False),
])
def test_an_answer_takes_up_the_action_or_a_means(question, answer, taken_up):
    assert takes_up_action(question, answer) is taken_up


@pytest.mark.parametrize("question, about_the_thing, way", [
    ("How do I tie a bowline knot?", "The bowline knot has been used by sailors since at least the 17th century.",
     "Make a small loop, pass the end up through it, around the standing part and back down through the loop."),
    ("How do I tune a guitar?", "The guitar has six strings and a hollow wooden body.",
     "Turn each tuning peg until the string matches the note on a clip-on tuner."),
    ("怎么给多肉植物浇水？", "多肉植物原产于非洲和美洲的干旱地区。", "用尖嘴壶沿盆边浇水，浇透即可。"),
    ("投影仪怎么连接手机？", "本店投影仪支持七天无理由退货。", "打开手机的投屏功能，选择投影仪的名称即可。"),
    ("如何保养皮沙发？", "这款皮沙发采用头层牛皮，售价8999元。", "用皮革护理剂每月擦拭一次。"),
])
def test_a_how_to_answer_about_the_thing_alone_is_off_topic(kit, question, about_the_thing, way):
    """An answer that shares the question's subject but neither instructs, names the action nor a means, and is off
    the question for e5, speaks of another attribute of the thing; the way itself stays direct."""
    off, direct = relevancy(kit, question, about_the_thing), relevancy(kit, question, way)
    assert off.value <= 0.3 and direct.value >= 0.7, (off.value, off.details, direct.value, direct.details)


@pytest.mark.parametrize("question, answer", [
    ("How can I keep cut flowers fresh longer?", "Cut flowers last longer in cool water with a little sugar."),
    ("怎么去机场？", "机场大巴每半小时一班，从火车站发车。"),  # a route: a transport named is a way
    ("How do I clean a down jacket?", "With a mild detergent, by hand."),
])
def test_a_how_to_answer_that_gives_a_way_in_other_words_stays_direct(kit, question, answer):
    assert relevancy(kit, question, answer).value >= 0.7
