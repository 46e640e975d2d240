""""Both sides" and "the two of them" are one pair (pairs.py, in the verifier)."""

import pytest

from ragpipe.core.evidence.pairs import as_evidence_names_pair


@pytest.mark.parametrize("statement, evidence, read", [
    ("结婚登记时两个人都要带上自己的户口本和身份证。", "办理结婚登记，男女双方须携带本人户口簿和居民身份证。",
     "结婚登记时双方都要带上自己的户口本和身份证。"),
    ("合同要两人签字才生效。", "合同经双方签字后生效。", "合同要双方签字才生效。"),
    ("双方都要到场。", "离婚登记须两人亲自到场。", "两人都要到场。"),
    ("The two parents must sign the form.", "Both parents must sign the consent form.", "Both parents must sign the form."),
])
def test_the_pair_is_read_as_the_evidence_writes_it(statement, evidence, read):
    assert as_evidence_names_pair(statement, evidence) == read


@pytest.mark.parametrize("statement, evidence", [
    ("十二人以上可以包场。", "包场须双方协商。"),              # 十二人 is no pair
    ("两个人都要带身份证。", "办理登记须携带身份证。"),          # the evidence names no pair
    ("双方都要到场。", "双方须亲自到场，两人缺一不可。"),        # it says it the statement's way too
    ("Two rooms share a bathroom.", "Both rooms have a balcony."),  # two of several rooms is no pair named
])
def test_the_statement_is_left_as_it_is_elsewhere(statement, evidence):
    assert as_evidence_names_pair(statement, evidence) == statement
