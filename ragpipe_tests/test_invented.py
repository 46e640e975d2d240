"""The verifier's `invented` feature: claims whose new words the evidence never states."""

import pytest

from ragpipe.core.evidence.features import prepare
from ragpipe.core.evidence.invented import invented
from ragpipe.core.evidence.possessions import each_has, every_does
from ragpipe.core.evidence.provisions import offered_thing
from ragpipe.core.evidence.support import OfflineVerifier

MUSEUM = ["The museum opens at 9 a.m. and closes at 5 p.m.", "It has three floors of modern art."]
ZH_MUSEUM = ["博物馆上午9点开门，下午5点闭馆。", "馆内有三层现代艺术展厅。"]


def fires(statement, evidence, question=""):
    prepared = prepare(evidence)
    return invented(statement, question, prepared.sentences, prepared.lowered, prepared.all_tokens)


@pytest.mark.parametrize("statement", ["It is free.", "The museum is free.", "Parking is free.", "It is waterproof."])
def test_a_short_claim_whose_predicate_the_evidence_never_states_is_invented(statement):
    assert fires(statement, MUSEUM)


def test_a_light_verb_shared_with_the_evidence_ties_no_claim_to_it():
    evidence = ["Classes are capped at 12 students so that everyone gets their own station."]
    assert fires("Later cancellations get class credit.", evidence, "What is the cancellation policy for classes?")


@pytest.mark.parametrize("statement", ["门票免费。", "它是免费的。", "它可以防水。"])
def test_a_short_chinese_claim_whose_words_the_evidence_never_holds_is_invented(statement):
    assert fires(statement, ZH_MUSEUM)


@pytest.mark.parametrize("statement", ["It opens at nine.", "The museum is open.", "It has three floors.", "Yes.",
                                       "Yes, it is.", "$12.", "In conclusion", "The location", "Instructions:"])
def test_short_claims_the_evidence_states_bare_replies_and_headings_are_not_invented(statement):
    assert not fires(statement, MUSEUM)


def test_a_short_chinese_claim_is_held_by_a_character_pair_or_a_value_of_the_evidence():
    assert not fires("博物馆免费参观。", ["博物馆对所有游客免费开放。"], question="博物馆要门票吗？")  # 免费参观 ~ 免费开放参观
    assert not fires("停车场22:00关闭", ["本停车场营业时间为早7:00至晚22:00。"], question="停车场几点关门？")
    assert not fires("有的。", ZH_MUSEUM) and not fires("上午九点开门。", ZH_MUSEUM)


def test_a_short_comparison_is_left_to_the_comparison_readers():
    """"深圳市更高" holds against 5000元 and 1万元 though neither sentence says 更高 (a multi-hop question's reference)."""
    grants = ["广州市对首次创业的个人给予一次性创业补贴5000元。", "深圳市对首次创业的个人给予一次性创业补贴1万元。"]
    assert not fires("深圳市更高", grants) and not fires("Shenzhen pays more.", grants)
    assert not fires("It is cheaper.", MUSEUM) and fires("The lid is silver.", MUSEUM)


def test_the_verifier_scores_short_invented_claims_as_unsupported(embedder):
    verifier = OfflineVerifier(embedder)
    free, red = verifier.verify(["It is free.", "It is red."], MUSEUM)
    stated, = verifier.verify(["It opens at nine."], MUSEUM, question="When does it open?")
    zh, = verifier.verify(["门票免费。"], ZH_MUSEUM)
    assert free.score <= 0.3 and red.score <= 0.3 and zh.score <= 0.3 and stated.score >= 0.5


FERRY = ["The ferry from Dover to Calais leaves at 8:00 a.m. and takes 90 minutes.",
         "A foot passenger ticket costs £35; a car with two passengers costs £120.", "Dogs travel free if they stay in the car."]
ZH_FERRY = ["从大连到烟台的渡轮早上8点出发，航程约6小时。", "步行旅客票价200元，一辆小汽车连同两名乘客480元。", "宠物狗留在车内可免费乘船。"]


@pytest.mark.parametrize("statement", ["Breakfast is included in the car ticket.", "Foot passengers get a free coffee.",
                                       "Car tickets include a free cabin."])
