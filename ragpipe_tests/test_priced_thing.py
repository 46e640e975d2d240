import pytest

from ragpipe.core.metrics.priced_thing import gives_another_fee, names_priced_thing, priced_thing_head, prices_another_thing


@pytest.mark.parametrize("question, head", [
    ("How much does a local move cost?", "move"),
    ("What is the price of a season pass?", "pass"),
    ("What does a ferry ticket cost?", "ticket"),
    ("钢琴搬运多少钱？", "搬运"),
    ("配一副近视眼镜要多少钱？", "近视眼镜"),
    ("How much?", ""),
])
def test_the_head_of_the_thing_whose_price_is_asked(question, head):
    assert priced_thing_head(question) == head


@pytest.mark.parametrize("question, context, named", [
    # The thing priced, in another form ("mover", "lessons"): a part of its price.
    ("How much does a local move cost?", "Each additional mover adds $45 per hour to the local rate.", True),
    ("What does a driving lesson cost?", "Lessons on Saturdays and Sundays cost $10 more.", True),
    ("近视眼镜多少钱？", "近视眼镜的镜片另收200元。", True),
    # A fee of another thing, though it shares a modifier or the kind of service.
    ("What does a driving lesson cost?", "The driving test fee is $85.", False),
    ("钢琴搬运多少钱？", "搬家前24小时内取消的，需支付100元违约金。", False),
    # A bare thing before what it is of: the entry is priced, whatever the place is called.
    ("How much is entry to the cat café?", "Entry to Whisker Lounge is $15 per person for one hour.", True),
])
def test_a_context_names_the_priced_thing_by_its_head(question, context, named):
    assert names_priced_thing(question, context) == named


@pytest.mark.parametrize("question, context, another", [
    # A fee named as such, of another thing than the one priced.
    ("钢琴搬运多少钱？", "搬家前24小时内取消的，需支付100元违约金。", True),
    ("How much does a piano move cost?", "A $100 cancellation fee applies within 24 hours.", True),
    # The thing priced named, a question asking a fee, a surcharge or a bare charge: no other fee.
    ("钢琴搬运多少钱？", "钢琴搬运费每台500元。", False),
    ("What is the late fee for returning a rental car?", "Late returns after 29 minutes incur a fee of $15 per hour.", False),
    ("How much does a local move cost?", "A $30 fuel surcharge applies.", False),
    ("配一副近视眼镜多少钱？", "镜片另外收费，每副200元起。", False),
])
def test_a_context_that_names_another_fee_gives_that_fee(question, context, another):
    assert gives_another_fee(question, context) == another


@pytest.mark.parametrize("question, context, another", [
    # Another thing of the same shop said to cost an amount, never the thing asked.
    ("How much does a wedding cake cost at Sugar Loft?", "At Sugar Loft a dozen cupcakes cost $30.", True),
    ("What does a tyre change cost?", "Wheel alignment costs $80 per car.", True),
    # The thing in other words (a word shared, or a ticket, an admission), a surcharge, the thing named.
    ("How much does the yoga class cost?", "The ten-week beginner yoga course costs $150.", False),
    ("How much does the zoo ticket cost?", "Adult admission is $30; children under 3 enter free.", False),
    ("What does a tyre change cost?", "Run-flat tyres cost $15 more per wheel.", False),
    ("How much does a kayak rental cost?", "The first hour is $15.", False),
    ("How much does a kayak rental cost?", "Children are $8.", False),
    ("How much does a wedding cake cost at Sugar Loft?", "A three-tier wedding cake costs $450.", False),
    # Rented, sold or priced at an amount: the thing is named before the place said of it.
    ("How much does it cost to rent a locker at the marina?", "Dry storage units at the marina rent for $120 a month.",
     True),
    ("How much is a cabin at the campground?", "Tent pitches at the campground go for $25 a night.", True),
    ("How much is a cabin at the campground?", "Lakeside cabins at the campground rent for $140 a night.", False),
    ("How much is admission to the gallery?", "Admission to the gallery is priced at $12.", False),
    # A question that names no priced thing.
    ("How much?", "Wheel alignment costs $80 per car.", False),
])
def test_a_context_that_prices_another_thing_gives_that_thing_s_price(question, context, another):
    assert prices_another_thing(question, context) == another


@pytest.mark.parametrize("question, head", [
    # No determiner: a service or a plural, between the asking verb and "cost".
    ("How much does termite treatment cost?", "treatment"),
    ("What do guitar lessons cost?", "lessons"),
    ("How much will gutter cleaning run?", "cleaning"),
    ("How much does it cost?", ""),
])
def test_a_thing_priced_without_a_determiner_is_read(question, head):
    assert priced_thing_head(question) == head


@pytest.mark.parametrize("question, context", [
    ("How much does termite treatment cost?", "Wasp nest removal costs $120. Bees are never killed."),
    ("What do guitar lessons cost?", "Drum kits rent for $40 a month."),
    ("How much does carpet cleaning cost?", "Window washing costs $80 for a three-bedroom house."),
])
def test_another_things_price_answers_no_determiner_less_price_question(question, context):
    assert prices_another_thing(question, context)


@pytest.mark.parametrize("question, head, context", [
    # A Chinese sum asked by its kind: the kind is the thing priced, and a context naming it gives its amount.
    ("翠湖山庄的定金是多少？", "定金", "预订婚期需先交定金2万元，定金不予退还。"),
    ("这家健身房的押金是多少？", "押金", "办理年卡时需缴纳押金300元，退卡时无息退还。"),
    ("驾校学费大概多少？", "学费", "C1手动挡学费4800元，包含理论课和全部练车课时。"),
    ("装修保证金需要多少？", "保证金", "业主装修前须向物业缴纳装修保证金5000元。"),
])
def test_a_chinese_sum_asked_by_its_kind_is_the_thing_priced(question, head, context):
    assert priced_thing_head(question) == head and names_priced_thing(question, context)


def test_a_sum_asked_by_its_kind_is_not_named_by_another_sum():
    assert not names_priced_thing("租车押金大概多少？", "月租金2000元，水电另计。")
    assert priced_thing_head("贷款利率是多少？") == ""  # a rate, no sum
