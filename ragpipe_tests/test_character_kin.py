"""Chinese words read as the evidence's kindred word (character_kin.py), and what that does to a paraphrase's
coverage in the verifier's features."""

import pytest

from ragpipe.core.evidence.character_kin import kindred_word
from ragpipe.core.evidence import features
from ragpipe.core.evidence.features import FEATURES, statement_features


@pytest.mark.parametrize("token, evidence_words, kin", [
    ("缴纳", ["缴费", "截止"], "缴费"),      # the telling 缴, other characters changed
    ("连续", ["续航", "时间"], "续航"),      # the shared character in another place
    ("修缮", ["装修", "闭馆"], "装修"),
    ("退回来", ["退还", "押金"], "退还"),
    ("岁", ["周岁", "年满"], "周岁"),       # one character: the evidence's word that contains it
])
def test_a_word_sharing_a_telling_character_is_read_as_the_evidence_word(token, evidence_words, kin):
    assert kindred_word(token, evidence_words) == kin


@pytest.mark.parametrize("token, evidence_words", [
    ("上午", ["下午", "开放"]),    # 上 / 下 oppose (上调 / 下调 in antonyms.py): a swap
    ("最低", ["最高", "气温"]),    # 高 / 低 oppose
    ("免费", ["费用", "收取"]),    # a negator on one side only
    ("受到", ["达到", "效果"]),    # 到 is in common use: it links nothing
    ("三天", ["三年", "驾龄"]),    # a numeral is the number readers' to judge
    ("耳机", []),
    ("票", ["免票", "儿童"]),      # one character, but 免票 holds a negator
    ("只", ["只有"]),             # one character, a common one
    ("renew", ["renewal"]),       # English has its word families (synonyms.py)
])
def test_no_kin_through_a_swap_a_negator_a_common_character_or_a_numeral(token, evidence_words):
    assert kindred_word(token, evidence_words) is None


def test_a_reworded_chinese_statement_is_covered_by_its_kindred_words(embedder, monkeypatch):
    statement, evidence = ["学费须在开学前缴纳"], ["开学前须缴费，学费为3000元。"]
    rows, _ = statement_features(embedder, statement, evidence)
    monkeypatch.setattr(features, "kindred_word", lambda token, words: None)
    unlinked, _ = statement_features(embedder, statement, evidence)
    # 缴纳 is the evidence's 缴费: one word fewer the evidence lacks.
    column = FEATURES.index("coverage")
    assert rows[0][column] > unlinked[0][column]
    assert rows[0][FEATURES.index("log_novel")] < unlinked[0][FEATURES.index("log_novel")]
