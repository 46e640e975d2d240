"""Relations with a direction (converses.py, comparisons.py): converse verbs with sides of any words,
passives with words before "by", and order read from two stated values."""

import pytest

from ragpipe.core.evidence.contradiction import borne_out, contradiction


@pytest.mark.parametrize("statement, evidence", [
    ("The bank borrowed money from the city.", "The bank lent money to the city."),
    ("The charity received the paintings from the library.", "The charity gave the paintings to the library in 1998."),
    ("Maria learned painting from her nephew.", "Maria taught her nephew painting when he was a boy."),
    ("The visitors lost to the home side in the final.", "The visitors beat the home side 2-1 in the final."),
    ("The reform followed the strike.", "The reform preceded the strike by two years."),
    ("Smith replaced Jones as chair.", "Smith was succeeded as chair by Jones."),
    ("Patel was replaced as chair of the board by Okafor.", "Patel replaced Okafor as chair of the board in 2015."),
    ("The supplier bought the laptops from the school.", "The supplier sold the laptops to the school."),
    ("慈善会向市医院借了一笔钱。", "慈善会借给市医院一笔钱，用于冬季开支。"),
    ("市政府把这栋楼卖给了卡特公司。", "市政府从卡特公司手中买下了这栋楼。"),
    ("张教授师从李明。", "张教授曾教过李明，李明是他的学生。"),
    ("乙方向甲方支付违约金。", "甲方应向乙方支付违约金。"),  # jieba: 乙 / 方向 / 甲方
    ("卖方向买方支付货款。", "买方须向卖方支付货款。"),
])
def test_a_converse_relation_with_its_sides_swapped_is_caught(statement, evidence):
    found = contradiction(statement, [evidence])
    assert found is not None and found.kind == "roles"


@pytest.mark.parametrize("statement, evidence", [
    ("The city borrowed money from the bank.", "The bank lent money to the city."),
    ("The museum received the collection from the family.", "The family gave the collection to the museum in 1998."),
    ("Lee was succeeded as director by Gomez.", "Gomez replaced Lee as director in 2019."),
    ("The new model replaced the old one.", "The old model was replaced by the new one in May."),
    ("The home side lost to the visitors.", "The visitors beat the home side 2-1."),
    ("市医院向慈善会借了一笔钱。", "慈善会借给市医院一笔钱。"),
    ("学校从本地一家供应商买下了这批电脑。", "本地一家供应商把这批电脑卖给了学校。"),
    ("李明跟着张教授学书法。", "张教授教李明书法。"),
    ("买方向卖方支付货款。", "买方应当向卖方支付货款。"),
    # a passive of "sold" has the thing for its subject, and is no active "are sold to"
    ("Tickets are sold to patrons during the event by roving staff.",
     "Tickets are sold to patrons throughout the stadium during the event by roaming staff with handheld devices."),
])
def test_a_converse_wording_of_the_same_relation_is_no_contradiction(statement, evidence):
    assert contradiction(statement, [evidence]) is None


@pytest.mark.parametrize("statement, evidence", [
    ("The tunnel was built before the bridge.", "The bridge was completed in 1932, and the tunnel followed in 1950."),
    ("隧道比大桥先建成。", "大桥于1932年建成，隧道于1950年建成。"),
    ("The ferry ticket is cheaper than the bus ticket.", "A bus ticket costs 12 dollars, while the ferry ticket costs 18 dollars."),
    ("轮渡票比大巴票便宜。", "大巴票价为12元，轮渡票价为18元。"),
    ("Aldrin walked on the Moon before Armstrong.", "Armstrong stepped onto the Moon first, and Aldrin followed minutes later."),
    ("王部长在李部长之后发言。", "会议上，王部长先发言，李部长随后发言。"),
    ("小王不如小李高。", "小王比小李高五厘米。"),
    ("The Rhine is as long as the Danube.", "The Danube is more than twice as long as the Rhine."),
    ("长江和黄河一样长。", "长江比黄河长。"),
    ("The talk starts after the dinner.", "The dinner starts at 7:30 pm and the talk at 6 pm."),
    ("开幕式在招待会之后举行。", "开幕式于上午九点举行，招待会于中午十二点举行。"),
])
def test_an_order_the_evidence_states_otherwise_or_its_values_contradict(statement, evidence):
    found = contradiction(statement, [evidence])
    assert found is not None and found.kind == "comparison"


