"""Counts and their periods (counts.py), as count_conflict reads them."""

import pytest

from ragpipe.core.evidence.contradiction import count_conflict
from ragpipe.core.evidence.counts import counts


def test_a_counts_own_one_is_no_period():
    # 可续借一次 counts renewals; its 一次 is no "per time" (每次一片 is).
    assert [c.period for c in counts("可续借一次。")] == [""]
    assert [(c.written, c.period) for c in counts("每天两次，每次一片")] == [("两次", "day"), ("一片", "time")]


@pytest.mark.parametrize("statement, evidence", [
    # Blind batch 23a (round twenty-two): "续借两次" against "可续借一次" beside "每次最多可借2件".
    ("借期5天，可以续借两次。", ["持本馆借书证的居民每次最多可借2件工具，借期5天，可续借一次。"]),
    ("每月可以免费洗车一次。", ["金卡会员每月可免费洗车两次，银卡会员不享受。"]),
    ("每次限带两位家属，可以免费改签两次。", ["每次限带两位家属，机票可免费改签一次。"]),
])
def test_another_count_of_times(statement, evidence):
    assert count_conflict(statement, evidence)[0] == "number"


def test_the_same_count_of_times_is_no_conflict():
    assert count_conflict("借期5天，可以续借一次。", ["持本馆借书证的居民每次最多可借2件工具，借期5天，可续借一次。"]) is None
