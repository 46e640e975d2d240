"""A day against the evidence's range of weekdays (evidence/weekdays.py, through contradiction.contradicted and
borne_out): open on a day the range leaves out, or closed on one it holds, is a contradiction; the other two are
what the range says."""

import pytest

from ragpipe.core.evidence.contradiction import borne_out, contradicted
from ragpipe.core.evidence.weekdays import one_zh_weekday_form, open_days, other_weekday, weekday_reading

OFFICE_EN = ["The office is open Monday to Friday, 9 a.m. to 5 p.m."]
OFFICE_ZH = ["办公室周一至周五开放，时间为上午9点至下午5点。"]
MUSEUM_ZH = ["市博物馆周二至周日开放，开放时间为上午9点至下午5点。"]


@pytest.mark.parametrize("statement, question, evidence, holds", [
    ("The office is open on Saturdays.", "When is the office open?", OFFICE_EN, False),
    ("The office is closed on Wednesdays.", "When is the office open?", OFFICE_EN, False),
    ("The office is closed on Saturdays.", "When is the office open?", OFFICE_EN, True),
    ("It is open on Wednesdays.", "Is the office open on Wednesdays?", OFFICE_EN, True),
    ("办公室周六开放。", "办公室什么时候开放？", OFFICE_ZH, False),
    ("办公室周三休息。", "办公室什么时候开放？", OFFICE_ZH, False),
    ("办公室周六不开放。", "办公室什么时候开放？", OFFICE_ZH, True),
    ("周一闭馆。", "博物馆周一开放吗？", MUSEUM_ZH, True),
    ("博物馆周一开放。", "博物馆周一开放吗？", MUSEUM_ZH, False),
])
def test_a_day_against_a_range_of_weekdays(statement, question, evidence, holds):
    found = contradicted(statement, question, evidence)
    assert (found is None and borne_out(statement, question, evidence)) == holds, found
    assert holds or found.kind == "bound"


@pytest.mark.parametrize("statement", ["周二闭馆。", "星期二休息。", "Closed on Tuesdays."])
def test_an_answer_naming_no_subject_is_read_against_the_one_schedule(statement):
    """"周二闭馆。" names no place: it speaks of the evidence's only schedule, whatever that calls the place (本馆)."""
    evidence = ["本馆每周一闭馆，周二至周日10:00-21:00营业。", "体验课需至少提前一天预约。"] if "馆" in statement or "休" in statement \
        else ["We close on Mondays and open Tuesday to Sunday, 10 a.m. to 9 p.m.", "Classes must be booked a day ahead."]
    found = contradicted(statement, "陶艺馆哪天休息？" if "馆" in evidence[0] else "When is the studio closed?", evidence)
    assert found is not None and found.kind == "bound"


def test_an_answer_naming_no_subject_decides_nothing_against_two_schedules():
    evidence = ["本馆每周一闭馆，周二至周日营业。", "馆内咖啡厅周二至周五营业。"]
    assert contradicted("周二闭馆。", "陶艺馆哪天休息？", evidence) is None


def test_a_range_of_another_subject_or_a_closed_range_decides_nothing():
    # The range speaks of the office, the statement of the library; a range of closed days sets no open days.
    assert not borne_out("The library is closed on Saturdays.", "When is the library open?", OFFICE_EN)
    assert not borne_out("The shop is open on Saturdays.", "When is the shop open?",
                         ["The shop is closed Monday to Friday for renovation."])


