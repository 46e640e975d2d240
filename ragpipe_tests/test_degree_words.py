"""degree_words.as_evidence_degree: a gradable word read with the evidence's degree word."""

from ragpipe.core.evidence.contradiction import contradiction
from ragpipe.core.evidence.degree_words import as_evidence_degree

LENS = "镜片定制周期较长，一般需要两周。"


def test_a_gradable_word_takes_the_evidence_degree_word_so_its_antonym_contradicts():
    assert as_evidence_degree("镜片定制周期很短。", LENS) == "镜片定制周期较短。"
    found = contradiction(as_evidence_degree("镜片定制周期很短。", LENS), [LENS])
    assert found is not None and found.kind == "antonym"


def test_the_same_word_with_another_degree_word_says_what_the_evidence_says():
    assert as_evidence_degree("镜片定制周期比较长。", LENS) == "镜片定制周期较长。"
    assert contradiction(as_evidence_degree("镜片定制周期很长。", LENS), [LENS]) is None


def test_no_rewording_where_the_evidence_has_no_such_word_or_the_statement_own():
    assert as_evidence_degree("这里的房价很高。", LENS) == "这里的房价很高。"
    assert as_evidence_degree("周期很长。", "周期很长，需要两周。") == "周期很长。"
