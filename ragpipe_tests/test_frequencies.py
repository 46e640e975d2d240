import pytest

from ragpipe.core.evidence.frequencies import frequencies, frequencies_as_written


@pytest.mark.parametrize("text, per_year", [
    ("Swap the battery once every year.", 1), ("Replace it annually.", 1), ("Get the oil changed twice a year.", 2),
    ("Every six months.", 2), ("Replace it every three months.", 4), ("Quarterly.", 4), ("Mow it every other week.", 26.07),
    ("Water it 3 times per week.", 156.43), ("一年一次。", 1), ("半年一次。", 2), ("每半年检查一次。", 2), ("三个月一次。", 4),
    ("每季度。", 4), ("每周两次。", 104.29), ("一周一次。", 52.14),
])
def test_a_rate_is_read_as_times_a_year(text, per_year):
    assert [f.per_year for f in frequencies(text)] == [per_year]


@pytest.mark.parametrize("text", ["每年3月开放。", "每30分钟一班。", "It takes six months.", "Open from 9 a.m."])
def test_a_date_an_interval_of_minutes_or_a_duration_is_no_rate(text):
    assert frequencies(text) == ()


def test_a_rate_is_written_as_the_evidence_writes_the_same_rate():
    assert frequencies_as_written("Swap the battery once every year.", "Replace it annually.") == "Swap the battery annually."
    assert frequencies_as_written("Get the oil changed twice a year.", "Every six months.") == \
        "Get the oil changed every six months."
    assert frequencies_as_written("每三个月换一次。", "每季度更换。") == "每季度换一次。"
    assert frequencies_as_written("每隔半年检修一次。", "一年两次。") == "一年两次检修一次。"
    # a rate written with the evidence's period ("every day" / "daily") and another rate stay as they are written
    assert frequencies_as_written("The pool is open every day.", "Open daily.") == "The pool is open every day."
    assert frequencies_as_written("Locals keep to their daily routines.", "The band plays each night.") == \
        "Locals keep to their daily routines."
    assert frequencies_as_written("Replace it every two months.", "Quarterly.") == "Replace it every two months."


@pytest.mark.parametrize("text, written", [
    ("The chess club meets every other Thursday.", "every other Thursday"), ("It meets on alternate Thursdays.", "alternate Thursdays"),
    ("Bins go out on alternate weeks.", "alternate weeks"), ("象棋社隔周六下午活动。", "隔周"), ("隔天换一次水。", "隔天"),
])
def test_every_other_period_or_weekday_is_half_its_rate(text, written):
    assert [(f.per_year, f.written) for f in frequencies(text)] in ([(26.07, written)], [(182.5, written)])


@pytest.mark.parametrize("text", ["It opens every Thursday.", "Students alternate between two rooms."])
def test_a_weekday_alone_or_alternating_things_are_no_every_other_rate(text):
    assert all(f.per_year != 26.07 for f in frequencies(text))


def test_every_two_weeks_is_written_as_the_evidences_every_other_week():
    assert frequencies_as_written("每两周活动一次。", "象棋社隔周六下午在活动室集中对弈。") == "隔周活动一次。"
    assert frequencies_as_written("The club meets every other Thursday.", "It meets on alternate Thursdays.") == \
        "The club meets alternate Thursdays."
