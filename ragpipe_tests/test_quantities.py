"""quantities.quantities: a span of time whose unit an adjective calls whole ("one full day") is that span."""

import pytest

from ragpipe.core.evidence.quantities import as_written_in, quantities


@pytest.mark.parametrize("text, seconds", [
    ("valid for one full day", 86400.0),
    ("valid for a full day", 86400.0),
    ("a whole week", 604800.0),
    ("two entire weeks", 1209600.0),
])
def test_a_full_unit_is_the_unit(text, seconds):
    assert [q.amount for q in quantities(text)] == [seconds]


def test_a_full_day_is_written_as_the_evidences_hours():
    assert as_written_in("The ticket is valid for two full days.", "The ticket is valid for 48 hours from first use.") == \
        "The ticket is valid for 48 hours."
    assert quantities("the whole day") == ()  # no number, no article: no amount