def test_a_claim_that_offers_a_thing_the_evidence_never_names_is_invented_though_it_shares_a_word(statement):
    """"car ticket", "foot passengers", "free" are the evidence's words; breakfast, coffee and a cabin are not."""
    assert fires(statement, FERRY)


@pytest.mark.parametrize("statement", ["渡轮上提供免费无线网络。", "步行旅客票价含早餐。"])
def test_a_chinese_claim_that_offers_a_thing_the_evidence_never_names_is_invented(statement):
    assert fires(statement, ZH_FERRY)


def test_the_thing_counts_where_the_question_asks_for_it():
    assert fires("会员可以免费停车。", ["健身房每天早上6点至晚上10点开放。", "会员可以在网上预约私教课程。"], question="可以停车吗？")


def test_offered_things_the_evidence_names_or_that_are_denied_are_not_invented():
    assert not fires("Dogs travel free in the car.", FERRY) and not fires("A car ticket includes two passengers.", FERRY)
    assert not fires("The ferry does not offer meals.", FERRY) and not fires("渡轮不提供餐食。", ZH_FERRY)
    assert not fires("小汽车票价包括两名乘客。", ZH_FERRY) and not fires("宠物狗可免费乘船。", ZH_FERRY)
    # spelled without a hyphen in structured evidence, or held by a character pair
    assert not fires("The ferry offers free Wi-Fi.", ['{"name": "Sea Star", "attributes": {"WiFi": "free"}}'])
    assert not fires("会员可以免费停车。", ["会员可在地下停车场停车两小时。"])


def test_offered_thing_reads_the_thing_not_its_modifiers_nor_a_summary_s_abstractions():
    assert offered_thing("Economy passengers get a free hot meal.") == ("hot", "meal")
    assert offered_thing("There is a rooftop restaurant with city views.") == ("rooftop", "restaurant")
    assert offered_thing("Wi-Fi is free on board.") == ("wi-fi",)
    assert offered_thing("一等座提供免费餐食。") == ("餐食",) and offered_thing("车上提供免费无线网络。") == ("无线网络",)
    assert offered_thing("The establishment offers a variety of barbecue dishes.") == ()  # no article: a summary's plural
    assert offered_thing("Peabody's offers a lively and enjoyable atmosphere.") == ()
    assert offered_thing("They have noted the slow service.") == () and offered_thing("It does not include meals.") == ()


def test_the_verifier_scores_an_offered_thing_the_evidence_never_names_as_unsupported(embedder):
    verifier = OfflineVerifier(embedder)
    coffee, = verifier.verify(["Foot passengers get a free coffee."], FERRY)
    breakfast, = verifier.verify(["步行旅客票价含早餐。"], ZH_FERRY)
    stated, = verifier.verify(["Dogs travel free in the car."], FERRY)
    assert coffee.score <= 0.3 and breakfast.score <= 0.3 and stated.score >= 0.5


def test_contains_offers_what_includes_offers():
    assert offered_thing("It also contains a spare battery.") == ("spare", "battery")

def test_a_word_the_lexicon_takes_for_the_evidences_holds_a_short_claim():
    # "delayed" is the evidence's "late" (as 延误 is its 晚点): a short claim it states, not one it invents.
    assert not fires("The train is delayed.", ["The 8:15 train is running late because of a signal fault."],
                     "Is the train on time?")
    assert fires("The train is cancelled.", ["The 8:15 train is running late because of a signal fault."],
                 "Is the train on time?")


# Round sixteen (i57-extra): where the question asks what is offered or had, the thing alone is the claim.
CAMERA = ["The camera comes with a neck strap, a battery and a USB cable."]
FLAT = ["The apartment has two bedrooms, a washing machine and a fridge.", "Rent is $1,200 a month, bills not included."]


