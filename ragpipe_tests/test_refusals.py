"""An answer that declines asserts nothing: it is never scored as claims nor flagged as a
hallucination, and whether declining was right is answer correctness's call."""

import json
import math
from pathlib import Path

import pytest

from ragpipe.core.evidence.support import context_claims, declines
from ragpipe.core.evidence.calibration import hallucinated
from ragpipe.core.metrics.answer_correctness import ANSWER_CORRECTNESS_WRONG_THRESHOLD
from ragpipe.core.evidence.refusals import is_refusal, says_unanswerable
from ragpipe.core.metrics import Toolkit
from ragpipe.core.metrics.faithfulness import DECLINES
from ragpipe.core.schemas import EvalCase
from ragpipe.core.metrics.scoring import score_case
from ragpipe.core.text import split_statements

LABELLED = [json.loads(line) for line in
            (Path(__file__).parent / "data" / "refusals" / "refusals.jsonl").read_text("utf-8").splitlines()]
CONTEXTS = ["小型微利企业年应纳税所得额不超过300万元的部分，减按25%计入应纳税所得额，按20%的税率缴纳企业所得税。"]
EN_CONTEXTS = ["The Harbor Storefront Grant pays up to $5,000 to shops on Harbor Street."]

REFUSALS = ["根据提供的文档无法回答", "抱歉，资料中没有相关信息。", "未在资料中找到相关信息。", "我不知道。",
            "The documents do not say.", "I don't know.", "I could not find this in the documents.",
            "Unable to answer based on given passages.", "Sorry, the provided passages do not mention the deadline."]
ASSERTIONS = ["我是一个人工智能模型，我没有教育经历及毕业院校。", "小微企业不需要办理备案手续。",
              "The company does not provide refunds.", "We cannot provide loans to minors.",
              "The passages do not give the size, so these steps fit quilts of any size."]
ISSUE = ["对不起，根据提供的文档无法回答该问题", "信息不足，无法回答", "抱歉，我无法根据现有资料回答这个问题。",
         "提供的信息不足以回答该问题。"]
# They decline in part and assert the rest, or say something is absent in the world.
PARTIAL = ["资料未说明具体日期，但申请需在年底前提交。",
           "The passages do not say how big the quilt is, so these steps fit any size."]
WORLD = ["该地区没有机场。", "There is no tax on food in Ohio.", "未成年人不能申请。", "警方表示目前还不知道嫌疑人的身份。",
         "Scientists do not know what causes the disease.", "如果无法确定纳税义务发生时间，以开具发票的日期为准。"]


@pytest.fixture()
def kit(embedder):
    return Toolkit(embedder)


@pytest.mark.parametrize("answer", REFUSALS)
def test_refusals_are_recognised_in_both_languages(answer):
    assert declines(split_statements(answer))


@pytest.mark.parametrize("answer", ASSERTIONS)
def test_statements_that_assert_something_are_not_refusals(answer):
    assert not declines(split_statements(answer))


@pytest.mark.parametrize("language", ["zh", "en"])
def test_refusals_are_recognised_by_what_they_say_on_the_labelled_set(language):
    """Hundreds of phrasings per language (lead-ins, suggestions, width and punctuation
    variants) against hard negatives: absences in the world, partial refusals, answers that
    mention the documents, negated facts."""
    cases = [c for c in LABELLED if c["language"] == language]
    assert len(cases) >= 250
    for name, recognise in (("declines", lambda text: declines(split_statements(text))), ("is_refusal", is_refusal)):
        said = [(recognise(c["text"]), c["refusal"]) for c in cases]
        hits = sum(p and t for p, t in said)
        precision, recall = hits / sum(p for p, _ in said), hits / sum(t for _, t in said)
        assert precision >= 0.97 and recall >= 0.95, (name, precision, recall)


@pytest.mark.parametrize("answer", ISSUE)
def test_the_common_chinese_refusals_decline(answer):
    assert declines(split_statements(answer)) and is_refusal(answer)


@pytest.mark.parametrize("answer", ["抱歉，资料中没有相关信息。建议咨询当地税务机关。",
                                    "I couldn't find that in the passages. You may want to check the city website."])
def test_a_suggestion_to_look_elsewhere_asserts_nothing(answer):
    assert declines(split_statements(answer))
    assert not declines(split_statements("Please consult a doctor."))  # a suggestion alone declines nothing


@pytest.mark.parametrize("answer", PARTIAL)
def test_declining_part_and_asserting_the_rest_is_no_refusal(answer):
    assert not is_refusal(answer) and not declines(split_statements(answer))
    assert says_unanswerable(split_statements(answer))


@pytest.mark.parametrize("answer", WORLD)
def test_an_absence_in_the_world_is_no_refusal(answer):
    assert not is_refusal(answer) and not declines(split_statements(answer))


