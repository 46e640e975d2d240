"""A discount, however it is priced: "half-price tickets", "20% off", "reduced fares", 半价, 打八折, 八折优惠 all give
a discount. Written as the word itself ("discount", 打折), a statement that there is none ("Students do not get a
discount", "学生买票不打折") reads as the negation of the evidence's clause (polarity.py, through antonyms.free_worded)."""

from __future__ import annotations

import re

_EN = re.compile(r"\bhalf[\s-]price[ds]?\b|\b(?:reduced|discounted)[\s-](?:price|fare|rate)s?\b|(?<=%)\s?off\b", re.I)
# 八折 / 8.5折 / 打九五折 (not 折扣 / 折叠 / 折合 / 折旧, whose 折 is no price)
_ZH = re.compile(r"半价|打?[一二三四五六七八九\d](?:\.\d|[五])?折(?![扣叠合旧算射])")


def discount_worded(text: str) -> str:
    """The text with a priced discount written "discount" / 打折."""
    return _ZH.sub("打折", _EN.sub(lambda m: " discount" if m.group(0).lstrip().lower() == "off" else "discount", text))
