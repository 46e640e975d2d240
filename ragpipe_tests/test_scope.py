"""Claims wider than their evidence (ragpipe/core/evidence/scope.py), as the contradiction route reads them."""

import pytest

from ragpipe.core.evidence.contradiction import contradicted


@pytest.mark.parametrize("statement, question, evidence", [
    ("All employees receive a year-end bonus.", "Who receives a year-end bonus?",
     "Only full-time employees receive a year-end bonus."),
    ("所有员工都有年终奖。", "哪些员工有年终奖？", "只有全职员工享有年终奖。"),
    ("Every order ships free of charge.", "Which orders ship free?", "Orders ship free of charge only within the EU."),
    ("Students can always borrow laptops.", "Can students borrow laptops?", "Students can borrow laptops on weekends."),
    ("All tickets are refundable.", "Are tickets refundable?", "All tickets are refundable except promotional fares."),
    ("All patients recover within a week.", "How fast do patients recover?", "Most patients recover within a week."),
    ("所有门店都支持夜间配送。", "哪些门店支持夜间配送？", "部分门店支持夜间配送。"),
    ("每位会员都能使用贵宾室。", "谁能使用贵宾室？", "除普通会员外，会员均可使用贵宾室。"),
    ("超市每天都营业到晚上十点。", "超市营业到几点？", "超市仅周末营业到晚上十点。"),
    # The whole named in the clause too: its words with the statement's align where the rest alone is cut otherwise.
    ("全部课程都可以线上学习。", "哪些课程可以线上学习？", "除实验课以外，课程均可线上学习。"),
])
def test_a_universal_claim_against_evidence_that_limits_it(statement, question, evidence):
    found = contradicted(statement, question, [evidence])
    assert found is not None and found.kind == "scope"


@pytest.mark.parametrize("statement, question, evidence", [
    # The limited claim itself, and a universal the evidence also makes universally.
    ("Full-time employees receive a year-end bonus.", "Who receives a year-end bonus?",
     "Only full-time employees receive a year-end bonus."),
    ("只有全职员工有年终奖。", "哪些员工有年终奖？", "只有全职员工享有年终奖。"),
    ("All rooms have free Wi-Fi.", "Do rooms have Wi-Fi?", "All rooms at the inn have free Wi-Fi."),
    ("所有客房都提供免费早餐。", "客房含早餐吗？", "酒店所有客房均提供免费早餐。"),
    # The question carries the limit.
    ("Yes, all full-time employees get health insurance.", "Do full-time employees get health insurance?",
     "Health insurance is provided only to full-time employees."),
    # A share per head, "at most", the 除 of 扣除, and a part that is not the statement's whole.
    ("Each resident can bring up to two guests.", "How many guests can each resident bring?",
     "Residents may bring at most two guests each."),
    ("子女教育专项附加扣除标准为每个子女每月2000元。", "子女教育扣除标准是多少？",
     "自2023年1月1日起，子女教育专项附加扣除标准提高到每个子女每月2000元。"),
    ("The nervous and immune systems all work together to keep the body healthy.", "How do body systems work?",
     "Several systems in the human body work together to keep it healthy."),
])
def test_a_claim_no_wider_than_its_evidence(statement, question, evidence):
    found = contradicted(statement, question, [evidence])
    assert found is None or found.kind != "scope"


@pytest.mark.parametrize("statement, question, evidence", [
    # Evidence that exempts a part of the whole from what the statement says all need.
    ("A visa is required for all visitors.", "Do visitors need a visa?",
     "Visitors from most countries can enter without a visa for up to 30 days."),
    ("所有游客都需要签证。", "游客需要签证吗？", "大多数国家的游客可免签入境30天。"),
    ("All residents must pay the parking fee.", "Who pays the parking fee?",
     "Residents over 70 are exempt from the parking fee."),
    ("所有学生都必须穿校服。", "学生要穿校服吗？", "一年级学生可免穿校服。"),
    # A condition that sets the part apart.
    ("All tenants receive a rent rebate.", "Who receives a rent rebate?",
     "Tenants receive a rent rebate if they sign a two-year lease."),
    ("所有会员都能享受九折优惠。", "会员有优惠吗？", "会员若消费满500元，可享受九折优惠。"),
    ("All residents can use the gym.", "Who can use the gym?", "Residents can use the gym as long as they are over 16."),
    # A count with no "only".
    ("All of the school's labs are open on Saturdays.", "Are the labs open on Saturdays?",
     "Two of the school's nine labs are open on Saturdays."),
    ("所有校区都有游泳馆。", "哪些校区有游泳馆？", "学校共有五个校区，其中两个校区有游泳馆。"),
    # A negative universal against evidence that names some who do (English "nobody" is read as a negation already).
    ("没有人获得过两次该奖项。", "有人两次获得过该奖项吗？", "迄今已有两位科学家两次获得该奖项。"),
])
def test_a_universal_claim_against_a_part_exempted_conditioned_or_counted(statement, question, evidence):
    found = contradicted(statement, question, [evidence])
    assert found is not None and found.kind == "scope"


