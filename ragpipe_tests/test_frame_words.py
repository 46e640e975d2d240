"""Chinese words that frame a claim (frame_words.py) and one-character verbs the evidence says as a compound
(verb_compounds.py): no words the evidence must hold, and what that does to a paraphrase's coverage."""

import pytest

from ragpipe.core.evidence import features
from ragpipe.core.evidence.features import FEATURES, statement_features
from ragpipe.core.evidence.frame_words import frame_word, held_in_pieces, without_frame_words
from ragpipe.core.evidence.verb_compounds import compound_verb


@pytest.mark.parametrize("token", ["座", "张", "着"])  # measure words, a particle
def test_a_word_of_grammar_frames_the_claim(token):
    assert frame_word(token)


@pytest.mark.parametrize("token, statement", [
    ("天", "两到3天就能送到"),    # a measure word after a number is a unit: a value, not a frame
    ("之后", ""),                # 之前 / 之后 oppose (antonyms.py): a swap, not a frame
    ("城市", ""),                # a noun
    ("不再", ""),                # a negator
    ("只有", ""),                # a conjunction: it limits the claim
    ("除了", ""),                # a preposition: it names an exception
])
def test_a_unit_an_antonym_a_noun_or_a_negator_is_no_frame(token, statement):
    assert not frame_word(token, statement)


def test_a_word_the_segmenter_guessed_is_held_by_its_pieces():
    # 耳机满电状态下能连续… gives 下能: 下 and 能 are stopwords.
    assert held_in_pieces("下能", {"耳机"}, ["耳机"])
    # 买满 is 买 + 满: 满 is inside the evidence's 年满, 买 nowhere.
    assert not held_in_pieces("买满", {"年满"}, ["年满"])
    # A dictionary word is no guess (城市 stays a word the evidence lacks).
    assert not held_in_pieces("城市", {"该市"}, ["该市"])


def test_only_the_words_the_evidence_lacks_are_dropped():
    tokens = ("座", "支持", "城市")
    assert without_frame_words(tokens, {"支持"}, ["支持"]) == ("支持", "城市")
    assert without_frame_words(tokens, {"座", "支持"}, ["支持"]) == tokens


@pytest.mark.parametrize("token, evidence_words, verb", [
    ("带", ["携带", "饮料"], "携带"),
    ("取", ["当场", "可取"], "可取"),
    ("看", ["观看", "设备"], "观看"),
])
def test_a_one_character_verb_is_the_evidence_compound_that_holds_it(token, evidence_words, verb):
    assert compound_verb(token, evidence_words) == verb


@pytest.mark.parametrize("token, evidence_words", [
    ("用", ["使用"]),        # 用 is a preposition in jieba's dictionary, not a verb
    ("关", ["关于"]),        # 关于 is no verb
    ("带", ["禁带"]),        # through a negator
    ("带来", ["携带"]),      # two characters: character_kin's to judge
    ("坐", ["乘坐车"]),      # only a two-character compound
])
def test_no_compound_for_a_non_verb_a_negator_or_a_longer_word(token, evidence_words):
    assert compound_verb(token, evidence_words) is None


@pytest.mark.parametrize("statement, evidence", [
    ("耳机满电状态下能连续放30小时音乐", "该款耳机充满电需要约1.5小时，可连续播放音乐30小时。"),  # 下能, a guess
    ("40元，一般可以当场取", "石英表更换电池每次40元，一般当场可取。"),                      # 取 / 可取
])
def test_a_paraphrase_s_frame_and_verbs_count_as_held(embedder, monkeypatch, statement, evidence):
    rows, _ = statement_features(embedder, [statement], [evidence])
    monkeypatch.setattr(features, "without_frame_words", lambda tokens, *args: tokens)
    monkeypatch.setattr(features, "compound_verb", lambda token, words: None)
    before, _ = statement_features(embedder, [statement], [evidence])
    column = FEATURES.index("coverage")
    assert rows[0][column] > before[0][column]
    assert rows[0][FEATURES.index("log_novel")] < before[0][FEATURES.index("log_novel")]
