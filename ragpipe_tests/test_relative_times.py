"""relative_times.before_after_conflict: the same span of time on the other side of the same event contradicts;
another event, another span, the span on both sides, or a bare before / after does not."""

import pytest

from ragpipe.core.evidence.contradiction import contradiction
from ragpipe.core.evidence.relative_times import before_after_conflict


@pytest.mark.parametrize("statement, evidence", [
    ("Refunds are available until 7 days after the course starts.",
     "Refunds are available up to 7 days before the course starts; after that, fees are non-refundable."),
    ("Tomato seeds should be sown indoors about six weeks after the last spring frost.",
     "Sow tomato seeds indoors about six weeks before the last spring frost, then harden the seedlings off outdoors."),
    ("The membership fee is due 14 days prior to the season opening.", "The membership fee is due 14 days after the season opening."),
    ("古琴培训班在开课后5天截止报名。", "古琴培训班报名在开课前5天截止，逾期不再受理。"),
    ("考试开始前30分钟禁止考生进入考场。", "考试开始后30分钟禁止考生进入考场，考生交卷离场不得早于考试结束前30分钟。"),
    ("窑炉预约在烧制日后7天开放。", "窑炉预约在烧制日前7天开放，名额有限，先到先得。"),
    ("航班起飞30分钟前停止办理登机手续。", "航班起飞后30分钟停止办理登机手续。"),
])
def test_the_same_span_on_the_other_side_of_the_same_event_contradicts(statement, evidence):
    found = before_after_conflict(statement, [evidence])
    assert found is not None and found[0] == "antonym" and found[3] == evidence
    assert contradiction(statement, [evidence]) is not None


@pytest.mark.parametrize("statement, evidence", [
    # the same side in other words, or the span on both sides of the event
    ("Sow them indoors roughly six weeks before the last spring frost.",
     "Sow tomato seeds indoors about six weeks before the last spring frost."),
    ("考试开始30分钟后，考生不得再进入考场。", "考试开始后30分钟禁止考生进入考场，考生交卷离场不得早于考试结束前30分钟。"),
    ("Tickets can be exchanged 2 days after the show.", "Tickets can be exchanged from 2 days before to 2 days after the show."),
    # another event, another span, or a before / after with no span (the tea of a RAGTruth answer)
    ("考试结束后30分钟公布答案。", "考试开始前30分钟禁止考生进入考场。"),
    ("Refunds are available until 5 days after the course starts.", "Refunds are available up to 7 days before the course starts."),
    ("After steeping the tea for five minutes, cool it slightly.", "Steep the tea for five minutes and cool slightly before drinking."),
    # the same span of the same event, but another thing said of it
    ("Arrive 15 minutes before the class starts.", "Doors close 15 minutes after the class starts."),
    # 提前 and 最后 hold no side of an event; a negation on one side only may say the same
    ("需提前3天预约。", "预约须在活动后3天内确认。"),
    ("Refunds are not available 7 days after the course starts.", "Refunds are available up to 7 days before the course starts."),
])
def test_no_conflict_without_the_same_span_of_the_same_event_on_the_other_side(statement, evidence):
    assert before_after_conflict(statement, [evidence]) is None


def test_two_words_of_one_stance_are_one_polarity_on_either_side_of_an_event():
    # 应避免 says no "not", 不宜 does; both forbid drinking, four hours on either side of the donation.
    found = before_after_conflict("献血后4小时内应避免饮酒。", ["献血前4小时内不宜饮酒，献血后当天避免剧烈运动。"])
    assert found is not None and found[0] == "antonym"
