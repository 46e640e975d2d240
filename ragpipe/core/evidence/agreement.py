"""How an answer agrees with a reference answer, read the way a person reads it.

A person asks two things: does the answer state what the reference states (its key terms:
the words of the reference that the question does not already give), and does it state
something else in their place (another name, number or date: a conflict)? Words the answer
repeats from the question are neither credit nor blame, and true detail it adds is no error.
Terms match across spellings: case, width, accents, light stemming, spelled-out numbers, and
a reference whose accented letters were lost ("Beyonc" for "Beyoncé").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache

from rapidfuzz.fuzz import ratio

from ragpipe.core.evidence.clock_minutes import other_time_of_day, timed_facts
from ragpipe.core.evidence.facts import EN_SCALES, EN_UNITS, VALUE_CLAUSE, Facts, common_word, facts, fold, negated
from ragpipe.core.evidence.counts import in_evidence_terms
from ragpipe.core.evidence.zh_names import zh_dotted
from ragpipe.core.text import EN_STOPWORDS, content_tokens, en_value_words, is_chinese, jieba_ready, stem, y_spelled

_VOWELS = set("aeiouy")
PARENTHESIS = re.compile(r"\([^()]*\)|（[^（）]*）")
_NUMBER_WORDS = frozenset([*EN_UNITS, *EN_SCALES])
_NUMBER_TERMS = _NUMBER_WORDS | {stem(w) for w in _NUMBER_WORDS}  # as ``terms`` writes them: "hundr"
SPELLED_NUMBERS = "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True))
# A number, in digits or words, with the unit before it ("$", "£") or after it ("%", "pounds", "万", "处").
_NUMBER_UNIT = re.compile(rf"([$£€¥])?\s?(?:\d[\d,.]*(?:/\d+)?|\b(?:{SPELLED_NUMBERS})(?:[\s-]+(?:and\s+)?(?:{SPELLED_NUMBERS}))*\b)"
                          r"\s*(%|(?!(?:to|and|or|through)\b)[A-Za-z]+|(?![至到或])[\u4e00-\u9fff])?", re.I)
# What joins the two ends of a range ("60 to 100 beats", "3-5天", "2至3年"): its start has its end's unit.
_RANGE = re.compile(r"\s*(?:-|–|—|~|～|to|and|or|through|至|到|或)\s*", re.I)
_INITIALS = re.compile(r"\b(?:[A-Za-z]\.\s?){2,}")
# What follows a noun phrase's head in English ("bottle of poison", "Hollywood Park in L.A.").
POSTMODIFIER = re.compile(r"\s+(?:of|in|for|from|on|at|with|by)\s.*$", re.I | re.S)


@lru_cache(maxsize=65536)
def terms(text: str) -> tuple[str, ...]:
    """Content words, folded and lightly stemmed (Chinese: jieba words and their bigrams).
    Numbers are no words here: ``fact_terms`` gives them by value; "a two-year warranty" holds the words of
    "lasts two years" (``en_value_words``)."""
    words = content_tokens(text) if is_chinese(text) else (
        stem(w) for w in re.findall(r"[a-z0-9]+(?:['-][a-z0-9]+)*", en_value_words(fold(text).replace("’", "'")))
        if w not in EN_STOPWORDS)
    return tuple(w for w in words if not re.search(r"\d", w))


@lru_cache(maxsize=65536)
def words(text: str) -> tuple[str, ...]:
    """``terms`` less the character pairs of longer Chinese words (澳大利亚 counts once, not as
    澳大利亚, 澳大, 大利, 利亚): for counting how much of one text another holds."""
    found = terms(text)
    longer = [t for t in found if len(t) > 2 and not t.isascii()]
    return tuple(t for t in found if len(t) != 2 or t.isascii() or not any(t in w for w in longer))


def fact_terms(f: Facts) -> list[str]:
    """A text's numbers and dates as terms that match by value: "#10", "#y1993", "#m3", "#d3-5"."""
    return ([f"#{v:g}" for v in sorted(f.numbers)] + [f"#y{y}" for y in sorted(f.years)]
            + [f"#m{m}" for m in sorted(f.months)] + [f"#d{m}-{d}" for m, d in sorted(f.days)])


