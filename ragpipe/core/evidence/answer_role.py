"""The reference's name in another role: the clause that answers the question names someone else.

"Buzz Aldrin was the first person to walk on the Moon, shortly before Neil Armstrong joined him." to
"Who was the first person to walk on the Moon?" (reference "Neil Armstrong") states every key term of the
reference, but in a clause of its own; the clause that restates the question gives another name as the
answer. A person reads the answer as "Buzz Aldrin".
"""
from __future__ import annotations

import re

from ragpipe.core.evidence.agreement import found_in, terms, words
from ragpipe.core.evidence.correctness_row import CLAUSE_END, negates
from ragpipe.core.evidence.entities import EN_DEMONYMS
from ragpipe.core.text import EN_STOPWORDS, is_chinese, split_sentences

# What asks, not what is asked about: "who", 谁, 哪位 name no content the answer should restate.
_ASKING = re.compile(r"^(?:谁|什么|哪|哪里|哪儿|哪个|哪位|哪一位|何|多少|几)$")
# A clause that describes the name before it ("…, who created the characters under the stage name David
# Seville"): the reference may be that name's other name, not another answer.
_DESCRIBES = re.compile(r"^\W*(?:who|whom|whose|which|that|also|he|she|it|they|his|her|its|their|[他她它]|也|又|即|原名|本名|笔名|艺名)", re.I)
# Chinese words that give a kind, not a name ("一位美国人", "一名科学家"): no other answer.
_ZH_KIND = re.compile(r"(?:人|族|家|者)$|^[一两二三四五六七八九十几某][位名个]")
# A capitalised span after a preposition of place is where, not who: "is in the Australian Capital Territory".
_EN_NAME = re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*")
_PLACE_BEFORE = re.compile(r"\b(?:in|at|on|of|from|near)(?:\s+the)?\s*$", re.I)


def _asked(question: str) -> list[str]:
    return [w for w in words(question) if not _ASKING.match(w)]


def _cover(clause: str, asked: list[str]) -> float:
    said = words(clause)
    return sum(found_in(w, said) for w in asked) / len(asked)


def _zh_joined(clause: str) -> list[str]:
    """The clause's words, with a run of single Chinese characters that stand together joined: jieba cuts a rare
    name into its characters (毕昇 as 毕 + 昇)."""
    joined, run = [], False
    for word in words(clause):
        single = len(word) == 1 and not word.isascii()
        if single and run and f"{joined[-1]}{word}" in clause:
            joined[-1] += word
        else:
            joined.append(word)
            run = single
    return joined


def _other_names(clause: str, asked: list[str]) -> list[str]:
    """Words the clause adds to the question that read as names: English words written with a capital
    (not a nationality: "an American"), Chinese words of two or more characters that give no kind."""
    added = [w for w in _zh_joined(clause) if not found_in(w, asked)]
    if is_chinese(clause):
        return [w for w in added if len(w) >= 2 and not _ZH_KIND.search(w) and not re.search(f"{re.escape(w)}[人族裔籍]", clause)]
    capitals = {w.lower() for m in _EN_NAME.finditer(clause) if not _PLACE_BEFORE.search(clause[:m.start()])
                for w in m.group(0).split()} - EN_DEMONYMS - EN_STOPWORDS
    return [w for w in added if any(c.startswith(w) for c in capitals)]


def _short_name(reference: str) -> bool:
    """A bare name ("Neil Armstrong", "Leonardo da Vinci", 曹雪芹), not a value: numbers have typed readers."""
    core = reference.strip(" .。")
    if re.search(r"\d", core):
        return False
    if is_chinese(core):
        return len(core) <= 8
    return len(core.split()) <= 4 and all(w[0].isupper() for w in core.split() if len(w) > 2)  # not "Suitable for vegetarians"


def named_in_another_role(answer: str, reference: str, question: str, key_terms: list[str]) -> str | None:
    """The answer names a short reference only after the clause that answers the question (the one that
    restates most of the question's words), and that clause names another: "X for <reference>"."""
    asked = _asked(question or "")
    if not _short_name(reference) or not key_terms or len(asked) < 2:
        return None
    clauses = [c.strip() for c in CLAUSE_END.split(answer) if words(c)]
    # One sentence only: a longer answer that names its reply and then tells more is read as a whole.
    if len(clauses) < 2 or len(split_sentences(answer)) > 1:
        return None
    best = max(clauses, key=lambda c: _cover(c, asked))
    holders = [c for c in clauses if all(found_in(k, terms(re.sub(r"['’]s\b", "", c))) for k in key_terms)]
    # The reply first, then detail ("巴黎，它也是法国最大的城市。"): the first clause that names it is the answer.
    if _cover(best, asked) < 0.5 or negates(best) or not holders or clauses.index(holders[0]) < clauses.index(best) \
            or any(_cover(c, asked) >= _cover(best, asked) or _DESCRIBES.match(c) for c in holders):
        return None
    others = _other_names(best, asked)
    return f"{' '.join(others[:2])} for {reference.strip(' .。')}" if others else None