@pytest.mark.parametrize("statement, question, evidence", [
    ("It also comes with a tripod.", "What comes with the camera?", CAMERA),
    ("The apartment has a dishwasher.", "Does the apartment have a dishwasher?", FLAT),
    ("The gym has a climbing wall.", "What facilities are there?", ["Membership includes access to the pool and the sauna."]),
    ("还配有一副耳机。", "这款手机配有什么配件？", ["这款手机配有充电器和数据线。"]),
    ("小区设有游泳池。", "小区有游泳池吗？", ["小区设有两个儿童游乐场和一个地下停车场。"]),
    ("这套房子带一个地下车位。", "这套房子有车位吗？", ["这套房子三室两厅，带一个朝南的阳台。"]),
    # the opening yes is the reply's, not the thing's sentence
    ("Yes, an apron is included with the class.", "Does the pottery class include an apron?",
     ["The class fee of $45 includes clay and firing."]),
])
def test_an_asked_offer_of_a_thing_the_evidence_never_names_is_invented(statement, question, evidence):
    assert fires(statement, evidence, question)


@pytest.mark.parametrize("statement, question, evidence", [
    ("Yes, the apartment has a balcony.", "Does the apartment have a balcony?", ["The apartment has a large balcony."]),
    ("The apartment has a washer.", "Does the apartment have a washing machine?", FLAT),
    ("It comes with a strap.", "What comes with the camera?", CAMERA),
    ("这款手机配有一副耳机。", "这款手机配有什么？", ["这款手机随机附赠充电器、一副有线耳机和保护壳。"]),
    # not asked: "has a" is mostly a quality, and a long instruction asks no offer
    ("The gym has a sauna for members.", "Tell me about the gym.", ["Members have access to the pool."]),
    ("The business has a rating of 4.0 stars.", "Write an objective overview of the business; you should include details "
     "and cover the information in the customers' reviews.", ['{"name": "Cafe", "stars": 4.0}']),
    ("有男学生。", "中华女子学院有男学生吗？", ["中华女子学院是一所全日制普通本科院校。"]),  # a bare 有 is no offer
])
def test_an_offer_the_evidence_names_or_that_no_question_asks_is_not_read_as_asked(statement, question, evidence):
    assert not fires(statement, evidence, question)


def test_the_second_thing_an_including_verb_takes_is_invented_when_the_evidence_never_names_it():
    # The splitter keeps "…and a free audio guide" with its verb: the thing is still a claim of its own.
    museum = ["Tickets include entry to the museum and the sculpture garden."]
    assert fires("The ticket includes entry to the museum and a free audio guide.", museum)
    assert not fires("The ticket includes entry to the museum and the sculpture garden.", museum)
    assert not fires("The lease includes water and heating for the first year.",
                     ["For the first year of the lease, water and heating are included in the rent."])


def test_a_thing_said_to_be_provided_is_an_offer_not_talk_of_the_sources(embedder):
    # "provided" of "the provided context" marks talk of the sources, which no rule checks; "is provided" offers a thing.
    verifier = OfflineVerifier(embedder)
    seat, = verifier.verify(["A child seat is also provided free of charge."],
                            ["Every bike rental comes with a helmet and a lock.", "Rentals cost $12 per hour."],
                            question="What comes with the bike rental?")
    assert seat.score <= 0.3


def test_a_thing_said_included_where_the_evidence_lists_what_is_included_is_invented():
    rental = ["The daily rate for a compact car is $45, including basic insurance."]
    # one new word (the evidence says "including" and "free of charge"), but its list of inclusions lacks it
    assert fires("A GPS is included for free.", rental + ["Cancellation is free of charge."])
    assert not fires("Basic insurance is included for free.", rental + ["Cancellation is free of charge."])


@pytest.mark.parametrize("statement,evidence,question", [
    ("Anyone 18 or older can join the club.", ["Membership is open to people aged 18 and over."], "Who can join the club?"),
    ("It is not recommended for kids younger than 12.", ["Children under 12 should not use this product."], "Can kids use it?"),
])
def test_the_words_that_bound_a_value_are_no_claim_of_their_own(statement, evidence, question):
    assert not fires(statement, evidence, question)


