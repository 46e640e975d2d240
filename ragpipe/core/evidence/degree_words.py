"""A gradable word said with another degree word than the evidence's: "周期很短" read as "周期较短" where the evidence
says "周期较长", so that the antonym pair (antonyms.ANTONYMS: 较长 / 较短) sets the two against each other, and
"周期比较长" says what "周期较长" says in its words.

Chinese only: an English "very short" / "rather long" has no antonym pair of bare adjectives to meet.
"""

from __future__ import annotations

import re

# The degree words a gradable word takes, and the gradable words whose 较-forms antonyms.ANTONYMS pairs.
_DEGREE = r"(?:很|非常|相当|特别|挺|比较|偏|太|十分|极其|极为|较为)"
_OPPOSITE = {"长": "短", "短": "长", "高": "低", "低": "高", "快": "慢", "慢": "快"}
_SAID = re.compile(rf"{_DEGREE}(?P<word>[长短高低快慢])(?![度期途处])")


def as_evidence_degree(statement: str, evidence: str) -> str:
    """The statement with its degree word the evidence's 较 where the evidence says the same gradable word, or its
    antonym, with 较 and never the statement's own way ("很短" / "较长")."""
    def reworded(found: re.Match) -> str:
        word = found.group("word")
        if found.group(0) in evidence or not any(f"较{w}" in evidence for w in (word, _OPPOSITE[word])):
            return found.group(0)
        return f"较{word}"

    return _SAID.sub(reworded, statement)
