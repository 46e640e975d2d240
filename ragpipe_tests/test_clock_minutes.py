"""A clock time's minutes are part of the time: no interval or amount may borrow them (clock_minutes.py)."""

import pytest

from ragpipe.core.evidence.agreement import agreement
from ragpipe.core.evidence.clock_minutes import clock_minutes, hours_stated_otherwise, other_time_of_day, without_clock_minutes
from ragpipe.core.evidence.quantities import quantities
from ragpipe.core.clocks import spelled_clocks
from ragpipe.core.text import numbers


@pytest.mark.parametrize("text, without, minutes", [
    ("首班车5点30分发车，每15分钟一班", "首班车5点发车,每15分钟一班", [30]),
    ("The first train leaves at 5:30 a.m., then every 15 minutes.", "The first train leaves at 5 a.m., then every 15 minutes.", [30]),
    ("五点三十分出发，20点45闭馆", "五点出发,20点闭馆", [30, 45]),
    ("Opens at 6.30am, closes at 4.45 p.m.", "Opens at 6am, closes at 4 p.m.", [30, 45]),  # a dot before am/pm parts minutes
    # an interval, a ratio, a decimal in Chinese numerals and 点半 keep their numbers
    ("每30分钟一班", "每30分钟一班", []), ("16:9屏幕", "16:9屏幕", []), ("三点五倍", "三点五倍", []), ("8点半", "8点半", []),
])
def test_a_clock_times_minutes_are_read_apart(text, without, minutes):
    assert without_clock_minutes(text) == without and clock_minutes(text) == minutes


@pytest.mark.parametrize("question, answer, reference", [
    ("How often do buses run?", "Buses run every 30 minutes.", "The first bus leaves at 5:30 a.m. and buses run every 15 minutes."),
    ("缆车多久一班？", "缆车每10分钟一班。", "缆车8点10分首班，之后每20分钟一班。"),
])
def test_an_interval_is_no_clock_times_minutes(question, answer, reference):
    assert agreement(answer, reference, question).conflicts


@pytest.mark.parametrize("answer, reference", [
    ("The first bus leaves at 5:30 a.m.", "The first bus leaves at 5:30 a.m. and buses run every 15 minutes."),
    ("首班车5:30发车。", "首班车5点30分发车。"),
])
def test_the_same_clock_time_is_stated(answer, reference):
    found = agreement(answer, reference)
    assert not found.conflicts and "#:30" in found.matched


@pytest.mark.parametrize("statement, evidence, numbers, otherwise", [
    ({20 * 60}, {20 * 60 + 40}, set(), {20}),                 # 晚上8点 / 晚上8点40分: another time
    ({8 * 60}, {8 * 60 + 30, 21 * 60}, {21}, {8}),            # 8 a.m. / 8:30 a.m. to 9 p.m.
    ({8 * 60}, {20 * 60}, {20}, set()),                       # 8点 / 晚上8点: the hour as a reader takes it
    ({8 * 60}, {8 * 60, 8 * 60 + 30}, {8}, set()),            # the evidence also has 8:00
    ({8 * 60 + 30}, {8 * 60 + 40}, set(), set()),             # minutes are numbers the statement states itself
    ({9 * 60}, {8 * 60 + 30}, set(), set()),                  # another hour: the hour's own number is missing
    ({22 * 60}, {22 * 60 + 30}, {16, 22}, set()),             # 22:00 / "16:0-22:0 … 22:30": on the hour, unread as a clock
])
def test_an_hour_on_the_hour_is_not_the_evidences_hour_and_minutes(statement, evidence, numbers, otherwise):
    assert hours_stated_otherwise(statement, evidence, numbers) == otherwise


def test_seconds_are_no_minutes():
    assert clock_minutes("2022-01-04 19:36:12") == []