@pytest.mark.parametrize("statement,evidence,question", [
    ("Anyone 18 or older gets a free drink at the bar.", ["Membership is open to people aged 18 and over."], "Who can join the club?"),
    ("Kids younger than 12 get a free replacement kit.", ["Children under 12 should not use this product."], "Can kids use it?"),
    ("Kids aged 12 and over get a free helmet.", ["Children under 12 should not use this product."], "Can kids use it?"),
])
def test_a_claim_beside_a_bounded_value_the_evidence_shares_is_still_invented(statement, evidence, question):
    assert fires(statement, evidence, question)


LANES = ["Lanes cost $30 per hour for up to six players.", "Shoe rental is $4 per pair."]
ROOMS = ["Rooms cost $180 a night.", "Check-in starts at 3 p.m."]
ZH_ROOMS = ["客房每晚680元，房间面积35平方米。", "入住时间下午3点起。"]


@pytest.mark.parametrize("statement, evidence", [
    ("Every lane has a bumper option for kids.", LANES),
    ("Every room has a minibar and a safe.", ROOMS),
    ("每间客房都有阳台。", ZH_ROOMS),
    ("所有房间都有观景露台。", ZH_ROOMS),
])
def test_a_fitting_each_of_a_whole_is_said_to_have_that_the_evidence_never_names_is_invented(statement, evidence):
    assert fires(statement, evidence, "Tell me about it.")


@pytest.mark.parametrize("statement, evidence, question", [
    ("Every pitch comes with a fire ring.", ["Each pitch has a fire ring and a picnic table."], "What does a pitch have?"),
    ("每个房间都配有独立卫生间。", ["所有客房均带独立卫生间。", "退房时间为中午12点。"], "房间有独立卫生间吗？"),
    ("Every room does not have a balcony.", ZH_ROOMS, "Do the rooms have balconies?"),
])
def test_a_fitting_the_evidence_names_or_a_denied_one_is_not_invented(statement, evidence, question):
    assert not fires(statement, evidence, question)


BALLOON = ["After landing, the crew packs the balloon away and passengers are driven back to the farm by minibus.",
           "Every passenger receives a signed flight certificate."]
ZH_BALLOON = ["落地后，地勤人员会开车把乘客送回起飞场。", "每位乘客可获得一份飞行证书。"]


# Blind batch 22a (round twenty-one): what each one receives had been no fitting, so an invented gift passed at 0.885.
@pytest.mark.parametrize("statement, evidence, invented_", [
    ("After landing, everyone is served a glass of champagne.", BALLOON, True),
    ("落地后每位乘客都会收到一张航拍照片。", ZH_BALLOON, True),
    ("Every passenger receives a flight certificate.", BALLOON, False),
    ("每位乘客都会获得飞行证书。", ZH_BALLOON, False),
])
def test_what_each_one_receives_is_read_as_what_each_has(statement, evidence, invented_):
    assert fires(statement, evidence, "What happens after landing?") == invented_


@pytest.mark.parametrize("statement, whole, thing", [
    ("Every room has a balcony.", ("room",), ("balcony",)),
    ("After landing, everyone is served a glass of champagne.", ("everyone",), ("glass", "champagne")),
    ("每条球道都配有儿童护栏。", ("球道",), ("儿童", "护栏")),
    ("每个程序员都有自己喜欢的编程语言。", None, None),
    ("Every student has their own way of learning.", None, None),
])
def test_what_each_of_a_whole_has_is_read_but_not_what_each_has_of_its_own(statement, whole, thing):
    assert each_has(statement) == (None if whole is None else (whole, thing))


PLANETARIUM = ["The planetarium shows run every hour from 11 a.m. to 5 p.m.", "Tickets cost $14 for adults and $9 for children."]


@pytest.mark.parametrize("statement, question", [
    ("The planetarium has free parking.", "Is there parking at the planetarium?"),
    ("The planetarium has a cloakroom near the ticket desk.", "Is there a cloakroom?"),
    ("The planetarium has free parking for visitors.", "Can I drive there?"),
    ("The planetarium has complimentary coffee for children.", "What does a ticket cost?"),
])
def test_a_thing_had_for_free_or_asked_whether_there_is_that_the_evidence_never_names_is_invented(statement, question):
    assert fires(statement, PLANETARIUM, question)