def _lost_letters(short: str, long: str) -> bool:
    """``short`` is ``long`` with only vowels missing, as a reference stripped of its accented
    letters reads ("beyonc" / "beyonce", "lszl" / "laszlo")."""
    if len(short) < 2 or len(long) - len(short) > 3 or not short.isascii():
        return False
    rest = iter(long)
    missing = 0
    for ch in short:
        for other in rest:
            if other == ch:
                break
            if other not in _VOWELS:
                return False
            missing += 1
        else:
            return False
    return all(ch in _VOWELS for ch in rest) and len(long) > len(short)


@lru_cache(maxsize=262144)
def term_match(a: str, b: str) -> bool:
    """One term stands for the other: equal, a stem of it, one with lost accented letters,
    or a near spelling of a long word."""
    if a == b or a.replace("-", "") == b.replace("-", ""):
        return True
    if not (a.isascii() and b.isascii()) or a.isdigit() or b.isdigit():
        return False
    if y_spelled(a) == y_spelled(b):  # "dried" / "dry", "applied" / "apply"
        return True
    short, long = sorted((a, b), key=len)
    if len(short) >= 4 and long.startswith(short) and len(long) - len(short) <= 3:
        return True
    if _lost_letters(short, long):
        return True
    return len(short) >= 6 and ratio(a, b) >= 88


def found_in(term: str, others) -> bool:
    return term in others or any(term_match(term, other) for other in others)


_BOUND = re.compile(r"^\W*(?:no|not) (?:more|less|fewer|later|earlier) than\s+", re.I)
# A place or time phrase is a value too: "To the front desk." answers "Where…?" as "The front desk." does.
_LEADING_PREPOSITION = re.compile(r"^\W*(?:to|at|in|on|by|from|into|onto|inside|behind|near|under|after|before|until)\s+(?:the|a|an)?\s*", re.I)


def elliptical(statement: str) -> bool:
    """A reply that is only a value or a name ("20%。", "Canberra.", "2006年"): it asserts
    nothing without the question it answers."""
    if is_chinese(statement):  # a few characters, at most three words ("堪培拉。", "20%。", "2006年")
        tokens = [w for w in jieba_ready().lcut(statement) if re.search(r"\w", w)]
        return len(re.sub(r"[\W_]", "", statement)) <= 8 and len(tokens) <= 3
    # A spelled number is a value, as its digits are ("Roughly eight hours." as "Roughly 8 hours."); "no more
    # than" is part of the value, as "at most" is ("No more than three.").
    statement = _LEADING_PREPOSITION.sub("", _BOUND.sub("", statement))
    return len(statement.split()) <= 3 and len([t for t in terms(statement) if t not in _NUMBER_TERMS]) <= 2


# A bare reply ("Yes.", "不需要。") answers the question but says nothing a passage can support
# by itself; the statements after it carry the content.
# "不用自己带" answers "需要自带…吗？" as 不用 does: "no need to bring one", what no evidence words so.
BARE_REPLY = re.compile(r"^\W*(?:yes|yeah|yep|no|nope|correct|incorrect|是的?|不是|对的?|不对|能|不能|可以的?|不可以|需要|不需要|"
                        r"会的?|不会|有的?|没有|不行|不用|不必|(?:不用|不需要|无需|不必)(?:自己|自行)?(?:带|自带|自备))\W*$", re.I)
_ASKING_MARKS = re.compile(r"[?？]|[吗呢](?=\W*$)|是否")


def opening_reply(statement: str, question: str) -> tuple[str, str] | None:
    """The opening bare reply of a statement ("Yes, parking is free", or the question's own verb, said
    or denied: "支持，这款洗衣机带有烘干功能" / "不开放，周一闭馆" to "…支持烘干吗？" / "…开放吗？") and the
    claim after it; None without one."""
    parts = re.split(r"[,，.。!！;；:：](?!\d)", statement, maxsplit=1)
    if len(parts) < 2 or not parts[1].strip():
        return None
    opening = [w for w in words(parts[0]) if not negated(w)]
    echo = len(opening) == 1 and opening[0] in words(question or "")
    return (parts[0], parts[1].strip()) if BARE_REPLY.match(parts[0]) or echo else None


def asked_as_said(question: str) -> str:
    """A yes/no question as the statement a yes to it asserts ("这个药可以和酒一起吃吗？" says
    "这个药可以和酒一起吃", "Can I bring my dog?" "Can I bring my dog")."""
    return _ASKING_MARKS.sub("", re.sub(r"(可|\w)不\1", r"\1", question)).strip()


