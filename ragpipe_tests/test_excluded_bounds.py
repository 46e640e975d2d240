"""A ceiling on those a rule turns away, read as the floor the evidence sets (excluded_bounds), and the Chinese
bound words 年满 / 未满 it rests on (facts.BOUND_BEFORE)."""

import pytest

from ragpipe.core.evidence.excluded_bounds import as_evidence_floor
from ragpipe.core.evidence.facts import bounds
from ragpipe.core.evidence.limits import bound_conflict


@pytest.mark.parametrize("statement, evidence, read", [
    ("未满18岁的人不能跳伞。", "跳伞者须年满18周岁。", "年满18岁的人才能跳伞。"),
    ("不满18岁的人不能献血。", "献血者年龄须在18周岁以上。", "18周岁以上的人才能献血。"),
    ("Nobody younger than 18 can skydive.", "Skydivers must be 18 or older.", "Only those 18 or older can skydive."),
    ("No one under 14 may ride the zipline.", "Zipline riders must be at least 14 years old.",
     "Only those at least 14 may ride the zipline."),
    ("Children under 3 should not use this toothpaste.", "Only children aged 3 and over may use it.",
     "Only children 3 and over can use this toothpaste."),
])
def test_a_denied_ceiling_is_read_as_the_evidence_floor(statement, evidence, read):
    assert as_evidence_floor(statement, evidence) == read


@pytest.mark.parametrize("statement, evidence", [
    ("未满16岁的人不能跳伞。", "跳伞者须年满18周岁。"),       # another value: for the contradiction readers
    ("未满18岁的人可以跳伞。", "跳伞者须年满18周岁。"),       # not denied: a ceiling against the floor
    ("Children under 12 ride free.", "Riders must be 12 or older."),
    ("未满18岁的人不能跳伞。", "未满18周岁者不得跳伞。"),     # the evidence sets no floor
])
def test_the_statement_stays_as_written_elsewhere(statement, evidence):
    assert as_evidence_floor(statement, evidence) == statement


def test_nian_man_is_a_floor_and_wei_man_a_ceiling_only_before_a_value():
    assert bounds("跳伞者须年满18周岁。") == {18.0: {"floor"}}
    assert bounds("满12周岁的儿童可以独自乘机") == {12.0: {"floor"}}
    assert bounds("未满18岁的人不能跳伞。") == {18.0: {"ceiling"}}
    assert bounds("身高不到1.4米的游客不能玩蹦极") == {1.4: {"ceiling"}}
    assert bounds("充满电后约可使用30天") == {}  # 充满 is no bound


def test_a_sentence_that_sets_both_a_floor_and_a_ceiling_on_a_value_opposes_neither():
    assert bound_conflict("年满12岁的孩子可以单独入园。", ["年满12周岁的儿童可单独入园，未满12周岁须由成人陪同。"]) is None
    assert bound_conflict("未满12岁的孩子可以单独入园。", ["年满12周岁的儿童可单独入园。"]) is not None
