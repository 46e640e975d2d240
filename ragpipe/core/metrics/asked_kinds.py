"""What a question asks, read from its wording, and whether a context gives that kind of answer: one value (a price, a
share, an age, a weight, a duration, a time, a count, a language, a person; ``asked_value``) or the items of an open
question (a requirement, a rule, a feature, a symptom, a benefit, a cause, an action; ``asked_item``). context_relevance
holds a context to these, whatever its cosine."""

import re

from ragpipe.core.evidence.entities import EN_DEMONYMS
from ragpipe.core.evidence.facts import facts
from ragpipe.core.evidence.zh_names import zh_titled
from ragpipe.core.metrics.answer_relevancy import asks_one_thing
from ragpipe.core.metrics.time_values import CLOCK_TIME, DURATION
from ragpipe.core.metrics.money import MONEY, MONEY_ASKED, without_rates
from ragpipe.core.metrics.places_and_steps import PLACE_ASKED, gives_place, named_places
from ragpipe.core.text import is_chinese, pos_tags

# What a question asks, read from its wording. A value question (a price, a share, an age, a weight,
# a duration, a time, a count, a person) is answered by a context holding a value of that kind: a
# context on the same product or event without one speaks of another attribute of it (its shipping
# for a return window, its opening hours for a price) and is not relevant, however close its cosine.
_LENGTH = r"\d\s*(?:km|mi|miles?|kilomet|met(?:er|re)s?|feet|ft|公里|千米|米)"  # "how long is the trail"
_WHEN = (rf"{CLOCK_TIME.pattern}|\d\s*(?:时|号|日)|周[一二三四五六日末]|星期|每年|每月|每周|"
         r"\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekday|weekend)s?\b|"
         # a time given from another event: "the day after the school year ends", "开学前一周"
         r"\b(?:the )?(?:day|week|month|night|morning|evening|weekend|year)s? (?:after|before|following)\b|"
         r"[前后](?:一|两|三)?(?:天|日|周|晚)")
# Languages, natural and programming: what "what language" asks for.
_LANGUAGES = (r"\b(?:english|french|spanish|portuguese|german|italian|dutch|russian|arabic|hindi|bengali|urdu|persian|"
              r"turkish|greek|latin|hebrew|swahili|japanese|korean|chinese|mandarin|cantonese|vietnamese|thai|malay|"
              r"indonesian|polish|swedish|norwegian|danish|finnish|czech|hungarian|python|java|javascript|typescript|"
              r"ruby|php|perl|rust|kotlin|swift|scala|haskell|lua|sql|c\+\+|c#|golang|fortran|cobol|assembly)\b|"
              r"\b(?:c|go|r)\b(?= (?:language|code|programming))|"
              r"(?:英|法|德|俄|日|韩|汉|中|葡萄牙|西班牙|阿拉伯|意大利|拉丁|希腊|泰|越南|印地|粤|闽南|普通)(?:语|文|话)")