def in_context(question: str, text: str) -> str:
    """An elliptical reply read as the answer to its question ("小型微利企业税率：20%。"), so that
    its value must sit where the question points; any other text as it is."""
    question = re.sub(r"[\s?？。.!！]+$", "", question or "")
    return f"{question}: {text.strip()}" if question and elliptical(text) else text


@dataclass
class Agreement:
    """What an answer shares with a reference, and where it says something else."""

    key_terms: list[str]          # the reference's terms the question does not give
    matched: list[str]            # of those, the ones the answer states
    answer_new: list[str]         # the answer's terms the question does not give
    answer_extra: list[str]       # of those, the ones the reference lacks
    conflicts: list[str] = field(default_factory=list)  # "number 12 for 10", "name london for paris", …

    @property
    def recall(self) -> float:
        return len(self.matched) / len(self.key_terms) if self.key_terms else 1.0

    @property
    def precision(self) -> float:
        return 1 - len(self.answer_extra) / len(self.answer_new) if self.answer_new else 1.0


def _conflicts(answer: Facts, reference: Facts, question: Facts, answer_terms, recall: float,
               units: tuple[dict, dict] = ({}, {})) -> list[str]:
    """Typed facts the reference states and the answer replaces: a different number (and
    none of the reference's, or, where it states some, another of the same unit where one is
    missing: "29 stone, 406 pounds" for "29 stone 12 pounds", "1/4处" for "1/3处"; ``units``
    maps each number of the answer and of the reference to its units, and is empty where
    that is not to be read), a different year, month or day (one of the
    reference's missing and another given), a different name in the
    reference's name's place (none of the reference's names stated, and less than half of
    its key terms: "Denmark" answers "Kingdom of Denmark")."""
    found = []
    wanted = set(reference.numbers) - question.numbers
    given = set(answer.numbers) - question.numbers
    missing, other = wanted - given, given - wanted
    if missing and other and (not wanted & given or any(units[0].get(g, set()) & units[1].get(w, set())
                                                          for g in other for w in missing)):
        found.append(f"number {_show(other)} for {_show(missing)}")
    # A date of the answer's in place of one of the reference's is another date, whatever else both share:
    # "5月到7月" for "7月至9月".
    for kind in ("years", "months", "days"):
        want = getattr(reference, kind) - getattr(question, kind)
        got = getattr(answer, kind) - getattr(question, kind)
        if want - got and got - want:
            found.append(f"{kind[:-1]} {_show(got - want)} for {_show(want - got)}")
    # A name the question gives is no answer; one that adds words to it is ("Franklin D. Roosevelt" to "Which Roosevelt…").
    asked = lambda name: name_in(name, question.names, one_way=not is_chinese(name))  # noqa: E731
    listed = [_items(n) for n in reference.names if not asked(n)]
    wanted_names = [item for items in listed for item in items]
    answer_names = [item for n in answer.names for item in _items(n)]
    stated = lambda name: name_in(name, answer_names) or all(found_in(w, answer_terms) for w in terms(name))  # noqa: E731
    # None of the reference's names stated and less than half of its key terms; or, where both
    # list names, one of the reference's missing and at most half of its key terms ("Canada and
    # Mexico" for "Canada and the United States").
    replaced = (recall < 0.5 and not any(stated(n) for n in wanted_names)
                or recall <= 0.5 and any(len(_items(n)) > 1 for n in answer.names)
                and any(len(items) > 1 and not all(stated(n) for n in items) for items in listed))
    if wanted_names and replaced:
        other = [n for n in answer_names if not asked(n) and not name_in(n, wanted_names)
                 and (not shares_word(n, wanted_names) or any(_another(n, w) for w in wanted_names))]
        if other:
            found.append(f"name {', '.join(other[:3])} for {', '.join(wanted_names[:3])}")
    # A name that keeps a word of a reference name the answer does not state and puts another in the
    # place of the rest is another name ("Davis Cup" for "Rider cup", "Beach Handball" for "Beach Football"),
    # unless the answer states another of the reference's names: then it gives part of a longer reference
    # ("…from the Heritage Commission" for "The Old Town Heritage Building Grant covers…, and … the Heritage Commission").
    near = [(n, w) for n in answer_names for w in wanted_names if not asked(n) and not stated(w) and _another(n, w)]
    if recall <= 0.5 and near and not found and not any(stated(n) for n in wanted_names):
        found.append(f"name {near[0][0]} for {near[0][1]}")
    return found


