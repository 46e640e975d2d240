"""The `invented` feature of the verifier: a claim none of whose new words the evidence holds.

features.statement_features calls `invented` with the evidence it prepared (its sentences, their
lowered text and all their tokens); it reads words and values with the agreement, facts and text
readers, never with readers of its own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragpipe.core.evidence.added_clauses import added_clause
from ragpipe.core.evidence.agreement import BARE_REPLY, fact_terms, found_in, name_in, opening_reply, words
from ragpipe.core.evidence.asked_things import unnamed_asked_thing
from ragpipe.core.evidence.bare_things import names_only_a_thing
from ragpipe.core.evidence.facts import EN_UNITS, bounds, facts, negated
from ragpipe.core.evidence.group_benefits import unnamed_group_benefit
from ragpipe.core.evidence.polarity import modality
from ragpipe.core.evidence.possessions import each_has, every_does, frame_word
from ragpipe.core.evidence.provisions import asks_offer, offered_thing, place_words, says_included
from ragpipe.core.evidence.stances import MODALITY
from ragpipe.core.synonyms import interchangeable
from ragpipe.core.text import EN_STOPWORDS, is_chinese, joined_object, normalize


def invented(statement: str, question: str, sentences: Sequence[str], lowered: str, all_tokens: set[str]) -> bool:
    """The statement says nothing the evidence says beyond what the question asks: a claim of
    three words or more ("It removed the distutils module"), two or more of them neither the
    question's nor a name the evidence also names, none of those in the evidence
    (stems and near spellings count), and no date the evidence states nor a number it counts
    the same unit with ("Roth IRA contributions are tax deductible" against a passage on the
    contribution limit;
    "缴存的公积金可以随时全额提取" against one on the rates). A shared value ties it to the
    evidence: "每年3月1日到6月30日之间办理" rewords "…时间为3月1日至6月30日". Fragments ("value for
    money" from a list of reviews) and single characters (只, 年) are too short to tell; a
    Chinese word counts as held where the evidence's text contains it. A short claim of a subject
    and a predicate ("It is free.", "Parking is free.", "门票免费。") is one too when the evidence
    never states its predicate, nor a value of it."""
    if statement.rstrip().endswith((":", "：")):
        return False  # a lead-in to a list ("To sew a zipper gusset, follow these steps:") asserts nothing
    if unnamed_group_benefit(statement, lowered):
        return True  # "A second bag is free for students." where no context names students
    statement = _AGE_UNIT.sub(r"\1", statement)  # "8 years old" is the age 8: its unit claims nothing of its own
    zh = is_chinese(statement)
    said = facts(_PROP_ONE.sub(r"\1", statement))
    # The words that bound a value are the value's, not a claim's: "18 or older", "younger than 12", "at least 8", "12岁以上".
    # (Not a hedge's: "approximately", "around" beside a value are as often an invented claim's only other word.)
    # Nor are a degree adverb's ("它很安静" claims 安静 of it, as "它安静" does), nor "it's", "that's".
    held = words(lowered)

    def missing(terms: list[str]) -> list[str]:
        return [w for w in terms if not (interchangeable(w) & all_tokens or (zh and w in lowered)
                                         or found_in(w, held))]

    # Nor are the words of a stance the evidence takes in words of its own ("最好不要带" / "应避免携带"): the stance
    # readers (polarity.py) judge it, and what it is taken on is the claim.
    stance = _stance_held(statement, sentences)
    said_words = [w for w in dict.fromkeys(words(statement)) if not fact_terms(facts(w)) and not w.isdigit()
                  and not (_BOUND_WORD.match(w) and bounds(statement)) and not _DEGREE.match(w)
                  and _CLITIC.sub("", w) not in EN_STOPWORDS and not (stance and w in stance and missing([w]))]
    own = [w for w in said_words if len(w) > 1]

    # A yes to a yes/no question claims the question's own thing ("Does it cause headaches?" - "Yes, headaches are a
    # common side effect."): named again, and never by the evidence, it is invented (asked_things).
    if unnamed_asked_thing(statement, question, lowered, missing):
        return True
    # Where the question asks what is offered or had ("What comes with the camera?", "小区有游泳池吗？"), the thing
    # alone is the claim ("It also comes with a tripod.", "The apartment has a dishwasher.", "小区设有游泳池。"):
    # the offer's verb is the question's, so one new word is enough.
    # A reply's opening yes is no part of the thing's sentence: "Yes, an apron is included." offers an apron.
    reply = opening_reply(statement, question)
    offer = reply[1] if reply and not negated(reply[0]) else statement
    # Where the thing stands is no part of the claim's length ("a small seed shop beside the tool shed").
    placed = place_words(offer)
    if asks_offer(question) and len([w for w in own if w not in placed]) <= 6 and \
            _unnamed(offered_thing(offer, asked=True), lowered, missing, zh):
        return True
    # What every one of a whole is said to have ("Every room has a balcony", "每间客房都有阳台") is a fitting the
    # evidence would name: one it never names is invented, one new word as much as two (possessions.py).
    possessed = each_has(statement)
    if possessed and _unnamed(possessed[1], lowered, missing, zh):
        return True
    # What every one of a whole does ("Every session ends with a free disco hour") is a rule the evidence would state:
    # one none of whose words (two at least, no value among them) it holds is invented.
    done = [w for w in every_does(statement) if len(w) > 1 and not found_in(w, words(question))]
    if len(done) >= 2 and not fact_terms(said) and len(missing(done)) == len(done):
        return True
    # Where the evidence says what is included ("…, including basic insurance"), a thing said to be included that it
    # never names is invented, one new word as much as two ("A GPS is included for free.").
    if len(own) <= 6 and says_included(statement) and says_included(lowered) and \
            _unnamed(offered_thing(statement), lowered, missing, zh):
        return True
    # The second thing of "includes entry to the museum and a free audio guide" is a claim of its own (the splitter
    # keeps such an "and"): one the evidence never names is invented, as it would be alone.
    joined = joined_object(statement)
    if joined and _unnamed(offered_thing(f"It includes {joined}"), lowered, missing, zh):
        return True
    # A statement that only names a thing ("A packed lunch.", "防晒霜") claims that thing: one none of whose words the
    # evidence holds, nor the question names, is invented, one word as much as two (bare_things.py).
    if names_only_a_thing(statement, question) and \
            _unnamed(tuple(w for w in own if not found_in(w, words(question))), lowered, missing, zh):
        return True
    short = _short_claim(statement, said_words) and not fact_terms(said)  # "停车场22:00关闭" states a value
    # A Chinese claim's single characters make it a claim (煮/前/浸泡/让/米饭/发/黏), not evidence of one; an
    # added clause ("，并赠送一本教材") has its subject in the clause before it, and two words are a claim.
    if len(said_words) < (2 if added_clause(statement) else 3) and not short:
        return False
    asked = words(question)
    # A name the evidence names too says what the claim is about, not what it claims: "All Harbor Line
    # trams have step-free boarding" claims nothing a passage on the Harbor Line's timetable says.
    names = facts("\n".join(sentences)).names
    named = {t for n in said.names if name_in(n, names) for t in words(n)}
    informative = [w for w in own if not found_in(w, asked) and not (zh and w in question) and w not in named
                   and not (possessed and frame_word(w)) and not _LIGHT_VERB.match(w) and not _AFTER.match(w)
                   and not (_NEGATOR.match(w) and missing([w]))]
    if len(informative) < (1 if short else 2):
        return False
    shared = set(fact_terms(said)) & set(fact_terms(facts(lowered)))
    # In an added clause a count of one ("，学生还可免费多带一件") names a thing, it states no value: it ties nothing.
    tied = {unit for unit in _counted_units(statement) & _counted_units(lowered)
            if unit[0] != "#1" or not added_clause(statement)}
    if any(t.startswith(("#y", "#m", "#d")) for t in shared) or tied:
        return False
    # A short claim that offers a thing the evidence never names ("First class includes free meals",
    # "车上提供免费无线网络") invents it, whatever incidental word it shares with the evidence.
    # Two new words at least, one may be a single character ("一等座含餐食": 含 and 餐食); none of the offered
    # thing's words held, also spelled without hyphens or spaces ("Wi-Fi" / "WiFi"), nor a character pair of it (zh).
    thing = offered_thing(statement)
    new = missing([w for w in said_words if not found_in(w, asked) and not (zh and w in question) and w not in named])
    # The thing counts even where the question asks for it ("可以停车吗？" - "会员可以免费停车"): asking is no evidence.
    if len(own) <= 6 and len(set(new) | set(thing)) >= 2 and _unnamed(thing, lowered, missing, zh):
        return True
    if short and zh:  # jieba's compounds ("免费参观") reword the evidence's ("免费开放参观"): a character pair held counts
        return all(not any(w[i:i + 2] in lowered for i in range(len(w) - 1)) for w in informative) and \
            len(missing(informative)) == len(informative)
    if len(missing(informative)) == len(informative):
        return True
    # A yes that goes on to claim three words or more the evidence never names (the reply word is none of its claim)
    # invents them, though one word of it is the evidence's topic ("Yes, every mover passes a criminal background
    # check before joining the crew." beside "our crews do not transport…"): a yes is no evidence of what follows it.
    replied = reply if reply and BARE_REPLY.match(reply[0]) and not negated(reply[0]) else None
    claimed = [w for w in informative if replied and found_in(w, words(replied[1]))]
    if len(missing(claimed)) >= 3 and len(missing(claimed)) >= len(claimed) - 1:
        return True
    if short and not zh and missing(informative[-1:]):
        return True  # its subject may be the evidence's ("The museum is free."): the predicate is what it claims
    # An added clause ("，并赠送一本教材", "and includes a free textbook", ", with free roadside assistance")
    # that reuses a word of the evidence still invents the rest: half its new words or more missing, two
    # at least, is a claim of its own as much as none held ("学生还可免费多带一件" beside "每位乘客可免费托运一件").
    added = [w for w in informative if found_in(w, words(added_clause(statement)))]
    return len(missing(added)) >= 2 and 2 * len(missing(added)) >= len(added)


def _stance_held(statement: str, sentences: Sequence[str]) -> str:
    """The words in which the statement permits, forbids, requires or exempts (stances.MODALITY), where an evidence
    sentence takes that stance too, however worded; else ""."""
    stance = modality(statement)
    if stance is None or not any(modality(s) == stance for s in sentences):
        return ""
    return " ".join(m.group(0) for kind, pattern in MODALITY if kind == stance for m in pattern.finditer(statement))


def _unnamed(thing: tuple[str, ...], lowered: str, missing, zh: bool) -> bool:
    """An offered thing none of whose words the evidence holds, also spelled without hyphens or spaces
    ("Wi-Fi" / "WiFi"), nor a character pair of it (zh)."""
    squashed = re.sub(r"[\s_-]", "", lowered)
    return bool(thing) and len(missing(list(thing))) == len(thing) and \
        not any(re.sub(r"[\s_-]", "", w) in squashed for w in thing) and \
        not (zh and any(w[i:i + 2] in lowered for w in thing for i in range(len(w) - 1)))


# A subject and a stated predicate ("It is free.", "Parking is free.", "门票免费。", "它可以防水。"): a claim
# of one or two words all the same. Headings ("The location", "In conclusion") and bare replies
# ("Yes, it is.", "有的。") state no predicate of their own.
_EN_PREDICATE = re.compile(r"\b(?:is|are|was|were|can|will|has|have)\b(?!\s*[.!]?\s*$)", re.I)


# A comparison ("深圳市更高", "It is cheaper.") holds against values its words need not name: the comparison
# readers decide it, not the words the evidence lacks.
_COMPARATIVE = re.compile(r"[更较最]|比|\b(?:more|less|fewer|most|least|better|worse|best|worst)\b|\b\w+er than\b"
                          r"|\b(?:cheap|high|low|fast|slow|long|short|old|young|new|larg|small|strong|weak|light|heavi|near|"
                          r"far|lat|earli|warm|cool|cold|saf|easi|bigg|hott|wid|deep|great|quick|clos|rich|poor)(?:er|est)\b", re.I)


def _short_claim(statement: str, said_words: list[str]) -> bool:
    if any(BARE_REPLY.match(w) for w in said_words) or BARE_REPLY.match(statement.split(",")[0].split("，")[0]):
        return False
    if _COMPARATIVE.search(statement):
        return False
    if is_chinese(statement):  # its single characters count: "它是免费的" is 它 + 免费
        return len(said_words) == 2
    return 1 <= len(said_words) <= 2 and bool(_EN_PREDICATE.search(statement))


# "one" after a determiner (and an adjective) stands for a noun ("the first one is free", "each one"): it counts nothing.
_PROP_ONE = re.compile(r"\b((?:the|this|that|each|every|which|any)\s+(?:[a-z]+\s+)?)one\b(?!\s+of\b)", re.I)
_DEGREE = re.compile(r"^(?:很|非常|相当|极其|极为|挺|超级)$")
# A light verb shared with the evidence ties no claim to it: "later cancellations get class credit" / "everyone gets a station".
_LIGHT_VERB = re.compile(r"^(?:get|got|gotten)$")
# "以后" / "之后" join a claim to its time ("买了以后不能退": once bought), as the stopwords "after" and "once" do.
_AFTER = re.compile(r"^(?:以后|之后)$")
# A negated modal of a rule ("不能", "不可以", "无需") the evidence does not hold is the claim's polarity, which the
# negation readers check, not a word of what it claims (English "not", "no" are stopwords): "门票买了以后不能退"
# claims of the asked 门票 and 退 only what "概不退换" says. One the evidence holds still ties the claim to it. Not 不会:
# it denies a fact ("手相不会影响爱情"), and read against "感情线长" that denial is what the claim says.
_NEGATOR = re.compile(r"^(?:不能|不可以?|不让|不用|不必|无需|无须|不得|不准|不许)$")
# An age in digits or words ("8 years old", "eight-year-old").
_AGE_UNIT = re.compile(r"(\d+|\b(?:%s))[\s-]*(?:years?|yrs?)[\s-]*old\b" % "|".join(EN_UNITS), re.I)
# A function word with its clitic ("it's", "that's", "there'") claims nothing.
_CLITIC = re.compile(r"'\w*$")
_BOUND_WORD = re.compile(r"(?:older|younger|over|under|above|below|least|most|以上|以下|以内)$", re.I)
_VALUE_UNIT = re.compile(r"(\d+(?:[.,]\d+)*|[零〇一二两三四五六七八九十百千万亿]+)\s*-?\s*([a-z%]+|[^\W\d_])", re.I)


def _counted_units(text: str) -> set[tuple[str, str]]:
    """Each number of a text with the unit it counts (its next word, three letters of it, or next
    character): a number ties a statement to the evidence only with its unit, "十年免费上门维修"
    shares the 10 of "容量为10公斤" and nothing else."""
    return {(term, match.group(2).lower()[:3]) for match in _VALUE_UNIT.finditer(normalize(text))
            for term in fact_terms(facts(match.group(0)))}