@pytest.mark.parametrize("statement, evidence", [
    ("The tunnel was built after the bridge.", "The bridge was completed in 1932, and the tunnel followed in 1950."),
    ("大桥比隧道早建成。", "大桥于1932年建成，隧道于1950年建成。"),
    ("The bus ticket is cheaper than the ferry ticket.", "A bus ticket costs 12 dollars, while the ferry ticket costs 18 dollars."),
    ("Armstrong walked on the Moon before Aldrin.", "Armstrong stepped onto the Moon first, and Aldrin followed minutes later."),
    ("王部长在李部长之前发言。", "会议上，王部长先发言，李部长随后发言。"),
    ("小李不如小王高。", "小王比小李高五厘米。"),
    ("The talk starts before the dinner.", "The dinner starts at 7:30 pm and the talk at 6 pm."),
    # an order word before a clause or a step, and values that count something else (RAGTruth)
    ("She worked as a public defender before being appointed to the court in 1977.", "Wahl was appointed to the court in 1977."),
    ("The detective apologized after a video of him berating a driver went viral.",
     "The video, filmed in 2015, picks up seconds after the detective began yelling; he apologized in 2016."),
    ("Tendons have more collagen than ligaments.", "There is one tendon for each muscle, and there are 3 ligaments at a joint."),
    ("The old bridge is as long as the new one.", "The new bridge is as long as the old one."),
    ("You may stay as long as you pay 5 dollars.", "Guests pay 5 dollars a night and stay 3 nights."),
])
def test_an_order_the_evidence_bears_out_is_no_contradiction(statement, evidence):
    assert contradiction(statement, [evidence]) is None


@pytest.mark.parametrize("statement, evidence, expected", [
    ("火车比大巴贵。", "大巴比火车便宜。", True),
    ("The bridge is older than the tunnel.", "The tunnel is younger than the bridge by twenty years.", True),
    # "before" / "after" also join steps ("remain awake before entering sleep mode"): an order is never confirmed
    ("The tunnel was built after the bridge.", "The bridge was completed in 1932, and the tunnel followed in 1950.", False),
    ("Set how long the computer stays awake before entering sleep mode.",
     "Set how long the computer stays awake before entering sleep mode.", False),
    ("火车比大巴便宜。", "大巴比火车便宜。", False),
    # a second claim the comparison does not bear out
    ("The bridge is older than the tunnel, and it has four lanes.", "The tunnel is younger than the bridge.", False),
])
def test_a_comparison_in_the_converse_wording_or_by_its_values_is_borne_out(statement, evidence, expected):
    assert borne_out(statement, "", [evidence]) is expected


# Sides named by a label ("Model A", "Route 9", "A型", "K21次", "三班"), values in units the quantities reader
# converts, and speed read from durations (the longer, the slower).
@pytest.mark.parametrize("statement, evidence", [
    ("Model A is lighter than Model B.", "Model A weighs 2.1 kg and Model B weighs 1.8 kg."),
    ("A型比B型轻。", "A型重2.1公斤，B型重1.8公斤。"),
    ("Route 9 is longer than Route 12.", "Route 9 runs for 42 km; Route 12 runs for 57 km."),
    ("一号线比二号线长。", "一号线全长28公里，二号线全长41公里。"),
    ("三班的学生比五班少。", "三班有学生45人，五班有学生38人。"),
    ("K21次比T8次到得晚。", "K21次列车8点10分到站，T8次列车9点30分到站。"),
    ("The old pump is heavier than the new pump.", "The old pump weighs 900 g, and the new pump weighs 1.2 kg."),
    ("Server A is slower than Server B.", "Server A answers in 120 ms on average, and Server B answers in 340 ms."),
])
def test_a_comparison_of_labelled_sides_their_values_order_otherwise_is_caught(statement, evidence):
    found = contradiction(statement, [evidence])
    assert found is not None and found.kind == "comparison"


