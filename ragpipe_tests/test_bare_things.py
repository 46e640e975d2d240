"""A statement that only names a thing ("A packed lunch."): invented where the evidence names none of its words."""

import pytest

from ragpipe.core.evidence.bare_things import names_only_a_thing
from ragpipe.core.evidence.features import prepare
from ragpipe.core.evidence.invented import invented
from ragpipe.core.text import split_statements


def fires(statement, evidence, question):
    prepared = prepare(evidence)
    return invented(statement, question, prepared.sentences, prepared.lowered, prepared.all_tokens)


@pytest.mark.parametrize("statement", ["A packed lunch.", "an extra pair of socks", "一份午餐", "防晒霜。", "护照原件"])
def test_a_noun_phrase_names_only_a_thing(statement):
    assert names_only_a_thing(statement, "What should I bring?")


@pytest.mark.parametrize("statement, question", [
    ("A refund is possible.", "What is the refund policy?"), ("The museum can open late.", "What are the hours?"),
    ("它很便宜", "它有什么好处？"), ("营地每晚21:30熄灯", "营地有什么规定？"), ("而不是白嘉轩", "主角是哪个人物？"),
    ("成年人门票120元。", "门票多少钱？"), ("全部商品包邮。", "本店所有商品都包邮吗？"), ("A packed lunch.", "Is lunch provided?")])
def test_a_claim_with_a_predicate_or_a_value_or_no_what_question_is_more_than_a_thing(statement, question):
    assert not names_only_a_thing(statement, question)


@pytest.mark.parametrize("statement, evidence, question", [
    ("A packed lunch", ["Campers are split into groups of 10, each led by one counsellor."], "What should campers bring?"),
    ("An apron.", ["The pottery class meets on Thursdays at 6 p.m."], "What do I need for the pottery class?"),
    ("一份午餐和一个水壶。", ["夏令营每天上午八点开始。", "每组营员由一名辅导员带领。"], "营员需要带什么？"),
    ("护照原件。", ["签证中心周一至周五开放。"], "办理签证需要准备什么？"),
])
def test_a_thing_the_evidence_never_names_is_invented_however_short(statement, evidence, question):
    assert fires(statement, evidence, question)


@pytest.mark.parametrize("statement, evidence, question", [
    ("A packed lunch", ["Campers should bring a packed lunch every day."], "What should campers bring?"),
    ("一份午餐和一个水壶。", ["营员每天须自带午餐和水壶。"], "营员需要带什么？"),
    ("A water bottle.", ["Campers are split into groups of 10."], "Do campers need a water bottle?"),
])
def test_a_thing_the_evidence_or_the_question_names_is_not_invented(statement, evidence, question):
    assert not fires(statement, evidence, question)


@pytest.mark.parametrize("sentence", ["Residents and pets must stay out for four hours.",
                                      "Adults and children must wear helmets.", "Cats and dogs are welcome."])
def test_an_opening_plural_before_and_is_part_of_the_subject_not_a_statement(sentence):
    assert len(split_statements(sentence)) == 1


def test_an_opening_plural_before_and_a_phrase_with_no_verb_is_split_as_before():
    assert split_statements("Symbols and trivia of Rome") == ["Symbols", "trivia of Rome"]