def _another(name: str, other: str) -> bool:
    """Two names that share a word of their heads and differ in another ("Theodore Roosevelt", "Franklin
    D. Roosevelt"); a word shared only after "of" is no part of the head ("Prime Minister of Canada",
    "Dominion of Canada")."""
    head, other_head = (re.split(r"\s+of\s+", n, maxsplit=1)[0] for n in (name, other))
    return shares_word(head, [other_head]) and not shares_word(name, [other], strict=True)


def _items(name: str) -> list[str]:
    """The names a listing name joins ("canada and the united states": "canada", "united states");
    one name where an item is only common words ("tokyo city and prefecture")."""
    items = [item for item in re.split(r"\s+and\s+(?:the\s+)?", name) if item]
    named = len(items) > 1 and all(any(not common_word(w) for w in item.split()) for item in items)
    return items if named else [name]


def name_in(name: str, names, one_way: bool = False) -> bool:
    """A name is among others when their words match one way or the other ("Scott" in
    "Sir George Gilbert Scott", "George Gilbert Scott" in it too); ``one_way``: its words are in one of them."""
    words = terms(name) or (name,)
    for other in names:
        other_words = terms(other) or (other,)
        if all(found_in(w, other_words) for w in words) or not one_way and all(found_in(w, words) for w in other_words):
            return True
    return False


def shares_word(name: str, names, strict: bool = False) -> bool:
    """"Sunset Boulevard" and "Sunset Blvd" may be one name spelt two ways; "Charles Dickens" and
    "William Shakespeare" are two. ``strict``: so are "Theodore Roosevelt" and "Franklin D. Roosevelt",
    where each has a word the other lacks that cannot be its short form (another first letter)."""
    words = terms(name)
    for other in names:
        theirs = terms(other)
        ours_only = {w[0] for w in words if not found_in(w, theirs)}
        theirs_only = {w[0] for w in theirs if not found_in(w, words)}
        two = strict and ours_only and theirs_only and not ours_only & theirs_only
        if any(found_in(w, theirs) for w in words) and not two:
            return True
    return False


def _show(values) -> str:
    return ", ".join(f"{v:g}" if isinstance(v, float) else str(v) for v in sorted(values, key=str)[:3])


def worded(text: str) -> list[str]:
    """``terms`` as a reference is matched: initials joined ("J.G. Ballard" is "JG Ballard"),
    no apostrophes ("Xi'an" is "Xian"), and no spelled-out numbers, which ``fact_terms`` gives
    by value ("twenty nine stone" against "29 stone" misses no word)."""
    text = _INITIALS.sub(lambda m: re.sub(r"[.\s]", "", m.group(0)) + " ", text)
    return [t.replace("'", "") for t in terms(text) if t not in _NUMBER_WORDS]


def _given(question: str) -> set[str]:
    """The question's terms, numbers and dates: an answer that repeats them states nothing by it."""
    return set(worded(question)) | set(fact_terms(facts(question)))


def _joined(found: list[str]) -> list[str]:
    """Terms with each pair of neighbouring words also written as one ("bee keeper" is "beekeeper")."""
    return found + [a + b for a, b in zip(found, found[1:]) if a.isalpha() and b.isalpha() and a.isascii() and b.isascii()]