@pytest.mark.parametrize("statement, question, evidence", [
    # Exemption, condition and count said by the statement itself, or denied as a whole by the evidence.
    ("Visitors from most countries can enter without a visa.", "Do visitors need a visa?",
     "Visitors from most countries can enter without a visa for up to 30 days."),
    ("A visa is required for all visitors.", "Do visitors need a visa?",
     "No visitor may enter the country without a visa."),
    ("All tenants receive a rent rebate if they sign a two-year lease.", "Who receives a rent rebate?",
     "Tenants receive a rent rebate if they sign a two-year lease."),
    ("All tenants can contact the office.", "Can tenants contact the office?",
     "Tenants can contact the office if needed."),
    ("所有客房都提供免费早餐。", "客房含早餐吗？", "酒店所有客房均提供免费早餐。"),
    # A condition or a count on the evidence's own "all" says when all hold, not which of them (RAGTruth's forms).
    ("Remove all dead leaves in spring.", "How do I care for the plant?",
     "If you want healthy plants, remove all dead leaves in spring."),
    ("All four climbers reached the summit.", "Who reached the summit?",
     "All four of the climbers reached the summit on Tuesday."),
    ("如果下雨，所有比赛都会推迟。", "比赛会推迟吗？", "如果下雨，所有比赛都将推迟。"),
    ("All residents over 16 can use the gym.", "Who can use the gym?", "Residents can use the gym if they are over 16."),
    # A negative universal the evidence says too, in a negation or an antonym.
    ("Nobody was injured in the fire.", "Was anyone injured?", "No one was injured in the fire, officials said."),
    ("没有人在事故中受伤。", "有人受伤吗？", "事故中无人受伤。"),
    ("No pets are allowed in the dormitories.", "Are pets allowed in the dormitories?",
     "Pets of any kind are not permitted in the dormitories."),
])
def test_a_claim_no_wider_than_its_part_or_condition(statement, question, evidence):
    found = contradicted(statement, question, [evidence])
    assert found is None, found


@pytest.mark.parametrize("statement, question, evidence", [
    # A part set apart by the words beside its noun, with no "only": a bound, a weight, a relative clause.
    ("All pets travel free.", "Which pets travel free?", "Dogs and cats are welcome; pets under 8 kg travel free in a bag."),
    ("All new members get a welcome gift.", "Who gets a welcome gift?",
     "New members who join before March get a welcome gift."),
    ("所有老人都可以免费乘坐地铁。", "老人坐地铁要钱吗？", "年满70周岁的老人可免费乘坐地铁。"),
    ("所有行李都可以免费托运。", "行李托运收费吗？", "每位旅客可免费托运一件23公斤以内的行李。"),
    ("所有学生都可以免费乘坐校车。", "学生坐校车要钱吗？", "持学生证的12岁以下学生可免费乘坐校车。"),  # no 的; 学生 in 学生证
    # A whole of any size or amount against such a part; a qualifier the splitter cut off speaks of the question.
    ("Bikes of any size can go on the train.", "Can I take my bike on the train?",
     "Bikes under 1.2 metres long can go on the train."),
    ("不限重量", "哪些包裹可以免费寄送？", "3公斤以下的包裹可免费寄送。"),
    # Always or never against a condition and what happens otherwise (the branch may open the next sentence).
    ("There is never a delivery charge.", "Is there a delivery charge?",
     "There is no delivery charge if you spend $40 or more; otherwise it is $5."),
    ("这家健身房总是免收月费。", "健身房收月费吗？", "会员每月到店满8次免收月费，否则收取月费50元。"),
    ("无论租期长短都免押金。", "租车要押金吗？", "租期满30天免押金，否则需支付押金500元。"),
    ("这个游泳馆从来不收费。", "游泳要收费吗？", "持本小区门禁卡可免费游泳1小时，否则每小时收费20元。"),  # 游泳馆 held by 游泳
])
def test_a_universal_claim_against_a_part_named_beside_its_noun_or_an_otherwise(statement, question, evidence):
    found = contradicted(statement, question, evidence.split("; "))
    assert found is not None and found.kind == "scope", found


