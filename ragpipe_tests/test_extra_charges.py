import pytest

from ragpipe.core.evidence.contradiction import contradiction
from ragpipe.core.evidence.extra_charges import charged_apart, included_after_all
from ragpipe.core.text import split_sentences


@pytest.mark.parametrize("statement, evidence", [
    ("标准洗车包括内饰清洁。", ["标准洗车只清洗车身外部，内饰清洁需另外付费。"]),
    ("门票包含语音导览。", ["博物馆门票18元，含临时展览。", "语音导览需另外租用，每台5元。"]),
    ("Breakfast is included.", ["Breakfast is charged separately at $15 per person."]),
    ("The tour includes a picnic lunch.", ["A picnic lunch is available for an extra fee of $12."]),
    ("The ticket includes an audio guide.", ["A museum ticket costs $18.", "The audio guide is rented separately for $5."]),
    # the thing as the subject of "is included" / "is free" / "come free", charged apart or priced on its own
    ("Replacing a broken string is included in the $120 tuning fee.",
     ["Piano tuning costs $120 per visit. Minor repairs such as replacing a broken string cost extra."]),
    ("Dry bags come free with every canoe rental.", ["Canoe rental includes paddles. Dry bags can be rented for $5 each."]),
    ("Log removal is free.", ["We leave the wood chips on site free of charge. Taking the logs away costs extra."]),
    ("芯片钥匙的编程费已包含在15元里。", ["配钥匙每把15元，防盗门芯片钥匙需另外收取30元编程费。"]),  # the thing before 包含在, charged after 收取
])
def test_a_thing_said_included_that_the_evidence_charges_for_apart_is_contradicted(statement, evidence):
    assert charged_apart(statement, evidence) is not None
    found = contradiction(statement, evidence)
    assert found is not None and found.kind == "negation"


@pytest.mark.parametrize("statement, evidence", [
    ("门票包含临时展览。", ["博物馆门票18元，含临时展览。", "语音导览需另外租用，每台5元。"]),  # another thing is charged apart
    ("房费含早餐。", ["房费含早餐，午餐需另外付费。"]),
    ("Lunch is included.", ["Lunch is included; drinks cost extra."]),
    ("标准洗车不包括内饰清洁。", ["内饰清洁需另外付费。"]),  # a denial says what the evidence says
    # a charge denied is none
    ("A nail trim is included.", ["A bath and brush costs $35, and a nail trim is included at no extra charge."]),
    ("套餐包含拍照。", ["套餐含拍照，不另外收费。"]),
    ("The ticket includes the temporary exhibition.", ["A museum ticket includes the temporary exhibition.", "The audio guide is rented separately for $5."]),
    # a price in the sentence before is another thing's
    ("Towels are free.", ["Towels are handed out at the desk. Lockers cost $2."]),
    # the thing's word as the verb of another thing's price: helmets are hired, not "skate hire"
    ("Skate hire is included in the ticket.", ["Skate hire is included in the ticket. Knee pads and helmets can be hired for £1.50 each."]),
    ("自习室的费用包含在会员费里。", ["会员每月50元，可免费使用自习室；彩色打印需另行收费，每页1元。"]),
])
def test_an_extra_charge_for_another_thing_or_a_denied_inclusion_is_no_contradiction(statement, evidence):
    assert charged_apart(statement, evidence) is None


def test_a_thing_charged_apart_that_the_evidence_includes_is_contradicted():
    # Round nineteen (i60b-clauses): "£2 extra" is the lockers' price; nothing read "included" against "extra".
    surf = split_sentences("Wetsuits and boards are included in the surf lesson price; lockers cost £2 extra.")
    found = included_after_all("Wetsuits cost £2 extra on surf lessons", surf)
    assert found and found[0] == "negation" and "included" in found[2]
    assert included_after_all("睡袋需另付15元", split_sentences("露营套餐含帐篷和睡袋；防潮垫另收15元，烧烤炉另收30元。"))
    # The thing the evidence charges apart for, or one it says is not included, is no contradiction.
    assert included_after_all("Lockers cost £2 extra", surf) is None
    assert included_after_all("防潮垫需另付15元", split_sentences("露营套餐含帐篷和睡袋；防潮垫另收15元。")) is None
    assert included_after_all("Towels cost extra", split_sentences("Towels are not included in the price.")) is None
    # Nor is a charge the statement denies.
    assert included_after_all("Wetsuits do not cost extra", surf) is None


# Blind batch 22a (round twenty-one): the charge stood after "and is" (a second predicate of the thing) or in the
# clause after a booking apart, and a reply's "Yes," hid the thing said included.
@pytest.mark.parametrize("statement, evidence", [
    ("Yes, insurance is included in the monthly rent.", "Contents insurance is compulsory and is charged separately at $8 per month."),
    ("包含，租金里已经含了搬运服务。", "搬运服务需另行预约，每车次收费300元。"),
])
def test_a_charge_apart_said_later_in_the_sentence_opposes_included(statement, evidence):
    found = charged_apart(statement, [evidence])
    assert found and found[0] == "negation"


def test_a_charge_for_another_thing_after_a_comma_is_no_charge_for_the_included_one():
    assert charged_apart("Breakfast is included.", ["Breakfast is included, and parking is charged separately."]) is None
    assert charged_apart("租金包含搬运服务。", ["搬运服务免费提供，停车另行收费。"]) is None


def test_a_thing_the_statement_includes_with_the_is_checked():
    # "includes the audio guide": the article "the" is no reason to leave the thing unread
    assert charged_apart("The ticket includes the audio guide.", ["The audio guide is rented separately for $5."])
    assert charged_apart("Yes, the spa day comes with the buffet lunch.",
                         split_sentences("The spa day includes the pools; the buffet lunch is charged separately at £18."))
    assert charged_apart("The package includes the ferry transfer.", ["The package includes the ferry transfer."]) is None
    assert charged_apart("The ticket does not include the audio guide.", ["The audio guide is rented separately."]) is None


def test_a_thing_included_at_no_cost_is_not_paid_for_apart():
    # "at no additional cost", "free of charge": the "no" denies the charge, and the thing is included
    workshop = split_sentences("The bookbinding workshop includes all paper and thread at no additional cost; "
                               "leather covers are charged at £12 each.")
    assert included_after_all("Paper and thread cost extra in the bookbinding workshop.", workshop)
    assert included_after_all("Helmets cost extra.", split_sentences("Helmets are provided free of charge; lockers cost £1."))
    assert included_after_all("Leather covers cost extra.", workshop) is None


def test_a_fee_that_covers_a_thing_includes_it():
    # "The course fee covers …", "at no extra charge" in a clause of its own; "leather covers" is a noun
    course = split_sentences("The calligraphy course fee covers ink, brushes and rice paper at no extra charge.")
    assert included_after_all("Ink and brushes cost extra on the calligraphy course.", course)
    assert included_after_all("Guided tours cost extra.", split_sentences("The ticket price covers entry and guided tours."))
    assert included_after_all("Leather covers cost extra.", split_sentences("Leather covers are charged at £12 each.")) is None