def test_a_refusal_sentence_inside_an_answer_is_not_a_claim():
    statements = split_statements("资料中没有提到申报期限。小型微利企业按20%的税率缴纳企业所得税。")
    assert is_refusal(statements[0]) and not declines(statements)
    assert context_claims(statements) == ["小型微利企业按20%的税率缴纳企业所得税"]


@pytest.mark.parametrize("answer,contexts", [("抱歉，资料中没有相关信息。", CONTEXTS), ("信息不足，无法回答", CONTEXTS),
                                             ("The documents do not say when the grant ends.", EN_CONTEXTS)])
def test_a_refusal_is_never_flagged_as_hallucinated(kit, answer, contexts):
    case = EvalCase(question_id="q", question="申报期限是什么时候？", answer=answer, retrieved_contexts=contexts)
    results = score_case(case, kit, ["faithfulness", "hallucination_rate", "overall_score"])
    faithfulness = results["faithfulness"]
    assert math.isnan(faithfulness.value) and faithfulness.error == DECLINES
    assert "hallucinated" not in faithfulness.details
    # It invents nothing: hallucination 0, and the overall score is still measured.
    assert results["hallucination_rate"].value == 0.0 and results["hallucination_rate"].details["refusal"]
    assert not math.isnan(results["overall_score"].value)


def test_declining_is_correct_when_the_reference_says_the_question_cannot_be_answered(kit):
    def correctness(answer, reference):
        case = EvalCase(question_id="q", question="2040年夏季奥运会在哪里举办？", answer=answer,
                        ground_truth_answer=reference)
        return score_case(case, kit, ["answer_correctness"])["answer_correctness"].value

    assert correctness("这个问题无法回答。", "无法回答2040年夏季奥运会在哪里举办。") == 1.0
    # the reference declines with its reasons: the two agree
    assert correctness("这个问题无法回答。", "这个问题无法回答，因为举办地还没有确定。") == 1.0
    assert correctness("I don't know.", "The 2040 Summer Olympics will be held in Paris.") < ANSWER_CORRECTNESS_WRONG_THRESHOLD
    assert correctness("2040年夏季奥运会在北京举办。", "这个问题无法回答。") == 0.0


def test_the_hallucination_flag_and_the_value_are_one_decision(kit):
    case = EvalCase(question_id="q", question="小微企业怎么缴纳企业所得税？", answer=CONTEXTS[0], retrieved_contexts=CONTEXTS)
    result = score_case(case, kit, ["faithfulness"])["faithfulness"]
    support = [v["score"] for v in result.details["statements"]]
    assert result.details["hallucinated"] is hallucinated(support) is False  # copied from its context
    assert result.details["expected_unsupported"] == pytest.approx(sum(1 - p for p in support), abs=1e-3)


# A refusal that gives its reason: what the sources do cover, or which document lacks the answer.
REASONED = ["The provided documents only cover adults, so I can't tell you about children.",
            "The passages are only about the 2023 season; I cannot say who won in 2024.",
            "说明书里没有提到孕妇能否使用，我无法回答。", "手册中只介绍了安装步骤，无法回答保修期的问题。"]
# The same reasons beside a claim about the world, or as a claim alone, are no refusal.
UNREASONED = ["The trial only enrolled adults, so I can't tell you about children.",
              "The provided documents only cover adults.", "手册中只介绍了安装步骤，保修期为两年。"]


@pytest.mark.parametrize("answer", REASONED)
def test_a_refusal_that_gives_its_reason_declines(answer):
    assert declines(split_statements(answer))


@pytest.mark.parametrize("answer", UNREASONED)
def test_a_reason_without_a_refusal_or_beside_a_claim_does_not_decline(answer):
    assert not declines(split_statements(answer))


# Not finding what was asked in the sources declines whatever the object ("the parking fee",
# not only "information"); not finding something in the world asserts a fact.
SOUGHT_IN_SOURCES = ["Sorry, I couldn't find the parking fee in the provided information.",
                     "I wasn't able to find the opening hours anywhere in the passages.",
                     "I could not locate the refund deadline in the documents.",
                     "在提供的信息中未能找到停车费。", "文档里没能找到停车收费标准。"]
SOUGHT_IN_THE_WORLD = ["We could not find a buyer in the local market.", "Researchers could not find the gene in the samples.",
                       "我们没能找到买家。", "I couldn't find the parking fee in the provided information, but parking is "
                       "free on weekends."]


@pytest.mark.parametrize("answer", SOUGHT_IN_SOURCES)
def test_not_finding_an_item_in_the_sources_declines(answer):
    assert is_refusal(answer) and declines(split_statements(answer))


@pytest.mark.parametrize("answer", SOUGHT_IN_THE_WORLD)
def test_not_finding_an_item_in_the_world_does_not_decline(answer):
    assert not declines(split_statements(answer))