def test_a_chinese_weekday_is_written_as_the_evidence_spells_the_same_day():
    """星期二 is the evidence's 周二 (weekdays.as_evidence_spells, in the verifier); another day stays as written."""
    from ragpipe.core.evidence.weekdays import as_evidence_spells

    assert as_evidence_spells("会员每个星期二打九折", "会员每周二可享受九折优惠。") == "会员每周二打九折"
    assert as_evidence_spells("礼拜天不营业", "本店周日休息。") == "周日不营业"
    assert as_evidence_spells("会员每个星期三打九折", "会员每周二可享受九折优惠。") == "会员每个星期三打九折"
    # A schedule's day with or without 每 is one day: 每周一 is the evidence's 周一, but not its 本周一 (one date).
    assert as_evidence_spells("每周一闭站", "回收站每周二至周日开放，周一闭站。") == "周一闭站"
    assert as_evidence_spells("攀岩馆每个星期二不开门", "本攀岩馆周二闭馆。") == "攀岩馆周二不开门"
    assert as_evidence_spells("每周一停水", "本周一停水。") == "每周一停水"
    assert as_evidence_spells("星期三上课", "每周三上课。") == "周三上课"
    # 工作日 is the evidence's spelled-out range; 非工作日 is not.
    assert as_evidence_spells("工作日早8点到晚6点", "诊所周一至周五早上8点到下午6点开诊。") == "周一至周五早8点到晚6点"
    assert as_evidence_spells("非工作日不开诊", "诊所周一至周五开诊。") == "非工作日不开诊"


@pytest.mark.parametrize("statement, evidence, other", [
    ("The market is held every Wednesday.", "The farmers market is held every Tuesday morning.", "Tuesday"),
    ("集市每周三举行。", "农贸市场每周二上午举行。", "周二"),
    ("The clinic is closed on Thursdays.", "The clinic is closed on Tuesdays.", "Tuesdays"),
    # a clock time is no word of the topic ("1 p.m." had made it too long to read)
    ("On Mondays the farmers market closes at 1 p.m.", "The farmers market runs every Saturday from 8 a.m. until 1 p.m.", "Saturday"),
    ("诊所每周四休息。", "诊所每周二休息。", "周二"),
])
def test_another_day_the_evidence_gives_the_same_thing(statement, evidence, other):
    found = contradicted(statement, "", [evidence])
    assert found is not None and (found.kind, found.evidence) == ("date", other), found


@pytest.mark.parametrize("statement, evidence", [
    ("The market is held every Tuesday.", "The farmers market is held every Tuesday morning."),  # the same day
    ("The gym is open on Monday.", "Yoga classes run on Tuesday; the gym is open daily."),  # every day holds it
    ("The market is not held on Wednesday.", "The farmers market is held every Tuesday morning."),  # a denial agrees
    # A long statement's day may be that of another event the sentence reports (a RAGTruth statement, supported).
    ("The aid worker was killed in a drone strike in Pakistan on Monday.",
     "His wife said on Thursday that officials revealed he was killed in a drone strike in Pakistan."),
])
def test_the_same_day_every_day_a_denial_or_a_long_report_is_no_other_day(statement, evidence):
    assert contradicted(statement, "", [evidence]) is None


def test_a_clinic_opens_and_closes_in_its_own_words():
    # 开诊 / 停诊 say open / closed as 营业 / 休息 do: a Saturday the range leaves out is no clinic day.
    from ragpipe.core.evidence.weekdays import weekday_reading

    hours = ["诊所周一至周五早上8点到下午6点开诊。"]
    assert weekday_reading("诊所周六也开诊。", "周六开诊吗？", hours)[:3] == ("bound", "周六", "周一至周五")
    assert weekday_reading("诊所周三开诊。", "周三开诊吗？", hours) is True
    assert weekday_reading("诊所周日停诊。", "周日开诊吗？", hours) is True


AQUARIUM = ["The aquarium is closed on Wednesdays and open every other day from 10 a.m. to 6 p.m."]
PLANETARIUM = ["天文馆每周三闭馆，其余日期9:00至16:30开放。"]
VET = ["这家宠物医院周日休息，周一至周六正常接诊。"]


@pytest.mark.parametrize("statement, question, evidence, holds", [
    ("The aquarium is not open on Thursdays.", "Is the aquarium open on Thursdays?", AQUARIUM, False),
    ("The aquarium is not open on Wednesdays.", "Is the aquarium open on Wednesdays?", AQUARIUM, True),
    ("The aquarium is open on Wednesdays.", "Is the aquarium open on Wednesdays?", AQUARIUM, False),
    ("天文馆周五不开放。", "天文馆周五开放吗？", PLANETARIUM, False),
    ("天文馆周三不开放。", "天文馆周三开放吗？", PLANETARIUM, True),
    ("宠物医院周四休息。", "宠物医院周四开门吗？", VET, False),  # the range of its opening clause, beside a closing one
    ("宠物医院周日不接诊。", "宠物医院周日开门吗？", VET, True),
])
def test_a_day_against_the_days_the_evidence_closes(statement, question, evidence, holds):
    assert (contradicted(statement, question, evidence) is None) == holds
    assert borne_out(statement, question, evidence) == holds