def agreement(answer: str, reference: str, question: str = "") -> Agreement:
    """The answer against the reference, with the question's words taken as given, and its
    quantities as the reference writes them ("4.5小时" for "四个半小时")."""
    answer = in_evidence_terms(answer, reference, question)
    question_facts = facts(question)
    given = _given(question)
    # A parenthesis in a reference qualifies it ("Elephant (disambiguation)", "Belshazzar (Daniel 5)"):
    # its words are welcome in an answer but not required.
    core = PARENTHESIS.sub(" ", reference).strip() or reference
    core_facts, core_clock = timed_facts(core)
    reference_terms = list(dict.fromkeys([*worded(core), *fact_terms(core_facts), *core_clock]))
    # A reference in a script without words here ("عدنان خاشقجي") is one term, stated only where the answer writes it.
    unread = fold(core).strip() if not reference_terms and not fold(core).isascii() and not is_chinese(core) else None
    key = [t for t in reference_terms if not found_in(t, given)] or reference_terms or ([unread] if unread else [])
    answer_facts, answer_clock = timed_facts(answer)
    answer_terms = list(dict.fromkeys([*worded(answer), *fact_terms(answer_facts), *answer_clock]))
    answer_joined = _joined(answer_terms)
    # A key term is stated alone, as part of a word the answer writes as one with its neighbour, or
    # as two words.
    split = {t for a, b in zip(key, key[1:]) if a.isalpha() and b.isalpha() and found_in(a + b, answer_terms) for t in (a, b)}
    # A Chinese key term may also be written with the kind of thing the question asks for ("铁元素" to
    # "…哪种元素？": 铁), and that word is then no term of the answer's own.
    classed = {a: t for t in key if is_chinese(t) for a in answer_terms if a.startswith(t) and a[len(t):] in given}
    matched = [t for t in key if t in split or found_in(t, answer_joined) or t in classed.values()
               or t == unread and t in fold(answer)]
    reference_facts, reference_clock = timed_facts(reference)
    all_reference = _joined(list(dict.fromkeys([*worded(reference), *fact_terms(reference_facts), *reference_clock])))
    new = [t for t in answer_terms if not found_in(t, given) and not any(t in a and t.startswith(classed[a]) for a in classed)]
    extra = [t for t in new if not found_in(t, all_reference)]
    recall = len(matched) / len(key) if key else 1.0
    # Where a reference of one clause states some numbers, another of the same unit in the answer
    # stands in a missing one's place; in a reference of several clauses it may be another fact.
    one_clause = not VALUE_CLAUSE.search(re.sub(r"(?<=\d),(?=\d)", "", core))  # "1,000" is one number
    units = (number_units(answer), number_units(core)) if one_clause else ({}, {})
    # A bare reference names its answer first; what a comma adds qualifies it ("Barcelona, Spain", "Charles,
    # Prince of Wales"), so the names the answer must state are the first part's, and a bare reply is no
    # sentence: its capitalised first word is a name ("Barcelona"). "Madrid, Spain" replaces Barcelona.
    reference_facts, named_recall = core_facts, recall
    if elliptical(core) and not is_chinese(core):
        named = core.split(",")[0]
        named_key = [t for t in worded(named) if t in key]
        if not named_key:  # the question gives the first part ("Cleveland, Ohio" to "…the Cleveland Indians…")
            named, named_key = core, key
        named_recall = sum(t in matched for t in named_key) / len(named_key) if named_key else recall
        # (all of it one name too: "Rider cup", whose "cup" is no capital)
        reference_facts = replace(reference_facts, names=tuple(dict.fromkeys([*facts(f"It is {named}").names, fold(named)])))
    # A dotted name is one person (玛丽·居里), not its parts, and its surname names him: 玛丽·安托瓦内特 is another.
    dotted = zh_dotted(answer) + zh_dotted(core)
    if dotted:
        reference_facts, answer_facts = (replace(f, names=(*zh_dotted(text), *(n for n in f.names if not any(n in d for d in dotted))))
                                         for f, text in ((reference_facts, core), (answer_facts, answer)))
    if zh_dotted(core) == (core,):
        surname = terms(core.split("·")[-1])
        named_recall = sum(found_in(t, matched) for t in surname) / len(surname) if surname else named_recall
    other_time = other_time_of_day(answer, core, question)
    return Agreement(key, matched, new, extra, _conflicts(answer_facts, reference_facts, question_facts, answer_terms,
                                                          min(recall, named_recall), units) + ([other_time] if other_time else []))


def number_units(text: str) -> dict[float, set[str]]:
    """Each number of a text with the units written beside it: "$" and "million" for "$18.4
    million", "pound" for "12 pounds", "万" for "30万元", "处" for "1/3处"."""
    found: dict[float, set[str]] = {}
    start: set[float] = set()  # the numbers of a range's start, without a unit of their own
    for match in _NUMBER_UNIT.finditer(text):
        units = {u.lower().removesuffix("s") if u.isascii() else u for u in match.groups() if u}
        values = facts(match.group(0)).numbers
        for value in values | start:
            found.setdefault(value, set()).update(units)
        follows = _RANGE.match(text, match.end())
        start = set(values) if not units and follows and _NUMBER_UNIT.match(text, follows.end()) else set()
    return found
