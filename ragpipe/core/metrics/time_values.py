"""What gives a duration and what gives a time of day, read by answer_relevancy (an answer that gives the value asked)
and by asked_kinds and context_relevance (a context that holds it)."""

import re

_EN_UNIT = r"(?:years?|months?|fortnights?|weeks?|days?|hours?|minutes?|seconds?)\b"  # a unit of time
DURATION = re.compile(r"(?:\d|[零一二三四五六七八九十两半几])\s*(?:个)?(?:工作日|年|月|天|日|周|星期|小时|分钟|秒)|"
                      r"\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|"
                      r"forty|forty-five|fifty|sixty|ninety|several|a few)(?: and a half)?[\s-]+"
                      rf"(?:[a-z]+\s+)?{_EN_UNIT}|"  # "15 business days", "two and a half hours"
                      # one unit named by its article after a word of length ("lasts about an hour", "within a week"),
                      # or with a half ("half a day", "an hour and a half"); not a frequency ("three meals a day")
                      r"\b(?:for|about|around|over|under|within|in|than|least|most|only|just|nearly|almost|roughly|up to|"
                      rf"takes?|took|lasts?|lasted|runs?|ran)\s+(?:half\s+)?an?\s+{_EN_UNIT}|"
                      rf"\bhalf\s+an?\s+{_EN_UNIT}|\ban?\s+{_EN_UNIT}\s+and\s+a\s+half\b", re.I)
# A time of day ("At 6 pm.", "10:30", "9 in the evening", "noon", "晚上九点") answers "What time…?" / "几点…？". An
# "hh:mm" is one between Chinese characters too ("每晚21:30熄灯"), where no word boundary stands.
CLOCK_TIME = re.compile(r"\b\d{1,2}(?::\d{2})?\s*(?:[ap]\.?m\b|o['’]clock\b|in the (?:morning|afternoon|evening)\b|at night\b)|"
                        r"(?<![\d:.])\d{1,2}:\d{2}(?![\d:])|\b(?:noon|midnight)\b|(?:\d|[一二两三四五六七八九十])\s*点(?!心|赞|击)", re.I)
