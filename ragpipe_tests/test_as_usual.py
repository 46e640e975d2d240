"""as_usual: a change said of the whole, or of the part the evidence keeps going (round twenty-three, i64-contrazh)."""

import pytest

from ragpipe.core.evidence.as_usual import usual_part_stopped
from ragpipe.core.evidence.contradiction import contradicted

POOLS = "During the heat advisory the outdoor pool is closed; the indoor pool stays open as usual."
CHARGERS = "暴雨预警期间地面充电桩全部停用，地下车库充电桩正常使用。"
STORM = "暴雨期间户外项目全部暂停，室内场馆照常开放。"
WORKS = "高温红色预警期间，户外露天作业一律停工，室内作业不受影响。"


@pytest.mark.parametrize("statement, sentence", [
    ("下雨天室内外球场全部关闭。", "雨天室外球场关闭，室内9洞荧光球场照常开放。"),  # the whole
    ("春节期间自习室全部暂停开放。", "春节期间自习室一楼开放区暂停开放，二楼独立包间照常营业。"),
    ("暴雨期间所有项目都暂停。", STORM),
    ("暴雨预警期间地下车库的充电桩也停用。", CHARGERS),  # the part kept going
    ("During the heat advisory both pools are closed.", POOLS),
    ("The indoor pool is closed during the heat advisory.", POOLS),
    ("演出期间所有出入口都关闭。", "演出期间东门关闭，西门照常通行。"),  # parts that share a character
    ("高温预警期间室内作业也要停工。", WORKS),
    ("罢工期间公交也停运。", "罢工期间地铁全线停运，公交正常运营。"),  # the part kept going named, no word against it
    ("During the strike the buses are also suspended.", "During the strike the subway is suspended; buses operate as usual."),
    ("All lanes of the bridge are closed tonight.", "Tonight the two northbound lanes of the bridge are closed; the southbound lanes remain open."),
])
def test_a_change_said_of_the_whole_or_of_the_part_kept_going_is_contradicted(statement, sentence):
    found = usual_part_stopped(statement, [sentence])
    assert found and found[0] == "scope" and found[3] == sentence
    assert contradicted(statement, "", [sentence]) is not None


@pytest.mark.parametrize("statement, sentence", [
    ("下雨天室外球场关闭。", "雨天室外球场关闭，室内9洞荧光球场照常开放。"),  # the changed part itself
    ("户外项目全部暂停。", STORM),
    ("暴雨期间户外项目全部暂停。", STORM),
    ("暴雨预警期间地面充电桩全部停用。", CHARGERS),
    ("春节期间一楼开放区暂停，二楼包间还能正常使用。", "春节期间自习室一楼开放区暂停开放，二楼独立包间照常营业。"),
    ("地下车库的充电桩不会停用。", CHARGERS),  # denied
    ("During the heat advisory the outdoor pool is closed.", POOLS),
    ("高温天气下，所有户外工地全部停工。", WORKS),  # 户外 names the changed part (室内 / 户外 are antonyms)
    ("罢工期间地铁停运。", "罢工期间地铁全线停运，公交正常运营。"),
    # A word both parts share ("lot") names neither.
    ("During the snowstorm the east lot is closed, but the west lot stays open.",
     "During the snowstorm, the east parking lot is closed; the west lot remains open for staff and visitors."),
])
def test_the_changed_part_itself_is_no_contradiction(statement, sentence):
    assert usual_part_stopped(statement, [sentence]) is None


def test_the_two_clauses_may_stand_in_two_sentences():
    changed, usual = "During the heat advisory the outdoor pool is closed;", "the indoor pool stays open as usual."
    found = usual_part_stopped("During the heat advisory both pools are closed.", [changed, usual])
    assert found and found[3] == usual