_ASKED_VALUES = {  # kind: (how a question asks it, how a context gives it), the first that matches
    "a share": (r"税率|利率|费率|比例|百分之几|\bwhat (?:percentage|share|proportion|rate)\b|\bhow much of\b|\bpercent",
                r"\d\s*(?:%|％|percent|个百分点)|百分之|[一二三四五六七八九]成|\bhalf\b|减半|全额|\bin full\b"),
    "an amount of money": (MONEY_ASKED.pattern, MONEY.pattern),
    "a duration": (r"(?:期限|时限|有效期)(?:是|为)?多|\b(?:window|period)\b|多少天|几天|多久|多长时间|几个月|"
                   r"几年|几周|几小时|多少年|多少个月|\bhow long\b|\bhow far (?:ahead|in advance)\b|"
                   r"\bhow many (?:days|weeks|months|years|hours|minutes)\b", f"{DURATION.pattern}|{_LENGTH}"),
    "an age": (r"年龄|几岁|多少岁|多大(?:年纪|岁数|可以|才能|能)|\bhow old\b|\b(?:minimum|maximum) age\b|\bage limit\b",
               r"\d\s*(?:岁|周岁)|[一二两三四五六七八九十]\s*(?:岁|周岁|个月)|\b\d+\s*(?:years? old|years of age|\+)|"
               r"\baged? (?:\d+|over|under)\b|\b(?:over|under|at least) \d+\b|\d\s*(?:个月|月龄)|\b\d+\s*months? old\b"),
    "a language": (r"\b(?:what|which) (?:\w+ )?languages?\b(?! models?)|(?:什么|哪种|哪一种|哪门|哪国)(?:编程)?语言|说什么话",
                   _LANGUAGES),
    "a length": (r"多高(?!的?温度)|多长(?!时间)|多远|多深|多宽|海拔|高度|长度|\bhow (?:tall|high|far|deep|wide)\b",
                 rf"{_LENGTH}|\d\s*(?:cm|mm|inch(?:es)?|厘米|毫米|英尺)|{DURATION.pattern}"),  # or "a 20-minute drive"
    # a "storage unit" or "storage fee" is no capacity asked
    "a capacity": (r"容量|内存|存储空间|\b(?:capacity|memory)\b|\bstorage\b(?!\s+(?:units?|lockers?|rooms?|facilit\w+|box(?:es)?|fees?)\b)",
                   r"\d\s*(?:mah|毫安|wh|gb|tb|mb|升|毫升|ml|l|liters?|litres?)\b|\d\s*(?:毫安时|升|毫升)"),
    "a weight": (r"重量|多重|多沉|\bhow heavy\b|\bweigh",
                 r"\d\s*(?:克|千克|公斤|斤|磅|吨)|\d\s*(?:kg|g|mg|lbs?|pounds?|ounces?|oz|tons?)\b"),
    "a time": (r"什么时候|何时|哪一?年|几月|几号|哪一?天|几点|日期|截止|^\s*(?:by )?when\b|\bwhat (?:year|date|day|time)\b|"
               r"\bwhat(?:'s| is| are) the (?:[\w-]+'s )?(?:[\w-]+ )?(?:time|times|hours|date)\b|"  # "… the farm's opening hours?"
               r"\bdeadline\b", f"{_WHEN}|{DURATION.pattern}"),
}
ASKED_VALUES = {kind: (re.compile(ask, re.I), re.compile(value, re.I)) for kind, (ask, value) in _ASKED_VALUES.items()}
# "What time…?" / "几点…？" asks a time of day: a duration ("lends books for up to three weeks") or a date gives none. A
# clock time does, and so do a part of the day ("from mid-afternoon", 傍晚), opening round the clock, and being closed.
_TIME_OF_DAY_ASKED = re.compile(r"(?<![哪这以下有])几点(?![注意建议要求内容])|\bwhat time\b(?! of\b)", re.I)
_TIME_OF_DAY = re.compile(rf"{CLOCK_TIME.pattern}|\b(?:morning|afternoon|evening|night|midday|sunrise|sunset|dawn|dusk|"
                          r"half past|quarter (?:past|to)|24 hours|around the clock|closed)\b|"
                          r"上午|下午|中午|晚上|傍晚|凌晨|早上|夜间|日出|日落|全天|24小时|闭馆|休息|不营业|不开放|\d{1,2}\s*时", re.I)
# A departure and an arrival time give a journey's duration ("leaves at 9:01 and arrives at 12:17", "7:00出发，11:29抵达").
_HH_MM = re.compile(r"(?<![\d:])\d{1,2}:\d{2}(?![\d:])")
_COUNT = re.compile(r"多少([枚名个位人家次支条只本部座项])")  # 多少枚金牌 is answered by 36枚
_WHO = re.compile(r"谁|哪位|^\s*who\b", re.I)
# An open question (a list, causes, a way, what to do; one ask) is answered by several contexts, each a
# part of it: a context is not held against a closer one (the relative features are set to 0,
# as for a context retrieved alone).
OPEN_ASK = re.compile(r"哪些|什么(?:条件|材料|好处|作用|影响|症状|要求|原因|后果|功能|手续|步骤|风险|副作用|证明|证件|资料|文件|"
                      r"优惠|福利|补贴|待遇|奖励)|"  # 有什么优惠: the discounts or aids, a list as "What are the benefits…"
                      r"注意什么|为什么|为何|原因|怎么办|如何|怎样|怎么(?!样)|需要(?:准备|带|提供|提交|出示)?什么|"
                      r"(?:包括|包含|含)什么|\bwhat(?:'s| is| are) included\b|"  # what a package holds: a list
                      r"[二三四五六七八九十]大[\u4e00-\u9fff]|"  # 四大发明: a list named by its count
                      r"^\s*what (?:are|were) the\b|\bwhat does .+ include\b|"
                      r"\bwhat (?:should|can|must) (?:i|you|we)\b|\bwhat do (?:i|you|we) need\b|"
                      r"\b(?:what|which) \w+ (?:do|does|should) (?:i|you|we)\b|\bwhy\b|"
                      r"\b(?:what|which) [a-z]+s (?:do|does|did|are|were|can|should|must)\b|"  # "What features does…"
                      r"\bhow (?:do|can|should|would|could) (?:i|you|we|one)\b|\bhow to\b|"
                      r"\bwhat (?:caused|causes)\b|\bwhat happens\b", re.I)


