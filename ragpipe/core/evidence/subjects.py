"""Which evidence clause a statement speaks of: the one about the thing the statement is about (its subject),
not the one sharing most of its words.

"Raised gas barbecues are allowed on all pitches; disposable barbecues are banned." has two clauses about two
kinds of barbecue. "Disposable barbecues can be used on your pitch." shares more words with the first (barbecues,
pitches, allowed/used) but is about the second, and says of it what the first says of the other kind. The same
happens to values: "An e-bike costs £15 a day" against "Standard bikes cost £15 a day, while e-bikes cost £35",
and in Chinese: "大型犬可以入住营地" against "小型犬可以入住营地；大型犬不得入内".

``subject_contrast`` finds that pattern: the clause sharing most words (the one alignment by shared words picks)
is about another thing, a neighbouring clause is about the statement's own thing, and the two clauses say
opposite things (one allows, one forbids) or give other values; the statement says what the wrong clause says.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragpipe.core.evidence.agreement import found_in, words
from ragpipe.core.evidence.facts import facts, negated
from ragpipe.core.text import is_chinese

# The statement's own clause, and the evidence's clauses: a comma, a semicolon, or a contrasting conjunction
# ("…, while e-bikes cost £35"); not "and", which joins the things of one subject ("rice and plastic confetti").
_CLAUSES = re.compile(r"(?<!\d)[,:](?!\d)|[;，；：]|\b(?:while|whereas|but)\b", re.I)  # not "8:30", "1,200"
_OPENING = re.compile(r"^\W*(?:(?:yes|no|sure)\b\W*)?(?:(?:and|but|while|whereas|although|though)\s+)?", re.I)
# Where an English subject ends: an auxiliary or a verb that predicates of a thing (costs, opens, includes, …).
# Not a word of a hyphenated compound: "Open-water students", "run-down cabins".
_EN_PREDICATE = re.compile(
    r"(?<!-)\b(?:can(?:not|'t)?|may|must|might|could|should|will|would|is|are|was|were|isn't|aren't|has|have|had|does|do"
    r"|costs?|opens?|closes?|includes?|runs?|takes?|needs?|requires?|offers?|provides?|gets?|charges?|lasts?"
    r"|starts?|begins?|comes?)\b(?!-)", re.I)
_EN_PRONOUN = re.compile(r"^\W*(?:it|they|this|that|these|those|there|you|we|he|she|i|one)\b", re.I)
# Where a Chinese subject ends: a modal, a prohibition, a rate ("每小时") or a verb of offering.
# 在 or 于 before a place ends the subject too ("社区义诊在区图书馆举行"); not inside 现在, 存在, 正在, 位于, 对于, 关于.
_ZH_PREDICATE = re.compile(r"可以|可|能|须|需|必须|不得|不能|不可|禁止|严禁|谢绝|一律|均|都|每|是|有|免费|提供|收取|享"
                           r"|(?<![存现正实所自好])在|(?<![位对关由属等处至])于")
# A place the statement stands in ("营地内", "在山庄里") is no subject: the thing follows the verb of use.
_ZH_PLACE = re.compile(r"^(?:在)?[\u4e00-\u9fff]{1,6}[内里中上外]$")
_ZH_USE = re.compile(r"^(?:用|使用|带|携带|放|燃放)")
_ZH_PRONOUN = re.compile(r"^(?:它|他|她|这|那|您|你|我|其)")
# Saying a thing may not be done: a negation, or a ban worded without one ("banned", "禁止").
_FORBIDS = re.compile(r"\b(?:banned|prohibited|forbidden)\b|禁止|严禁|谢绝|不得", re.I)
# Saying whether a thing may be done at all: only such clauses are set against each other by their negation
# ("gravy is a type of sauce" says nothing of whether gravy is "not used").
_PERMISSION = re.compile(r"\b(?:can(?:not|'t)?|may|allowed|permitted|welcome|banned|prohibited|forbidden)\b"
                         r"|可以|可|能|允许|欢迎|禁止|严禁|谢绝|不得", re.I)


def _clauses(text: str) -> list[str]:
    return [c.strip() for c in _CLAUSES.split(text) if c and c.strip()]


def thing(clause: str) -> tuple[str, ...]:
    """The words of what a clause is about: its subject ("Disposable barbecues" of "…can be used"), or in a
    Chinese clause that opens with its place or a modal, the object of its verb of use ("营地内可以用木炭烧烤":
    木炭烧烤). Empty for a pronoun, or where no subject stands before the predicate."""
    clause = _OPENING.sub("", clause)
    if is_chinese(clause):
        if _ZH_PRONOUN.match(clause):
            return ()
        cut = _ZH_PREDICATE.search(clause)
        subject = clause[:cut.start()] if cut else ""
        if subject and not _ZH_PLACE.match(subject):
            return words(subject)
        rest = clause[cut.end():] if cut else clause
        used = _ZH_USE.match(rest)
        return words(rest[used.end():]) if used else ()
    cut = _EN_PREDICATE.search(clause)
    if not cut or _EN_PRONOUN.match(clause) or len(clause[:cut.start()].split()) > 5:
        return ()
    return words(clause[:cut.start()])


def _about(subject: tuple[str, ...], clause: str) -> bool:
    own = thing(clause)
    return bool(own) and all(found_in(t, own) for t in subject)


def _forbids(text: str) -> bool:
    return negated(text) or bool(_FORBIDS.search(text))


def subject_contrast(statement: str, sentences: Sequence[str]) -> tuple[str, str, str, str] | None:
    """("negation" or "number", what the statement says, what the evidence says, the evidence sentence) where the
    statement says of its subject what a clause about another thing says, and the clause about its own subject (in
    the same or the next evidence sentence) says otherwise: forbids what the statement allows or the other way
    round, or gives another value."""
    parts = _clauses(statement)
    claim = parts[0] if parts else ""
    subject = thing(claim)
    if not subject:
        return None
    claim_words = words(claim)
    claim_numbers = facts(claim).numbers
    placed = [(i, c) for i, s in enumerate(sentences) for c in _clauses(s)]
    if not placed:
        return None
    moved = _place_of_another(claim, subject, placed, sentences)
    if moved:
        return moved
    shared = [sum(found_in(t, words(c)) for t in claim_words) + len(claim_numbers & facts(c).numbers) for _, c in placed]
    # The clause alignment by shared words would take, of those about another thing.
    others = [k for k, (_, c) in enumerate(placed) if thing(c) and not _about(subject, c)]
    best = max((shared[k] for k in others), default=0)
    chosen = [k for k in others if shared[k] == best]
    if best < 2 or len(chosen) != 1:
        return None
    at, other = placed[chosen[0]]
    own = [(i, c) for i, c in placed if abs(i - at) <= 1 and _about(subject, c)]
    if len(own) != 1:
        return _value_of_another(claim, subject, other, sentences)
    i, clause = own[0]
    permission = all(_PERMISSION.search(text) for text in (claim, other, clause))
    if permission and _forbids(claim) == _forbids(other) != _forbids(clause):
        return "negation", claim, clause, sentences[i]
    theirs, elsewhere = facts(clause).numbers, facts(other).numbers
    if claim_numbers and claim_numbers <= elsewhere and theirs and not claim_numbers & theirs:
        return "number", claim, clause, sentences[i]
    # So for a name: "Rehearsals are held at St. Anne's Hall." where the rehearsals' clause names Hallam Music School and
    # St. Anne's Hall is the winter concert's; a clause that renames the thing before it ("…by Bob Dylan, whose birth
    # name is Robert Zimmerman") names no other thing.
    named, own_names = _names(claim), _names(clause)
    if named and named <= _names(other) and own_names and not named & own_names and not _RENAMES.search(other):
        return "name", claim, clause, sentences[i]
    return None


# A Chinese place phrase and the verb after it, to the clause's end: 在区图书馆举行.
_ZH_PLACE_OF = re.compile(r"(?<![存现正实所自好])[在于]([\u4e00-\u9fff]{3,16})[。！]?$")


def _place(clause: str) -> str:
    """The place a Chinese clause puts its thing in, less the verb of two characters that ends it (在区图书馆举行:
    区图书馆), or ""."""
    found = _ZH_PLACE_OF.search(clause)
    return found[1][:-2] if found and len(found[1]) >= 4 else ""


def _place_of_another(claim: str, subject: tuple[str, ...], placed: list[tuple[int, str]], sentences: Sequence[str]):
    """("name", …) where the claim puts its thing in the place a clause of the same evidence sentence gives another
    thing, while the clause about its own thing names another place: "社区义诊在区图书馆举行" against "本周六社区义诊在
    街道卫生服务中心举行，周日的读书分享会在区图书馆举行"; "新年音乐会在市文化宫举行" against "…在市音乐厅举行，书画展在市文化宫展出"."""
    where = _place(claim)
    if not where or negated(claim):  # "没有哪位科学家曾在红岸基地工作" puts no one there
        return None
    for i, clause in placed:
        own = _place(clause)
        if not own or where in clause or negated(clause) or not _about(subject, clause):
            continue
        if any(j == i and where in c and thing(c) and not _about(subject, c) for j, c in placed):
            return "name", claim, clause, sentences[i]
    return None


