"""What asks a price and what gives one, read by answer_relevancy (an answer that gives the amount asked) and by
asked_kinds (a context that holds it)."""

import re

# A price asked ("多少钱", "How much does it cost?") is given by an amount of money or by being free, not by a house number.
MONEY_ASKED = re.compile(r"多少钱|多少元|(?:价格|票价|费用|收费|押金|定金|订金|保证金|租金|房租|学费|罚款|罚金|工资|薪水|"
                         r"[\u4e00-\u9fff]费)(?:是|为|要|需要|需|大概|一般|大约)?多少(?![天年月周个次人位小分岁克斤吨时])|"
                         r"\bhow much\b[^?]*\b(?:cost|charge|pay|fee|price|fare|deposit|rent|tuition|fine|penalty|premium|toll|"
                         r"salary|wage)|\bwhat (?:does|do|will|would) [^?]*\bcost\b|"  # "What does a cake cost?"
                         # "How much is a day pass?", "How much are tickets?": a thing's price, not what is left or allowed
                         r"\bhow much (?:is|are)\b(?! (?:left|needed|required|allowed|enough)\b)|"
                         r"\bwhat(?:'s| is| are)\s+the\s+(?:\w+\s+)?(?:cost|price|fee|fare|deposit|rent|tuition|fine|"
                         r"penalty|premium|toll)s?\b", re.I)  # a sum named by its kind: 押金是多少, "How much is the deposit?"
MONEY = re.compile(r"[$€£¥]\s?\d|\d\s*(?:万|亿)?(?:元|块|欧元|美元|英镑|日元)|[零一二两三四五六七八九十百千]\s*(?:万|亿)?(?:元|块钱|欧元|美元|英镑|日元)|"
                   r"\b(?:\d[\d,.]*|one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty|thirty|forty|"
                   r"fifty|hundred|thousand)\s*(?:euros?|dollars?|pounds?|bucks|yuan|cents?|usd|eur)\b|免费|\bfree\b|"
                   # a charge given as a period's price: "the first night's stay", "首晚房费", "一个月的租金"
                   r"\b(?:night|day|week|month|year)(?:'s|s') (?:stay|rent|rental|rate|fee|pay|salary|wages?)\b|"
                   r"(?:首|[一二两三四五六七八九十\d]+个?)(?:晚|天|日|周|月|年)的?(?:房费|租金|房租|费用|工资|车费)", re.I)

# A price per period ("$150 an hour", "120 euros per night", "每小时150元", "一天300元", "150元/小时", "每月租金800元"): the
# period is the unit of the rate, not a duration or a time of its own, so a studio's hourly rate tells nothing of how
# long a tattoo takes to heal.
_PERIOD_EN = r"(?:hour|hr|day|night|week|month|year|minute|min|session)s?\b"
_PERIOD_ZH = r"(?:小时|天|日|晚|周|星期|个月|月|年|分钟)"
RATE = re.compile(rf"(?:[$€£¥]\s?\d[\d,.]*|\b\d[\d,.]*\s*(?:euros?|dollars?|pounds?|yuan|usd|eur)\b)\s*"
                  rf"(?:(?:an?|per|each|every)\s+|/\s*){_PERIOD_EN}|"
                  rf"(?:[\d.]+|[零一二两三四五六七八九十百千])\s*(?:元|块|欧元|美元|英镑)\s*(?:/|每|一)\s*{_PERIOD_ZH}|"
                  rf"(?:每|一)(?:个)?{_PERIOD_ZH}"
                  r"(?=[\u4e00-\u9fff]{0,4}(?:[\d.]+|[零一二两三四五六七八九十百千]+)\s*(?:元|块|欧元|美元|英镑))",
                  re.I)


def without_rates(text: str) -> str:
    """The text with every price per period taken out (see RATE)."""
    return RATE.sub(" ", text)
