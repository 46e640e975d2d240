"""fractions.as_percent_in: a fraction in words written as the evidence's percentage or count of a whole."""

from ragpipe.core.evidence.fractions import as_percent_in


def test_a_fraction_is_written_as_the_count_of_a_whole_the_evidence_states():
    assert as_percent_in("About two thirds of the members voted in favour.",
                         "Of the 300 members, 201 voted in favour of the proposal.") == "About 201 of 300 of the members voted in favour."
    assert as_percent_in("Two thirds of the members voted in favour.", "201 of the 300 members voted.") == \
        "201 of 300 of the members voted in favour."
    assert as_percent_in("约三分之二的会员投了赞成票。", "300名会员中，201人投了赞成票。") == "约300中201的会员投了赞成票。"


def test_another_fraction_is_written_as_its_percentage():
    """A fraction more than OTHER_SHARE points off every share the evidence states is another share: written as its
    percentage, it is a number the evidence lacks (it read as supported before: "a quarter" against 201 of 300)."""
    assert as_percent_in("A quarter of the members voted in favour.", "Of the 300 members, 201 voted in favour.") == \
        "25% of the members voted in favour."
    assert as_percent_in("四分之一的会员投了赞成票。", "300名会员中有201人投了赞成票。") == "25%的会员投了赞成票。"
    assert as_percent_in("Half of the club's members hold a licence.", "Of the club's 40 members, 10 hold a licence.") == \
        "50% of the club's members hold a licence."
    assert as_percent_in("About a quarter of them backed it.", "Of the 150 members, 98 voted for it.") == \
        "About 25% of them backed it."
    assert as_percent_in("A third of the rowing club's members are novices.", "Of the rowing club's 60 members, 45 are novices.") == \
        "33.3% of the rowing club's members are novices."


def test_a_fraction_near_a_share_the_evidence_states_stays_as_written():
    # within OTHER_SHARE points of a stated share (a reading of it), or stated in words by the evidence itself
    assert as_percent_in("One in three visitors is a child.", "About 30% of visitors are children.") == \
        "One in three visitors is a child."
    assert as_percent_in("Half of the seats are reserved.", "Half of the seats are reserved; 20% of tickets are discounted.") == \
        "Half of the seats are reserved."


def test_a_chinese_total_and_its_part_is_a_count_of_a_whole():
    # "共有四十名成员，其中十人…": the part of a stated total, as "300名会员中有201人" is
    assert as_percent_in("合唱团四分之一的成员会看五线谱。", "合唱团共有四十名成员，其中十人会看五线谱。") == "合唱团四十中十的成员会看五线谱。"
    assert as_percent_in("合唱团一半的成员会看五线谱。", "合唱团共有四十名成员，其中十人会看五线谱。") == "合唱团50%的成员会看五线谱。"


def test_a_percentage_is_still_written_as_before():
    assert as_percent_in("四分之三的学生通过了考试。", "本次考试的通过率为75%。") == "75%的学生通过了考试。"
