"""A pronoun inside the evidence (evidence/pronoun_clauses.py): a later clause that names its subject only as "it" or
"they" is read with the subject of the clause before it, and denies what the statement says of that subject."""

import pytest

from ragpipe.core.evidence.contradiction import contradiction
from ragpipe.core.evidence.pronoun_clauses import pronoun_denial, resolved_clauses


@pytest.mark.parametrize("statement, evidence", [
    ("Wigs can be hired on their own.", ["Wigs can only be hired together with a costume; they are not hired out on their own."]),
    ("Kayaks can be reserved on the day.", ["Kayaks must be booked a day ahead; they cannot be reserved on the day."]),
    ("Season tickets can be transferred to a friend.",
     ["Season tickets are valid for twelve months, but they cannot be transferred to another person."]),
    ("The rooftop terrace is open to under-18s.", ["The rooftop terrace is heated in winter. It is not open to under-18s."]),
    # the evidence cut into sentences: the pronoun's clause opens the next one
    ("Season tickets can be transferred to a friend.",
     ["Season tickets are valid for twelve months.", "However, they cannot be transferred to another person."]),
])
def test_a_clause_that_names_its_subject_by_a_pronoun_denies_the_statement(statement, evidence):
    assert pronoun_denial(statement, evidence) is not None
    found = contradiction(statement, evidence)
    assert found is not None and found.kind == "negation"


@pytest.mark.parametrize("statement, evidence", [
    ("Season tickets are valid for twelve months.",
     ["Season tickets are valid for twelve months, but they cannot be transferred to another person."]),
    ("Kayaks must be booked a day ahead.", ["Kayaks must be booked a day ahead; they cannot be reserved on the day."]),
    # the pronoun's clause is about another subject than the statement's
    ("The rooftop bar is open to under-18s.", ["The rooftop terrace is heated in winter. It is not open to under-18s."]),
    ("The main differences between whitetail and mule deer", ["The mule deer's tail is black-tipped; the whitetail's is not."]),
    # "It is…" after a clause with no noun subject points at nothing
    ("Parking is free.", ["We are open daily. It is free to park."]),
])
def test_what_the_evidence_says_is_no_pronoun_denial(statement, evidence):
    assert pronoun_denial(statement, evidence) is None


def test_the_pronoun_takes_the_subject_of_the_clause_before_it():
    assert resolved_clauses(["Kayaks must be booked a day ahead; they cannot be reserved on the day."]) == [
        "Kayaks cannot be reserved on the day."]
    assert resolved_clauses(["We are open daily. It is free to park."]) == []
