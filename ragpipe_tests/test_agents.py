"""agents: the statement's doer of an act against the evidence's other doer of the same act on the same thing
(round twenty-two, i63-contra)."""

import pytest

from ragpipe.core.evidence.agents import other_doer
from ragpipe.core.evidence.contradiction import contradiction


@pytest.mark.parametrize("statement, sentence", [
    # A passive against a passive with "only" before its "by".
    ("The retainer is adjusted by the patient at home.",
     "Retainers are adjusted only by the orthodontist during the monthly check-up."),
    ("The watch was serviced by the customer.",
     "Every watch serviced by our apprentice is checked by master watchmaker Tom Hartley before it goes back."),
    # An active statement against the evidence's passive, and the sides crossed between doer and thing.
    ("Tenants replace the smoke alarm batteries.", "Smoke alarm batteries are replaced by the landlord once a year."),
    ("The apprentice checks Tom Hartley's work before it goes back to the customer.",
     "Every watch serviced by our apprentice is checked by master watchmaker Tom Hartley before it goes back to the customer."),
    # The evidence's own denial of the statement's doer, in a clause of its own.
    ("The exam papers are marked by the class teacher.",
     "All exam papers are marked by an external examiner, not by the class teacher."),
    # Chinese: the doer after 由 or 被, manner words (自行, 统一, 逐件) between it and the verb.
    ("婚纱由新娘自行清洗后归还。", "租赁的婚纱归还后由店里统一干洗，客人请勿自行清洗。"),
    ("潜水装备由学员自己检查。", "每次下水前，潜水装备都由教练逐件检查，学员不得自行调整调节器。"),
    ("疫苗由家长自行接种。", "疫苗由社区卫生服务中心统一接种。"),
    # The same head under another modifier, and the thing inside a longer word (证书 in 鉴定证书).
    ("证书由故宫博物院出具。", "这件青花瓷的鉴定证书由南京博物院出具。"),
    ("合同被乙方单方面解除。", "合同被甲方单方面解除。"),
])
def test_another_doer_of_the_same_act_contradicts(statement, sentence):
    found = other_doer(statement, [sentence])
    assert found and found[2] == sentence
    assert contradiction(statement, [sentence]) is not None  # read as swapped roles, unless another reader is first


@pytest.mark.parametrize("statement, sentence", [
    # The same doer, in the active or the passive, or named shorter.
    ("The orthodontist adjusts the retainer during the monthly check-up.",
     "Retainers are adjusted only by the orthodontist during the monthly check-up."),
    ("Smoke alarm batteries are replaced by the landlord.", "The landlord replaces smoke alarm batteries once a year."),
    ("Good safety management established by organizations.", "It is good safety management established by organisations."),
    ("垃圾由物业统一清运。", "小区垃圾每天由物业公司统一清运。"),
    ("证书由南京博物院出具。", "这件青花瓷的鉴定证书由南京博物院出具。"),
    # Another name of the same doer, given right after it.
    ("The novel was written by Samuel Clemens.", "The novel was written by Mark Twain, the pen name of Samuel Clemens."),
    ("Mecole Hayes was evicted after being targeted by the Head of Household, Cameron.",
     "Cameron targeted Felicia Cannon for eviction, putting her on the block next to Mecole Hayes."),
    # A means, a time or a cause after "by" is no doer; a participle after a comma is no active verb.
    ("The package is delivered by Friday.", "The package is delivered by Monday at the latest."),
    ("Payment is made by card.", "Payment is made by bank transfer."),
    ("Osteoarthritis is caused by a reduction in cartilage.", "Osteoarthritis is caused by normal wear and tear."),
    ("Hawkeye, played by Jeremy Renner, sang on the show.", "The Avengers character (played by Jeremy Renner) sang."),
    # Another thing acted on: a statement released, a video released.
    ("A statement released by his wife criticised the US.", "Al Qaeda released a video of Weinstein in 2013."),
    # A question names no doer: the reference read with its question ("Who directed …: Ang Lee").
    ("The film Life of Pi was directed by Ang Lee.", "Who directed the film Life of Pi: ANG LEE"),
    ("证书由故宫博物院出具。", "证书由谁出具：故宫博物院"),
    # A negated clause names no doer.
    ("The retainer is not adjusted by the patient.", "Retainers are adjusted only by the orthodontist."),
])
def test_the_same_doer_or_no_doer_is_no_contradiction(statement, sentence):
    assert other_doer(statement, [sentence]) is None


@pytest.mark.parametrize("statement, sentences, doers", [
    # Both in the active voice: one act on one thing, two doers, after a lead clause or without a determiner.
    ("If a tool is damaged through misuse, the library pays for the repair.",
     ["If a tool is damaged through misuse, the borrower pays for the repair; normal wear and tear is on us."],
     ("library", "borrower")),
    ("Borrowers pay for lost keys.", ["The library pays for lost keys."], ("borrowers", "library")),
    ("The guide will collect the tickets.", ["The driver collects the tickets at the door."], ("guide", "driver")),
    ("Volunteers clean the enclosures every morning.", ["Keepers clean the enclosures every morning; volunteers feed the goats."],
     ("volunteers", "keepers")),
])
def test_another_active_doer_of_one_act_contradicts(statement, sentences, doers):
    assert other_doer(statement, sentences)[:2] == doers


@pytest.mark.parametrize("statement, sentences", [
    # The evidence gives the act to the statement's doer too, however the sentence is built.
    ("Tendons connect muscles to bones.", ["ligaments connect bone to bone, tendons connect muscle to bone."]),
    # An imperative, a fragment, a describing word or "has" is no doer and act.
    ("Lay the quilt on the bed.", ["Trim the quilt on the bed."]),
    ("offers outdoor seating and takeout", ["attributes Outdoor Seating: yes"]),
    ("The main differences between the two deer are their ears.", ["The most noticeable differences between the deer are their ears."]),
    ("The situation has led to an exodus from the city.", ["The recent fighting has driven refugees out of the city."]),
    ("The restaurant is run by a friendly couple.", ["The couple who runs the place are so nice."]),
])
def test_an_act_the_evidence_also_gives_the_doer_or_no_act_is_no_contradiction(statement, sentences):
    assert other_doer(statement, sentences) is None
