"""denials.py: a statement that denies, in other words, what the evidence states is contradicted; a denial the
evidence makes too (in its words or others) is not."""

import pytest

from ragpipe.core.evidence.denials import affirmative
from ragpipe.core.metrics import REGISTRY, Toolkit
from ragpipe.core.schemas import EvalCase


@pytest.mark.parametrize("statement,expected", [
    ("The train is not delayed", "The train is delayed"),
    ("You cannot cancel any time", "You can cancel any time"),
    ("It isn't free", "It is free"),
    ("Can't be returned", "Can be returned"),
    ("这本书不是茅盾写的", "这本书是茅盾写的"),
    ("会员不可以免费使用泳池", "会员可以免费使用泳池"),
    ("上个月房价没有上涨", "上个月房价有上涨"),
    ("他没去北京", "他去北京"),
    ("没有3个校区", "有3个校区"),                   # 没有 + a count: the verb 有 denied
    ("He never came", None),                      # only "not" after a verb, "cannot", "n't" are taken out
    ("The train is on time", None),               # nothing denied
    ("没有球队在每年的联赛中都进球最多", None),      # 没有 + noun: "no such team", no denied verb
    ("同时不再支持安卓7", None),                    # 不再: "no longer"
    ("一天不超过4次", None),                        # a bound, not a denial
    ("It is not free and not open", None),        # two negations
])
def test_affirmative(statement, expected):
    assert affirmative(statement) == expected


@pytest.fixture(scope="module")
def kit(embedder):
    return Toolkit(embedder)


def faithfulness(kit, question, answer, contexts):
    result = REGISTRY["faithfulness"].score(EvalCase(question_id="q", question=question, answer=answer,
                                                     retrieved_contexts=contexts), kit)
    return result.value, result.details["hallucinated"]


@pytest.mark.parametrize("question,answer,contexts", [
    # each scored 0.83-0.91 before: the polarity rules read no restatement in other words
    ("Who wrote the song?", "The song was not written by Robert Zimmerman.",
     ["The song was written by Bob Dylan, whose birth name is Robert Zimmerman."]),
    ("How long is the trail?", "The hike is not twelve kilometres long.", ["The trail is 12 km long and climbs 600 m to the ridge."]),
    ("Is the apartment on a high floor?", "It is not on the fourth floor.", ["The apartment is on the fourth floor and has a lift."]),
    ("这本书是谁写的？", "这本书不是茅盾写的。", ["这本书由茅盾创作，1933年出版。"]),
    ("How much is extra data?", "Each extra GB is not $5.", ["Extra data costs $5 per GB."]),  # a price is no opposite
    ("退款多久到账？", "退款不会在3到5个工作日内原路退回。", ["退款将于3-5个工作日内原路返回至您的支付账户。"]),
])
def test_a_denial_of_what_the_evidence_states_is_contradicted(kit, question, answer, contexts):
    value, flagged = faithfulness(kit, question, answer, contexts)
    assert value <= 0.3 and flagged


@pytest.mark.parametrize("question,answer,contexts", [
    ("Is it for children?", "It is not recommended for children under 6.", ["The medicine is not recommended for children under 6."]),
    ("Do I need a visa?", "You do not need a visa for stays under 90 days.",
     ["Visitors staying fewer than 90 days are exempt from the visa requirement."]),
    ("Did interest rates rise in March?", "Interest rates did not rise in March.", ["In March, interest rates fell by a quarter point."]),
    ("停车收费吗？", "头两个小时不收费。", ["停车场前两小时免费，之后每小时收费5元。"]),
    ("这里能停车吗？", "这里不可以停车。", ["这里禁止停车。"]),
])
def test_a_denial_the_evidence_makes_too_stays_supported(kit, question, answer, contexts):
    value, flagged = faithfulness(kit, question, answer, contexts)
    assert value >= 0.8 and not flagged
