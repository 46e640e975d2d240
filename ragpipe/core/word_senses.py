"""English words that share a frequent sense (word_senses.json, built from WordNet 3.0 by
scripts/build_word_senses.py): "begin" / "start", "kid" / "child", "supply" / "provide". A paraphrase
says the evidence's thing in its own everyday word; this reads that word as the evidence's.

Only senses frequent for both words count (so "get" is not "begin"), and names, days, months and
numbers are no part of the table: those are values the typed readers compare, never synonyms."""

from __future__ import annotations

import json
from collections import defaultdict
from functools import lru_cache
from pathlib import Path

from ragpipe.core.text import content_tokens

_TABLE = Path(__file__).with_name("word_senses.json")


def _forms(word: str) -> set[str]:
    """The regular inflections of an English word, whose content tokens are the stems a text of it gives."""
    forms = {word, word + "s", word + "es", word + "ed", word + "ing", word + "d"}
    if word.endswith("e"):
        forms |= {word[:-1] + "ing", word[:-1] + "ed"}
    if word.endswith("y"):
        forms |= {word[:-1] + "ies", word[:-1] + "ied"}
    return forms


@lru_cache(maxsize=1)
def _senses() -> dict[str, frozenset[int]]:
    """Each content token of a table word (any of its forms) and the groups the word is in."""
    table = json.loads(_TABLE.read_text(encoding="utf-8"))
    forms_of = defaultdict(set)
    for form, base in table["irregular"].items():
        forms_of[base].add(form)
    groups: dict[str, set[int]] = defaultdict(set)
    for number, group in enumerate(table["groups"]):
        for word in group.split():
            for form in _forms(word) | forms_of[word]:
                tokens = content_tokens(form)
                if len(tokens) == 1:  # a stopword ("well", "still") is read by nothing
                    groups[tokens[0]].add(number)
    return {token: frozenset(numbers) for token, numbers in groups.items()}


def same_sense(token: str, held) -> str | None:
    """The token of ``held`` (content tokens) that shares a frequent sense with the English ``token``, or None.
    Not a word inside the other: a compound names another thing than its head ("a repair workshop" beside "the
    reuse shop"), though WordNet files "workshop" with "shop"."""
    senses = _senses()
    ours = senses.get(token)
    if not ours or not token.isascii():
        return None
    return next((w for w in sorted(held) if w not in token and token not in w and ours & senses.get(w, frozenset())), None)
