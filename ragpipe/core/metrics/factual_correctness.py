import re

from ragpipe.core.evidence.agreement import agreement, elliptical, found_in, in_context, terms
from ragpipe.core.evidence.facts import negated
from ragpipe.core.evidence.support import claims
from ragpipe.core.evidence.zh_names import zh_dotted
from ragpipe.core.metrics.answer_correctness import asserted, by_rule, conflicts, leading_reply, one_spelling, polarity
from ragpipe.core.metrics.places_and_steps import instructs
from ragpipe.core.metrics.base import STATEMENT_JUDGE, Metric, MetricResult, Toolkit
from ragpipe.core.metrics.reference_parts import list_items, listed
from ragpipe.core.schemas import EvalCase


# An answer whose subject is a pronoun for the question's ("It ended in 1945.", "他出生于1879年。"), or a
# Chinese reply with none ("是雨果写的。" to "《悲惨世界》的作者是谁？").
_PRONOUN_SUBJECT = re.compile(r"\W*(?:(?:it|he|she|they)\b|[它他她]|是(?!否))", re.I)


# A question of what should be done to a thing ("How often should the battery be replaced?", "多久应该换一次滤网？")
# is answered by an instruction whose object is that thing.
_WHAT_TO_DO = re.compile(r"\b(?:should|must|ought to|need to)\b.*\bbe\s+[a-z]+(?:ed|en)\b|应该|应当|需要|要多久", re.I)


def _refers_to_question(answer: str, question: str) -> bool:
    """The answer's subject is the question's, by a pronoun or left out, or it is an instruction whose object is the
    question's thing ("Swap the battery once every year." to "How often should the battery be replaced?")."""
    return bool(_PRONOUN_SUBJECT.match(answer)) or bool(_WHAT_TO_DO.search(question)) and instructs(answer)


def _claims(kit: Toolkit, text: str, question: str, items: bool = False) -> list[str]:
    """A text's claims; offline, an elliptical text ("Paris", "10") is one claim about its question,
    and a listing reference ("Sodium and chlorine") one claim per item, so that an answer naming
    one item recalls half of it."""
    if kit.llm is None and elliptical(text):
        return [in_context(question, part) for part in (list_items(text, commas=True) if items and listed(text, question) else [text])]
    return claims(kit.statements(text))


def claim_agreement(kit: Toolkit, case: EvalCase) -> dict:
    """Answer claims against the reference and reference claims against the answer: an answer
    claim is right when the reference supports it or when it states a reference claim (with
    detail of its own: "Fleming discovered penicillin in 1928" states "Fleming discovered
    penicillin"); a reference claim is recalled when the answer supports it."""
    question = case.question if kit.llm is None else ""
    answer, reference = in_context(question, case.answer), in_context(question, case.ground_truth_answer)
    answer_claims = _claims(kit, case.answer, case.question)
    reference_claims = _claims(kit, case.ground_truth_answer, case.question, items=True)
    verdicts = kit.verify(answer_claims, [reference], question)
    recalled = kit.verify(reference_claims, [answer], question)
    # Offline only: the judge's prefetch asks the two lists above, and the judge reads detail as detail.
    right = [v.supported or (kit.llm is None and any(r.supported for r in kit.verify(reference_claims, [v.statement],
                                                                                      question)))
             for v in verdicts]
    # An item of a listing reference is recalled only where the answer names it: read with the
    # question, "…table salt: chlorine" shares most words with "…table salt: Sodium".
    items = listed(case.ground_truth_answer, case.question) if kit.llm is None and elliptical(case.ground_truth_answer) else []
    named = [all(found_in(t, terms(case.answer)) for t in item) for item in items]
    if not items and kit.llm is None and elliptical(case.ground_truth_answer) and polarity(case.ground_truth_answer) is None:
        # So is a bare reference (not a yes or no, which is replied to in other words): "Hepatitis mainly
        # damages the kidneys" restates most of "Which organ does hepatitis mainly damage: The liver".
        found = agreement(case.answer, case.ground_truth_answer, case.question)
        named = [bool(found.matched) or not found.key_terms] * len(recalled)
        if found.key_terms and len(found.matched) == len(found.key_terms) and _refers_to_question(case.answer, case.question) \
                and not negated(case.answer):
            # It states all of them and names the question's subject by a pronoun ("It ended in 1945." to "When
            # did World War II end?"): read with its question, whose words it refers to, not misses.
            recalled = kit.verify(reference_claims, [f"{question}\n{case.answer}"], question)
    elif kit.llm is None and not elliptical(case.ground_truth_answer) and _refers_to_question(case.answer, case.question) \
            and not negated(case.answer) and _states_the_reference(case):
        # A sentence reference, and an answer whose subject is the question's: its words may be the answer's too.
        recalled = [max(alone, with_question, key=lambda v: v.score) for alone, with_question
                    in zip(recalled, kit.verify(reference_claims, [f"{question}\n{case.answer}"], question))]
    named = named or [True] * len(recalled)
    recalled_ok = [v.supported and ok for v, ok in zip(recalled, named)]
    tp = sum(right)
    return {"tp": tp, "fp": len(verdicts) - tp, "fn": recalled_ok.count(False),
            "claims": [{**v.as_dict(), "right": ok} for v, ok in zip(verdicts, right)],
            "reference": [{**v.as_dict(), "supported": ok} for v, ok in zip(recalled, recalled_ok)]}


