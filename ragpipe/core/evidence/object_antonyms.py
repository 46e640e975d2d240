"""The antonym of a Chinese statement's verb before the same object ("需要缴纳个人所得税" / "…免征个人所得税"): moved
out of polarity.py, which asks it last of its rules, when that module was full."""

from __future__ import annotations

from ragpipe.core.evidence.agreement import found_in, words
from ragpipe.core.evidence.antonyms import negated_at
from ragpipe.core.text import is_chinese

# Besides the shared object, a sentence that opposes a statement's verb on it holds this many of its words.
OBJECT_FRAME = 2


def _object_of(text: str, stem: str) -> str | None:
    at = text.find(stem)
    following = words(text[at + len(stem):]) if at >= 0 else ()
    return following[0] if following and len(following[0]) >= 2 else None


def antonym_on_the_object(statement: str, statement_terms: list[str], clauses: list[tuple[str, str]],
                          pairs: list[tuple[str, str]]) -> tuple[str, str, str, str] | None:
    """In Chinese, the evidence puts the antonym of the statement's verb before the same object
    ("需要缴纳个人所得税" / "…免征个人所得税"), in a sentence that holds a few more of its words: a
    reworded condition ("自住满五年的家庭唯一住房" / "自用达五年以上并且是家庭唯一生活用房") leaves
    too few shared words for the clause to be aligned, but the verb and its object say enough.
    ``clauses``: each evidence clause with its sentence, in order."""
    if not is_chinese(statement):
        return None
    for ours, theirs in pairs:
        obj = _object_of(statement, ours)
        if obj is None:
            continue
        frame = [t for t in statement_terms if t != obj and ours not in t]
        for clause, sentence in clauses:
            if (theirs in clause and ours not in clause and _object_of(clause, theirs) == obj
                    and sum(found_in(t, words(sentence)) for t in frame) >= OBJECT_FRAME  # polarity.overlap
                    and negated_at(statement, ours) == negated_at(clause, theirs)):  # 不允许 says 禁止
                return "antonym", ours, theirs, clause
    return None
