"""One thing, two wordings: the statement's wording written as the evidence writes the thing (minors.py, pairs.py)."""

from __future__ import annotations

import re


def in_evidence_wording(statement: str, evidence: str, one: re.Pattern, other: re.Pattern) -> str:
    """The statement with its wording of a thing (``one`` or ``other``) written as the evidence's, where the evidence
    writes it the other way and never the statement's."""
    for ours, theirs in ((one, other), (other, one)):
        written = theirs.search(evidence)
        if ours.search(statement) and written and not ours.search(evidence):
            return ours.sub(written.group(0), statement, count=1)
    return statement