@pytest.mark.parametrize("statement, evidence", [
    ("The hotel has free parking.", ["Guests can park for free in the lot behind the building."]),
    ("The planetarium has free Wi-Fi.", ["Free Wi-Fi is available throughout the planetarium."]),
])
def test_a_thing_had_for_free_that_the_evidence_names_is_not_invented(statement, evidence):
    assert not fires(statement, evidence, "Is there parking or Wi-Fi?")


KETTLE = ["这款电水壶容量1.7升。", "内胆采用304不锈钢。", "具备防干烧保护，水烧开后自动断电。"]


@pytest.mark.parametrize("statement", ["它很安静。", "它很美观。"])
def test_a_short_chinese_quality_behind_a_degree_adverb_the_evidence_never_states_is_invented(statement):
    assert fires(statement, KETTLE, "这款电水壶怎么样？")


@pytest.mark.parametrize("statement", ["它很安全。", "它的容量很大。"])
def test_a_quality_behind_a_degree_adverb_the_evidence_bears_is_not_invented(statement):
    assert not fires(statement, KETTLE + ["使用非常安全。", "容量大，适合全家使用。"], "这款电水壶怎么样？")


def test_a_clitic_is_no_new_word_of_a_claim():
    """"It's" is "it": "It's $240 for the whole course" states the evidence's price of the course."""
    evidence = ["The Beginner Wheel course runs for six weekly sessions and costs $240, including clay and firing."]
    assert not fires("It's $240 for the whole course", evidence, "What does the beginner wheel course cost?")


@pytest.mark.parametrize("statement, thing", [
    ("陶土和一次烧制都包含在里面", ("陶土", "一次", "烧制")),
    ("早餐也包含在房费里面", ("早餐",)),
    ("车上提供免费无线网络", ("无线网络",)),
])
def test_what_is_included_in_something_is_the_subject_of_its_verb(statement, thing):
    assert offered_thing(statement) == thing


@pytest.mark.parametrize("statement, evidence", [
    # An instruction's second step, kept with its first by the splitter, is read as an added clause.
    ("Eat a proper meal and take an iron supplement the night before",
     "Eat a proper meal and drink about 500 ml of water in the three hours before your appointment."),
    ("把衣物按颜色分开，并加入一杯白醋", "使用自助洗衣机前，请把衣物按颜色分开，并选择温水模式。"),
])
def test_an_invented_second_step_of_an_instruction_is_invented(statement, evidence):
    assert fires(statement, [evidence])


@pytest.mark.parametrize("statement, evidence", [
    ("Eat a proper meal and drink about 500 ml of water beforehand",
     "Eat a proper meal and drink about 500 ml of water in the three hours before your appointment."),
    ("把衣物按颜色分开，并选择温水模式", "使用自助洗衣机前，请把衣物按颜色分开，并选择温水模式。"),
])
def test_a_stated_second_step_of_an_instruction_is_not_invented(statement, evidence):
    assert not fires(statement, [evidence])


MOVERS = ["Local moves are billed at $120 per hour for two movers and a truck.",
          "For safety reasons our crews do not transport hazardous materials such as paint or gasoline."]
ZH_MOVERS = ["同城搬家每小时收费300元，含两名搬运工和一辆货车。", "出于安全考虑，我们的搬运团队不运输油漆、汽油等危险品。"]


@pytest.mark.parametrize("statement, question, evidence", [
    # A yes whose claim shares one topic word with the evidence ("crews", 团队) and names nothing else of it.
    ("Yes, every mover passes a criminal background check before joining the crew.",
     "Are your movers background-checked?", MOVERS),
    ("是的，每位搬运工入职前都要通过无犯罪记录审查才能加入团队。", "搬运工有背景审查吗？", ZH_MOVERS),
])
def test_a_yes_whose_claim_shares_only_a_topic_word_with_the_evidence_is_invented(statement, question, evidence):
    assert fires(statement, evidence, question)


