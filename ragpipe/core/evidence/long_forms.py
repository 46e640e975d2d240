"""A name and its long form are one name: an acronym ("UK") and the words another text spells it out with ("the
United Kingdom"), a Chinese short form ("国际乒联", "北大") and the words it shortens ("国际乒乓球联合会", "北京大学").
answer_correctness writes each text's short forms as the other writes them before the agreement reads them."""

from __future__ import annotations

import re

from ragpipe.core.evidence.agreement import elliptical
from ragpipe.core.evidence.facts import facts, negated
from ragpipe.core.text import is_chinese, jieba_ready

# An acronym as written ("UK", "U.K.", "WHO", "NASA"), and the small words a name spelt out
# may hold between the words it takes its letters from ("National Aeronautics and Space Administration").
_ACRONYM = re.compile(r"\b(?:[A-Z]\.){2,}|\b[A-Z]{2,6}\b")
_NAME_JOINER = r"(?:\s+(?:of|and|for|the|on|de|&))*\s+"
_WORD_REST = r"[^\W\d_A-Z]+"  # the rest of a capitalised word, accented letters too


def spelled_out(text: str, other: str) -> str:
    """``text`` with each acronym that ``other`` spells out written as ``other`` writes it ("The UK
    left the EU" against "the United Kingdom" reads "The United Kingdom left the EU"): the two are
    one name, and the words of the long form are the ones a reference's key terms are."""
    for acronym in dict.fromkeys(_ACRONYM.findall(text)):
        if re.search(rf"(?<!\w){re.escape(acronym)}(?!\w)", other):
            continue  # both write it ("What does PDF stand for?" - "PDF is not …"): nothing to reconcile
        letters = acronym.replace(".", "")
        long = re.search(rf"\b{_NAME_JOINER.join(c + _WORD_REST for c in letters)}\b", other)
        if long:
            text = re.sub(rf"(?<!\w){re.escape(acronym)}(?!\w)", long.group(0), text)
    # A bare Chinese reply is a name too, where the names reader does not know it ("世卫组织。" for 世界卫生组织).
    # Three characters at least: two (湖南) share their characters in order with too many other names (湖北省南部);
    # and no long form that negates (场馆停车免费 is no short form of 场馆停车不免费).
    bare = [b for b in [re.sub(r"[\W_]+", "", text)] if len(b) >= 3] if is_chinese(text) and elliptical(text) else []
    for name in [*facts(text).names, *bare] if is_chinese(text) else ():  # "国际乒联" where the other writes "国际乒乓球联合会"
        long = long_form(name, other)
        text = text.replace(name, long) if long and not (name in bare and negated(long)) else text
    return text


def long_form(name: str, text: str) -> str | None:
    """The words of the text that a Chinese name shortens: its characters in order, from the same first
    one, within a span a few times its length, widened to whole words ("国际乒乓球联合会" for "国际乒联",
    "北京大学" for "北大"); None where it is no short form of the text's words."""
    if len(name) < 2 or not is_chinese(name) or name in text:
        return None
    for match in re.finditer(r"[^\s，。、；：？！,;?!]*?".join(map(re.escape, name)), text):  # within one phrase
        if len(match.group(0)) <= 3 * len(name):
            start = end = 0
            for word in jieba_ready().lcut(text):
                if end <= match.start():
                    start = end
                end += len(word)
                if end >= match.end():
                    return text[start:end]
    return None
