"""Minors and "under 18" are one group (minors.py)."""

import pytest

from ragpipe.core.evidence.contradiction import contradiction
from ragpipe.core.evidence.minors import as_evidence_names_minors


@pytest.mark.parametrize("statement, evidence, read", [
    ("Minors must wear a life jacket.", "Renters under 18 must wear a life jacket at all times.",
     "Renters under 18 must wear a life jacket."),
    ("未成年人要有监护人陪同才能租船。", "未满18周岁者须由监护人陪同方可租船。", "未满18周岁者要有监护人陪同才能租船。"),
    ("18岁以下人员不得入内。", "未成年人不得入内。", "未成年人不得入内。"),
])
def test_the_group_is_read_as_the_evidence_writes_it(statement, evidence, read):
    assert as_evidence_names_minors(statement, evidence) == read


@pytest.mark.parametrize("statement, evidence", [
    ("Minors can get a tattoo.", "Adults over 21 get 10% off."),        # the evidence names no such group
    ("Minors must be accompanied.", "Minors and anyone under 18 must be accompanied."),  # it says it the statement's way
    ("Children under 12 ride free.", "Anyone under 18 rides free."),   # another bound
])
def test_the_statement_is_left_as_it_is_elsewhere(statement, evidence):
    assert as_evidence_names_minors(statement, evidence) == statement


def test_read_as_under_18_a_permission_for_minors_meets_the_prohibition():
    evidence = ["We do not tattoo anyone under 18, even with parental consent."]
    read = as_evidence_names_minors("Minors can get a tattoo.", evidence[0])
    assert contradiction(read, evidence) is not None
