import pytest

from ragpipe.core.evidence.bare_hours import bare_hours_as_written


@pytest.mark.parametrize("statement, evidence, read", [
    ("It closes at 4.", "4 pm.", "It closes at 4 pm."),
    ("It closes at 5 o'clock.", "17:00", "It closes at 17:00."),
    ("The office closes at 5 on Fridays.", "The office closes at 5 p.m. on weekdays.", "The office closes at 5 p.m. on Fridays."),
    ("五点关门。", "下午5点。", "下午5点关门。"),
    ("5点关门。", "17:00", "17:00关门。"),
])
def test_a_bare_hour_is_read_as_the_evidence_s_afternoon_hour(statement, evidence, read):
    assert bare_hours_as_written(statement, evidence) == read


@pytest.mark.parametrize("statement, evidence", [
    ("It closes at 4.", "5 pm."),  # another hour
    ("It opens at 8.", "8 a.m."),  # the morning's hour is the bare one already
    ("晚上7点开始。", "19:00开始"),  # a part of the day of its own
    ("工作日早8点到晚6点。", "周一至周五早上8点到下午6点开诊。"),  # 晚 before the hour is one too
    ("它在5点关门", "早上5点和下午5点各一班"),  # both halves of the day: no telling which
    ("We have stores at 5 locations.", "Open until 5 p.m."),  # no time
])
def test_a_bare_hour_stays_where_the_evidence_does_not_tell_it(statement, evidence):
    assert bare_hours_as_written(statement, evidence) == statement
