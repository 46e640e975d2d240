"""stance_words.as_evidence_stance: a stance read in the evidence's word for it."""

from ragpipe.core.evidence.stance_words import as_evidence_stance


def test_a_stance_takes_the_evidence_word_for_it_before_the_same_verb():
    assert as_evidence_stance("定金交了就不能退。", "宴会预订定金不予退还。") == "定金交了就不予退。"
    assert as_evidence_stance("门票买了以后不能退。", "演唱会门票一经售出，概不退换。") == "门票买了以后概不退。"


def test_no_rewording_across_stances_verbs_or_languages():
    assert as_evidence_stance("可以带宠物。", "禁止携带宠物。") == "可以带宠物。"  # another stance: polarity.py's to judge
    assert as_evidence_stance("定金不能转让。", "宴会预订定金不予退还。") == "定金不能转让。"  # another act
    assert as_evidence_stance("定金不予退还。", "宴会预订定金不予退还。") == "定金不予退还。"  # already its word
    assert as_evidence_stance("Deposits cannot be refunded.", "Deposits are non-refundable.") == "Deposits cannot be refunded."


def test_no_rewording_toward_a_clause_on_another_thing():
    # "只允许使用人工饵" permits another bait: "可以使用活饵" keeps its words.
    assert as_evidence_stance("可以使用活饵。", "本水库禁止使用活饵，只允许使用人工饵。") == "可以使用活饵。"
    assert as_evidence_stance("探视养老院时最好不要带生鲜食品。", "探视时应避免携带生鲜食品进入养老院。") == \
        "探视养老院时应避免带生鲜食品。"