@pytest.mark.parametrize("text, clock, values", [
    ("The laundromat opens at 6.30am.", 6 * 60 + 30, {6, 30}),  # not 6.3, nor a "30am" read as 6
    ("Last entry 4.30 p.m.", 16 * 60 + 30, {16, 30}),
    ("营业至晚上12点", 0, {12}),                                  # midnight; the number stays as written
    ("营业到午夜", 0, set()),
    ("夜里十二点关门", 0, {12}),
    ("中午12点开门", 12 * 60, {12}),
    ("半夜3点出发", 3 * 60, {3}),                                 # no afternoon hour
])
def test_a_clock_time_written_with_a_dot_or_at_midnight_is_read(text, clock, values):
    assert [q.amount for q in quantities(text) if q.dimension == "clock"] == [clock]
    assert numbers(text) == values


@pytest.mark.parametrize("answer, reference, question, expected", [
    ("The pharmacy opens at 9:45 a.m.", "9:30 a.m.", "When does the pharmacy open?", "time 9:45 for 9:30"),
    ("上午8点45分开始。", "上午8点半", "考试几点开始？", "time 8:45 for 8:30"),
    ("It closes at 5 p.m.", "5:30 p.m.", "", "time 5:00 for 5:30"),
])
def test_another_time_of_day_is_a_conflict(answer, reference, question, expected):
    assert other_time_of_day(answer, reference, question) == expected
    assert expected in agreement(answer, reference, question).conflicts


@pytest.mark.parametrize("answer, reference, question", [
    ("It closes at 17:30.", "5:30 p.m.", ""),                       # one time in two formats
    ("16:00开始。", "下午4点", ""),
    ("Saturday drop-offs end at noon.", "Drop-offs end at 12 p.m.", ""),
    ("营业到午夜。", "营业至晚上12点", ""),
    ("It opens at 9 a.m.", "It opens at 9 a.m. and closes at 5 p.m.", ""),  # one of the reference's times
    ("It closes at 6 p.m.", "6 p.m.", "Does it close at 10 a.m. or 6 p.m.?"),
    ("It takes about 30 minutes.", "Half an hour.", ""),            # no time of day
])
def test_the_same_time_of_day_is_no_conflict(answer, reference, question):
    assert other_time_of_day(answer, reference, question) is None


@pytest.mark.parametrize("text, clock, values", [
    ("The gym opens at half past six.", 6 * 60 + 30, {6, 30}),
    ("It closes at a quarter to ten.", 9 * 60 + 45, {9, 45}),
    ("Doors open at a quarter past 7 in the evening.", 19 * 60 + 15, {19, 15}),
    ("It closes at 10 o'clock at night.", 22 * 60, {22}),                # not the bare 10
    ("Lunch starts at 12 noon.", 12 * 60, set()),                        # noon, no second number
    ("健身房早上六点一刻开门", 6 * 60 + 15, {6, 15}),
    ("晚上九点三刻关门", 21 * 60 + 45, {21, 45}),
    ("首班车5点30发车", 5 * 60 + 30, {5, 30}),                           # minutes without 分
])
def test_a_clock_time_in_words_is_read_as_its_digits(text, clock, values):
    assert [q.amount for q in quantities(text) if q.dimension == "clock"] == [clock]
    assert numbers(text) == values


@pytest.mark.parametrize("text", ["It takes a quarter of an hour.", "一刻钟就到", "half the staff went past 5", "the ratio is 2 to 1",
                                  "三三点一刻"])  # numerals that make no hour (this raised ValueError)
def test_no_clock_time_is_made_of_other_words(text):
    assert spelled_clocks(text) == text


def test_a_spelled_clock_keeps_the_places_of_what_follows():
    text = "Opens at half past six, closes at 9 pm."
    assert len(spelled_clocks(text)) == len(text) and spelled_clocks(text).endswith("closes at 9 pm.")


def test_a_clock_time_in_words_takes_its_whole_place():
    from ragpipe.core.evidence.counts import in_evidence_terms
    text = "Drop-off at a quarter to eight in the morning."
    assert [text[q.start:q.end] for q in quantities(text) if q.dimension == "clock"] == ["a quarter to eight in the morning"]
    assert in_evidence_terms("It opens at a quarter past nine.", "The rink opens at 9.15am on Saturdays.") == "It opens at 9.15am."
