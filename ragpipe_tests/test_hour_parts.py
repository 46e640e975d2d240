from ragpipe.core.evidence.counts import in_evidence_terms


def test_a_quarter_of_an_hour_is_written_in_the_evidences_minutes():
    evidence = "Each ceramics taster session runs for 45 minutes, clay included."
    assert in_evidence_terms("It lasts three quarters of an hour.", evidence) == "It lasts 45 minutes."
    assert in_evidence_terms("体验课三刻钟。", "体验课每节45分钟。") == "体验课45分钟。"


def test_another_part_of_an_hour_is_written_in_minutes_and_stays_another_number():
    assert in_evidence_terms("It lasts a quarter of an hour.", "The session runs for 45 minutes.") == "It lasts 15 minutes."
    assert in_evidence_terms("只要一刻钟。", "全程约需45分钟。") == "只要15分钟。"


def test_minutes_are_written_as_the_evidences_part_of_an_hour():
    evidence = "Each session lasts three quarters of an hour."
    assert in_evidence_terms("It lasts 45 minutes.", evidence) == "It lasts three quarters of an hour."
    assert in_evidence_terms("It lasts three quarters of an hour.", evidence) == "It lasts three quarters of an hour."
    assert in_evidence_terms("步行45分钟。", "从车站步行三刻钟。") == "步行三刻钟。"


def test_a_clock_time_and_a_quarter_of_another_thing_are_left_alone():
    assert in_evidence_terms("三点一刻出发。", "下午3点15分出发。") != "三点15分钟出发。"
    assert in_evidence_terms("A quarter of the members voted.", "25% of the members voted.") == "25% of the members voted."