@pytest.mark.parametrize("statement, evidence", [
    ("Model B is lighter than Model A.", "Model A weighs 2.1 kg and Model B weighs 1.8 kg."),
    ("B型比A型轻。", "A型重2.1公斤，B型重1.8公斤。"),
    ("东区服务器比西区服务器慢。", "东区服务器平均响应时间为300毫秒，西区服务器为90毫秒。"),
    ("The new pump is heavier than the old pump.", "The old pump weighs 900 g, and the new pump weighs 1.2 kg."),
    # a score, not two things compared; a side with no value of its own
    ("主队以3比1获胜。", "主队以3比1战胜客队。"),
    ("Model A is lighter than Model C.", "Model A weighs 2.1 kg and Model B weighs 1.8 kg."),
])
def test_values_that_bear_a_labelled_comparison_out_or_settle_nothing_are_no_contradiction(statement, evidence):
    assert contradiction(statement, [evidence]) is None


@pytest.mark.parametrize("statement, evidence", [
    ("B型比A型轻。", "A型重2.1公斤，B型重1.8公斤。"),
    ("Route 12 is longer than Route 9.", "Route 9 runs for 42 km; Route 12 runs for 57 km."),
    ("Server A is faster than Server B.", "Server A answers in 120 ms on average, and Server B answers in 340 ms."),
])
def test_a_labelled_comparison_its_values_bear_out_is_borne_out(statement, evidence):
    assert borne_out(statement, "", [evidence]) is True


# A difference stated with the comparison ("0.3 kg heavier", "比五班多7人") is held to the two values' difference.
@pytest.mark.parametrize("statement, evidence, borne", [
    ("Model A is 0.3 kg heavier than Model B.", "Model A weighs 2.1 kg and Model B weighs 1.8 kg.", True),
    ("Model A is heavier than Model B by 300 g.", "Model A weighs 2.1 kg and Model B weighs 1.8 kg.", True),
    ("A型比B型重0.3公斤。", "A型重2.1公斤，B型重1.8公斤。", True),
    ("三班比五班多了七人。", "三班有学生45人，五班有学生38人。", True),
    ("Model A is 0.5 kg heavier than Model B.", "Model A weighs 2.1 kg and Model B weighs 1.8 kg.", False),
    ("三班比五班多9人。", "三班有学生45人，五班有学生38人。", False),
    # between "costs" and "more"; values with a thousands separator ("1,450 g")
    ("The annual plan costs $40 more than the monthly plan.", "The annual plan is $120, whereas the monthly plan is $80.", True),
    ("The annual plan costs $60 more than the monthly plan.", "The annual plan is $120, whereas the monthly plan is $80.", False),
    ("Laptop Y is heavier than Laptop X.", "Laptop X weighs 1.2 kg, while Laptop Y weighs 1,450 g.", True),
    ("Laptop X is heavier than Laptop Y.", "Laptop X weighs 1.2 kg, while Laptop Y weighs 1,450 g.", False),
    # a count before "more X" / "fewer X"
    ("Class 3 has 7 more students than Class 5.", "Class 3 has 45 students, and Class 5 has 38 students.", True),
    ("Class 5 has 7 fewer students than Class 3.", "Class 3 has 45 students, and Class 5 has 38 students.", True),
])
def test_a_stated_difference_is_held_to_the_difference_of_the_values(statement, evidence, borne):
    found = contradiction(statement, [evidence])
    assert (found is None) is borne and borne_out(statement, "", [evidence]) is borne
    assert found is None or found.kind in ("comparison", "number")


def test_a_label_number_before_the_comparative_is_no_difference():
    found = contradiction("Class 3 has fewer students than Class 5.", ["Class 3 has 45 students, and Class 5 has 38 students."])
    assert found is not None and found.kind == "comparison"