@pytest.mark.parametrize("statement, question, evidence", [
    # the reply's own word is no word of its claim: two new words ("every", "week") beside "daily" are no invention
    ("Yes, the rink is open every day of the week.", "Is the ice rink open on Sundays?",
     ["The ice rink is open daily from 10 am to 10 pm.", "Skate hire costs $6."]),
    ("Yes, two movers and a truck cost $120 per hour.", "Do you bill by the hour?", MOVERS),
])
def test_a_yes_whose_claim_the_evidence_states_is_not_invented(statement, question, evidence):
    assert not fires(statement, evidence, question)


# A thing offered beside one the evidence names ("next to the reuse shop", 接送新人 after 婚车) is still a new thing;
# "the first one" points at a thing, it counts none.
SHOP = ["Books in good condition can be left at the reuse shop, which sells them for charity.",
        "The recycling centre is open 8 a.m. to 6 p.m."]
RESORT = ["山庄停车场有100个车位，婚礼当天宾客免费停车。", "预订金装套餐的新人可免费试菜一次，限2人。"]


@pytest.mark.parametrize("statement, question, evidence", [
    ("Yes, there's a small café next to the reuse shop.", "Is there a café at the recycling centre?", SHOP),
    ("There's a repair workshop beside the reuse shop.", "What is there at the recycling centre?", SHOP),
    # Where it stands makes the claim no longer: "beside the tool shed" says where, not what.
    ("Yes, there's a small seed shop beside the tool shed.", "Is there a shop at the allotments?",
     ["Members can borrow wheelbarrows and spades from the tool shed by the main gate.", "The annual rent is £48."]),
    ("山庄免费提供两辆婚车接送新人。", "翠湖山庄提供婚车吗？", RESORT),
    ("The first one is free.", "How much are private lessons?", ["Private lessons cost £38 per hour."]),
])
def test_a_new_thing_beside_one_the_evidence_names_is_invented(statement, question, evidence):
    assert fires(statement, evidence, question)


@pytest.mark.parametrize("statement, thing", [
    ("There's a small café next to the reuse shop", ("small", "cafe")),
    ("山庄免费提供两辆婚车接送新人", ("婚车",)),
    # A verb inside the name of a service is no purpose after it.
    ("酒店提供行李寄存服务", ("行李", "寄存", "服务")),
    ("可以免费停车", ("停车",)),
])
def test_the_offered_thing_stops_at_a_word_of_place_or_a_purpose(statement, thing):
    assert offered_thing(statement, asked=True) == thing


@pytest.mark.parametrize("statement, question, evidence", [
    ("There's a café next to the reuse shop.", "Is there a café?", ["A café stands next to the reuse shop."]),
    ("山庄提供两辆婚车接送新人。", "山庄提供婚车吗？", ["山庄可提供两辆婚车，用于接送新人。"]),
    ("The first one costs £38.", "How much are private lessons?", ["Private lessons cost £38 per hour."]),
])
def test_a_thing_the_evidence_names_beside_a_place_or_a_purpose_is_not_invented(statement, question, evidence):
    assert not fires(statement, evidence, question)


TUTORS = ["Tutoring sessions cost $40 an hour.", "Each tutor teaches at most three pupils a week.",
          "Sessions take place online or at the library."]
ZH_TUTORS = ["辅导课每小时200元。", "每位导师每周最多带三名学生。"]


@pytest.mark.parametrize("statement, question, evidence", [
    ("Yes, every tutor completes a safeguarding course before teaching any pupil.", "Are your tutors vetted?", TUTORS),
    ("Every session ends with a free quiz.", "What are the sessions like?", TUTORS),
    ("每位导师都要参加安全培训。", "导师经过审核吗？", ZH_TUTORS),
])
def test_what_every_one_of_a_whole_does_is_invented_where_the_evidence_holds_none_of_it(statement, question, evidence):
    assert fires(statement, evidence, question)


@pytest.mark.parametrize("statement, question, evidence", [
    # The evidence states what each does, or a value ties it.
    ("Every tutor teaches at most three pupils a week.", "How many pupils?", TUTORS),
    ("Every session costs $40 an hour.", "How much are sessions?", TUTORS),
    ("每位导师每周最多带三名学生。", "导师带几名学生？", ZH_TUTORS),
])
def test_what_every_one_of_a_whole_does_as_the_evidence_says_is_not_invented(statement, question, evidence):
    assert not fires(statement, evidence, question)


