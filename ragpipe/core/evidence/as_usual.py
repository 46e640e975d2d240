"""A part the evidence says goes on as usual, beside a part it stops or changes: "雨天室外球场关闭，室内球场照常开放",
"During the heat advisory the outdoor pool is closed; the indoor pool stays open as usual." A statement that says
the change of the whole ("室内外球场全部关闭", "both pools are closed") or of the part that goes on ("地下车库的充电桩也
停用", "the indoor pool is closed") contradicts it. The two clauses are read side by side: the change is the tail of
the changed clause that the statement repeats, and the part it is said of is the words before it where the other
clause names its own part (scope.py reads limits the evidence words as "only" or "except")."""

from __future__ import annotations

import re

from ragpipe.core.evidence.agreement import words
from ragpipe.core.evidence.antonyms import ANTONYMS
from ragpipe.core.evidence.polarity import clauses_of
from ragpipe.core.text import is_chinese, pos_tags

# What says a part goes on unchanged, right after the part's name: "照常开放", "正常使用", "不受影响"; in English a verb of
# staying open after a subject of five words at most ("the indoor pool stays open as usual"), not "normally" or "as
# usual" of any clause ("shampoo your hair as usual").
_USUAL = re.compile(r"照常|正常|如常|照旧|不受影响"
                    r"|^\W*(?:\w+\s+){1,5}?(?:(?:stays?|remains?|(?:is|are) still)\s+(?:open|in service|available)"
                    r"|(?:is|are)\s+unaffected|(?:operates?|runs?)\s+as\s+(?:usual|normal))\b", re.I)
# The whole, said of the change: "全部关闭", "室内外都停用", "both pools are closed".
_WHOLE = re.compile(r"全部|所有|全都|都|均|一律|统统|一概|\b(?:all|both|every|entire|whole)\b", re.I)
_WHOLE_WORD = re.compile(r"全部|所有|全都|一律|统统|一概|all|both|every|entire|whole", re.I)
_DENIED = re.compile(r"[不没未无非别勿]|\b(?:not|never|no)\b|n't\b", re.I)


def usual_part_stopped(statement: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """("scope", what the statement says, the clause that says a part goes on as usual, its sentence), or None."""
    for part in clauses_of(statement):
        if _USUAL.search(part) or _DENIED.search(part):
            continue  # a statement that keeps a part going, or denies the change, says no change of it
        held = set(words(part))
        # The two clauses may stand in one sentence or in two next to each other (a split at ";").
        clauses = [(i, c) for i, s in enumerate(sentences) for c in clauses_of(s)]
        for i, usual in ((i, c) for i, c in clauses if _USUAL.search(c)):
            own = words(_part_going_on(usual))  # "室内9洞荧光球场", "the indoor pool"
            for changed in (c for j, c in clauses if abs(i - j) <= 1 and c is not usual and not _USUAL.search(c)):
                tags = {w: flag for w, flag in pos_tags(changed)} if is_chinese(changed) else None
                # The part that goes on is named by its own words, not by those the other clauses share ("lot" of
                # "the east parking lot is closed; the west lot remains open").
                others = {w for j, c in clauses if abs(i - j) <= 1 and c is not usual for w in words(c)}
                if _said_of_usual_part(part, held, words(changed), tuple(w for w in own if w not in others),
                                       set(words(usual)), tags):
                    return "scope", part.strip(), usual.strip(), sentences[i]
    return None


def _part_going_on(clause: str) -> str:
    """The words that name the part that goes on: before the Chinese marker, or the English clause's subject."""
    found = _USUAL.search(clause)
    if is_chinese(clause):
        return clause[:found.start()]
    return re.split(r"\s+(?:stays?|remains?|is|are|operates?|runs?)\b", clause, maxsplit=1, flags=re.I)[0]


def _names_part(word: str, change: list[str], tags: dict[str, str] | None) -> bool:
    """Whether the word names a thing rather than the change: in Chinese a noun, place or time by jieba's tag
    ("项目" of "户外项目全部暂停"); in English anything before the clause's last word ("the outdoor pool is closed")."""
    if _WHOLE_WORD.fullmatch(word):
        return False
    if tags is None:
        return any(not _WHOLE_WORD.fullmatch(w) for w in change)
    return tags.get(word, "n")[0] in "nstfr"


def _said_of_usual_part(part: str, held: set[str], changed: tuple[str, ...], own: tuple[str, ...],
                        usual_words: set[str], tags: dict[str, str] | None) -> bool:
    """The statement repeats the changed clause's change and says it of the whole, or of the part that goes on,
    without naming the changed clause's own part."""
    k = len(changed)
    change: list[str] = []
    # The verb both clauses share is part of the change ("器械区停止开放" / "泳池正常开放": 停止开放); a noun they share
    # ends it ("室外球场关闭" / "室内球场照常开放").
    while k and (changed[k - 1] in held or _WHOLE_WORD.fullmatch(changed[k - 1])) \
            and not _names_part(changed[k - 1], change, tags) and (tags is not None or changed[k - 1] not in usual_words):
        k -= 1
        change.append(changed[k])
    if not any(w in held and w not in usual_words and not _WHOLE_WORD.fullmatch(w) for w in change):
        return False
    # The two parts are the words of each clause that stand against each other: 室外 / 室内, 一楼 / 二楼, 地面 / 地下,
    # outdoor / indoor.
    # A time or a setting ("期间", "春节") is no part, whatever character it shares ("期间" / "包间").
    pairs = [(ours, theirs) for ours in changed[:k] if ours not in usual_words
             for theirs in own if theirs not in changed and _parallel(ours, theirs, tags)]
    if any(ours in held for ours, _ in pairs):
        return False  # the statement names the changed part itself ("户外项目全部暂停")
    # The part that goes on, named with the change ("室内温泉池也暂停使用" / "露天温泉池…暂停使用，室内温泉池正常开放"),
    # though no word of the changed clause stands against its name (露天 / 室内).
    named = [w for w in own if w not in changed and w in held and (tags is None or tags.get(w, "n")[0] not in "tf")]
    return bool(pairs and _WHOLE.search(part)) or bool(named)


_OPPOSED = {*ANTONYMS, *((b, a) for a, b in ANTONYMS)}
_BARE = set("的之其该本此各")  # characters two parts may share without being parts of one kind


def _parallel(ours: str, theirs: str, tags: dict[str, str] | None) -> bool:
    """Two parts of one kind: antonyms, or Chinese words that share a character (一楼 / 二楼, 东门 / 西门) and name no
    time or setting, English words that share four letters running (outdoor / indoor, northbound / southbound)."""
    if (ours, theirs) in _OPPOSED:
        return True
    if tags is not None:
        return tags.get(ours, "n")[0] not in "tf" and bool((set(ours) & set(theirs)) - _BARE)
    return any(ours[i:i + 4] in theirs for i in range(len(ours) - 3))
