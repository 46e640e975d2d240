"""Plain contradictions, found by rule: the evidence sentence that speaks of what a statement
speaks of (it holds the statement's other words) says another name, number or date in its
place, says the opposite ("not", an antonym), or swaps who did what to whom.

The calibrated verifier weighs how much of a statement its evidence holds; it cannot see
that "The capital of Australia is Sydney." puts the wrong city into a sentence whose every
word the evidence contains. These rules can, and where one fires the statement is not
supported, whatever the other evidence says.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ragpipe.core.evidence.agreement import asked_as_said, fact_terms, found_in, in_context, name_in, opening_reply, words
from ragpipe.core.evidence.accompanied import accompaniment_conflict
from ragpipe.core.evidence.as_usual import usual_part_stopped
from ragpipe.core.evidence.agents import other_doer
from ragpipe.core.evidence.calendar_positions import calendar_place_conflict
from ragpipe.core.evidence.comparisons import bears_out, borne_differences, compared
from ragpipe.core.evidence.superlatives import ranked
from ragpipe.core.evidence.facts import facts, fold, negated
from ragpipe.core.evidence.lists import list_conflict
from ragpipe.core.evidence.limits import bound_conflict, range_confirms, range_ends
from ragpipe.core.evidence.morpheme_denials import morpheme_denial
from ragpipe.core.evidence.polarity import aligned_with, clauses_of, polarity_conflict
from ragpipe.core.evidence.pronoun_clauses import pronoun_denial
from ragpipe.core.evidence.counts import counts, elided_count, rank_conflict, same_thing
from ragpipe.core.evidence.denied_benefits import denied_benefit
from ragpipe.core.evidence.denied_offers import denied_offer
from ragpipe.core.evidence.denied_values import denied_value
from ragpipe.core.evidence.discounts import discount_conflict
from ragpipe.core.evidence.durations import duration_conflict
from ragpipe.core.evidence.ended_states import ended_state
from ragpipe.core.evidence.event_dates import date_reading
from ragpipe.core.evidence.extra_charges import charged_apart, included_after_all
from ragpipe.core.evidence.fees import fee_conflict
from ragpipe.core.evidence.forfeits import forfeit_conflict
from ragpipe.core.evidence.no_exceptions import no_exception_denied
from ragpipe.core.evidence.outside_things import outside_rule, outside_rule_conflict
from ragpipe.core.evidence.group_swaps import group_swap
from ragpipe.core.evidence.intervals import interval_conflict
from ragpipe.core.evidence.scope import scope_conflict
from ragpipe.core.evidence.self_done import done_by_another
from ragpipe.core.evidence.siblings import sibling_swap
from ragpipe.core.evidence.subject_swaps import swapped_subject
from ragpipe.core.evidence.subjects import said_of_own_subject, subject_contrast
from ragpipe.core.evidence.weekdays import weekday_reading
from ragpipe.core.evidence.ranks import ranked_title
from ragpipe.core.evidence.relative_times import before_after_conflict
from ragpipe.core.evidence.reworded_denials import reworded_denial
from ragpipe.core.evidence.roles import names_role, one_relation, relation_wording, swapped_roles
from ragpipe.core.evidence.substitutions import substituted
from ragpipe.core.evidence.traded_sides import traded_sides
from ragpipe.core.evidence.transfers import swapped_transfer
from ragpipe.core.evidence.use_rules import use_rule_conflict
from ragpipe.core.evidence.waived_conditions import waived_condition
from ragpipe.core.evidence.same_names import one_person
from ragpipe.core.evidence.slots import alternative, as_written, proper, read_as_evidence, show, slot_conflict
from ragpipe.core.text import is_chinese


@dataclass(frozen=True)
class Contradiction:
    kind: str        # "name", "number", "date", "negation", "antonym", "modality", "roles", "comparison", "bound", "range",
                     # "scope", "condition"
    stated: str      # what the statement says
    evidence: str    # what the evidence says in its place
    sentence: str    # the evidence sentence

    def describe(self, language: str) -> str:
        if language == "zh":
            return f"证据说的是“{self.evidence}”，陈述却说“{self.stated}”"
        return f"the evidence says \"{self.evidence}\" where the statement says \"{self.stated}\""


def answers_otherwise(statement: str, question: str, sentences: Sequence[str]) -> Contradiction | None:
    """A statement that restates its question with a value filled in ("《红楼梦》前八十回的作者是
    罗贯中。" to "…的作者是谁？"), where the evidence sentence that speaks of what the question
    asks states another value of that kind and not this one ("…由曹雪芹所著。"). The sentence
    need not echo the statement's wording: the question ties them."""
    said = facts(statement)
    asked = facts(question)
    values = [("name", n) for n in said.names if proper(n) and not name_in(n, asked.names)]
    values += [("number", v) for v in said.numbers - asked.numbers] + [("year", y) for y in said.years - asked.years]
    value_terms = {t for kind, v in values if kind == "name" for t in words(v)}
    # What of the question the statement answers: its words but the values (a question may ask two things).
    frame = list(dict.fromkeys(t for t in words(statement) if t not in value_terms and not fact_terms(facts(t))))
    sentences = [s for s in sentences if s and s.strip()]
    if not values or not frame or not sentences or not all(found_in(t, words(question)) for t in frame):
        return None
    sentence_terms = [words(s) for s in sentences]
    aligned = aligned_with(frame, sentences, sentence_terms)
    # A name's sentence may hold the question's words as words a reader takes for them ("最高峰" for "最高",
    # slots.read_as_evidence); a number's is held to the words themselves ("一天" is no "每日" of a count).
    named = aligned or aligned_with(read_as_evidence(frame, sentence_terms), sentences, sentence_terms)
    # Without one, a sentence holding every name the question asks of speaks of it too, whatever its verb ("《夜巡》由
    # 伦勃朗创作" for "《夜巡》是谁画的？"), for a value no evidence sentence states; or, asked who, one naming the role's holder.
    naming = [] if aligned else [i for i, s in enumerate(sentences) if (
        all(name_in(n, facts(s).names) for n in asked.names) if asked.names else names_role(question, frame, s))]
    for kind, value in values:
        unstated = (not any(alternative(kind, value, said, facts(s), s) is None for s in sentences)
                    and not (kind == "name" and any(value in fold(s) for s in sentences)))
        found = [(alternative(kind, value, said, facts(sentences[i]), sentences[i]), i)
                 for i in (named if kind == "name" else aligned) or (naming if unstated else [])]
        if any(other is None for other, _ in found):
            continue  # an aligned sentence states it
        for other, i in found:
            if other and not (kind == "name" and one_person(value, other, sentences)):
                return Contradiction("date" if kind == "year" else kind, as_written(show(kind, value), statement),
                                     as_written(other, sentences[i]), sentences[i])
    return None


# The asking word of a question ("哪颗行星…", "什么") is what the reply fills in, not what the evidence repeats.
_ASKING = re.compile(r"(?:哪|几)[个种颗位座家条只本部类]?|什么|谁|多(?:少|久|长|大|高|远|重|宽|深)(?:时间)?|怎么样?|如何|为何|为什么")


def confirms(reply: str, question: str, sentences: Sequence[str]) -> bool:
    """A bare reply ("20%。", "Canberra.", "木星。") whose every value stands in an evidence sentence that
    speaks of what the question asks: the reply says what that sentence says."""
    said = facts(reply)
    values = [("name", n) for n in said.names] + [("number", v) for v in said.numbers] + [("year", y) for y in said.years]
    if not values and is_chinese(reply):
        # jieba tags few things as names (木星, 竹子): the reply's words are its value, but for
        # those the question gives ("在文言文中" repeats "文言文中的哪个词语…" and confirms nothing).
        values = [("name", w) for w in words(reply) if w not in question]
    frame = list(dict.fromkeys(words(_ASKING.sub(" ", question))))
    sentences = [s for s in sentences if s and s.strip()]
    if not values or not frame or not sentences:
        return False
    aligned = aligned_with(frame, sentences, [words(s) for s in sentences])
    return any(all(alternative(kind, value, said, facts(sentences[i]), sentences[i]) is None for kind, value in values)
               for i in aligned)


def borne_out(statement: str, question: str, sentences: Sequence[str]) -> bool:
    """The statement's one claim is what the evidence says in other words: a time that is the end the
    evidence's range names (limits.range_confirms), a day its range of weekdays leaves out or holds
    (weekdays.weekday_reading), the day the evidence gives the same start or deadline ("The deadline is 15 March" /
    "must be submitted by 2025-03-15", event_dates.date_reading), or a comparison it states, in either wording
    ("火车比大巴贵" / "大巴比火车便宜"), or bears out with its values, as it may a superlative (superlatives.ranked), or the
    same rule on a thing brought from outside (outside_things)."""
    sentences = [s for s in sentences if s and s.strip()]
    extreme = ranked(statement, sentences)  # "the cheapest" that the stated prices of three sides bear out
    return (bears_out(statement, sentences) or bool(extreme and extreme[0]) or range_confirms(statement, question, sentences)
            or (outside_rule(statement, sentences) or (False,))[0]  # "outside food is not allowed" / "cannot bring their own"
            or weekday_reading(statement, question, sentences) is True or date_reading(statement, question, sentences) is True)


def contradicted(statement: str, question: str, sentences: Sequence[str]) -> Contradiction | None:
    """The plain contradiction of an answer's statement, read as the reply to its question."""
    reply = opening_reply(statement, question)  # "Yes, …", "支持，…": the clause after it is the claim
    claim = reply[1] if reply else statement
    # A day set against the evidence's range of weekdays decides alone: "closed on Saturdays" says what "open Monday
    # to Friday" says, though "closed" is the antonym of its "open".
    clean = [s for s in sentences if s and s.strip()]
    day = weekday_reading(claim, question, clean)
    if day is not None:
        return None if day is True else Contradiction(*day)
    # A bare value ("20%。") is checked where the question points: "小型微利企业税率：25%" contradicts "…20%…";
    # but a date, number or antonym only the question states ("…(1928 – June 11, 2017)…, of which country?", the 准时
    # of "航班准时吗？" answered "航班延误了" against "…晚点") is no claim of it.
    posed = in_context(question, claim)
    found = contradiction(posed, sentences)
    if found and posed != claim and found.kind in ("date", "number", "antonym") and found.stated.lower() not in claim.lower():
        found = None
    # A Chinese sentence of three words is read as a reply ("兵马俑位于洛阳") but is whole: it may
    # contradict the evidence as written. An English reply of three words is a fragment ("his brother
    # Adam") that may yet deny what the evidence says in the same words ("Parking is free.").
    if found is None and posed != claim:
        whole = contradiction(claim, sentences)
        found = whole if whole and (is_chinese(claim) or whole.kind == "negation") else None
    # Found in a clause about another thing, while the clause about the statement's own thing says what it says.
    if found and said_of_own_subject(claim, found.stated, found.evidence, found.sentence, clean):
        found = None
    found = found or answers_otherwise(statement, question, sentences)
    # Another day for the same start or deadline, however each words the event ("The deadline is 15 May" / "must be
    # submitted by 2025-03-15"); the same day bears it out (borne_out).
    dated = None if found else date_reading(claim, question, clean)
    found = found or (Contradiction(*dated) if dated and dated is not True else None)
    # A claim wider than its evidence ("All employees…" / "Only full-time employees…"); the question may carry the limit.
    scoped = None if found else scope_conflict(claim, question, clean)
    # Or a change said of the whole, or of the part the evidence keeps going ("室内外球场全部关闭" / "室外球场关闭，室内球场
    # 照常开放").
    scoped = scoped or (None if found else usual_part_stopped(claim, clean))
    found = found or (Contradiction(*scoped) if scoped else None)
    # A benefit, price or rule given to one group of people that the evidence gives another ("Seniors get 20% off" /
    # "Students get 20% off…").
    swapped = None if found else group_swap(claim, clean) or swapped_subject(claim, clean)  # or a subject never named
    found = found or (Contradiction(*swapped) if swapped else None)
    # A time set against a timetable that names no subject: the question's words are its topic ("closes at 9 a.m." to
    # "When is the museum open?" against "Opening hours: 9:00-17:00."), as for limits.range_confirms.
    ends = None if found else range_ends(claim, clean, given=words(question))
    found = found or (Contradiction(*ends) if ends else None)
    # A negation in one clause of several is read in that clause alone (polarity_conflict reads one clause only).
    found = found or _clause_denied(claim, clean)
    # A statement about one of two things the evidence contrasts, read against the clause about its own thing
    # ("Disposable barbecues can be used" / "gas barbecues are allowed; disposable barbecues are banned").
    contrast = None if found else subject_contrast(claim, clean)
    found = found or (Contradiction(*contrast) if contrast else None)
    # What the evidence says of a sibling thing ("Premium pitches have an electric hook-up") said of the statement's own
    # ("Standard pitches come with an electric hook-up"), of which the evidence says something else.
    sibling = None if found else sibling_swap(claim, clean)
    found = found or (Contradiction(*sibling) if sibling else None)
    # A pronoun stands for the question's thing: "Yes, you can wash it yourself" to "Can I wash the costume myself…?"
    # against "Please do not wash or dry-clean the costumes yourself."
    named = None if found else _pronoun_named(claim, question)
    said = contradiction(named, sentences) if named else None
    found = found or (said if said and said.kind == "negation" else None)
    # An opening yes asserts the question too: "可以，…" to "这个药可以和酒一起吃吗？" against "…期间禁止饮酒". Not where
    # the claim after it is an evidence clause's own words: the yes means that clause ("Yes, delivery is free within 10
    # miles" to "Do you deliver the castle for free?"), not a neighbour on the castle's price.
    asserted = found is None and reply and not negated(reply[0]) and not _clause_said(claim, clean) and asked_as_said(question)
    return contradiction(asserted, sentences, slots=False) if asserted else found


def _clause_said(claim: str, sentences: Sequence[str]) -> bool:
    """Some evidence clause holds every word of the claim, two at least."""
    said = set(words(claim))
    return len(said) >= 2 and any(said <= set(words(c)) for s in sentences for c in clauses_of(s))


_PRONOUN = re.compile(r"\b(?:it|them)\b")
_ASKED_THING = re.compile(r"\b(?:the|a|an|my|our|your)\s+([a-z-]+(?:\s+[a-z-]+)?)", re.I)
_AFTER_THING = re.compile(r"\s+(?:myself|yourself|ourselves|before|after|without|with|on|at|in|into|for|to|if|when|by|back|"
                          r"out|off|up|home)\b.*", re.I)


def _pronoun_named(claim: str, question: str) -> str | None:
    """An English claim with its first "it" or "them" read as the thing its question names ("the costume" of "Can I
    wash the costume myself…?"), or None where either has none."""
    asked = _ASKED_THING.search(question)
    if is_chinese(claim) or not asked or not _PRONOUN.search(claim):
        return None
    return _PRONOUN.sub(f"the {_AFTER_THING.sub('', asked[1])}", claim, count=1)


# A clause that leans on another ("while …", "whether …", "stating …") is no claim to read alone.
_LEANING = re.compile(r"^\W*(?:(?:and|but)\s+)?(?:while|whether|as|which|who|whom|whose|that|if|when|where|although|though"
                      r"|because|since|unless|until|after|before|(?-i:[a-z]+ing))\b", re.I)
# The clause's own "not" (not "without", "no danger").
_NOT = re.compile(r"\bnot\b|n't\b|\bcannot\b|不|没")


def _clause_denied(claim: str, sentences: list[str]) -> Contradiction | None:
    """A clause of a statement of several that denies what an evidence clause affirms: "Pottery classes run for eight
    weeks, and clay and glazes are not included in the fee." against "Clay and glazes are included in the fee.". Only
    a clause that stands alone and says "not" itself (a negation inserted into a longer answer)."""
    parts = [p.strip() for p in clauses_of(claim)]
    for part in parts if len(parts) > 1 else ():
        if not _NOT.search(part) or _LEANING.match(part):
            continue
        found = polarity_conflict(part, sentences)
        if found and found[0] == "negation" and not negated(found[2]) and _says_again(found[2], part):
            return Contradiction(*found)
    return None


def _says_again(clause: str, part: str) -> bool:
    """The evidence clause is a statement (no question, no title: "Oily Skin Causes.") nearly every word of which the
    part repeats: the part denies it, not a neighbouring fact ("women did not have the right to vote" / "women fought
    for the rights to vote …")."""
    held, latin = words(clause), re.findall(r"[A-Za-z]+", clause)
    titled = len(latin) > 1 and all(w[0].isupper() for w in latin)
    return "?" not in clause and "？" not in clause and not titled and len(held) >= 2 and sum(
        found_in(t, words(part)) for t in held) >= 0.75 * len(held)


def contradiction(statement: str, sentences: Sequence[str], slots: bool = True) -> Contradiction | None:
    """The first plain contradiction between a statement and its evidence sentences, or None.
    ``slots=False`` leaves out other names, numbers and dates: against a short reference answer,
    an answer's added detail has no counterpart to align with (the agreement compares those)."""
    return _contradiction(statement, tuple(sentences), slots)


# The antonyms a range's end already reads: "closes at 5 p.m." says what "open 10 a.m. to 5 p.m." says.
_SCHEDULE_WORDS = frozenset({"open", "clos", "开放", "关闭", "闭馆", "开门", "关门", "营业", "停业", "歇业"})


@lru_cache(maxsize=16384)  # faithfulness, noise_sensitivity and the prefetch's dry run ask the same
def _contradiction(statement: str, sentences: tuple[str, ...], slots: bool) -> Contradiction | None:
    sentences = [s for s in sentences if s and s.strip()]
    if not sentences:
        return None
    found = slots and (slot_conflict(statement, sentences, [words(s) for s in sentences])
                       or _reworded_slot_conflict(statement, sentences) or count_conflict(statement, sentences)
                       or list_conflict(statement, sentences) or duration_conflict(statement, sentences)
                       or interval_conflict(statement, sentences)  # "every 30 minutes" / "…5:30 a.m. and runs every 15 minutes"
                       or discount_conflict(statement, sentences) or substituted(statement, sentences))
    # A difference the two values bear out ("比B型重0.3公斤" against 2.1 and 1.8 kg) is no other number.
    if found and not (found[0] == "number" and facts(found[1]).numbers & borne_differences(statement, sentences)):
        return Contradiction(*found)
    # A thing the evidence names as no exception ("每天营业，周日也不例外") that the statement denies: the 不 of 不例外
    # denies nothing, so it decides before the range's ends and the negation readers.
    excepted = no_exception_denied(statement, sentences)
    if excepted:
        return Contradiction(*excepted)
    ends = range_ends(statement, sentences)  # the end of a range decides, either way: not "open" against "closes"
    if ends is not None:
        # Where it bears the time out, another opposition still counts: "Late check-out until 2 p.m. is free." against
        # "…until 2 p.m. is available for a fee of $30".
        other = not ends and polarity_conflict(statement, sentences)
        return Contradiction(*(ends or other)) if ends or other and other[0] == "antonym" and not (
            {other[1], other[2]} & _SCHEDULE_WORDS) else None
    # A comparison the evidence states too decides, either way: "B is shorter than A" has the antonym of
    # "A is longer than B" and its sides swapped, and says the same (no antonym, no swap in that sentence).
    order = compared(statement, sentences)
    if order and not order[0]:
        return Contradiction("comparison", *order[1:])
    extreme = None if order else ranked(statement, sentences)  # "the cheapest" of three stated prices
    if extreme and not extreme[0]:
        return Contradiction("comparison", *extreme[1:])
    # A rule of use ("Children under 12 can take it" / "Do not give … to children under 12"): use_rules.
    found = (polarity_conflict(statement, sentences) or denied_value(statement, sentences) or use_rule_conflict(statement, sentences)
             or charged_apart(statement, sentences)  # "门票包含语音导览" / "语音导览需另外租用"
             or included_after_all(statement, sentences)  # "Wetsuits cost £2 extra" / "Wetsuits … are included"
             or fee_conflict(statement, sentences)  # "不收任何费用" / "…取消的，需支付100元违约金": fees.py
             or outside_rule_conflict(statement, sentences)  # "bring clay from elsewhere" / "outside clay is not allowed"
             or accompaniment_conflict(statement, sentences)  # "alone" / "must be accompanied by an adult"
             or waived_condition(statement, sentences)  # "even if you've made a claim" / "provided no claim has been made"
             or forfeit_conflict(statement, sentences)  # "refunded if you don't show up" / "who don't show up lose their deposit"
             or reworded_denial(statement, sentences)  # "可以报销" / "不在赔付范围内": its verb in the evidence's word
             or morpheme_denial(statement, sentences)  # "定金不能退" / "定金可全额退还": one morpheme, two words
             or denied_benefit(statement, sentences)  # "学生买票不打折" / "学生凭学生证购票可享半价"
             or denied_offer(statement, sentences)  # "不提供保修" / "享受6个月保修"
             or pronoun_denial(statement, sentences))  # "Wigs can be hired on their own" / "…; they are not hired out on their own"
    if found and found[0] == "antonym" and (one_relation(statement, found[3]) or order and found[3] in order[3]):
        found = None  # a converse ("lost to" / "won against", "shorter" / "longer"): the roles decide
    swapped = not found and (swapped_roles(statement, sentences) or traded_sides(statement, sentences)
                             or swapped_transfer(statement, sentences)  # "顾客赔给本店" / "由本店赔偿给顾客"
                             or other_doer(statement, sentences)  # "adjusted by the patient" / "only by the orthodontist"
                             or done_by_another(statement, sentences))  # "open the door yourself" / "the locksmith opens the door"
    if swapped and order and swapped[2] == order[3]:
        swapped = None  # "B is shorter than A" swaps the sides of "A is longer than B" around its antonym
    found = found or (("roles", *swapped) if swapped else bound_conflict(statement, sentences) or ranked_title(statement, sentences))
    found = found or ended_state(statement, sentences)  # "is still operating" / "stopped operating in 2023"
    found = found or before_after_conflict(statement, sentences)  # "7 days after the course starts" / "7 days before …"
    found = found or calendar_place_conflict(statement, sentences)  # "the first week of March" / "the last week of March"
    return Contradiction(*found) if found else None


def _reworded_slot_conflict(statement: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """A slot whose relation the evidence words otherwise: "was bought by Barclays" speaks of what "was
    taken over by HSBC" speaks of (roles.relation_wording gives both one wording)."""
    reworded = {relation_wording(s): s for s in sentences}
    ours = relation_wording(statement)
    if ours == statement and all(r == s for r, s in reworded.items()):
        return None
    found = slot_conflict(ours, list(reworded), [words(s) for s in reworded])
    return found and (*found[:3], next((s for r, s in reworded.items() if found[3] in (r, s)), found[3]))


def count_conflict(statement: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """A count of things the evidence counts otherwise, and never so: "four doses" against "two doses, four weeks
    apart" (the four there counts weeks), "三剂" against "两剂", "once a week" against "twice a week". The thing
    counted ties the two, whatever the verbs; a bound, a hedge, a range or another rate's period unties them. A rank
    is a count of its kind: "third largest" against "second largest"."""
    if negated(statement):
        return None
    for mine in (c for c in counts(statement) if c.plain):
        theirs = [(other, s) for s in sentences for other in counts(s) if same_thing(mine, other)]
        # Only plain counts, all of them another: "nearly 100 passengers" may be the statement's 100.
        if theirs and all(other.plain and other.value != mine.value and not elided_count(mine.value, s) for other, s in theirs):
            return "number", mine.written, theirs[0][0].written, theirs[0][1]
    return rank_conflict(statement, sentences)
