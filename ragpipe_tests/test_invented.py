"""The verifier's `invented` feature: claims whose new words the evidence never states."""

import pytest

from ragpipe.core.evidence.features import _prepare
from ragpipe.core.evidence.invented import invented
from ragpipe.core.evidence.support import OfflineVerifier

MUSEUM = ["The museum opens at 9 a.m. and closes at 5 p.m.", "It has three floors of modern art."]
ZH_MUSEUM = ["博物馆上午9点开门，下午5点闭馆。", "馆内有三层现代艺术展厅。"]


def fires(statement, evidence, question=""):
    prepared = _prepare(evidence)
    return invented(statement, question, prepared.sentences, prepared.lowered, prepared.all_tokens)


@pytest.mark.parametrize("statement", ["It is free.", "The museum is free.", "Parking is free.", "It is waterproof."])
def test_a_short_claim_whose_predicate_the_evidence_never_states_is_invented(statement):
    assert fires(statement, MUSEUM)


@pytest.mark.parametrize("statement", ["门票免费。", "它是免费的。", "它可以防水。"])
def test_a_short_chinese_claim_whose_words_the_evidence_never_holds_is_invented(statement):
    assert fires(statement, ZH_MUSEUM)


@pytest.mark.parametrize("statement", ["It opens at nine.", "The museum is open.", "It has three floors.", "Yes.",
                                       "Yes, it is.", "$12.", "In conclusion", "The location", "Instructions:"])
def test_short_claims_the_evidence_states_bare_replies_and_headings_are_not_invented(statement):
    assert not fires(statement, MUSEUM)


def test_a_short_chinese_claim_is_held_by_a_character_pair_or_a_value_of_the_evidence():
    assert not fires("博物馆免费参观。", ["博物馆对所有游客免费开放。"], question="博物馆要门票吗？")  # 免费参观 ~ 免费开放参观
    assert not fires("停车场22:00关闭", ["本停车场营业时间为早7:00至晚22:00。"], question="停车场几点关门？")
    assert not fires("有的。", ZH_MUSEUM) and not fires("上午九点开门。", ZH_MUSEUM)


def test_a_short_comparison_is_left_to_the_comparison_readers():
    """"深圳市更高" holds against 5000元 and 1万元 though neither sentence says 更高 (a multi-hop question's reference)."""
    grants = ["广州市对首次创业的个人给予一次性创业补贴5000元。", "深圳市对首次创业的个人给予一次性创业补贴1万元。"]
    assert not fires("深圳市更高", grants) and not fires("Shenzhen pays more.", grants)
    assert not fires("It is cheaper.", MUSEUM) and fires("The lid is silver.", MUSEUM)


def test_the_verifier_scores_short_invented_claims_as_unsupported(embedder):
    verifier = OfflineVerifier(embedder)
    free, red = verifier.verify(["It is free.", "It is red."], MUSEUM)
    stated, = verifier.verify(["It opens at nine."], MUSEUM, question="When does it open?")
    zh, = verifier.verify(["门票免费。"], ZH_MUSEUM)
    assert free.score <= 0.3 and red.score <= 0.3 and zh.score <= 0.3 and stated.score >= 0.5
