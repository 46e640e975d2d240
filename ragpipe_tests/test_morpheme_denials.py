"""morpheme_denials: a Chinese verb denied on one side and affirmed on the other, written as two words sharing their
first morpheme (round twenty-two, i63-contra)."""

import pytest

from ragpipe.core.evidence.contradiction import contradiction
from ragpipe.core.evidence.morpheme_denials import morpheme_denial


@pytest.mark.parametrize("statement, sentence", [
    ("预约取消后定金不能退。", "家政服务预约后如需取消，需提前24小时告知，定金可全额退还。"),
    # The thing in the clause before the verb's ("会员卡一经售出，余额概不退还").
    ("洗车会员卡办理后可以退费。", "会员卡一经售出，余额概不退还。"),
    # jieba tags 驾照 a verb: the thing is any word of the clause.
    ("驾照体检费可以报销。", "单位福利仅覆盖年度体检，驾照体检等个人项目不在报销范围内。"),
    ("停车场不收取停车费。", "地下停车场按小时收取停车费，每小时5元。"),
    ("健身卡可以转让给朋友。", "健身卡仅限本人使用，不得转让。"),
    ("电子书不能下载。", "电子书支持在线阅读和下载。"),
    # Blind batch 24b (round twenty-three): the object put first, and a cancelling that is the condition, no negation.
    ("定金一律不退。", "下单时需支付定金100元，活动前3天以上取消可退还定金。"),
    ("押金不能退。", "退房时检查无损坏，即可退还押金。"),
])
def test_a_verb_denied_against_the_same_morpheme_affirmed(statement, sentence):
    found = morpheme_denial(statement, [sentence])
    assert found and found[0] == "negation" and found[3] == sentence
    assert contradiction(statement, [sentence]) is not None


@pytest.mark.parametrize("statement, sentence", [
    ("预约取消后定金可以全额退还。", "家政服务预约后如需取消，需提前24小时告知，定金可全额退还。"),
    ("健身卡不能转让。", "健身卡仅限本人使用，不得转让。"),
    # Each condition's reading: one bears the statement out.
    ("未到店的顾客定金不退。", "未到店的，定金不予退还；提前取消的，定金可全额退还。"),
    ("提前取消的定金可以退。", "未到店的，定金不予退还；提前取消的，定金可全额退还。"),
    # Another object ("红茶" / "乌龙茶"), the sides in another order, a modifier's verb, a negation further back.
    ("大红袍不属于红茶", "大红袍，产于福建武夷山，属乌龙茶，品质优异。"),
    ("所以只有今人抄古人", "由于时间先后顺序的问题，古人无法抄袭今人。"),
    ("所以中国自然无法拍出高分美剧", "美剧特指美国制作的电视剧，因此中国拍的电视剧不能称之为美剧。"),
    ("干湿并不影响泳裤的使用", "泳裤的干湿不会对游泳造成影响。"),
    ("同时不再支持安卓7", "该应用的3.0版本新增了深色模式，并取消了对安卓7的支持。"),
    # A question asserts nothing.
    ("押金能退吗：押金不予退还", "押金一经缴纳，不予退还。"),
    ("回收站哪天不开门：每周一闭站", "回收站每周二至周日开放，周一闭站。"),
    # An only grants the verb to one part and denies it to the others.
    ("标准会员不能下载。", "仅高级会员支持下载。"),
    # Nor does a question on the evidence's side.
    ("我无法感到激动", "哪件事最让你感到激动：出国旅行。"),
    # English is read elsewhere.
    ("The deposit cannot be refunded.", "The deposit is refunded in full."),
])
def test_no_denial_where_a_reading_bears_it_out_or_the_verbs_differ(statement, sentence):
    assert morpheme_denial(statement, [sentence]) is None
