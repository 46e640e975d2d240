"""Ranked titles: a statement that gives a person a title the evidence gives that person only with a rank
before it ("主编是何平" against "高远担任主编，何平担任副主编"; "The editor-in-chief is Laura Kim." against
"…, and Laura Kim is the deputy editor."). A deputy, a vice chair, a former head or an assistant professor
holds another post than the head or the professor; the slot readers see the same person in both and no swap.
"""

from __future__ import annotations

import re

from ragpipe.core.evidence.facts import facts, fold, negated
from ragpipe.core.evidence.polarity import clauses_of
from ragpipe.core.text import EN_STOPWORDS, is_chinese, pos_tags

# Words before a title that make it another post (副院长, 常务副主任, 前主编; vice chair, deputy editor, former
# president). Not those that name a kind of the same post: 执行董事 is a 董事, a co-founder a founder.
_ZH_RANKS = ("常务副", "副", "前", "原", "代理", "名誉", "候补")
_EN_RANKS = ("vice", "deputy", "acting", "former", "interim", "honorary")
# What ties the person to the title in the statement: "主编是何平", "吴教授担任院长", "院长由吴教授担任";
# "Laura Kim is the editor", "The editor-in-chief is Laura Kim", "Dr. Singh serves as chair".
_ZH_LINK = re.compile(r"是|为|担任|出任|任|当选为?|由")
_EN_LINK = re.compile(r"(?:-[a-z]+)*\s*(?:,\s*)?(?:is|was|has been|serves as|served as|became|acts as|remains)(?:\s+(?:the|an?|our|its|their))?\s*")


def _tokens(text: str) -> list[str]:
    if is_chinese(text):
        return [w for w, _ in pos_tags(text)]
    return re.findall(r"[a-z]+", fold(text))


def _ranked(tokens: list[str], title: str, zh: bool) -> list[str]:
    """The ranks before the title in these tokens: 副 of 副主编 (one word or two, or 协会副会长), "deputy" of "deputy
    editor"; "" where the title stands bare (协会会长: a modifier that is no rank)."""
    found = []
    for i, token in enumerate(tokens):
        if not (token.endswith(title) if zh else token == title):
            continue
        inside = token[:-len(title)] if zh else ""  # 副 of 副会长, 协会副 of 协会副会长
        before = tokens[i - 1] if i else ""  # a rank word of its own (副 院长, deputy editor), not 目前 of 目前 主编
        found.append(next((r for r in (_ZH_RANKS if zh else _EN_RANKS) if inside.endswith(r) or not inside and before == r), ""))
    return found


def _written(name: str) -> str:
    """A folded name as the text writes it: "dr singh" of "Dr. Singh"."""
    written = r"\W+".join(map(re.escape, name.split()))
    return rf"\b{written}\b" if name.isascii() else written


def _linked(statement: str, name: str, title: str, zh: bool) -> bool:
    """The statement gives the person the title: only a link word stands between the two, in either order."""
    text = fold(statement)
    for first, second in ((name, title), (title, name)):
        for match in re.finditer(_written(first), text):
            end = re.compile(_written(second)).search(text, match.end())
            between = text[match.end():end.start()] if end else None
            if between is not None and (re.fullmatch(_ZH_LINK, between) if zh else re.fullmatch(_EN_LINK, between)):
                return True
    return False


def ranked_title(statement: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """("roles", the title the statement gives, the ranked title the evidence gives, the sentence) where the
    statement gives a named person a bare title and every evidence clause naming that person gives the title with
    a rank before it, at least one does; None otherwise (and where the statement negates)."""
    if negated(statement):
        return None
    zh = is_chinese(statement)
    mine = _tokens(statement)
    # A Chinese title may end a longer word (协会会长): its last two or three characters are candidates too.
    candidates = [t[-k:] for t in mine for k in (len(t), 3, 2) if zh and len(t) >= k] if zh else mine
    titles = [t for t in dict.fromkeys(candidates) if (len(t) >= 2 if zh else len(t) >= 3 and t not in EN_STOPWORDS)
              and "" in _ranked(mine, t, zh) and not any(_ranked(mine, t, zh))]
    for name in facts(statement).names:
        clauses = [(c, s) for s in sentences for c in clauses_of(s) if re.search(_written(name), fold(c))]
        for title in (t for t in titles if t not in name and name not in t and _linked(statement, name, t, zh)):
            ranks = [r for c, _ in clauses for r in _ranked(_tokens(c), title, zh)]
            if ranks and "" not in ranks:
                sentence = next(s for c, s in clauses if _ranked(_tokens(c), title, zh))
                return "roles", title, (ranks[0] + title if zh else f"{ranks[0]} {title}"), sentence
    return None
