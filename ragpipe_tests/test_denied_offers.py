import pytest

from ragpipe.core.evidence.contradiction import contradiction
from ragpipe.core.evidence.denied_offers import denied_offer


@pytest.mark.parametrize("statement, evidence", [
    ("修好的机器不提供保修。", "经本店维修的机器享受6个月保修。"),  # 提供 / 享受: one thing offered
    ("Repairs do not come with a warranty.", "Every repair comes with a six-month warranty."),
    ("The hotel does not offer a shuttle bus.", "The hotel offers a free shuttle bus to the airport."),
])
def test_a_thing_denied_where_the_evidence_provides_it_is_a_negation(statement, evidence):
    found = denied_offer(statement, [evidence])
    assert found is not None and found[0] == "negation"
    assert contradiction(statement, [evidence]) is not None


@pytest.mark.parametrize("statement, evidence", [
    ("修好的机器提供保修。", "经本店维修的机器享受6个月保修。"),  # no denial
    ("本店不提供上门服务。", "经本店维修的机器享受6个月保修。"),  # another thing
    ("The hotel does not offer a shuttle bus.", "The hostel offers a free shuttle bus to the airport."),  # another subject
])
def test_no_conflict_for_another_thing_subject_or_no_denial(statement, evidence):
    assert denied_offer(statement, [evidence]) is None
