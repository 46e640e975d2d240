"""An age limit said in other words is read as the evidence writes it (bound_words.py, in the verifier)."""

import pytest

from ragpipe.core.evidence.bound_words import as_evidence_bounds
from ragpipe.core.evidence.facts import bound_spans, bounds


@pytest.mark.parametrize("statement, evidence, read", [
    ("Anyone 18 or older can join the club.", "Membership is open to people aged 18 and over.",
     "Anyone 18 and over can join the club."),
    ("Anyone who is at least 10 years old can join.", "The class is open to anyone aged 10 or older.",
     "Anyone who is 10 or older can join."),
    ("No, children younger than 4 are not allowed on the ride.", "Children under 4 may not ride the carousel.",
     "No, children under 4 are not allowed on the ride."),
    ("8岁以上的人都可以参加射箭体验课。", "射箭体验课面向8岁及以上的青少年和成人。", "8岁及以上的人都可以参加射箭体验课。"),
])
def test_an_age_limit_is_read_as_the_evidence_writes_it(statement, evidence, read):
    assert as_evidence_bounds(statement, evidence) == read


@pytest.mark.parametrize("statement, evidence", [
    ("Anyone 16 or older can join.", "The club is open to anyone aged 18 and over."),   # another age
    ("Children under 12 ride free.", "Children aged 12 and over pay full fare."),      # another kind of bound
    ("一天最多3片", "成人每日不超过3片。"),                                              # a dose, no age
    ("这张卡一天最多能取两万元现金。", "本卡每日取现上限为2万元。"),                         # words between bound and value
])
def test_the_statement_is_left_as_it_is_elsewhere(statement, evidence):
    assert as_evidence_bounds(statement, evidence) == statement


def test_bound_spans_say_where_each_bound_stands_and_bounds_reads_them():
    text = "Anyone aged 18 or older; at most 3 guests."
    assert [(v, k, text[a:b].strip()) for v, k, a, b in bound_spans(text)] == [(18.0, "floor", "18 or older"),
                                                                               (3.0, "ceiling", "at most 3")]
    assert bounds(text) == {18.0: {"floor"}, 3.0: {"ceiling"}}


def test_a_question_asking_an_age_makes_a_bare_bound_one_on_an_age():
    reply = "To join the course you have to be at least 18."
    assert as_evidence_bounds(reply, "You must be 18 or older.", "How old do you have to be for the course?") == (
        "To join the course you have to be 18 or older.")
    assert as_evidence_bounds(reply, "You must be 18 or older.") == reply  # no age word, no question: may be a count
