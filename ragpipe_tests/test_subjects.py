"""A statement about one of two things its evidence contrasts, read against the clause about its own thing
(ragpipe/core/evidence/subjects.py), as the contradiction route reads it."""

import pytest

from ragpipe.core.evidence.contradiction import contradicted
from ragpipe.core.evidence.subjects import subject_contrast, thing

BARBECUES = ["Raised gas barbecues are allowed on all pitches;", "disposable barbecues and open fires are banned."]
DOGS = ["小型犬可以入住营地，但须全程拴绳；", "大型犬不得入内。"]
BIKES = ["Standard bikes cost £15 a day to hire, while e-bikes cost £35 a day."]


@pytest.mark.parametrize("clause, words", [
    ("Disposable barbecues can be used on your pitch.", ("disposable", "barbecu")),
    ("Yes, rice confetti may be thrown.", ("rice", "confetti")),
    ("while e-bikes cost £35 a day", ("e-bik",)),  # stemmed as "e-bike" is not
    ("大型犬可以入住营地", ("大型犬",)),
    # A place before the modal is no subject: the thing is what the verb of use takes.
    ("营地内可以用木炭烧烤", ("木炭", "烧烤")),
    # A pronoun names nothing to align with.
    ("It can be used on your pitch.", ()),
])
def test_the_thing_a_clause_is_about(clause, words):
    assert thing(clause) == words


@pytest.mark.parametrize("statement, question, evidence, kind", [
    ("Disposable barbecues can be used on your pitch.", "Can campers have a barbecue?", BARBECUES, "negation"),
    ("Rice confetti may be thrown in the walled garden.", "Can guests throw rice?",
     ["Biodegradable petal confetti is welcome in the walled garden; rice and plastic confetti are not permitted."],
     "negation"),
    ("大型犬可以入住营地。", "营地可以带狗吗？", DOGS, "negation"),
    ("营地内可以用木炭烧烤。", "营地可以烧烤吗？", ["营地内可使用燃气烤炉，木炭烧烤和明火一律禁止。"], "negation"),
    ("An e-bike costs £15 a day to hire.", "How much is an e-bike?", BIKES, "number"),
    ("夜间练车每小时150元。", "夜间练车怎么收费？", ["白天练车每小时150元，夜间练车每小时200元。"], "number"),
])
def test_a_statement_saying_of_its_thing_what_the_evidence_says_of_another(statement, question, evidence, kind):
    found = contradicted(statement, question, evidence)
    assert found is not None and found.kind == kind
    assert subject_contrast(statement, evidence)[0] == kind


@pytest.mark.parametrize("statement, evidence", [
    # What the evidence says of the statement's own thing.
    ("Raised gas barbecues are allowed on the pitches.", BARBECUES),
    ("小型犬可以入住，但必须全程拴绳。", DOGS),
    ("E-bikes cost £35 a day to hire.", BIKES),
    # Clauses that do not say whether a thing may be done are not set against each other by their negation.
    ("Gravy is not usually used in preparing food.", ["As you can see, gravy is a type of sauce.", "Sauces are not used raw."]),
    # A pronoun subject aligns with nothing.
    ("They can be used on your pitch.", BARBECUES),
])
def test_no_contrast_where_the_statement_says_what_its_own_clause_says(statement, evidence):
    assert subject_contrast(statement, evidence) is None


KARTS = ["成人卡丁车可在室外赛道驾驶，儿童卡丁车只能在室内赛道使用。"]
EN_KARTS = ["Adult karts run on the outdoor track, while junior karts run on the indoor track."]


@pytest.mark.parametrize("statement, evidence", [
    ("成人卡丁车可以在室外赛道驾驶。", KARTS),
    ("Adult karts run on the outdoor track.", EN_KARTS),
])
def test_no_contradiction_from_the_clause_about_another_thing_where_its_own_clause_agrees(statement, evidence):
    assert contradicted(statement, "Where do karts run?", evidence) is None


@pytest.mark.parametrize("statement, evidence", [
    ("成人卡丁车可以在室内赛道驾驶。", KARTS),
    ("儿童卡丁车可以在室外赛道驾驶。", KARTS),
    ("Junior karts run on the outdoor track.", EN_KARTS),
])
def test_the_clause_about_the_statement_s_own_thing_still_contradicts_it(statement, evidence):
    assert contradicted(statement, "Where do karts run?", evidence) is not None


