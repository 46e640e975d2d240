"""A start or a last day in other words (evidence/event_dates.py, through contradiction.contradicted and borne_out):
the same day for the same kind of event is what the evidence says, another day a contradiction, though the two
sentences share no word ("deadline" / "submitted by", "截止日期" / "前提交")."""

import pytest

from ragpipe.core.evidence.contradiction import borne_out, contradicted
from ragpipe.core.evidence.event_dates import date_reading, event_dates

DEADLINE_EN = ["Applications must be submitted by 2025-03-15."]
DEADLINE_ZH = ["申请须在2025-03-15前提交。"]
START_EN = ["Classes begin on 2025-09-02 and run for twelve weeks."]
START_ZH = ["本课程2025/09/02开始上课，共十二周。"]


@pytest.mark.parametrize("statement, question, evidence, holds", [
    ("The deadline is 15 March 2025.", "When is the deadline?", DEADLINE_EN, True),
    ("The deadline is 15 May 2025.", "When is the deadline?", DEADLINE_EN, False),
    ("Entries are due by 1 August 2026.", "When are entries due?", ["The closing date for entries is 2026-08-01."], True),
    ("Entries are due by 1 September 2026.", "When are entries due?", ["The closing date for entries is 2026-08-01."], False),
    ("The classes start on 2 September 2025.", "When does the course start?", START_EN, True),
    ("The course starts on 2 October 2025.", "When does the course start?", START_EN, False),
    ("截止日期是2025年3月15日。", "截止日期是哪天？", DEADLINE_ZH, True),
    ("截止日期是2025年5月15日。", "截止日期是哪天？", DEADLINE_ZH, False),
    ("投稿截止到2026年8月1日。", "投稿截止时间？", ["投稿须在2026-08-01之前提交。"], True),
    ("课程于2025年10月2日开课。", "课程哪天开课？", START_ZH, False),
])
def test_a_start_or_a_deadline_worded_otherwise(statement, question, evidence, holds):
    found = contradicted(statement, question, evidence)
    assert (found is None and borne_out(statement, question, evidence)) == holds, found
    assert holds or found.kind == "date"


def test_the_event_s_kind_is_read_from_the_words_around_the_date():
    assert [k for k, _, _ in event_dates("Applications open on 1 March and close on 15 March.")] == ["first", "last"]
    assert event_dates("Payment is due no later than 2026-01-10.")[0][:2] == ("last", (2026, 1, 10))
    assert event_dates("报名自2026年3月1日起开始。")[0][0] == "first"
    # A denial after a day makes it the last one, before a day the first; another negated clause, or one that names
    # both kinds, gives no event date.
    assert event_dates("Late enrolment is not possible after 14 February 2026.")[0][:2] == ("last", (2026, 2, 14))
    assert event_dates("2026年3月1日之前不得报名。")[0][0] == "first"
    assert event_dates("The office is not open on 3 May.") == []
    assert event_dates("开学典礼于9月1日上午结束。") == []


def test_another_subject_another_kind_or_a_day_stated_elsewhere_decides_nothing():
    # Registration's deadline says nothing of the payment's, nor the course's start of the classes'; a start is no
    # deadline.
    assert date_reading("Payment is due by 1 February 2026.", "When is payment due?",
                        ["Registration closes on 2026-02-01."]) is None
    assert date_reading("The course starts on 2 September 2025.", "When does it start?", START_EN) is None
    assert date_reading("The course starts on 15 March 2025.", "When does the course start?", DEADLINE_EN) is None
    # The day is in the evidence, of something this reading cannot name: no contradiction.
    assert date_reading("The deadline is 1 April 2025.", "When is the deadline?",
                        ["Applications must be submitted by 2025-03-15.", "Results follow on 1 April 2025."]) is None