def test_closed_on_one_day_says_nothing_of_the_others_being_open():
    from ragpipe.core.evidence.weekdays import weekday_reading

    assert weekday_reading("The museum is open on Tuesdays.", "", ["The museum is closed on Mondays."]) is None


def test_a_denied_closing_day_is_left_to_the_negation():
    # "not closed on Mondays" is no closing day: against "does not open on Mondays" the negation contradicts it.
    from ragpipe.core.evidence.weekdays import weekday_reading

    museum = ["The museum does not open on Mondays."]
    assert weekday_reading("The museum is not closed on Mondays.", "When is the museum closed?", museum) is None
    assert weekday_reading("博物馆周一不闭馆。", "博物馆哪天闭馆？", ["博物馆每周一闭馆。"]) is None


RECYCLING = ["Eastfield Recycling Centre is open 8 a.m. to 6 p.m., Wednesday to Sunday.", "It is closed on Mondays and Tuesdays."]


@pytest.mark.parametrize("statement, question, evidence, shown", [
    # a range of days the evidence's range leaves part of
    ("It's open Monday to Friday.", "What days is Eastfield Recycling Centre open?", RECYCLING, "Monday to Friday"),
    ("本馆周一至周五开放。", "", ["本馆周二至周日9:00-17:00开放，每周一闭馆。"], "周一至周五"),
])
def test_a_range_of_open_days_outside_the_evidences_range(statement, question, evidence, shown):
    from ragpipe.core.evidence.weekdays import weekday_reading

    assert weekday_reading(statement, question, evidence)[:2] == ("bound", shown)


@pytest.mark.parametrize("statement, evidence", [
    ("It is open Wednesday to Sunday.", RECYCLING),  # its range, which "closed" in the next sentence does not oppose
    ("本馆周三到周日开放。", ["本馆周二至周日9:00-17:00开放，每周一闭馆。"]),
    ("周二至周日10:00-21:00营业，周一闭馆。", ["本馆每周一闭馆，周二至周日10:00-21:00营业。"]),  # the whole schedule
])
def test_a_range_of_open_days_inside_the_evidences_range(statement, evidence):
    assert contradicted(statement, "", evidence) is None


@pytest.mark.parametrize("statement, evidence, holds", [
    ("药店周日不营业。", "药店周一至周五8:00-21:00营业，周日10:00-18:00营业。", False),
    ("药店周六不营业。", "药店周一至周五8:00-21:00营业，周日10:00-18:00营业。", True),
    ("药店周日营业。", "药店周一至周五8:00-21:00营业，周日10:00-18:00营业。", True),
])
def test_a_day_another_opening_clause_names_is_open_beside_the_range(statement, evidence, holds):
    found = contradicted(statement, "药店几点营业？", [evidence])
    assert (found is None and borne_out(statement, "药店几点营业？", [evidence])) == holds, found


@pytest.mark.parametrize("answer, reference, other", [
    ("周三休息。", "每周二休息。", True),
    ("Wednesday.", "Tuesday.", True),
    ("周二休息，其他日子10点到19点营业。", "每周二休息。", False),   # the same day, with detail
    ("It opens Tuesday to Sunday.", "It is closed on Mondays.", False),  # the other days, said open
    ("每天。", "周一。", False),
])
def test_another_weekday_said_alike_is_another_day(answer, reference, other):
    assert (other_weekday(answer, reference) is not None) == other


def test_a_chinese_weekday_is_written_one_way():
    assert one_zh_weekday_form("每周二、星期四和礼拜天休息，每周一次大扫除") == "周二、周四和周日休息，每周一次大扫除"


