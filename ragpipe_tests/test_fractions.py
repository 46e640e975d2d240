"""fractions.as_percent_in: a fraction in words written as the evidence's percentage or count of a whole."""

from ragpipe.core.evidence.fractions import as_percent_in


def test_a_fraction_is_written_as_the_count_of_a_whole_the_evidence_states():
    assert as_percent_in("About two thirds of the members voted in favour.",
                         "Of the 300 members, 201 voted in favour of the proposal.") == "About 201 of 300 of the members voted in favour."
    assert as_percent_in("Two thirds of the members voted in favour.", "201 of the 300 members voted.") == \
        "201 of 300 of the members voted in favour."
    assert as_percent_in("约三分之二的会员投了赞成票。", "300名会员中，201人投了赞成票。") == "约300中201的会员投了赞成票。"


def test_another_fraction_stays_as_written():
    assert as_percent_in("A quarter of the members voted in favour.", "Of the 300 members, 201 voted in favour.") == \
        "A quarter of the members voted in favour."
    assert as_percent_in("四分之一的会员投了赞成票。", "300名会员中有201人投了赞成票。") == "四分之一的会员投了赞成票。"


def test_a_percentage_is_still_written_as_before():
    assert as_percent_in("四分之三的学生通过了考试。", "本次考试的通过率为75%。") == "75%的学生通过了考试。"
