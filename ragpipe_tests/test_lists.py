import pytest

from ragpipe.core.evidence.contradiction import contradiction
from ragpipe.core.evidence.lists import list_conflict, member_named

MED = ["Take one tablet twice a day with food.", "Do not exceed four tablets in 24 hours.",
       "Common side effects include drowsiness and dry mouth."]


@pytest.mark.parametrize("statement, evidence", [
    ("Common side effects include headache and dry mouth.", MED),
    ("常见副作用包括头痛和口干。", ["每日两次，每次一片，随餐服用。", "常见副作用包括嗜睡和口干。"]),
    ("Symptoms include fever, rash and fatigue.", ["Symptoms include fever, cough and fatigue."]),
    ("The course covers Python and Java.", ["The course covers Python and SQL."]),
    ("常见症状包括发热、皮疹和乏力。", ["常见症状包括发热、咳嗽和乏力。"]),
])
def test_a_list_member_replaced_by_one_the_evidence_never_states(statement, evidence):
    found = contradiction(statement, evidence)
    assert found is not None and found.kind == "name"


@pytest.mark.parametrize("statement, evidence", [
    ("The kit includes a charger and a carrying case.", ["The kit includes a charger, a USB cable and a carrying case."]),
    ("The salad contains feta and cucumbers.", ["The salad contains tomatoes, cucumbers and feta."]),
    ("套餐包含机票和早餐。", ["套餐包含机票、酒店和早餐。"]),
    ("The hotel has a pool and a sauna.", ["The hotel has a pool and a gym.", "A sauna is on the top floor."]),
    ("Stir in the stock, fennel seed, bay leaf, cardamom and cinnamon", ["Stir in the stock, fennel seed, bay leaf, cardamon and cinnamon"]),
    ("Cook the bratwurst on the grill, turning once", ["Cook the bratwurst on the grill, turning occasionally to brown evenly"]),
])
def test_a_subset_a_reordering_or_a_member_stated_elsewhere_is_no_list_conflict(statement, evidence):
    assert list_conflict(statement, evidence) is None


@pytest.mark.parametrize("statement, evidence", [
    ("Our office is closed on New Year's Day and Labour Day.", ["Our office is closed on New Year's Day, Easter Monday and Christmas Day."]),
    ("快递服务包括上门取件、次日达和保价服务。", ["快递服务包括上门取件、次日达和包装服务。"]),
    ("该手机提供黑色、白色和红色三种颜色。", ["该手机提供黑色、白色和蓝色三种颜色。"]),
])
def test_the_kind_word_or_closing_words_a_member_shares_with_the_list_do_not_state_it(statement, evidence):
    found = list_conflict(statement, evidence)
    assert found is not None and found[0] == "name"



@pytest.mark.parametrize("statement, evidence", [
    ("Trace the pattern onto the remaining fabric and cut it", ["Trace all pattern to the rest of the fabric and cut."]),
    ("the handle rests just under your heel pad, running to your index finger", ["The handle rests just under your heel pad and runs to your index finger."]),
])
def test_a_member_that_is_no_name_keeps_its_head_word(statement, evidence):
    assert list_conflict(statement, evidence) is None


# Blind batch 22a (round twenty-one): a negated clause with a list ("do not repair smartwatches or fitness trackers")
# held too many words for "We repair smartwatches" to restate it, so the flipped negation passed at 0.945.
@pytest.mark.parametrize("statement, evidence", [
    ("We repair smartwatches.", "We do not repair smartwatches or fitness trackers; please contact the manufacturer."),
    ("We repair fitness trackers.", "We do not repair smartwatches or fitness trackers."),
    ("本店提供停车。", "本店不提供停车和餐饮。"),
])
def test_a_negated_list_denies_each_member_the_statement_names(statement, evidence):
    found = contradiction(statement, [evidence])
    assert found is not None and found.kind == "negation", found


def test_member_named_keeps_the_named_member_and_leaves_other_clauses_whole():
    assert member_named("We do not repair smartwatches or fitness trackers", ["repair", "smartwatch"]) == \
        "We do not repair smartwatches"
    assert member_named("本店不提供停车和餐饮", ["提供", "停车"]) == "本店不提供停车"
    # no member named, or a part too long for a member: the clause as it is
    assert member_named("We do not repair smartwatches or fitness trackers", ["sell", "batteries"]) == \
        "We do not repair smartwatches or fitness trackers"
    long = "We do not repair smartwatches, and we never open a sealed case for anyone"
    assert member_named(long, ["repair", "smartwatch"]) == long
    assert contradiction("We repair smartwatches.", ["We repair smartwatches and fitness trackers."]) is None


@pytest.mark.parametrize("statement, evidence", [
    # an affirmative clause's "and" may join a second predicate, and a member's own "no" negates no list
    ("Sexual violence is not limited to rape.", "Many people only think of sexual violence as rape and tend to overlook touching."),
    ("The secretary signaled a willingness to forgive loans.",
     "The secretary signaled a willingness to forgive loans of graduates who have crushing debt and no job prospects."),
])
def test_only_a_negated_clause_s_list_is_read_member_by_member(statement, evidence):
    assert contradiction(statement, [evidence]) is None