# Blind batch 22a (round twenty-one): "every day" beside a closing day, "every day except Monday", and a subject the
# question names where the evidence says "We" had left the schedule unread.
@pytest.mark.parametrize("statement, question, evidence, holds", [
    ("每周一休息。", "钟表店哪天休息？", ["本店营业时间为每天10:00-20:00，每周三店休。"], False),
    ("每周三休息。", "钟表店哪天休息？", ["本店营业时间为每天10:00-20:00，每周三店休。"], True),
    ("The shop is closed on Sundays.", "Which day is the watch shop closed?", ["We are open every day except Monday, 9:30 a.m. to 5:30 p.m."], False),
    ("The shop is closed on Mondays.", "Which day is the watch shop closed?", ["We are open every day except Monday, 9:30 a.m. to 5:30 p.m."], True),
])
def test_every_day_but_the_closing_or_excepted_days(statement, question, evidence, holds):
    found = contradicted(statement, question, evidence)
    assert (found is None) == holds, found


def test_every_day_in_an_opening_clause_opens_all_but_the_closing_day_and_in_a_closing_one_is_a_break():
    assert open_days("本店营业时间为每天10:00-20:00，每周三店休。") == ({0, 1, 3, 4, 5, 6}, "周三", True)
    assert open_days("除周一外每天营业。") == ({1, 2, 3, 4, 5, 6}, "周一", True)
    assert open_days("每天12:00-13:00休息，周三店休。") is None


@pytest.mark.parametrize("statement, question, evidence", [
    ("It's held on Sundays.", "When is the Knife Skills class?",
     ["Our Knife Skills class runs on Saturdays from 10 a.m. to 1 p.m.", "The Pasta Basics course costs $240."]),
    ("It runs on Sundays.", "When does the llama trek run?",
     ["The llama trek runs on Saturdays.", "It does not run on Sundays because the farm is closed."]),
    ("They meet on Tuesdays.", "When does the chess club meet?",
     ["The chess club meets every Thursday evening.", "The book group meets on Tuesdays."]),
    ("它周三举行。", "陶艺市集什么时候举行？", ["陶艺市集每周六举行。", "花卉市集每周三举行。"]),
])
def test_a_pronoun_subjects_day_is_read_against_the_questions_subject(statement, question, evidence):
    """"It" names what the question asks of: its schedule on another day is the contradiction, and a sentence that
    denies a day ("It does not run on Sundays") gives that day to nothing."""
    assert weekday_reading(statement, question, evidence)[0] == "date"


def test_a_pronoun_subjects_own_day_is_no_contradiction():
    assert weekday_reading("They meet on Thursday evenings.", "When does the chess club meet?",
                           ["The chess club meets every Thursday evening.", "The book group meets on Tuesdays."]) is None
    assert weekday_reading("It runs on Saturdays.", "When does the llama trek run?",
                           ["The llama trek runs on Saturdays.", "It does not run on Sundays."]) is None


def test_open_as_usual_on_a_day_the_schedule_leaves_out():
    # Blind batch 22b (round twenty-one, after its blind scoring): 正常 ("as usual") had read as the statement's subject.
    evidence = ["本店营业时间为周二至周日上午10点至晚上7点，每周一店休。"]
    found = contradicted("周一正常营业。", "周一店里开门吗？", evidence)
    assert found is not None and found.kind == "bound"
    assert contradicted("周二正常营业。", "周二店里开门吗？", evidence) is None


@pytest.mark.parametrize("statement, question, evidence", [
    # Blind batch 23b (round twenty-two): the 不 of 不营业 had read as the statement's subject.
    ("周二店休，不营业。", "戏服店周二开门吗？", ["营业时间为周二至周日上午9点到晚上8点，周一店休。"]),
    ("博物馆周三闭馆，不开放。", "博物馆周三开放吗？", ["开放时间为周二至周日9:00-17:00，周一闭馆。"]),
    ("周五不开门。", "周五开门吗？", ["本店周一至周五营业，周末休息。"]),
])
def test_closed_on_a_day_the_range_opens_with_a_negated_open_word(statement, question, evidence):
    found = contradicted(statement, question, evidence)
    assert found is not None and found.kind == "bound"


def test_closed_on_a_day_the_range_leaves_out_with_a_negated_open_word():
    assert weekday_reading("周一不营业。", "周一营业吗？", ["营业时间为周二至周日上午10点到晚上9点。"]) is True