_RENAMES = re.compile(r"^\W*(?:whose|who|which|whom|where)\b|\b(?:birth|real|full|maiden|stage|pen) name\b|\bknown as\b|"
                      r"\baka\b|原名|本名|又名|别名|也就是", re.I)


def _names(text: str) -> set[str]:
    return {n.lower() for n in facts(text).names}


def said_of_own_subject(statement: str, stated: str, evidence: str, where: str, sentences: Sequence[str]) -> bool:
    """A contradiction found in a clause about another thing ("儿童卡丁车只能在室内赛道使用" for "成人卡丁车可以在室外
    赛道驾驶") where a clause of the same evidence sentence (the one holding ``where``, the clause or sentence the
    contradiction names) about the statement's own thing says what it says (holds its ``stated`` value: "成人卡丁车可在
    室外赛道驾驶"): no contradiction, the evidence agrees where it speaks of the thing."""
    subject = thing((_clauses(statement) or [""])[0])
    if not subject or not stated or not evidence:
        return False
    clauses = _clauses(next((s for s in sentences if where.strip() in s), where))
    theirs = [c for c in clauses if evidence in c]
    return bool(theirs) and all(thing(c) and not _about(subject, c) for c in theirs) and any(
        stated in c and _about(subject, c) for c in clauses)


