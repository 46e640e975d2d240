import pytest

from ragpipe.core.metrics.other_subject import speaks_of_other


@pytest.mark.parametrize("question, context", [
    # Two names before the same kind of thing, two model codes after the same word, two places of one kind.
    ("How much is the Gold plan?", "The Silver plan costs $20 a month."),
    ("How many people can the Harbor Room seat?", "The Garden Room seats 25 people."),
    ("How long is the warranty on the LaserJet M200 printer?", "The LaserJet M400 comes with a two-year warranty."),
    ("When does Route 12 leave the depot?", "Bus Route 40 leaves the depot at 6 am."),
    ("水族馆周一几点开门？", "科技馆周一上午9点开门。"),
    ("杭州市的公积金贷款最高额度是多少？", "成都市的公积金贷款最高额度为70万元。"),
    # Two Chinese names before the same kind of plan, class or service, alone or joined to it.
    ("白金会员每月多少钱？", "青铜会员每月收费15元。"),
    ("市老年大学书法班什么时候报名？", "区少年宫舞蹈班每年9月初开始报名。"),
    ("出生证明公证要多少钱？", "学历公证每份收费80元。"),
    # Names that end alike are two of a kind too (日语 / 韩语, 钢琴 / 小提琴).
    ("语言学校日语班几点上课？", "语言学校韩语班每周二晚上7点上课。"),
    ("钢琴课多少钱？", "小提琴课每节200元。"),
    # Two places of different kinds, neither a part of the other.
    ("When does the swimming pool open?", "The library opens at 9 a.m."),
    ("What time does the aquarium close on Sundays?", "The botanical garden closes at 5 p.m. on Sundays."),
    ("When does the stadium open on match days?", "The florist opens at 8 a.m. on match days."),
    ("Is the laundromat open on Sunday evenings?", "The bookstore on the corner is open until 9 p.m. on Sundays."),
    # In Chinese too, though the two names end in different characters.
    ("滑冰场晚上几点关门？", "保龄球馆晚上10点关门。"),
    ("五金店周日营业吗？", "理发店周日照常营业。"),
    # A place word jieba cuts before its last character (冰淇淋 店, 卡丁车 场) is one place all the same.
    ("冰淇淋店几点关门？", "隔壁面包店晚上8点关门。"),
    ("卡丁车场每圈多少钱？", "射箭场每局收费40元。"),
])
def test_a_sibling_of_the_thing_asked_about_is_another_thing(question, context):
    assert speaks_of_other(question, context)


@pytest.mark.parametrize("question, context", [
    # The thing itself is named too: the context may compare it with its sibling.
    ("How much is the Gold plan?", "The Gold plan costs $30; the Silver plan costs $20."),
    # A plain word beside the shared one may be a synonym, and a name before a person's name is a first name.
    ("How much does the pottery class cost?", "The eight-week beginner pottery course costs $240."),
    ("Who did Bryan White marry?", "Shelton White married in 1990."),
    # A place within the one asked about, and a place that may hold another (a hotel's restaurant).
    ("When does the museum café open?", "The café opens at 10 am."),
    ("When is breakfast served at the hotel?", "The restaurant serves breakfast from 7 am."),
    ("When does the cinema open?", "The cinema's café opens at 10 am."),
    ("电影院几点开门？", "电影院里的咖啡店上午10点营业。"),
    # A bare number after a plain word is a value, after a month a day, and a year is no model number.
    ("Does the ticket cost 5 euros?", "The ticket costs 7 euros."),
    ("What happened on 24 December 1879?", "On 28 December 1918 she died."),
    # A name misspelt is the same name.
    ("When does the Convent Garden market open?", "The Covent Garden market opens at 10 am."),
    # The thing named by a pointing word, and Chinese synonyms of other shapes.
    ("这家酒店的早餐几点供应？", "本店早餐6:30开始供应。"),
    ("从成都到拉萨坐火车要多长时间？", "Z322次列车晚上19:50从成都西站发车，第三天早上7:55到达拉萨站。"),
    ("航班延误了乘客可以获得哪些补偿？", "航空公司应向旅客提供餐食和住宿。"),
    # The kind asked named too, a kind told apart by a pointing word or a time, papers to bring, a word of a value.
    ("成人票多少钱？", "成人票100元，儿童票50元。"),
    ("书法班什么时候报名？", "本班每年9月开始报名。"),
    ("周末班多少钱？", "晚间班每期2000元。"),
    ("居住证怎么办理？", "需携带身份证和租房合同。"),
    ("博物馆的营业时间是什么？", "开放时间：9:00-17:00。"),
])
def test_the_thing_itself_or_a_synonym_is_no_other_thing(question, context):
    assert not speaks_of_other(question, context)