def asked_value(question: str):
    """(kind, test) for the one value the question asks, or None: a test says whether a context
    holds a value of that kind."""
    if not asks_one_thing(question):  # two asks are left to the model: its contexts may answer different asks
        return None
    for kind, (ask, value) in ASKED_VALUES.items():
        if ask.search(question) and kind == "a time" and _TIME_OF_DAY_ASKED.search(question):
            return kind, lambda c: bool(_TIME_OF_DAY.search(c))
        if ask.search(question):
            # A date answers "when", and "how many years after" with its year. A price per period holds no period
            # of its own ("$150 an hour" for how long a tattoo takes to heal).
            dated = kind in ("a duration", "a time")
            timed = kind == "a duration"
            untimed = without_rates if dated or kind == "a length" else str
            return kind, lambda c, value=value: bool(value.search(c := untimed(c))
                                                     or (dated and (facts(c).years or facts(c).months))
                                                     or (timed and len(_HH_MM.findall(c)) >= 2))
    if counted := _COUNT.search(question):
        return "a count", lambda c: bool(re.search(rf"[\d零〇一二三四五六七八九十两百千万]\s*{counted.group(1)}", c))
    if _WHO.search(question):
        return "a person", lambda c: names_someone(c, question)
    if PLACE_ASKED.search(question):
        return "a place", gives_place
    return None