@pytest.mark.parametrize("statement, question, evidence", [
    # The statement names the part itself, or the evidence says always / never too.
    ("All pets under 8 kg travel free.", "Which pets travel free?", "Pets weighing under 8 kg travel free in a bag."),
    ("年满70周岁的老人可以免费乘坐地铁。", "老人坐地铁要钱吗？", "年满70周岁的老人可免费乘坐地铁。"),
    ("There is never a fee if you spend $40 or more.", "Is there a delivery charge?",
     "There is no delivery charge if you spend $40 or more; otherwise it is $5."),
    ("You should never skip a dose.", "Can I skip a dose?", "Never skip a dose; otherwise the treatment may fail."),
    ("Staff always check tickets at the gate.", "Are tickets checked?",
     "Staff check tickets at the gate for every show."),
    # A counted set (RAGTruth's form): the evidence's modifier describes it.
    ("All five patients were treated at the same hospital.", "What did the CDC find?",
     "The CDC found that patients who fell ill between 2010 and 2014 were treated at the same hospital."),
])
def test_a_claim_no_wider_than_the_part_or_branch_it_names(statement, question, evidence):
    assert contradicted(statement, question, [evidence]) is None


@pytest.mark.parametrize("statement, question, evidence", [
    # The evidence names the rest of the whole, so its other clause speaks of a part (the splitter cuts at ";").
    ("Library cards are free for everyone.", "Do non-residents pay for a card?",
     "A library card is free for residents;|non-residents pay $35 a year."),
    ("Withdrawals at any ATM are free.", "Are other ATMs free?",
     "Withdrawals at the bank's own ATMs are free;|other ATMs charge $2.50."),
    ("所有人都可以免费办理借书证。", "外地人办证要钱吗？", "本市居民可免费办理借书证，非本市居民每年需缴纳100元。"),
    # Another whole opens the clause that says it, and the evidence never names the statement's.
    ("All passengers must book 24 hours in advance.", "Do I need to book?",
     "Cars must be booked at least 24 hours in advance."),
    ("所有乘客都必须提前24小时预订。", "需要预订吗？", "车辆须至少提前24小时预订。"),
    # Never, where the evidence leaves the subject to another sentence.
    ("The savings account never charges a monthly fee.", "Is there a monthly fee?",
     "The savings account pays 2.1% interest a year.|There is no monthly fee if the balance stays above $1,000;"
     "|otherwise the fee is $5."),
])
def test_a_universal_claim_against_a_part_beside_its_rest_or_another_whole(statement, question, evidence):
    found = contradicted(statement, question, evidence.split("|"))
    assert found is not None and found.kind == "scope", found


@pytest.mark.parametrize("statement, question, evidence", [
    # The part is the statement's own whole; "any" denied; the whole named in the evidence too.
    ("Entry is free for all children.", "Is entry free for children?", "Entry is free for children; other visitors pay $5."),
    ("You cannot pay at any ATM.", "Can I pay at an ATM?", "Payments at the bank's own ATMs are not possible; other ATMs charge $2."),
    ("All passengers must book 24 hours in advance.", "Do I need to book?",
     "All passengers must book at least 24 hours in advance; cars must be booked too."),
])
def test_a_claim_no_wider_than_a_whole_its_evidence_names(statement, question, evidence):
    assert contradicted(statement, question, evidence.split("; ")) is None


@pytest.mark.parametrize("statement, question, evidence", [
    # A bound in figures beside the noun ("patients over 65") sets a part apart, though words() keeps no bare number.
    ("All patients get the flu vaccine free of charge.", "Is the flu vaccine free?",
     "Flu vaccines are given free of charge to patients over 65."),
    # What only one part has, said of another part the evidence names elsewhere.
    ("标准会员也能下载。", "哪种会员能下载？", "标准会员每月25元，可同时在两台设备上观看。|仅高级会员支持下载。"),
    ("标准会员支持下载。", "哪种会员能下载？", "标准会员每月25元。|仅高级会员支持下载。"),
])
def test_a_claim_wider_than_a_bound_in_figures_or_an_only(statement, question, evidence):
    found = contradicted(statement, question, evidence.split("|"))
    assert found is not None and found.kind == "scope", found


@pytest.mark.parametrize("statement, question, evidence", [
    ("All patients over 65 get the flu vaccine free of charge.", "Is the flu vaccine free?",
     "Flu vaccines are given free of charge to patients over 65."),
    ("高级会员也能下载。", "哪种会员能下载？", "标准会员每月25元。|仅高级会员支持下载。"),
    ("标准会员不能下载。", "哪种会员能下载？", "标准会员每月25元。|仅高级会员支持下载。"),
])
def test_the_part_an_only_or_a_bound_sets_apart_is_no_wider_claim(statement, question, evidence):
    assert contradicted(statement, question, evidence.split("|")) is None


