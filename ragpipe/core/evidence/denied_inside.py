"""A Chinese word the evidence says with 不 / 未 / 没 glued to it or set inside it: "考试不及格" denies "考试及格",
"年检不合格" denies "年检合格", "论文答辩未通过" denies "论文答辩通过了". jieba keeps such a word whole (不及格,
不合格), so the word-by-word readers of polarity.py find neither the statement's word nor its negation there."""

from __future__ import annotations

import re

from ragpipe.core.evidence.agreement import found_in, words
from ragpipe.core.evidence.antonyms import stems_in
from ragpipe.core.evidence.facts import negated
from ragpipe.core.text import is_chinese

# 没有 before a noun says there is none ("没有收音机", "没有球队"), not that a predicate fails: only 不, 未, 没 deny here.
_NOT = "(?:不|未|没(?!有))"
# A clause that says the word under a condition, or as a bound, denies nothing of it.
_UNSAID = re.compile(r"如果|若|除非|假如|是否|不[得应能可宜]?(?:超过|高于|多于|低于|少于)")


def _undenied(word: str, clause: str) -> str | None:
    """The clause with the negation of ``word`` taken out, where it negates it: before it ("未通过"), or between
    two parts of two characters or more ("考试不及格"); None where it does not."""
    for k in [0, *range(2, len(word) - 1)]:
        found = re.search(rf"{re.escape(word[:k])}{_NOT}{re.escape(word[k:])}", clause)
        if found:
            return clause[:found.start()] + word + clause[found.end():]
    return None


def denied_inside(statement: str, statement_terms: list[str], clauses: list[str]) -> tuple[str, str, str, str] | None:
    """The evidence clause that denies a word the (affirmative, Chinese) statement says and, that negation taken out,
    holds the statement's words (at least two of them, or its only one): ("negation", the statement's word, the
    clause's denial of it, the clause)."""
    if not is_chinese(statement) or negated(statement) or not statement_terms:
        return None
    # A verdict word words() leaves out ("通过" is also "by way of") is still the word the clause may deny.
    said = [*(t for t in statement_terms if not _function_word(t)),
            *(s for s in stems_in(statement) if not s.isascii() and s not in statement_terms)]
    for clause in clauses:
        if _UNSAID.search(clause):
            continue
        for word in (w for w in said if len(w) >= 2 and not w.isascii()):
            plain = _undenied(word, clause)
            if plain is None or any(re.search(rf"(?<![不未没有]){re.escape(word)}", c) for c in clauses):
                continue  # the evidence says the word too (of another subject: "上一批不合格，这一批合格")
            held = sum(found_in(t, words(plain)) or t in plain for t in statement_terms)
            if held >= max(min(2, len(statement_terms)), 0.6 * len(statement_terms)):
                denial = re.search(rf"\S{{0,2}}{_NOT}\S{{0,{len(word)}}}", clause)
                return "negation", word, denial.group(0) if denial else clause, clause
    return None


def _function_word(word: str) -> bool:
    """A word that names no predicate a clause could deny: a pronoun, a determiner (所有), an adverb, a measure…"""
    import jieba.posseg

    return (jieba.posseg.dt.word_tag_tab.get(word) or "x")[:1] in "rbdcumqp"