@pytest.mark.parametrize("statement, question, evidence", [
    # Blind batch 23b: the hours of a Chinese schedule had counted as its topic words (more than four: no reading).
    ("每周五晚上7点到8点可以视频通话。", "家长什么时候能和孩子视频？",
     ["营员不得携带手机，家长可在每周三晚上7点到8点与孩子视频通话。", "营地每晚21:30熄灯。"]),
    ("每周二下午3点到5点上瑜伽课。", "瑜伽课什么时候上？", ["瑜伽课安排在每周四下午3点到5点，地点在二楼。"]),
    ("每周六上午9:00-11:00收旧衣服。", "什么时候收旧衣服？", ["旧衣服每周日上午9:00-11:00回收。"]),
])
def test_another_weekday_beside_chinese_hours(statement, question, evidence):
    assert weekday_reading(statement, question, evidence)[0] == "date"


def test_the_same_weekday_beside_chinese_hours_is_no_contradiction():
    assert weekday_reading("每周四下午3点到5点上瑜伽课。", "瑜伽课什么时候上？",
                           ["瑜伽课安排在每周四下午3点到5点，地点在二楼。"]) is None


@pytest.mark.parametrize("statement, question, evidence, holds", [
    # "every day except Monday" names six days, not seven
    ("The cemetery is open every day except Monday.", "When is the cemetery open?",
     ["The cemetery is open daily from 8 a.m. to 6 p.m. except on Mondays, when the grounds are closed."], True),
    ("The pool is open daily except Tuesdays.", "When is the pool open?", ["The pool opens every day apart from Tuesday and Thursday."], False),
    # a place closed by 闭 and its own character (闭园, 闭店), as 闭馆 is
    ("墓园周一也开放。", "周一能去墓园吗？", ["墓园每天8:00至17:00开放，周一闭园维护。"], False),
    ("花店周日营业。", "花店周日开吗？", ["花店每天营业，周日闭店。"], False),
    # the exception's own closing word closes none of the days the statement names
    ("墓园除周一闭园外，每天8:00至17:00开放。", "墓园什么时候开放？", ["墓园每天8:00至17:00开放，周一闭园维护。"], True),
])
def test_every_day_but_its_exceptions_and_closing_words_of_any_place(statement, question, evidence, holds):
    found = weekday_reading(statement, question, evidence)
    assert found is True if holds else isinstance(found, tuple) and found[0] == "bound"


@pytest.mark.parametrize("statement, question, evidence, holds", [
    # a service runs on its days, and there is none of it on the others
    ("There are no regular appointments on Saturdays.", "Which day has no appointments?",
     ["Appointments run Monday to Saturday, 7 a.m. to 7 p.m."], False),
    ("There are no yoga classes on Sundays.", "When are the yoga classes?", ["Yoga classes run Monday to Friday at 7 a.m."], True),
    ("The ferry runs on Sundays.", "Does the ferry run on Sundays?", ["The ferry runs Monday to Saturday."], False),
    ("Yoga classes run on Wednesdays.", "When are the yoga classes?", ["Yoga classes run Monday to Friday at 7 a.m."], True),
])
def test_a_service_that_runs_on_its_days_and_none_on_the_others(statement, question, evidence, holds):
    found = weekday_reading(statement, question, evidence)
    assert found is True if holds else isinstance(found, tuple) and found[0] == "bound"


def test_every_day_with_no_day_named_repeats_the_schedule_s_own_every_day():
    evidence = ["墓园每天8:00至17:00开放，周一闭园维护。"]
    assert weekday_reading("每天8:00至17:00开放", "墓园什么时候开放？", evidence) is None
    assert isinstance(weekday_reading("墓园周一也开放。", "周一能去墓园吗？", evidence), tuple)  # a day named is read
    # Blind batch 24b (round twenty-three): a schedule's "every day except Tuesday" leaves Tuesday out.
    excepted = ["We are open every day except Tuesday, from 11 a.m. to 8 p.m."]
    assert weekday_reading("The café is open every day from 11 a.m. to 8 p.m.", "When is it open?", excepted)[0] == "bound"