@pytest.mark.parametrize("statement, question, evidence", [
    # Anyone / all, against a subject the evidence sets apart by what it holds or has done.
    ("Anyone can borrow laptops.", "Who can borrow laptops?", "Students with a valid ID can borrow laptops."),
    ("Everyone can borrow the kayaks.", "Who can borrow the kayaks?",
     "Guests who have signed the waiver can borrow the kayaks for two hours."),
    ("任何人都可以使用自习室。", "自习室谁能用？", "凭借阅证的读者可使用自习室。"),
    ("所有乘客都可以进入贵宾室。", "谁能进贵宾室？", "持有头等舱机票的乘客可以进入贵宾室。"),
])
def test_anyone_or_all_against_a_subject_a_condition_sets_apart(statement, question, evidence):
    found = contradicted(statement, question, evidence.split("|"))
    assert found is not None and found.kind == "scope", found


@pytest.mark.parametrize("statement, question, evidence", [
    ("Students with a valid ID can borrow laptops.", "Who can borrow laptops?", "Students with a valid ID can borrow laptops."),
    ("Anyone can borrow laptops.", "Who can borrow laptops?", "Anyone can borrow laptops at the front desk."),
    ("持有头等舱机票的乘客可以进入贵宾室。", "谁能进贵宾室？", "持有头等舱机票的乘客可以进入贵宾室。"),
    ("Anyone with a valid ID can borrow laptops.", "Who can borrow laptops?", "Students with a valid ID can borrow laptops."),
])
def test_a_condition_the_statement_carries_or_a_whole_the_evidence_grants_is_no_wider_claim(statement, question, evidence):
    assert contradicted(statement, question, evidence.split("|")) is None


@pytest.mark.parametrize("statement, question, evidence", [
    # All of a whole, against the whole's noun with a word before it that names a kind of it.
    ("Every member gets free range balls.", "Who gets free range balls?",
     "Gold members get free range balls; silver members pay $5 a bucket."),
    ("All volunteers get a free lunch.", "Do volunteers get lunch?", "Registered volunteers get a free lunch."),
    ("所有会员都可以免费带朋友入场。", "会员可以带朋友吗？", "年卡会员每月可免费带一位朋友入场。"),
    ("所有员工都可以申请远程办公。", "哪些员工可以申请远程办公？", "入职满一年的正式员工可以申请每周两天远程办公。"),
])
def test_all_of_a_whole_against_a_kind_of_it_named_before_its_noun(statement, question, evidence):
    found = contradicted(statement, question, evidence.split("|"))
    assert found is not None and found.kind == "scope", found


@pytest.mark.parametrize("statement, question, evidence", [
    ("Every gold member gets free range balls.", "Who gets free range balls?", "Gold members get free range balls."),
    ("All members get free range balls.", "Do gold members get free range balls?", "Gold members get free range balls."),
    ("所有年卡会员都可以免费带朋友入场。", "会员可以带朋友吗？", "年卡会员每月可免费带一位朋友入场。"),
    ("所有会员都可以免费停车。", "会员能停车吗？", "我们的会员可以免费停车。"),
])
def test_a_kind_the_statement_or_question_names_is_no_wider_claim(statement, question, evidence):
    assert contradicted(statement, question, evidence.split("|")) is None


@pytest.mark.parametrize("statement, question, evidence", [
    # a subject set apart by age or by being named, against anyone
    ("Anyone can borrow e-readers for two weeks.", "Who can borrow e-readers?",
     "Library card holders over 16 can borrow e-readers for two weeks."),
    ("Anyone can rent a canoe.", "Who can rent a canoe?", "Visitors over 14 can rent a canoe; younger children paddle with an adult."),
    # "any" opening a subject claims all of it, the who-clause being part of the subject
    ("Any adult who knows your child's name can collect them.", "Who can pick up my child?",
     "Children can only be collected by a parent or by an adult named on the pick-up form."),
    ("Any member can fire pots in the kiln.", "Who can use the kiln?",
     "Members aged over 18 who have done the safety course can fire pots in the kiln."),
])
def test_anyone_or_any_subject_against_one_set_apart_by_age_or_by_name(statement, question, evidence):
    found = contradicted(statement, question, [evidence])
    assert found is not None and found.kind == "scope"


@pytest.mark.parametrize("statement, question, evidence", [
    ("Visitors over 14 can rent a canoe.", "Who can rent a canoe?", "Visitors over 14 can rent a canoe; younger children paddle with an adult."),
    ("Any member can vote at the meeting.", "Who can vote at the meeting?", "Any member can vote at the annual meeting."),
])
def test_the_part_set_apart_by_age_or_any_said_alike_is_no_wider_claim(statement, question, evidence):
    assert contradicted(statement, question, [evidence]) is None

