"""`ragpipe bench perturb`: the generator's typed edits (each where its slot is grounded, none where it is not)
and the sweep end to end on a small suite of two seeds."""

import json

import pytest

from ragpipe.bench.perturb import perturb
from ragpipe.bench.perturb_run import main, sweep
from ragpipe.core.metrics import Toolkit

GYM = ["The gym is open from 6 a.m. to 10 p.m. on weekdays and closed on Sundays.",
       "Monthly membership costs $35; students pay $25.", "Seniors get a 20% discount on Saturdays.",
       "Dr. Patel teaches yoga.", "Dr. Moore teaches pilates.", "The pool is 1,500 square metres."]
ZH = ["健身房周六早上8点开门。", "学生月卡25元。", "老人可享受8折优惠。", "张伟负责瑜伽课。", "李娜负责普拉提课。",
      "会员可以免费使用泳池。", "每年3月举办会员日。"]


def edits(answer, contexts):
    return {e.kind: e.answer for e in perturb(answer, contexts)}


@pytest.mark.parametrize("answer,contexts,kind,expected", [
    ("Students pay $25 a month.", GYM, "price", "Students pay $26 a month."),
    ("Seniors get a 20% discount.", GYM, "percentage", "Seniors get a 21% discount."),
    ("The pool is 1,500 square metres.", GYM, "number", "The pool is 1,600 square metres."),
    ("It closes at 10 p.m.", GYM, "clock time", "It closes at 11 p.m."),
    ("The gym is closed on Sundays.", GYM, "weekday", "The gym is closed on Mondays."),
    ("The gym is closed on Sundays.", GYM, "negation", "The gym is not closed on Sundays."),
    ("Dr. Patel teaches yoga.", GYM, "role swap", "Dr. Moore teaches yoga."),
    ("Seniors get a 20% discount on Saturdays.", GYM, "group swap", "Students get a 20% discount on Saturdays."),
    ("Students pay $25 a month.", GYM, "group swap", "Seniors pay $25 a month."),  # the contexts' "students"
    ("The pool is 1,500 square metres.", GYM, "number format", "The pool is 1500 square metres."),
    ("Students pay $25 a month.", GYM, "full-width", "Students pay $２５ a month."),
    ("The gym is closed on Sundays.", GYM, "lead-in", "According to the documents, the gym is closed on Sundays."),
    ("学生月卡25元。", ZH, "price", "学生月卡26元。"),
    ("健身房周六早上8点开门。", ZH, "clock time", "健身房周六早上9点开门。"),
    ("健身房周六早上8点开门。", ZH, "weekday", "健身房周一早上8点开门。"),
    ("办公室周三开放。", ["办公室周一至周五开放。"], "weekday", "办公室周六开放。"),  # a day inside a range is held
    ("会员可以免费使用泳池。", ZH, "negation", "会员不可以免费使用泳池。"),
    ("张伟负责瑜伽课。", ZH, "role swap", "李娜负责瑜伽课。"),
    ("学生月卡25元。", ZH, "group swap", "老人月卡25元。"),
    ("每年3月举办会员日。", ZH, "month", "每年4月举办会员日。"),
    ("学生月卡25元。", ZH, "lead-in", "根据资料，学生月卡25元。"),
])
def test_each_edit_type_makes_its_text(answer, contexts, kind, expected):
    assert edits(answer, contexts)[kind] == expected


def test_a_floor_moves_down_and_a_model_number_stays():
    assert edits("65岁以上的老人免费。", ["年满65周岁的老人可免费乘车。"])["number"] == "64岁以上的老人免费。"
    assert "number" not in edits("It runs Windows 7.", ["The laptop runs Windows 7."])
    # a hedged value moves by ten steps: "roughly 61 cm" would still be "about 60 cm"
    assert edits("Space them roughly 60 cm apart.", ["Plants need about 60 cm between them."])["number"] == \
        "Space them roughly 70 cm apart."


@pytest.mark.parametrize("answer,contexts,kind", [
    ("Students pay $30 a month.", GYM, "price"),              # $30: the contexts do not state it
    ("It closes at 9 p.m.", GYM, "clock time"),
    ("The gym is closed on Fridays.", GYM, "weekday"),
    ("Dr. Smith teaches yoga.", GYM, "role swap"),
    ("Teachers get a discount.", GYM, "group swap"),
    ("学生月卡30元。", ZH, "price"),
    ("王芳负责瑜伽课。", ZH, "role swap"),
    ("儿童月卡25元。", ZH, "group swap"),
    ("The gym is open Monday to Sunday.", ["The gym is open Monday to Sunday."], "weekday"),  # a range's end
    ("所有门店周日都营业。", ["本品牌所有门店周一至周日均正常营业。"], "weekday"),  # every other day is inside the range
    ("The café opens on Sundays.", ["The café is open every day, including Sundays."], "weekday"),  # and every day
    ("Students and seniors pay $25.", ["Students and seniors pay $25."], "group swap"),       # one sentence: same role
    ("The gym is not open on Sundays.", GYM, "negation"),     # already negated
])
def test_an_ungrounded_slot_makes_no_case(answer, contexts, kind):
    assert kind not in edits(answer, contexts)


def test_the_sweep_on_two_seeds(tmp_path, monkeypatch, embedding_cache, embedder, capsys):
    monkeypatch.setenv("RAGPIPE_CACHE_DIR", str(embedding_cache))
    seed = {"metric": "faithfulness", "type": "MFT", "capability": "faithful",
            "expect": {"min": 0.8, "details": {"hallucinated": False}}}
    lines = [{**seed, "id": "faithfulness/en/mft/faithful/01", "language": "en",
              "case": {"question": "When does the gym close?", "answer": "The gym closes at 10 p.m.",
                       "retrieved_contexts": ["The gym closes at 10 p.m. every day."]}},
             {**seed, "id": "faithfulness/zh/mft/faithful/01", "language": "zh",
              "case": {"question": "学生月卡多少钱？", "answer": "学生月卡25元。",
                       "retrieved_contexts": ["学生月卡25元，老人月卡20元。"]}}]
    (tmp_path / "faithfulness.jsonl").write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n")
    n_seeds, n_kept, rows = sweep(tmp_path, Toolkit(embedder))
    assert (n_seeds, n_kept) == (2, 2)
    kinds = {(r["language"], r["kind"]): r for r in rows}
    assert kinds[("en", "clock time")]["ok"] and kinds[("zh", "price")]["ok"]  # 11 p.m. and 26元 are caught
    assert kinds[("en", "lead-in")]["ok"] and kinds[("zh", "full-width")]["ok"]  # the controls keep the score
    assert main([str(tmp_path)]) == 0
    assert "clock time | en | 1 | 1 | 100.0%" in capsys.readouterr().out
