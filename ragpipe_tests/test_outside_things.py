"""Things brought from outside: "bring X from elsewhere" / "outside X is not allowed" are one thing under two rules
(outside_things.py)."""

import pytest

from ragpipe.core.evidence.contradiction import borne_out, contradiction
from ragpipe.core.evidence.outside_things import outside_rule, outside_rule_conflict

KILN = ["Only clay bought from the studio may be fired in our kilns; outside clay is not allowed because unknown clay "
        "bodies can melt and damage the kiln shelves."]


@pytest.mark.parametrize("statement, evidence", [
    ("Yes, you may bring clay from elsewhere.", KILN),
    ("客人可以自己带啤酒进包厢。", ["为保障消费安全，包厢内禁止自带酒水，吧台提供各类饮品。"]),  # 酒水 is the kind of 啤酒
    ("You cannot bring your own cake.", ["Couples may bring their own wedding cake; a cake-cutting fee applies."]),
    ("可以自带酒水。", ["宴会厅禁止自带酒水。"]),
])
def test_a_thing_brought_from_outside_ruled_the_other_way_is_contradicted(statement, evidence):
    assert outside_rule_conflict(statement, evidence) is not None
    found = contradiction(statement, evidence)
    assert found is not None and found.kind == "modality"


@pytest.mark.parametrize("statement, evidence", [
    ("No, outside food is not allowed in the rooms.", ["Guests cannot bring their own food or drinks into the rooms."]),
    ("不能，包厢内不允许带外面的食物。", ["包厢内禁止自带食品和酒水，吧台提供小吃和饮品。"]),
])
def test_the_same_rule_in_other_words_is_borne_out(statement, evidence):
    assert outside_rule(statement, evidence)[0] is True
    assert borne_out(statement, "", evidence)


@pytest.mark.parametrize("statement, evidence", [
    ("You can bring your own towel.", ["Outside food is not allowed."]),            # another thing
    ("You can bring your own cake if you pay a fee.", ["Outside food is not allowed."]),  # a condition
    ("Outside food is allowed except on match days.", ["Outside food is not allowed."]),
    ("可以自带零食吗", ["包厢内禁止自带酒水。"]),                                            # another kind
])
def test_no_outside_rule_for_another_thing_or_a_conditional_rule(statement, evidence):
    assert outside_rule_conflict(statement, evidence) is None


def test_ones_own_thing_in_chinese_is_brought_from_outside():
    found = outside_rule_conflict("自己的冰鞋可以带进场使用。", ["为保护冰面，场内禁止使用外来冰鞋，须租用场馆冰鞋。"])
    assert found is not None and found[1:3] == ("permit", "forbid")
