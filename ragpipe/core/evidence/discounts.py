"""A discount, however it is priced: "half-price tickets", "20% off", "reduced fares", 半价, 打八折, 八折优惠 all give
a discount. Written as the word itself ("discount", 打折), a statement that there is none ("Students do not get a
discount", "学生买票不打折") reads as the negation of the evidence's clause (polarity.py, through antonyms.free_worded)."""

from __future__ import annotations

import re

_EN = re.compile(r"\bhalf[\s-]price[ds]?\b|\b(?:reduced|discounted)[\s-](?:price|fare|rate)s?\b|(?<=%)\s?off\b", re.I)
# A priced Chinese discount, as the share of the price paid in tenths (八折, 8折) or hundredths (八五折, 85折, 8.5折), or
# 半价 (not 折扣 / 折叠 / 折合 / 折旧 / 折页, whose 折 is no price).
_ZH_RATE = re.compile(r"([一二三四五六七八九])([一二三四五六七八九])?折(?![扣叠合旧算射页])|(\d{1,2}(?:\.\d)?)折(?![扣叠合旧算射页])|半价")
_ZH = re.compile(rf"打?(?:{_ZH_RATE.pattern})")


def discount_worded(text: str) -> str:
    """The text with a priced discount written "discount" / 打折."""
    return _ZH.sub("打折", _EN.sub(lambda m: " discount" if m.group(0).lstrip().lower() == "off" else "discount", text))


_ZH_DIGITS = "〇一二三四五六七八九"


def as_evidence_discount(statement: str, evidence: str) -> str:
    """A priced discount written as the evidence writes the same one: "9折" as its "九折", "八五折" as its "85折"
    (one value, two spellings that share no word or character); another value stays as written, a claim of its own."""
    theirs = {round(_paid(m), 4): m.group(0) for m in _ZH_RATE.finditer(evidence)}

    def spelled(match: re.Match) -> str:
        rate = _ZH_RATE.search(match.group(0))
        their = theirs.get(round(_paid(rate), 4), rate.group(0))
        if their == rate.group(0):
            return match.group(0)  # spelled alike: its 打 stays ("打九折" beside "可享受九折优惠")
        return ("" if their == "半价" else match.group(0)[:rate.start()]) + their  # "打五折" is "半价", not "打半价"

    return _ZH.sub(spelled, statement) if theirs else statement


_ZH_CLAUSE = re.compile(r"[，,；;。！？!?]")
# Characters that tie no clause to a topic: particles, copulas and the words of a discount itself.
_ZH_LIGHT = set("的了是在可享受打有和与及或也都就为优惠折扣价")


def _paid(match: re.Match) -> float:
    """The share of the price a priced discount leaves to pay: 八折 0.8, 八五折 0.85, 8.5折 0.85, 半价 0.5."""
    tens, units, digits = match.groups()
    if digits:
        return float(digits) / (100 if len(digits) == 2 and "." not in digits else 10)
    if tens:
        return (_ZH_DIGITS.index(tens) * 10 + _ZH_DIGITS.index(units)) / 100 if units else _ZH_DIGITS.index(tens) / 10
    return 0.5


def discount_conflict(statement: str, sentences) -> tuple[str, str, str, str] | None:
    """("number", the statement's discount, the evidence's, the sentence) where the Chinese clause that speaks of
    what the statement speaks of (two of its characters at least, and the most) gives another priced discount
    ("场地费打七折" against "…场地费可享八折优惠"), and no evidence clause gives the statement's. Chinese only:
    jieba cuts a discount into its neighbours ("费打", "七折"), so slots.py cannot align it; an English "20% off" is a
    number slots.py reads."""
    mine = list(_ZH_RATE.finditer(statement))
    if len(mine) != 1:
        return None
    paid = _paid(mine[0])
    topic = {ch for ch in _ZH_RATE.sub("", statement) if "\u4e00" <= ch <= "\u9fff"} - _ZH_LIGHT
    best = None
    for sentence in sentences:
        for clause in _ZH_CLAUSE.split(sentence):
            rates = list(_ZH_RATE.finditer(clause))
            if any(abs(_paid(r) - paid) < 1e-9 for r in rates):
                return None  # the evidence gives the statement's discount
            shared = len(topic & set(_ZH_RATE.sub("", clause)))
            if rates and shared >= 2 and (best is None or shared > best[0]):
                best = (shared, rates[0].group(0), sentence)
    return ("number", mine[0].group(0), best[1], best[2]) if best else None
