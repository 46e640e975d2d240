"""calendar_positions.calendar_place_conflict: the same unit of the same period at another place ("the first week of
March" / "the last week of March") contradicts; the same place, another unit or period, or an unrelated sentence
does not."""

import pytest

from ragpipe.core.evidence.calendar_positions import calendar_place_conflict
from ragpipe.core.evidence.contradiction import contradiction


@pytest.mark.parametrize("statement, evidence", [
    ("New members are interviewed in the first week of March.",
     "Applicants to the orchid society are interviewed in the last week of March."),
    ("The market runs on the last Saturday of each month.", "The farmers market runs on the first Saturday of every month."),
    ("养蜂协会每月第一个周六对外开放参观。", "养蜂协会的示范蜂场每月最后一个周六对外开放参观，需提前预约。"),
    ("书市在每月最后一周举办。", "书市于每月第一周举办。"),
])
def test_another_place_of_the_same_unit_in_the_same_period_contradicts(statement, evidence):
    found = calendar_place_conflict(statement, [evidence])
    assert found is not None and found[0] == "date" and found[3] == evidence
    assert contradiction(statement, [evidence]) is not None


@pytest.mark.parametrize("statement, evidence", [
    ("养蜂协会每月最后一个周六对外开放参观。", "养蜂协会的示范蜂场每月最后一个周六对外开放参观，需提前预约。"),
    ("Fees are due in the first week of March.", "Applicants to the orchid society are interviewed in the last week of March."),
    ("The market runs on the first Sunday of each month.", "The farmers market runs on the last Saturday of every month."),
    ("The market runs on the first Saturday of June.", "The farmers market runs on the last Saturday of every month."),
    ("The market does not run on the first Saturday of each month.", "The market runs on the last Saturday of each month."),
])
def test_the_same_place_or_another_unit_period_or_subject_is_no_conflict(statement, evidence):
    assert calendar_place_conflict(statement, [evidence]) is None