# A value and the word that frames it: the word before it ("aged 12", "costs $240", "每人 80元") or its unit after it.
_FRAMED = re.compile(r"([^\W\d_]+)\s*[$£€¥]?\s*(\d+(?:[.,]\d+)?)|(\d+(?:[.,]\d+)?)\s*([^\W\d_]+)")


def _frames(text: str) -> set[tuple[str, str]]:
    found = set()  # a Chinese word runs into its neighbours: its two characters nearest the value
    for before, value, number, after in _FRAMED.findall(text):
        found.add((before[-2:] if is_chinese(before) else before.lower(), value) if value
                  else (after[:2] if is_chinese(after) else after.lower(), number))
    return found


def _value_of_another(claim: str, subject: tuple[str, ...], other: str, sentences: Sequence[str]):
    """("number", …) where the claim's values are another thing's (``other``, the clause it shares most with) and the
    evidence about the claim's own thing, in a sentence naming it or the next one that opens with a pronoun for it,
    frames the same kind of value (the same word before it, or the same unit) with another one: "The Learn-to-Row
    course is for rowers aged 12 to 17." against "The Learn-to-Row course runs … It is open to adults aged 18 and
    over." beside "The junior squad takes rowers aged 12 to 17."."""
    ours = _frames(claim)
    if not ours or not {v for _, v in ours} <= {v for _, v in _frames(other)}:
        return None
    for i, sentence in enumerate(sentences):
        if not any(_about(subject, c) for c in _clauses(sentence)):
            continue
        told = sentence + (" " + sentences[i + 1] if i + 1 < len(sentences) and (
            _EN_PRONOUN.match(sentences[i + 1]) or _ZH_PRONOUN.match(sentences[i + 1])) else "")
        theirs = _frames(told)
        if {v for _, v in ours} & {v for _, v in theirs}:
            return None
        clash = [(w, v) for w, v in theirs if any(w == mine for mine, _ in ours)]
        if clash:
            return "number", claim, f"{clash[0][0]} {clash[0][1]}", told
    return None