@pytest.mark.parametrize("statement, predicate", [
    ("Every session ends with a free disco hour", ("end", "free", "disco", "hour")),
    # A clause of time says when, not what.
    ("Yes, every tutor completes a safeguarding course before teaching any pupil", ("complet", "safeguard", "course")),
    # What each has or is belongs to each_has and the other readers; "each of" names no whole.
    ("Every table has a charging port", ()),
    ("All rooms are cleaned daily", ()),
    ("Each of the authors discusses the results", ()),
    ("Not every session ends early", ()),
])
def test_every_does_reads_the_predicate_of_a_whole(statement, predicate):
    assert every_does(statement) == predicate


def test_a_negated_modal_is_the_claims_polarity_not_a_word_it_invents():
    evidence = ["演唱会门票一经售出，概不退换。"]
    assert not fires("门票买了以后不能退", evidence, "演唱会门票可以退吗？")
    assert not fires("定金交了就不可以退", ["宴会预订定金一经支付，概不退还。"], "定金可以退吗？")
    # the words it claims beside the negator still count: a claim the evidence never states is invented
    assert fires("门票不能转让给朋友使用", ["演唱会上午10点开始检票。"], "演唱会门票可以退吗？")
    # 不会 denies a fact, which the reply read with its question does not say: the denial is what the claim claims
    assert fires("手相不会影响人的爱情是否美满", ["拥有什么样的手相的人更容易获得美满的爱情: 感情线长"],
                 "拥有什么样的手相的人更容易获得美满的爱情？")


def test_a_negated_modal_the_evidence_holds_still_ties_the_claim_to_it():
    assert not fires("无需，直接到场即可", ["网球场无需预约，先到先得。"], "在球场打球需要预约吗？")


def test_after_joins_a_claim_to_its_time_and_is_no_word_it_invents():
    assert not fires("作品做好以后不能退", ["吹玻璃作品一经制作完成，概不退换。"], "吹玻璃作品能退吗？")


def test_a_stance_the_evidence_takes_in_other_words_is_no_invented_word():
    evidence = ["探视时应避免携带生鲜食品进入养老院。"]
    assert not fires("探视养老院时最好不要带生鲜食品。", evidence, "探视养老院能带生鲜食品吗？")
    # The stance alone ties nothing: a claim the evidence never makes stays invented.
    assert fires("探视养老院时最好不要带宠物狗和鲜花。", evidence, "探视养老院能带生鲜食品吗？")


def test_a_stance_said_at_the_head_of_a_later_clause_raises_nothing():
    # modality() reads clause by clause: "avoid" opens the second clause, not the statement.
    evidence = ["Avoid rubbing wet hair with a towel."]
    assert not fires("Pat the hair dry with a towel, avoid rubbing it as it can cause damage.", evidence)


def test_a_gift_given_besides_that_the_evidence_never_names_is_invented():
    evidence = ["普通自行车每天30元，电动自行车每天80元。", "租车需交押金200元，还车时退还。"]
    assert fires("租车还送一瓶矿泉水。", evidence, "山地车租赁怎么收费？")
    assert not fires("租车还送一瓶矿泉水。", [*evidence, "租车即赠送矿泉水一瓶。"], "山地车租赁怎么收费？")
    assert offered_thing("下单后另送一张优惠券") and not offered_thing("下单后当天送达")


def test_the_years_old_of_an_age_claims_nothing_of_its_own():
    # Blind batch 22a (round twenty-one): a reference "8 years old." read against "The minimum age … is 8." was invented.
    assert not fires("What is the minimum age for a balloon flight: 8 years old.", ["The minimum age for a balloon flight is 8."],
                     "What is the minimum age for a balloon flight?")


def test_a_bound_on_an_age_in_words_is_the_values_not_a_claims():
    evidence = ["The tower can be climbed by visitors aged eight and over."]
    assert not fires("Climbing is only permitted for children who are at least eight years old.", evidence,
                     "Can my seven-year-old climb the tower?")