ROWING = ["The Learn-to-Row course runs over six Saturday mornings and costs $240, including boat hire.",
          "It is open to adults aged 18 and over.", "The junior squad takes rowers aged 12 to 17."]


def test_another_thing_s_value_against_the_value_of_the_same_kind_its_own_sentences_give():
    # The course's age is in the sentence after the one naming it, which opens with "It".
    assert subject_contrast("The Learn-to-Row course is for rowers aged 12 to 17.", ROWING)[0] == "number"


@pytest.mark.parametrize("statement", [
    "The Learn-to-Row course is for adults aged 18 and over.",  # its own value
    "The junior squad is for rowers aged 12 to 17.",  # the other thing's own value
    "The Learn-to-Row course costs $240.",
])
def test_no_value_conflict_where_the_statement_gives_its_own_thing_s_value(statement):
    assert subject_contrast(statement, ROWING) is None


# Blind batch 22b (round twenty-one, found after its blind scoring): a place name taken from another thing's sentence, and
# a clock time's colon had cut the rehearsals' clause before its place.
REHEARSALS = ["Rehearsals take place every Thursday from 6 p.m. to 8:30 p.m. at Hallam Music School.",
              "The winter concert is held in December at St. Anne's Hall; adult tickets cost $12."]


@pytest.mark.parametrize("statement, contradicted_", [
    ("Rehearsals are held at St. Anne's Hall.", True),
    ("The winter concert is held at Hallam Music School.", True),
    ("Rehearsals are held at Hallam Music School.", False),
    ("The winter concert is held at St. Anne's Hall.", False),
])
def test_a_name_taken_from_another_thing_s_sentence(statement, contradicted_):
    found = subject_contrast(statement, REHEARSALS)
    assert (found is not None and found[0] == "name") == contradicted_, found


def test_a_clause_that_renames_the_thing_before_names_no_other_thing():
    # Round twenty-one: the name reader above first took Robert Zimmerman for another thing's name (suite faithful/91).
    evidence = ["The song was written by Bob Dylan, whose birth name is Robert Zimmerman."]
    assert subject_contrast("The song was written by Robert Zimmerman.", evidence) is None


@pytest.mark.parametrize("clause, words", [
    # A word of a hyphenated compound is no predicate ("Open-", "Take-" are no "opens", "takes").
    ("Open-water students can dive to 30 metres.", ("open-water", "student")),
    ("Take-away orders cost 9 pounds.", ("take-away", "order")),
    # 在 before a place ends a Chinese subject.
    ("社区义诊在区图书馆举行", ("社区", "义诊")),
])
def test_the_thing_before_a_compound_or_a_place(clause, words):
    assert thing(clause) == words


@pytest.mark.parametrize("statement, evidence, kind", [
    ("Open-water students can dive to 30 metres.",
     ["Open-water students are limited to 18 metres; advanced divers may go to 30 metres."], "number"),
    ("Take-away orders cost 12 pounds.", ["Dine-in orders cost 12 pounds, while take-away orders cost 9 pounds."], "number"),
    # The place of another thing's clause (round twenty-two, i63-contra).
    ("社区义诊在区图书馆举行。", ["本周六社区义诊在街道卫生服务中心举行，周日的读书分享会在区图书馆举行。"], "name"),
    ("新年音乐会在市文化宫举行。", ["新年音乐会在市音乐厅举行，书画展在市文化宫展出。"], "name"),
    ("毕业典礼在体育馆举行。", ["毕业典礼在学校礼堂举行；新生报到在体育馆办理。"], "name"),
])
def test_a_value_or_a_place_of_another_thing(statement, evidence, kind):
    assert subject_contrast(statement, evidence)[0] == kind
    assert contradicted(statement, "", evidence) is not None


@pytest.mark.parametrize("statement, evidence", [
    ("社区义诊在街道卫生服务中心举行。", ["本周六社区义诊在街道卫生服务中心举行，周日的读书分享会在区图书馆举行。"]),
    ("晚宴在酒店宴会厅进行。", ["婚礼彩排安排在教堂进行，晚宴在酒店宴会厅进行。"]),
    # A negated claim puts nothing anywhere.
    ("没有哪位科学家曾在红岸基地工作", ["红岸基地在现实生活中并不存在，没有人在这里工作过。"]),
])
def test_the_place_of_the_statement_s_own_thing_is_no_contrast(statement, evidence):
    assert subject_contrast(statement, evidence) is None
