"""Negation said by a word's own form: "non-refundable", "unavailable", "invalid" deny "refundable",
"available", "valid"; 概不退还, 不予退还 deny 退还. polarity.py reads a clause that negates a statement's
word so as a restatement of it with the opposite polarity, whatever else the clause holds."""

from __future__ import annotations

import re

from ragpipe.core.evidence.facts import fold

# in-/im-/il-/ir- only before an adjective's ending: "inactive", "invalid", not "information" or "install";
# "unless" is no "less" denied.
_PREFIXED = re.compile(r"\b(?:non-?|un-?)(?!less\b)([a-z]{4,})\b|\b(?:in|im|il|ir)([a-z]{3,}(?:able|ible|ive|ent|ant|al|ate|ete|id))\b", re.I)


def prefixed(texts: list[str]) -> set[str]:
    """The words the texts negate by a prefix, without it."""
    return {(m.group(1) or m.group(2)).lower() for text in texts for m in _PREFIXED.finditer(text)}


def plainly(text: str, others: list[str]) -> str:
    """The text with each word negated by its prefix said as "not" and the word, where the others have the
    word itself (a word they lack stays as written: "unlimited" alone is no negation of anything). A word the others
    hold only under its prefix too is the same word on both sides ("you need non-marking shoes" / "Non-marking shoes
    are required"), no denial."""
    held = {w for other in others for w in re.findall(r"[a-z]+", fold(_PREFIXED.sub(" ", other)))}
    return _PREFIXED.sub(lambda m: f"not {m.group(1) or m.group(2)}" if (m.group(1) or m.group(2)).lower() in held
                         else m.group(0), text) if held else text


def word_denied(clause: str, statement: str, statement_terms: list[str], words_prefixed: set[str]) -> bool:
    """One text denies a word the other says: by its prefix (after plainly: "not refundable") or by 不 right
    before a Chinese word of the statement."""
    said = f"{clause} {statement}"
    return (any(re.search(rf"\bnot {w}\b", said, re.I) for w in words_prefixed)
            or any(_denied(w, clause) != _denied(w, statement) for w in statement_terms
                   if len(w) >= 2 and not w.isascii() and w in clause))


def _denied(word: str, text: str) -> bool:
    return bool(re.search(rf"不[予再]?{re.escape(word)}", text))