# What kind of item an open question lists, and how a context gives one: a reader takes "Renters need a letter
# from their landlord" as one of the papers asked for, and "售价1999元" as no function of a purifier, whatever
# their cosines. The items need not repeat the question's words, so each kind is read from the context's own.
_ITEMS = {  # kind: (how a question asks it, how a context gives one)
    "a requirement": (r"\b(?:requirements?|documents?|paperwork|papers|conditions|eligib\w*|qualif\w*)\b|"
                      r"\b(?:what|which) (?:\w+ )?do (?:i|you|we) need\b|\bneed to (?:bring|provide|submit|show)\b|"
                      r"条件|材料|证明|证件|资料|手续|要求|资格|需要(?:准备|带|提供|提交|出示)?(?:什么|哪些)",
                      r"\b(?:must|need(?:s|ed)?|required?|requires|bring|provide|submit|show|present|ask(?:s|ed)? for|"
                      r"expect(?:s|ed)?|has to|have to|only if|at least|eligible|fees?|payable|pay)\b|须|需|必须|应当|要求|"
                      r"提供|提交|携带|出示|年满|具有|具备|持有|凭|缴纳|交纳|支付|至少|不少于|不低于"),  # a minimum, as "at least"
    "a feature": (r"\b(?:features?|functions?|include|includes|come with|comes with|offer|offers)\b|\bincluded\b|功能|(?<!副)作用|用途|特点|(?:包括|包含|含)(?:哪些|什么)",
                  r"\b(?:can|lets?|allows?|includes?|offers?|comes? with|gets?|provide[sd]?|supplie[sd]|supply|supports?|features?|"
                  # what a device does or holds: "tracks heart rate", "built-in GPS"
                  r"built[- ]in|tracks?|monitors?|measures?|records?|detects?|displays?|plays?|covers?|included)\b|"
                  r"可以|能|可|支持|包括|包含|提供|带有|配备|具有|内置|自带|配有|还有|含|赠送|附赠|附送"),  # 赠送: a package's gift
    # A rule: what may, must or must not be done ("What are the confetti rules?", 有哪些规定).
    "a rule": (r"\b(?:rules?|regulations?|policy|policies|restrictions?|limits|limitations?|dos and don'?ts)\b|"
               r"规定|规则|规矩|须知|守则|限制",
               r"\b(?:must|may|cannot|can't|not (?:allowed|permitted)|allowed|permitted|prohibited|banned|forbidden|welcome|"
               r"only|asked to|required|please)\b|须|必须|禁止|严禁|不得|允许|可以|请|不准|只能|不可"),
    "a symptom": (r"\b(?:symptoms?|signs?|side effects?|adverse effects?)\b|症状|征兆|表现|副作用|不良反应",
                  r"\b(?:pain\w*|aches?|rash\w*|fever\w*|chills|numb\w*|itch\w*|swell\w*|nausea|vomit\w*|dizz\w*|"
                  r"headaches?|cough\w*|fatigue|tired\w*|skin|bleed\w*|heartburn|blister\w*|sore\w*|cramps?|"
                  r"diarrh\w*|breath\w*|weight|thirst\w*|blurred|kidney|liver|stomach|heart|joint\w*|speech|slurred|"
                  r"trouble|difficult\w*|weak\w*|confus\w*|vision|sleep\w*)\b|"
                  r"疼|痛|痒|肿|发热|发烧|咳|晕|吐|泻|乏力|疲劳|疲倦|皮疹|过敏|出血|口渴|多饮|多尿|体重|失眠|恶心|皮肤|麻木|"
                  r"发冷|寒战|视力|心悸|呼吸"),
    # A benefit: what a thing does for one ("What are the benefits of…", 有什么好处, 为什么要多喝水).
    "a benefit": (r"\bbenefits?\b|\badvantages?\b|\bwhy (?:should|do|would) (?:i|you|we|one)\b|好处|益处|优点|为什么要|为何要",
                  r"\b(?:helps?|improves?|protects?|prevents?|keeps?|boosts?|lowers?|reduces?|strengthens?|saves?|"
                  r"better|more|less|fewer)\b|有助于|帮助|促进|提高|增强|改善|保护|预防|减少|降低|能|可以|更"),
    # A cause: a causal link, or an event that changes or harms (a crash, a failure, an eruption, a flood), or a
    # lack or an excess. Classes of words, so that a cause in other words than the question's is read as one.
    "a cause": (r"\bwhy\b|\bwhat (?:caused|causes|led to)\b|\bcauses of\b|为什么|为何|原因",
                r"\b(?:caus\w*|led to|leads? to|leading to|because|due to|result\w*|trigger\w*|blam\w*|"
                r"crash\w*|fail\w*|collaps\w*|struck|strikes?|hit|impact\w*|opened|tore|spill\w*|flood\w*|"
                r"erupt\w*|chang\w*|shr[ai]nk\w*|grew|grow\w*|ris(?:e|es|ing)|rose|wiped out|destroy\w*|weaken\w*|"
                r"declin\w*|drop\w*|fell|fall\w*|broke|break\w*|burst|damag\w*|los[te]|lack\w*|shortage|"
                r"emit\w*|emission\w*|releas\w*|discharg\w*|hard to|unable to|cannot|can't|"  # a release; a hindrance
                r"too (?:few|little|low|high|much|many))\b|"
                r"导致|造成|引起|引发|因为|由于|使得|致使|加剧|恶化|严重|过度|过多|不足|缺乏|失败|崩溃|下降|减少|增加|上升|"
                r"爆发|破坏|衰落|动荡|战争|入侵|灾|排放|释放|不易|难以|无法|壮大|扩张|膨胀|上涨|攀升|升高|推高|下跌|降低|"
                r"偏少|稀少|较少|干旱|干燥|大风|暴雨|台风|寒潮|地震"),  # a lack; a force of nature
    # Advice: an instruction, what to do or avoid, or what a way does for the goal. In English only a further item (see
    # decide): the off-topic how-to passages of RAGTruth ("STEP 2: Select uTorrent…" for "how to install a nuc of
    # bees") are instructions too.
    "an action": (r"怎么办|如何|怎样|怎么(?!样)|注意什么|应该|\bhow (?:do|can|should|would|could) (?:i|you|we|one)\b|"
                  r"\bhow to\b|\bwhat should (?:i|you|we)\b",
                  r"^[^，。]{0,6}(?:应|要|需|可以|可|不要|避免|别|尽量|最好|建议|切勿|勿|先|立即|及时|多|少)|有助于|即可|"
                  r"^\s*(?:(?:first|then|next|finally|now),?\s+)?(?:open|tap|click|press|hold|enter|select|choose|go|find|"
                  r"turn|set|use|bring|pack|wear|take|keep|avoid|don't|do not|never|try|make sure|remove|insert|install|"
                  r"restart|close|lower|add|put|check|wait|call|visit|sign|log|scan|type|unplug|plug|switch|drink|eat|"
                  r"apply|rinse|wash|cover|store)\b|\b(?:helps?|saves?|reduces?|lowers?|improves?|prevents?)\b"),
}
ASKED_ITEMS = {kind: (re.compile(ask, re.I), re.compile(item, re.I)) for kind, (ask, item) in _ITEMS.items()}


