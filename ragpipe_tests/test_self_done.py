"""An act the statement leaves to the reader ("… yourself") that the evidence gives to a third party
(evidence/self_done.py), read as swapped roles by the contradiction route."""

import pytest

from ragpipe.core.evidence.contradiction import contradiction
from ragpipe.core.evidence.self_done import done_by_another


@pytest.mark.parametrize("statement, evidence, doer", [
    ("You can call the locksmith directly and open the door yourself for $60.",
     ["If you are locked out, call the building manager; the manager sends the on-call locksmith, who opens the door."],
     "on-call locksmith"),
    ("You can replace the filter yourself.", ["Only our technician replaces the filter during the annual service."], "technician"),
    ("Guests can light the fire themselves.", ["The staff light the fire every evening at six."], "staff"),
    ("Customers can fit the tyres themselves.", ["Our mechanic will fit the tyres while you wait."], "mechanic"),
])
def test_an_act_of_the_reader_that_the_evidence_gives_to_a_third_party(statement, evidence, doer):
    assert done_by_another(statement, evidence)[1] == doer
    found = contradiction(statement, evidence)
    assert found is not None and found.kind == "roles"


@pytest.mark.parametrize("statement, evidence", [
    ("You can replace the filter yourself.", ["You can replace the filter; a technician checks the pump once a year."]),
    ("You can replace the filter yourself.", ["Owners replace the filter every six months."]),  # the reader's own people
    ("You can replace the filter yourself.", ["To replace the filter, open the lid."]),  # an imperative has no doer
    ("You cannot open the door yourself.", ["The locksmith opens the door."]),  # a denial says what the evidence says
])
def test_an_act_the_evidence_leaves_to_the_reader_or_to_no_one(statement, evidence):
    assert done_by_another(statement, evidence) is None