def _states_the_reference(case: EvalCase) -> bool:
    """The answer states most of what the reference adds to the question, or the surname of a dotted name it
    gives (雨果 of 维克多·雨果): the question's words alone ("It is a novel.") recall nothing."""
    if agreement(case.answer, case.ground_truth_answer, case.question).recall >= 0.5:
        return True
    return any(name.split("·")[-1] in case.answer for name in zh_dotted(case.ground_truth_answer)
               if name not in case.question)


def compute(case: EvalCase, kit: Toolkit) -> MetricResult:
    # "Based on the documentation, 443." is the reply "443": a lead-in is no claim to check, nor a yes or no.
    case = case.model_copy(update={"answer": asserted(case.answer.strip())})
    decided = by_rule(case, kit)
    if decided is not None:
        return decided
    if kit.llm is None:
        case = one_spelling(case)
        conflicting = conflicts(case, kit, agreement(case.answer, case.ground_truth_answer, case.question))
        if conflicting:  # another name, number or date in the reference's place, or its opposite: nothing is right
            return MetricResult(0.0, {"conflicts": conflicting})
    if not _claims(kit, case.ground_truth_answer, case.question):
        return MetricResult.unmeasured("the ground-truth answer makes no statement")
    found = claim_agreement(kit, case)
    lead = leading_reply(case, agreement(case.answer, case.ground_truth_answer, case.question)) if kit.llm is None else None
    if lead is not None:  # "Neil Armstrong, during the Apollo 11 mission in 1969.": the reply is a claim of its own,
        led = claim_agreement(kit, lead)  # and its detail one more that the reference does not state
        led = {**led, "fp": led["fp"] + 1, "detail": case.answer[len(lead.answer):].strip(" ,，")}
        found = max(found, led, key=lambda f: _f1(f)[2])
    precision, recall, f1 = _f1(found)
    return MetricResult(f1, {"precision": precision, "recall": recall, **found})


def _f1(found: dict) -> tuple[float, float, float]:
    """Precision, recall and F1 of a claim agreement."""
    tp, fp, fn = found["tp"], found["fp"], found["fn"]
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = (len(found["reference"]) - fn) / len(found["reference"]) if found["reference"] else 0.0
    return precision, recall, 2 * precision * recall / (precision + recall) if precision + recall else 0.0


METRIC = Metric(
    name="factual_correctness",
    definition=("Claim-level F1 of the answer against the ground-truth answer. Precision: the share of answer "
                "claims that the reference supports or (offline) that state a reference claim with detail of "
                "their own; "
                "recall: the share of reference claims the answer supports; each claim judged by the statement "
                "verifier. Offline, a reply that is only a value or a name is read as the answer to its question "
                "(\"capital of France: Paris\"), and such a bare reference is recalled only where the answer states "
                "one of its key terms (\"Hepatitis mainly damages the kidneys\" recalls nothing of \"The liver\"; an answer that "
                "names the question's subject by a pronoun is read with the question: \"It ended in 1945.\" recalls "
                "\"1945\" to \"When did World War II end?\", and a subjectless Chinese reply likewise: \"是雨果写的。\" recalls "
                "\"《悲惨世界》的作者是维克多·雨果。\", and so is an instruction to a question of what should be done to a thing: \"Swap the "
                "battery once every year.\" recalls \"Replace it annually.\" to \"How often should the battery be replaced?\"); an "
                "answer that puts another number, date, weekday or name in the "
                "reference's place, that mirrors a bare reference read with its question with another word in its "
                "place (\"大熊猫主要以鱼类为食\" for \"竹子\"), that takes the "
                "other alternative of a choice question (\"饭前\" for \"饭后\"), that opens with the opposite yes or no, "
                "that hedges between a bare reference and another candidate (\"either Mars or Venus\", \"Sydney or Canberra.\"), "
                "that names another person with the reference's surname (\"Theodore Roosevelt\" for \"Franklin D. Roosevelt\"), "
                "that keeps the qualifier of a short reference phrase and puts another word in its head's place "
                "(\"a poison pen\" for \"Bottle of poison\"), that names a bare reference only after the clause that "
                "answers the question with another name (\"Buzz Aldrin was the first person to walk on the Moon, shortly "
                "before Neil Armstrong joined him.\"), "
                "that names a bare reference only to deny "
                "it (\"It is not in Paris.\" for \"Paris\"), or that "
                "the reference plainly contradicts, scores 0; a short listing reference to a question that asks for "
                "several things is one claim per item (\"Sodium\" recalls half of \"Sodium and chlorine\"); a reply whose "
                "first clause states the reference and adds detail the reference does not state counts as two claims, the "
                "reply and its detail, where that reads better (\"Neil Armstrong, during the Apollo 11 mission in 1969.\": "
                "2/3); acronyms "
                "are read as the other text spells them out, a body as the other text names it without its state's formal name "
                "(\"国家统计局\" for \"中华人民共和国国家统计局\"), a surname as the person a who-question asks for, an everyday "
                "noun as its synonym of the reference; refusals and bare yes/no "
                "references are decided as answer_correctness decides them."),
    reads=("answer", "ground_truth_answer"),
    higher_is_better=True,
    nan_when="no answer, no ground-truth answer, the bot failed, or the reference makes no statement",
    compute=compute,
    judge=STATEMENT_JUDGE,
)
