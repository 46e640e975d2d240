import math
import re

import numpy as np

from ragpipe.core.evidence.refusals import says_unanswerable
from ragpipe.core.evidence.support import claims, declines
from ragpipe.core.metrics.base import STATEMENT_JUDGE, Metric, MetricResult, Toolkit
from ragpipe.core.schemas import EvalCase

# An answer is judged wrong when its claim-level F1 against the reference is below this.
# Fixed a priori, not tuned on any benchmark: below 0.5 the answer's supported claims are
# outweighed by its unsupported and missing ones (F1 = tp / (tp + (fp + fn) / 2)).
ANSWER_CORRECTNESS_WRONG_THRESHOLD = 0.5

# Bare yes/no references ("no", "有。", "不可以。") make no statement to match claims against;
# the answer's polarity is compared instead.
_YES = re.compile(r"^\W*(?:yes|yeah|yep|correct|true|right|是|对|有|会|能|可以|可能)", re.I)
_NO = re.compile(r"^\W*(?:no|nope|not|never|false|wrong|incorrect|不|没|否|无|未|非)", re.I)
_NEGATION = re.compile(r"\b(?:not|no|never|none|cannot)\b|n't\b|不|没|无|未|非", re.I)


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


def _verify(kit: Toolkit, statements, reference: str):
    """Verdicts against a reference answer: the offline verifier is told so (a short
    reference is judged more strictly than retrieved contexts); an LLM judge verifies alike."""
    if getattr(kit, "llm", None) is not None:
        return kit.verify(statements, [reference])
    return kit.verifier.verify(statements, [reference], reference=True)


def compute(case: EvalCase, kit: Toolkit) -> MetricResult:
    answer_said, reference_said = kit.statements(case.answer), kit.statements(case.ground_truth_answer)
    answer_declines, reference_declines = declines(answer_said), declines(reference_said)
    # Both sides say the question cannot be answered (one may give reasons): right. A
    # reference that declines against an answer that asserts: wrong. An answer that declines
    # where the reference answers goes on as claims, judged against the reference like any
    # other: a reference that rejects the question's premise ("没有所有人都喜欢的…")
    # supports declining in part, one that answers does not.
    if (answer_declines and says_unanswerable(reference_said)) or (reference_declines and says_unanswerable(answer_said)):
        return MetricResult(1.0, {"answer_declines": answer_declines, "reference_declines": reference_declines})
    if reference_declines:
        return MetricResult(0.0, {"answer_declines": False, "reference_declines": True})
    reference = claims(kit.statements(case.ground_truth_answer))
    if not reference:
        expected = polarity(case.ground_truth_answer)
        if expected is None:
            return MetricResult.unmeasured("the ground-truth answer makes no statement")
        given = polarity(case.answer)
        if given is None:  # an answer that does not open with yes/no: a negation says no
            given = not _NEGATION.search(case.answer)
        return MetricResult(float(given == expected), {"reference_polarity": expected, "answer_polarity": given})
    answer_claims = claims(kit.statements(case.answer))
    claim_verdicts = _verify(kit, answer_claims, case.ground_truth_answer)
    reference_verdicts = _verify(kit, reference, case.answer)
    value = claim_f1([v.score for v in claim_verdicts], [v.score for v in reference_verdicts])
    if math.isnan(value):
        value = 0.0  # the answer makes no claim while the reference does: nothing is right
    tp = sum(v.supported for v in claim_verdicts)
    return MetricResult(value, {
        "tp": tp, "fp": len(claim_verdicts) - tp, "fn": sum(not v.supported for v in reference_verdicts),
        "claims": [v.as_dict() for v in claim_verdicts],
        "reference": [v.as_dict() for v in reference_verdicts],
    })


METRIC = Metric(
    name="answer_correctness",
    definition=("Claim-level F1 between the answer and the ground-truth answer, tp / (tp + (fp + fn) / 2), with "
                "calibrated support probabilities as soft counts: each answer statement adds its probability of "
                "being supported by the reference to tp and the rest to fp; each reference statement adds its "
                "probability of not being supported by the answer to fn. A number the reference lacks, a name it "
                "lacks or a flipped negation lowers support. A bare yes/no reference is matched on polarity "
                "(1 or 0). An answer that only declines (\"the documents do not say\", \"无法回答\") scores 1 when the "
                "reference also says the question cannot be answered (with reasons or not); where the reference "
                "answers, the refusal is a claim judged against it like any other. An answer that asserts where the "
                f"reference only declines scores 0. Below {ANSWER_CORRECTNESS_WRONG_THRESHOLD} the "
                "answer is judged wrong."),
    reads=("answer", "ground_truth_answer"),
    higher_is_better=True,
    nan_when="no answer, no ground-truth answer, the bot failed, or the reference states nothing and is not a yes/no",
    compute=compute,
    judge=STATEMENT_JUDGE,
)