def is_open(question: str) -> bool:
    return bool(OPEN_ASK.search(question)) and asks_one_thing(question)


# A thing's history or origin: a year it happened, who makes it and where ("由顺德的工厂生产", "headquartered in Oslo").
HISTORY = re.compile(r"(?<!\d)(?:1[5-9]|20)\d{2}\s*年(?!龄|费|薪|息)|\b(?:in|since|from|until)\s+(?:1[5-9]|20)\d{2}\b|"
                      r"由[^，。]{1,12}(?:生产|制造|研发|推出)|总部(?:位于|设在)|成立于|产自|"
                      r"\b(?:made in|manufactured (?:in|by)|headquartered|founded)\b", re.I)


# A yes-or-no question whether one may do something ("Can I bring my dog into the sauna?", 汗蒸馆可以带小孩去吗？,
# 适合带孩子去看吗？, "Is the deposit refundable?"), or must ("Do I need a ticket…?", 看烟花需要买票吗？, "Is a helmet
# required?"), is answered by a rule, often in other words than the question's
# ("Pets are not permitted anywhere in the spa.", 十二岁以下儿童须由成人陪同入场。): scored alone, such a rule lies at
# 0.45-0.55, under the full threshold, since it names a wider thing (the spa, 儿童) than the one asked.
_ASKER = r"(?:i|we|you|one|kids|children|guests|visitors)"
_PERMISSION_ASKED = re.compile(rf"^\W*(?:can|may|could) {_ASKER}\b[^?]*\?\s*$|"
                               r"^\W*(?:is|are) [^?]*\b(?:allowed|permitted|refundable|transferable|suitable|ok|okay)\b"
                               r"[^?]*\?\s*$|(?:可以|能|允许|适合)[^？?。]*吗\s*[？?]?\s*$|可不可以|能不能|能否|可否|是否(?:可以|允许|能)|"
                               rf"^\W*(?:do|does|will) {_ASKER} (?:need|have) (?:to|a|an|any)\b[^?]*\?\s*$|"
                               r"^\W*(?:is|are) [^?]*\b(?:required|needed|necessary|compulsory|mandatory)\b[^?]*\?\s*$|"
                               r"(?:需要|必须)[^？?。]*吗\s*[？?]?\s*$|要不要|需不需要|用不用|是否(?:需要|必须)", re.I)
_RULE_GIVEN = re.compile(_ITEMS["a rule"][1] + r"|\b(?:accepts?|accepted|refund\w*|returned|(?:not )?recommended|advised|"
                         r"suitable|unsuitable|needed|necessary|need|needs|compulsory|mandatory)\b|"
                         r"建议|谨慎|不要|勿|仅|只|适合|不宜|禁|须|需|不用", re.I)


def asked_item(question: str):
    """(kind, test) for the kind of item an open question lists, or the rule a may-I question asks; or None: a test
    says whether a context gives one."""
    if not is_open(question):
        return ("a rule", lambda c: bool(_RULE_GIVEN.search(c))) if _PERMISSION_ASKED.search(question) else None
    for kind, (ask, item) in ASKED_ITEMS.items():
        if ask.search(question):
            return kind, lambda c, item=item: bool(item.search(c))
    return None


