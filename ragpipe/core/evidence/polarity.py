"""Opposite statements, found by rule: the evidence clause that speaks of what a statement speaks of negates
what the statement affirms (or the other way round), has the antonym of one of its words ("increased" /
"decreased", "允许" / "禁止"), or forbids what it permits ("禁用" / "可以放心服用"). Also here, shared with the
other rules of contradiction.py and limits.py: how a sentence is cut into clauses, and which sentences speak
of a statement's words."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragpipe.core.evidence.activities import activity_worded
from ragpipe.core.evidence.agreement import found_in, words
from ragpipe.core.evidence.antonyms import ANTONYMS, negated_at
from ragpipe.core.evidence.antonyms import free_worded, stems_in as _stems_in
from ragpipe.core.evidence.denied_inside import denied_inside
from ragpipe.core.evidence.facts import facts, fold, negated
from ragpipe.core.evidence.lists import member_named
from ragpipe.core.evidence.negated_words import plainly, prefixed, word_denied
from ragpipe.core.evidence.object_antonyms import antonym_on_the_object
from ragpipe.core.evidence.stances import INCLUSION, MODALITY, OPPOSITE
from ragpipe.core.text import is_chinese

# A clause restates a statement (but for its polarity) when this share of its words are the statement's.
RESTATED = 0.6
# A sentence speaks of what a statement speaks of when it holds this share of the
# statement's other words (at least two of them, or its only one).
ALIGNED_SHARE = 0.6
# A Chinese locative places what the noun before it names: one the evidence never writes is no word of a rule's own
# (宴会厅里 / 宴会厅内); one it writes aligns as any word does (馆内 / 图书馆内).
_LOCATIVES = frozenset("里内中上")
# Said once for a sentence's subject, whichever clause holds the predicate: "classified Pluto
# as a dwarf planet, no longer as a planet", "…归类为矮行星，它不再属于行星".
_SENTENCE_WIDE = frozenset({"no longer", "不再"})
# A list that includes what it bounds continues its clause: "open every day, including public holidays". A second
# predicate of one subject is a clause of its own: "opens at 9 a.m. on weekdays and is closed on Sundays".
_CLAUSE = re.compile(r",(?!\s*(?:including|such as)\b)|，(?!包括)|[;:；：]|\band\s+(?=(?:is|are|was|were)\s)"
                     r"|\s--?\s|—|\b(?:but|while|whereas|although)\b|但是?|而|然而")
# Words that bound a value negate no predicate: "允许携带一件不超过7公斤的行李" allows it.
_BOUND = re.compile(r"不[得应能可宜]?(?:超过|高于|多于|低于|少于)|\b(?:not?|never)\s+(?:(?:be|is|are|has|have|take|takes|last|lasts|cost|costs)\s+)?"
                    r"(?:more|less|fewer|later|earlier|longer) than\b", re.I)  # "never have more than ten students"
# A duty, however worded: "is not required to return the deposit" denies "must return the deposit".
DUTY = re.compile(r"\b(?:must|shall|required|obliged|obligated|ha(?:s|ve) to)\b|必须|务必|应当|需要", re.I)
_DUTY_WORDS = frozenset({"requir", "require", "oblig", "obligat", "need", "必须", "务必", "须"})  # as words() gives them
# A negation under a condition asserts nothing ("if you do not report income").
_CONDITION = re.compile(r"\b(?:if|unless|when|whether)\b|如果|若|除非|假如", re.I)
# "can" and "cannot" say what is possible as often as what is allowed ("the latter can be made by
# the body" / "essential amino acids cannot be made by the body"): they agree with a modal word, but
# oppose only an explicit one ("Children under 12 can use it" / "must not be used by children"). So does
# an imperative "do not", as often advice as a rule ("Don't allow the soil to dry out" / "The soil can be…").
_ABILITY = re.compile(r"\bcan(?:not|['’]t)?\b|\bcould(?:n['’]t|\s+not)\b|\bcan\s+not\b"
                      r"|^\s*(?:please\s+)?(?:do\s+not|don['’]t|never)\b", re.I)
# A limit is no prohibition ("cannot exceed 2 hours", "不得超过"), a question or a how-to no permission.
_MODAL_BOUND = re.compile(r"\b(?:cannot|can['’]t|must not|may not|should not|not|never)\s+exceeds?\b", re.I)
_ASKS = re.compile(r"[?？]|\b(?:how|what|whether|why)\b|怎么|如何|是否|吗", re.I)
# Advice and safety speak of using the thing: "Not recommended for children under 12" says what "Children under 12
# should not take it" says, so there the statement's verb of use need not stand in the evidence too (Chinese: _held
# finds the verb inside 禁用 already).
_ADVICE = re.compile(r"\b(?:recommend\w*|advis\w*|suitable|safe(?:ly)?)\b|建议|推荐|放心", re.I)
_USE = re.compile(r"tak(?:e|en|ing)|us(?:e|ed|ing)|consum(?:e|ed|ing)?|eat(?:en|ing)?|drink(?:ing)?|appl(?:y|i|ied|ying)"
                  r"|giv(?:e|en|ing)|administer(?:ed|ing)?")


def overlap(frame: Sequence[str], sentence_terms: Sequence[str]) -> int:
    return sum(found_in(t, sentence_terms) for t in frame)


def aligned_with(frame: list[str], sentences: list[str], sentence_terms: list[tuple[str, ...]]) -> list[int]:
    """The sentences that hold the most of ``frame``, when that is enough to speak of it."""
    if not frame:
        return []
    scores = [overlap(frame, t) for t in sentence_terms]
    best = max(scores, default=0)
    if best < max(min(2, len(frame)), ALIGNED_SHARE * len(frame)):
        return []
    return [i for i, s in enumerate(scores) if s == best]


def clauses_of(sentence: str) -> list[str]:
    return [c for c in _CLAUSE.split(sentence) if c and c.strip()]


def _predicate_clauses(statement_terms: list[str], sentences: list[str], pairs: list[tuple[str, str]],
                       rest: bool = False) -> list[str]:
    """The evidence clauses that speak of what the statement speaks of: the clauses that hold enough of its
    words (with, ``rest``, the clause after that holds the rest); else, in the sentences that do, the clause
    holding most of them (the later on a tie: "抗生素对病毒无效，因此不能治疗普通感冒" carries its subject in
    the first). Where none does, the antonym of a statement's word holds its place: "On weekends it is closed"
    speaks of what "…open from 10 a.m. to 6 p.m. on weekends" speaks of; and in a sentence that lacks the
    word itself, it counts in the choice of its clause ("…east lot, which is open on weekends")."""
    of = [(c, s) for s in sentences for c in clauses_of(s)]
    clauses = [c for c, _ in of]

    def with_antonyms(text: str, sentence: str) -> tuple[str, ...]:  # and, beside an antonym or a halt, a Chinese
        opposed = _HALTED.search(text) or any(theirs in _stems_in(text) for _, theirs in pairs)  # word inside a longer
        return words(text) + _antonyms_held(statement_terms, text, sentence, pairs) + tuple(  # one ("功能测试…下线")
            t for t in statement_terms if opposed and len(t) >= 2 and not t.isascii() and t in text and t not in words(text))

    for held in (lambda text, _: words(text), with_antonyms):
        aligned = aligned_with(statement_terms, clauses, [held(c, s) for c, s in of])
        if aligned:
            return [c for i in aligned for c in (clauses[i], *(_rest_of_predicate(statement_terms, *of[i]) if rest else ()))]
        found = []
        for i in aligned_with(statement_terms, sentences, [held(s, s) for s in sentences]):
            parts = clauses_of(sentences[i])
            found.append(max(reversed(parts), key=lambda c: overlap(statement_terms, with_antonyms(c, sentences[i]))))
        if found:
            return found
    return []


def _rest_of_predicate(statement_terms: list[str], clause: str, sentence: str) -> list[str]:
    """The sentence's other clause holding the most (two at least) of the statement's words the aligned clause
    lacks: the subject may stand in one clause, the predicate in the next ("…脱水功能，不支持烘干")."""
    lacked = [t for t in statement_terms if not found_in(t, words(clause))]
    held = sorted(((overlap(lacked, words(c)), c) for c in clauses_of(sentence) if c != clause), reverse=True)
    return [held[0][1]] if held and held[0][0] >= 2 and (len(held) == 1 or held[1][0] < held[0][0]) else []


def _antonyms_held(statement_terms: list[str], text: str, sentence: str,
                   pairs: list[tuple[str, str]]) -> tuple[str, ...]:
    """The statement's first word whose antonym the text has ("clos" where it says "open") and its
    sentence lacks: one word in place of another, not "south" and "southwest" both where it says
    "northwest", nor "increased" where the sentence says it too ("decreased in 2019 but increased in 2020")."""
    found, whole = _stems_in(text), _stems_in(sentence)
    return tuple(t for t in statement_terms for ours, theirs in pairs
                 if theirs in found and ours not in whole
                 # a Chinese stem jieba cuts in two ("最便宜": 最 / 便宜) is held by its longer part, "in person" by "person"
                 and (ours in t or len(t) >= 2 and t in ours if not ours.isascii()
                      else t.startswith(ours.split()[-1])))[:1]


def _restates(clause: str, statement: str) -> bool:
    """One says what the other says, but for the polarity: most of its words are the other's
    ("因此不能治疗普通感冒" / "抗生素可以治疗普通感冒"), not a neighbouring fact ("thus they are not
    essential to obtain from your diet" / "must be obtained from the diet")."""
    held = {t for t in words(clause) if not facts(t).negated}  # the negation is the difference, not a word apart
    return bool(held) and sum(found_in(t, words(statement)) for t in held) >= RESTATED * len(held)


def _contained(clause: str, statement: str) -> bool:
    """The clause holds every word of the statement, at least three: "The X200 warranty does
    not cover the battery." inside "… a two-year limited warranty covering the motor and battery".
    Asked only of a negated statement: a negation in a long clause may belong to another part
    of it ("a combination of compounds that are not chemically bonded"). Where the clause
    states a duty, the statement's duty words need not be its very words ("is not required to
    return" / "must return")."""
    held = [t for t in dict.fromkeys(words(statement)) if not facts(t).negated]
    if DUTY.search(clause):
        held = [t for t in held if t not in _DUTY_WORDS]
    return len(held) >= 3 and set(held) <= set(words(clause))  # the very words: a stem match ("produced" in "products") is too loose


def _same_words(clause: str, sentence: str, statement_terms: list[str], held: str | None = None) -> bool:
    """A short statement and a whole sentence that hold the very same words but the negation ("Parking
    is free." / "Parking is not free."): too few words to call a restatement by share, but no other
    reading. A clause of a longer sentence counts where no other clause of it negates or sets a condition ("Lockers
    are free; bring your own padlock."): one may negate another ("Neither the suspect nor the officer who were injured
    has been named."), or limit it ("If you stay over 3 hours, the parking fee is $12."). ``held``: the clause's words
    that count (its list members the statement names, ``member_named``)."""
    alone = clause.strip() == sentence.strip() or not any(
        _negates(c) or _CONDITION.search(c) for c in clauses_of(sentence) if c != clause)
    return alone and {t for t in words(held or clause) if not facts(t).negated} == set(statement_terms)


# A cause says why, not whether: the 不 of "因收入证明不足被拒" ("turned down for want of proof of income") is no
# negation of 拒, nor the "not" of "rejected because it was not signed" one of "rejected".
_CAUSE = re.compile(r"(?:因为?|由于)[^，。,；;被而]*|\b(?:because|due to|owing to|as a result of)\b[^,;.]*", re.I)


def _uncaused(text: str) -> str:
    return _CAUSE.sub(" ", fold(text))


# A purpose says why the predicate is done, not what it is: the words and the "not" of "dried slowly so they don't
# crack", "慢慢阴干，以免开裂" are no part of what the evidence's clause is read against.
_PURPOSE = re.compile(r",?\s*\bso(?:\s+that)?\s+(?:\w+\s+)?(?:do(?:es)?n['’]t|do(?:es)?\s+not|won['’]t|will\s+not|can(?:not|['’]t)|never)\b[^,;]*"
                      r"|,?\s*\b(?:so as|in order)\s+not\s+to\b[^,;]*|[，,]\s*(?:以免|以防|免得)[^，,；;]*", re.I)  # 以免 after a comma: "可以免费" holds it too


# A halt says "not" of what it halts: "暂停营业" says what "不营业" says.
_HALTED = re.compile(r"暂停|停止")


def _negates(text: str) -> bool:
    return negated(_BOUND.sub(" ", text)) or bool(_HALTED.search(text))


def polarity_conflict(statement: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """The evidence clause that speaks of what the statement speaks of says the opposite: one
    negates and the other does not, or one has a word the other has its antonym for: the kind
    ("negation", "antonym"), what the statement says, what the evidence says, and the clause."""
    by_prefix = prefixed([statement, *sentences])  # "non-refundable" / "refundable": negated_words
    # "at no cost" says "free"; "take photos" says "photography" (activities)
    statement, sentences = free_worded(activity_worded(statement)), [free_worded(activity_worded(s)) for s in sentences]
    statement, sentences = plainly(statement, sentences), [plainly(s, [statement]) for s in sentences]
    statement = _PURPOSE.sub("", statement).strip() or statement
    # A Chinese pronoun ("这家酒店" / "本酒店") points at what the evidence names: no word to align.
    statement_terms = [w for w in dict.fromkeys(words(statement)) if not pronoun(w)]
    stated = _stems_in(statement)
    pairs = [(ours, theirs) for ours, theirs in [*ANTONYMS, *((y, x) for x, y in ANTONYMS)]
             if ours in stated and theirs not in stated]
    # A Chinese stem words() drops (通过 is also "by way of") is a word where the evidence has its antonym (否决).
    statement_terms += [ours for ours, theirs in pairs if not ours.isascii() and not any(ours in t for t in statement_terms)
                        and any(theirs in s for s in sentences)][:1]
    of = [(c, s) for s in sentences for c in clauses_of(s)]
    clauses = [c for c, _ in of]
    if len(statement_terms) < 2:
        return denied_inside(statement, statement_terms, clauses)
    denies = _negates(statement)
    single = len(clauses_of(statement)) == 1
    stance, held_in = modality(statement), modality(statement, INCLUSION)
    # An affirmative statement's predicate only is sought in the next clause: a negated one's negation may stand in a
    # part the evidence cuts otherwise ("students who have not found employment … should have their debts forgiven").
    aligned = _predicate_clauses(statement_terms, sentences, pairs, rest=not denies)
    for clause in aligned:
        sentence = next((s for s in sentences if clause in s), clause)
        found = _stems_in(clause) | (_stems_in(sentence) & _SENTENCE_WIDE)
        # Where a clause beside it names the statement's subject (its first word) and says the statement's word, an
        # antonym in a clause without that subject speaks of another thing ("A bath costs $35, and a nail trim is
        # included at no extra charge"); not so where the antonym's clause names it ("在本行ATM取款免费，跨行取款每笔收取2.5元").
        said_beside = set() if found_in(statement_terms[0], words(clause)) else set().union(*(
            _stems_in(c) for c in aligned if c != clause and c in sentence and found_in(statement_terms[0], words(c))))
        # A negated antonym agrees: "not open" says what "closed" says, "周一不开放" what "周一闭馆" says.
        # A sentence that names both extremes gives a range ("最低1%，最高5%", "the most expensive ticket costs
        # $90, the cheapest $20"): the values, not the words, say which is the statement's; and one that names
        # another subject gives the other end ("Southwest has the highest share" / "JetBlue, the lowest share").
        opposed = [(ours, theirs) for ours, theirs in pairs if theirs in found and ours not in found | said_beside
                   and not (_extreme(ours) and (ours in _stems_in(sentence) or _names_another(statement, sentence)))]
        agreeing = [pair for pair in opposed if (_negates(_uncaused(statement).replace(pair[0], " ")) or negated_at(statement, pair[0]))
                    != (_negates(_uncaused(clause).replace(pair[1], " ")) or negated_at(clause, pair[1]))]
        denied = word_denied(clause, statement, statement_terms, by_prefix)
        # Of a list the clause negates, the member the statement names ("do not repair smartwatches or fitness trackers");
        # an affirmative clause stays whole: its "and" may join a second predicate ("…as rape and tend to overlook touching").
        named = member_named(clause, statement_terms) if _negates(clause) else clause
        if (single and (len(statement_terms) >= 3 or _same_words(clause, sentence, statement_terms, named) or denied) and _negates(named) != denies
                and not (stance and modality(clause) == stance)  # "禁止带宠物进入" / "宠物不得进入": both forbid
                and not (held_in and modality(clause, INCLUSION) == held_in)  # "does not cover" / "is excluded"
                and not _CONDITION.search(clause) and not agreeing
                and (_restates(named, statement) or denies and _contained(clause, statement) or denied)):
            return "negation", statement.strip(), clause.strip(), clause
        for ours, theirs in opposed:
            if (ours, theirs) not in agreeing:
                return "antonym", ours, theirs, clause
    return ((stance and _modality_conflict(statement, stance, sentences))
            or (held_in and _modality_conflict(statement, held_in, sentences, INCLUSION))
            or antonym_on_the_object(statement, statement_terms, of, pairs)
            or denied_inside(statement, statement_terms, clauses))


def modality(text: str, lexicon=MODALITY) -> str | None:
    """"permit", "forbid", "require" or "exempt" (of ``INCLUSION``: "include", "exclude") when every clause of
    the text that says one says the same (the first form found in a clause is its word), else None."""
    said = set()
    for clause in clauses_of(text):
        rest = _MODAL_BOUND.sub(" ", _BOUND.sub(" ", clause))
        for kind, pattern in lexicon:
            if pattern.search(rest):
                said.add(kind)
                break
    return said.pop() if len(said) == 1 else None


def _modality_conflict(statement: str, stance: str, sentences: list[str],
                       lexicon=MODALITY) -> tuple[str, str, str, str] | None:
    """The evidence clause that speaks of what the statement speaks of forbids what it permits,
    or exempts from what it requires, or the other way round: "本品孕妇禁用" / "孕妇可以放心服用".
    The modal words are left out of the words that align the two: they are the difference. One word
    left aligns where both put it beside their modal words ("No reservation is needed." / "Reservations
    are required for all tables…"). Of ``INCLUSION``: leaves out what it holds in ("The plan covers dental
    care." / "Dental care is excluded from the plan."), a negation said by a word."""
    frame = [h for w in dict.fromkeys(words(_without_modality(statement, lexicon)))
             if not pronoun(w) and w not in _DUTY_WORDS and (w not in _LOCATIVES or any(w in s for s in sentences))
             for h in _halves(w, sentences)]
    if lexicon is MODALITY and not is_chinese(statement) and any(_ADVICE.search(t) for t in (statement, *sentences)):
        frame = [w for w in frame if not _USE.fullmatch(w)] or frame
    if not frame or len(frame) < 2 and not _beside_modal(frame[0], statement, lexicon) or _ASKS.search(statement):
        return None
    of = [(c, s) for s in sentences for c in clauses_of(s)]
    clauses = [c for c, _ in of]
    # A Chinese modal clause may leave its subject to the sentence's other clause ("会员卡仅限本人使用，不得转借"):
    # where the clause's modal word governs a word of the statement, the sentence's clauses that say no modality of
    # their own hold the rest (not "禁止使用活饵" beside "只允许使用人工饵": that clause's 活饵 is forbidden, not allowed).
    held = [max(_held(frame, c, lexicon), is_chinese(c) and bool(_objects(c, lexicon) & set(frame))
                and _held(frame, _unruled(c, s, lexicon), lexicon))
            if len(frame) > 1 or _beside_modal(frame[0], c, lexicon) else 0 for c, s in of]
    best = max(held, default=0)
    enough = max(min(2, len(frame)), ALIGNED_SHARE * len(frame))
    if best < enough or any(n >= enough and modality(c, lexicon) == stance for c, n in zip(clauses, held)):
        return None  # no clause speaks of it, or one says the same
    for clause, count in zip(clauses, held):
        if (count == best and modality(clause, lexicon) == OPPOSITE[stance] and not _condition_apart(clause, statement)
                and (_explicit(statement, lexicon) or _explicit(clause, lexicon))):
            return ("modality" if lexicon is MODALITY else "negation", _said(statement, stance, lexicon),
                    _said(clause, OPPOSITE[stance], lexicon), clause)
    return None


def _condition_apart(clause: str, statement: str) -> bool:
    """The clause rules under a condition the statement does not state: "Boats must not go out when the red flag is
    flying" says nothing of other days, but does of "You may take boats out while the red flag is flying"."""
    condition = _CONDITION.search(clause)
    if not condition:
        return False
    terms = words(clause[condition.end():])
    return not terms or overlap(terms, words(statement)) < ALIGNED_SHARE * len(terms)


def _halves(word: str, sentences: list[str]) -> list[str]:
    """A Chinese word of four characters the evidence never writes whole but writes both halves of, as its halves: a
    list before a head noun names each of its items with it ("绝育手术" in "绝育、洁牙等…手术"); else the word."""
    whole = len(word) == 4 and not word.isascii() and not any(word in s for s in sentences)
    return [word[:2], word[2:]] if whole and any(word[:2] in s and word[2:] in s for s in sentences) else [word]


def _unruled(clause: str, sentence: str, lexicon=MODALITY) -> str:
    """The clause with its sentence's clauses that say no modality of their own (where its subject may stand)."""
    return "，".join(c for c in clauses_of(sentence) if c == clause or modality(c, lexicon) is None)


def _beside_modal(word: str, text: str, lexicon=MODALITY) -> bool:
    """The text has the word among the two before its modal words or as the first after them."""
    found = next(filter(None, (pattern.search(text) for _, pattern in lexicon)), None)
    return bool(found) and found_in(word, words(text[:found.start()])[-2:] + words(text[found.end():])[:1])


def pronoun(word: str) -> bool:
    """A Chinese pronoun ("这种药" / "本品"): it points at what the evidence names in its own words."""
    import jieba.posseg

    return (jieba.posseg.dt.word_tag_tab.get(word) or "").startswith("r")


def _explicit(text: str, lexicon=MODALITY) -> bool:
    """The text says its modality with a word other than "can" / "cannot"."""
    return modality(_ABILITY.sub(" ", text), lexicon) is not None


def _held(frame: list[str], clause: str, lexicon=MODALITY) -> int:
    """How many of ``frame`` the clause holds. Chinese: as written anywhere in it, whichever
    way jieba cut it ("门店里" is cut 门 / 店里, "严禁吸烟" is one word; "骑" is in "骑行"), or as
    the verb a prohibition holds ("服用", "吃" in "孕妇禁用", "吸烟" in "禁烟"), or by the head character
    of what the modal word governs ("生火" / "禁止明火": fire, however made)."""
    if is_chinese(clause):
        governed = _governed(clause, lexicon)
        return sum(t in clause or any("禁" + ch in clause for ch in t) or len(t) == 2 and governed[-1:] == t[-1]
                   or t in "吃喝饮用食用" and "禁用" in clause for t in frame)  # a medicine is eaten as it is used
    return overlap(frame, words(clause))


def _governed(clause: str, lexicon=MODALITY) -> str:
    """The first word after a Chinese clause's modal word ("明火" of "全年禁止明火"), or ""."""
    for _, pattern in lexicon:
        found = pattern.search(clause)
        after = found and words(clause[found.end():])
        if after:
            return after[0]
    return ""


def _objects(clause: str, lexicon=MODALITY) -> set[str]:
    """What a Chinese clause's modal word governs: its first word after it, or, where the clause says what something
    holds in or leaves out, every word after it (a list: "包含10GB流量和无限通话")."""
    if lexicon is MODALITY:
        return {_governed(clause, lexicon)}
    found = next((m for _, pattern in lexicon if (m := pattern.search(clause))), None)
    return set(words(clause[found.end():])) if found else set()


def _without_modality(text: str, lexicon=MODALITY) -> str:
    for _, pattern in lexicon:
        text = pattern.sub(" ", text)
    return text


def _said(text: str, kind: str, lexicon=MODALITY) -> str:
    """The words that say ``kind`` in ``text``, as written (with those a lookahead reads: "No … is needed")."""
    for name, pattern in lexicon:
        found = name == kind and pattern.search(text)
        if found:
            return found.group(0) + "".join(g for g in found.groups() if g)
    return kind


def _names_another(statement: str, sentence: str) -> bool:
    """The sentence names something the statement does not."""
    return any(fold(name) not in fold(statement) for name in facts(sentence).names)


def _extreme(stem: str) -> bool:
    """A superlative or a bound's word: one end of a scale ("highest", "最低", "maximum")."""
    return stem.endswith("est") or stem.startswith("最") or stem in ("maximum", "minimum", "most expensive")