# The attribute a value question names ("the return window for …", "年卡多少钱"): a context holding a value of the kind
# asked, but neither the attribute's own words nor a word that names the kind (charged, costs, deadline, 收费),
# gives that value for another attribute of the same thing (its shipping time, its showers free of charge).
# The words that only say the kind of value (deadline, age, 价格) are not required: "at least 21 years old"
# answers "the minimum age".
_EN_ATTRIBUTE = re.compile(r"\b(?:what|when|how much|how long)(?:'s| is| are| was| were) the ((?:[\w-]+ ){0,3}?[\w-]+) "
                           r"(?:for|of|to|at|on|in|with|if)\b", re.I)
_ZH_ATTRIBUTE = re.compile(r"的([\u4e00-\u9fff]{2,6}?)(?:是|为|要|需要)?(?:多少|几|多久|多长|什么时候|何时|哪天)")
_KIND_WORDS = {"deadline", "window", "period", "time", "date", "day", "age", "price", "cost", "fee", "fare", "charge",
               "rate", "amount", "number", "limit", "minimum", "maximum", "total", "average", "usual", "standard",
               "typical", "current", "exact", "latest", "earliest", "last", "first", "final", "length", "duration",
               "size", "weight", "percentage", "share", "capacity", "storage", "memory"}
_ZH_KIND_WORDS = re.compile(r"百分之|容量|内存|价格|价钱|费用|收费|票价|比例|时间|期限|日期|年龄|重量|时长|金额|标准|上限|下限|"
                            r"最低|最高|大概|一般")
_NAMES_KIND = {kind: re.compile(names, re.I) for kind, names in {
    "an amount of money": r"\b(?:costs?|charged?|charges|prices?d?|fees?|fares?|pays?|paid|payable|rates?)\b|收费|价格|票价|售价|"
                          r"(?<!免)费|价",
    # a deadline said as one: "leave their rooms by 11 am", "中午12点前"
    "a time": r"\b(?:deadline|due|no later than)\b|\bby (?:\d{1,2}\b|noon|midnight)|截止|之前|以前|[点时日号]前",
    "a duration": r"\b(?:window|period|valid|expires?|takes?|lasts?)\b|期限|有效|需要|历时|耗时",
    "a share": r"\b(?:rate|percent|percentage|share)\b|比例|率",
}.items()}


def attribute_missing(question: str, context: str, kind: str) -> bool:
    """Whether the question names the attribute it asks the value of and the context holds none of its words,
    nor a word naming the kind of value asked."""
    if (names := _NAMES_KIND.get(kind)) and names.search(context):
        return False
    if is_chinese(question):
        m = _ZH_ATTRIBUTE.search(question)
        rest = _ZH_KIND_WORDS.sub(" ", m.group(1)) if m else ""
        pairs = {w[i:i + 2] for w in rest.split() for i in range(len(w) - 1)}
        return bool(pairs) and not any(p in context for p in pairs)
    m = _EN_ATTRIBUTE.search(question)
    rest = [w for w in (m.group(1).lower().split() if m else []) if w not in _KIND_WORDS and len(w) > 2]
    said = re.findall(r"[a-z]+", context.lower())
    return bool(rest) and not any(t.startswith(w[:5]) for w in rest for t in said)


_ZH_TITLES = {"王子", "公主", "国王", "王后", "皇帝", "皇后", "太子", "先生", "女士", "小姐", "老师", "医生", "师傅"}


def names_someone(context: str, question: str) -> bool:
    """Whether the context names a person, a team or a body the question does not: who answers "who". A place
    ("held in South Africa"), a nationality ("the African continent") or a lone surname (贾、史、王) is not one."""
    if is_chinese(question):
        return any((flag == "nr" and len(word) >= 2 and word not in _ZH_TITLES or flag == "nt") and word not in question
                   for word, flag in pos_tags(context)) or any(n not in question for n in zh_titled(context))  # 王医生
    asked, places = facts(question).names, named_places(context)
    return any(not any(n.startswith(q) or q.startswith(n) for q in asked) and not any(n in p for p in places)
               and not set(n.split()) <= EN_DEMONYMS for n in facts(context).names)
