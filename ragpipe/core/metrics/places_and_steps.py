"""How an answer gives a place or a way: a name in a place's slot or beside a word that puts a thing somewhere,
and an instruction (a verb in its base form). answer_relevancy reads what it gives; context_relevance reads a place."""

import re

from ragpipe.core.evidence.facts import EN_MONTHS, common_word, fold
from ragpipe.core.text import EN_STOPWORDS, is_chinese, jieba_ready, pos_tags

# A name in a place's slot ("in Redmond, Washington", "位于加利福尼亚州库比蒂诺", "发生在贾府") is a place, not a person.
PLACE_SLOT = re.compile(r"\b(?:in|at|near|outside|inside|across|throughout)\s+(?:the\s+)?"
                        r"([A-Z][\w'’.-]*(?:(?:\s+(?:of|and|for|de)\s+|\s+|,\s*)[A-Z][\w'’.-]*)*)|(?:位于|坐落于|地处|在|于)([^，。；、,.;！？!?]{1,12})")
# Words that open an instruction without being its verb ("Just hop on…", "First, open…", "请点击…").
_EN_OPENERS = {"just", "simply", "first", "firstly", "then", "next", "now", "honestly", "please", "basically", "so"}
_EN_AUXILIARIES = {"is", "are", "was", "were", "has", "have", "had", "do", "does", "did", "can", "could", "will",
                   "would", "shall", "should", "may", "might", "must", "never", "always", "often", "usually"}
_ZH_OPENERS = ("请", "先", "直接", "只要", "只需", "你可以", "您可以", "可以", "建议")


# A Chinese instruction may open with an adverb or a conjunction ("轻轻按压…", "同时按住…") or a
# preposition's phrase before its verb ("用牙签长按…", "把手机恢复…", "在设置里关闭…"), or close with
# "that's all it takes" ("…即可", "…就行").
_ZH_LEADING = ("d", "c", "ad")
_ZH_DONE = re.compile(r"(?:即可|就行|就可以|就好|便可)[了啦]?\W*$")


# Words that put a thing somewhere ("is on Baker Street", "houses", "next to", "位于", "旁边"): a name
# given to "Where …?" in a sentence answers it only with one of them, or in the question's own words
# ("The capital of Australia is Canberra."); a bare name replies to it. A name in any other sentence
# may be anything: "Ibuprofen should be taken with food."
LOCATIVE = re.compile(r"\b(?:in|at|on|near|by|beside|behind|opposite|across|inside|outside|within|between|next to|"
                      r"located|situated|lies|sits|stands|houses|housed|hosts|held|found|based|headquartered|from|"
                      r"north|south|east|west|downtown|street|road|avenue)\b|在|位于|坐落|地处|于|附近|旁边|对面|"
                      r"[路街道巷号楼层区市省县镇村]", re.I)


# A month or a weekday ("in October", "on Saturdays") names a time, in a place's slot or beside a locative word.
_TIME_NAME = re.compile(rf"(?:{'|'.join(EN_MONTHS)}|(?:mon|tues|wednes|thurs|fri|satur|sun)days?|weekends?)\W*$", re.I)


def a_time(name: str) -> bool:
    return bool(_TIME_NAME.match(name))


def named_places(text: str) -> list[str]:
    """The places a text names in a place slot ("in Paris", "位于北京"), folded; not a time ("in October")."""
    return [fold(m.group(1) or m.group(2)) for m in PLACE_SLOT.finditer(text) if not a_time(m.group(1) or m.group(2))]


def may_name_place(name: str, text: str) -> bool:
    """Whether a name the text gives may be a place: not a time ("Saturdays"); in Chinese one that jieba tags a place
    or a body ("堪培拉", "中山路"), not a word it takes for a person's name or another proper noun ("容纳", "藏书")."""
    if a_time(name):
        return False
    if not is_chinese(name):
        return True
    jieba_ready()
    return any(word == name and flag in ("ns", "nt") for word, flag in pos_tags(text))


def instructs(text: str) -> bool:
    """Whether the text opens with an instruction: a verb in its base form ("Run git reset…", "Hold the
    button…", "打开设置…", "点击“插入”…"), not a subject ("Water boils…", "Eggs are…")."""
    if is_chinese(text):
        jieba_ready()
        text = re.sub(rf"^\W*(?:{'|'.join(_ZH_OPENERS)})+", "", text.strip())
        clause = re.split(r"[，,。；;！!？?]", text, maxsplit=1)[0]
        flags = [flag for word, flag in pos_tags(clause) if re.search(r"\w", word)]
        while flags and flags[0] in _ZH_LEADING:
            flags = flags[1:]
        first = flags[0] if flags else ""
        return (first.startswith("v") or first == "p" and any(f.startswith("v") for f in flags[1:])
                or any(_ZH_DONE.search(c) for c in re.split(r"[。；;！!]", text)))
    words = re.findall(r"[A-Za-z][A-Za-z'’-]*", text)
    while words and words[0].lower() in _EN_OPENERS:
        words = words[1:]
    if not words:
        return False
    verb, after = words[0].lower(), words[1].lower() if len(words) > 1 else ""
    # A subject is followed by its verb: an auxiliary ("Mercury is…") or an -s/-ed form ("Water boils…").
    return (common_word(verb) and verb not in EN_STOPWORDS and not re.search(r"(?:[^s]s|ed|ly)$", verb)
            and after not in _EN_AUXILIARIES and not (after.endswith(("s", "ed")) and common_word(after)))



# "How do I get to the airport?", "怎么去火车站？", "去外滩怎么走？" ask a route, and a leg of a journey gives one in its own
# words ("Take the Blue Line to the last stop.", "坐地铁2号线到南京东路站"), whatever its closeness to the question: e5
# reads any instruction as near any how-to question, so only a way of travelling counts ("Turn off the tap…" does not).
ROUTE_ASKED = re.compile(r"\bhow (?:do|can|should|would|could) (?:i|you|we|one) (?:get|go|travel|reach)\b(?! rid)|"
                         r"\bhow to (?:get|go|travel|reach)\b(?! rid)|\bbest way to (?:get|go|travel)\b|"
                         r"(?:怎么|怎样|如何)(?:去|到|前往|走|坐车|过去)|去.{1,12}(?:怎么|怎样|如何)走", re.I)
TRAVEL = re.compile(r"\b(?:take|catch|ride|board|hop on|get on|get off|change to|transfer to)\s+(?:the\s+|a\s+|an\s+)?"
                    r"(?:[\w-]+\s+){0,3}(?:bus|train|metro|subway|tube|tram|ferry|shuttle|line|taxi|cab|coach|boat|exit)\b|"
                    r"\b(?:walk|drive|cycle)\b[^.]{0,30}\b(?:to|for|along|past|minutes?)\b|"
                    r"[坐乘搭转换]\S{0,3}(?:地铁|公交|巴士|大巴|火车|高铁|动车|轮渡|出租车|的士|\d+路|号线)|打车|打的|"
                    r"步行|开车|骑车|出站|下车|换乘|\d+\s*号线", re.I)


def gives_route(question: str, answer: str) -> bool:
    """Whether the question asks a route and the answer gives a leg of a journey."""
    return bool(ROUTE_ASKED.search(question) and TRAVEL.search(answer))


# "Where is the pharmacy?", "药店在哪里？" ask where a thing is; a context that gives no place (only its opening hours)
# speaks of another attribute of it. A place is a name in a place's slot ("on Elm Street", "位于中山路") or a word that
# puts a thing somewhere or names its place ("venue", 举办地); "at 8 a.m." and "在周末" put nothing anywhere. Where one
# does something ("Where can I buy tickets?" / "online"; "where do you claim it on the 1040") is left to the model.
PLACE_ASKED = re.compile(r"^\W*where(?:'s|\s+(?:is|are|was|were))\b|在哪(?:里|儿)?\W*$|位于哪|(?:地址|位置)(?:是|在)?(?:哪|什么)",
                         re.I)
_PLACED = re.compile(r"\b(?:located|situated|next to|opposite|behind|beside|near|nearby|inside|across from|corner|"
                     r"floor|street|road|avenue|lane|square|building|block|entrance|terminal|hall|downtown|district|"
                     r"mall|address|venue|location)\b|地址|地点|所在地|举办地|位于|坐落|地处|旁边|对面|附近|隔壁|门口|入口|"
                     r"[路街巷]|大道|大厦|广场|[楼层](?!梯)|"
                     r"[省市县区镇村](?![场民长政])", re.I)
_WHEN_WORDS = re.compile(r"\d|[点时周月日天年]|星期|早|晚|上午|下午|期间")


def gives_place(context: str) -> bool:
    """Whether the context puts a thing somewhere: a word of place, or a name in a place's slot that is no time."""
    return bool(_PLACED.search(context)) or any(not _WHEN_WORDS.search(p) for p in named_places(context))


# A place given as a phrase with no verb of its own ("At 12 Harbour Road, next to the ferry terminal.", "On the second
# floor, beside the lifts.", "就在火车站对面。") replies to "Where…?" as a bare name does.
_AT_PLACE = re.compile(r"^\W*(?:(?:right|just)\s+)?(?:at|on|in|near|next to|opposite|behind|beside|inside|across from|"
                       r"around the corner from)\b|^\W*(?:就|也)?(?:在|位于)", re.I)
_EN_VERB = re.compile(r"\b(?:is|are|was|were|be|been|has|have|had|do|does|did|can|could|will|would|shall|should|may|"
                      r"might|must|[a-z]+ed)\b", re.I)  # a verb's -s form is read as a plural noun: "beside the lifts"


# A phrase of time after the same words ("In late October, before the market.", "在周末") puts nothing anywhere.
_TIME_PHRASE = re.compile(rf"\b(?:{'|'.join(EN_MONTHS)}|(?:mon|tues|wednes|thurs|fri|satur|sun)days?|weekends?|morning|"
                          r"afternoon|evening|night|noon|midnight|week|month|year|day|hour|minute|o'clock|[ap]\.?m)\b|"
                          r"周[一二三四五六日末]|星期|早上|晚上|上午|下午|中午|凌晨|\d+\s*[点时月日]|[一二三四五六七八九十]+[点时月]", re.I)


# A thing put beside a landmark ("in the bin next to the main entrance", "on the second floor of the car park",
# "投入3号门旁的回收箱", "到居委会一楼的服务窗口"): a place given in a sentence that names none ("near the end of
# May" is a time).
BESIDE_LANDMARK = re.compile(
    r"\b(?:next to|beside|behind|opposite|across from|in front of|(?:a)?round the corner from|near)\s+(?!the (?:end|start|"
    r"beginning|middle)\b)(?:the|a|an|our|your|gate|door|entrance|exit|platform|room|building|block)\b|"
    r"\b(?:on|at) the (?:ground|top|basement|first|second|third|fourth|fifth|sixth|\d+(?:st|nd|rd|th)) (?:floor|level)\b|"
    r"\bat the (?:front desk|counter|reception|entrance|main gate|service desk|information desk|ticket office)\b|"
    r"[\u4e00-\u9fff\d]{1,8}(?:旁边?|对面|附近|门口|隔壁|楼下)|\d+\s*号(?:门|楼|窗口|柜台)|电梯口|楼梯口|"
    r"(?:地下)?[一二三四五六七八九十\d]+\s*(?:楼|层的)(?![梯房盘市高])|前台|柜台|服务台|服务窗口", re.I)


def bare_place(text: str) -> bool:
    """A place phrase and nothing more: it opens with a locative word, names no time and (in English) has no verb."""
    return (bool(_AT_PLACE.search(text)) and not _TIME_PHRASE.search(text)
            and (is_chinese(text) or not _EN_VERB.search(text)))


# Two kinds of task whose steps share few words with the question: e5 reads any instruction as near any how-to
# question, so a step counts only where its own words belong to the task asked. Operating a device or software
# ("How can I see hidden files?" / "Type ls -a in the terminal.", "怎么重置路由器？" / "长按背面的复位键十秒") is done
# with its controls: keys, buttons, menus, commands, programs.
DEVICE_ASKED = re.compile(r"\b(?:files?|folders?|mac(?:book)?|pc|laptop|computer|desktop|router|modem|wi-?fi|phone|"
                          r"iphone|android|tablet|ipad|screen|keyboard|mouse|printer|browser|apps?|software|programs?|"
                          r"terminal|windows|linux|bluetooth|tv|remote|screenshot)\b|路由器|光猫|手机|电脑|笔记本|平板|"
                          r"文件|屏幕|键盘|鼠标|打印机|浏览器|软件|应用|程序|系统|蓝牙|电视|遥控器|截屏|截图|无线网|wifi|[开关死]机|重启", re.I)
_CONTROLS = re.compile(r"\b(?:buttons?|keys?|shift|command|cmd|ctrl|control|alt|option|fn|esc|tab|terminal|settings|"
                       r"menu|icon|programs?|apps?|startup|command line|switch|cable|port|plug)\b|键|按钮|开关|复位孔|"
                       r"菜单|设置|图标|(?<!小)程序|软件|应用|命令|终端|插头|电源|指示灯", re.I)  # 小程序: a mini-app to book in
# Device verbs instructs() may not read as a verb ("Uninstall programs…", "长按电源键…": jieba tags 长按 no verb).
_DEVICE_VERB = re.compile(r"^\W*(?:(?:uninstall|reinstall|disable|enable|reboot|restart|unplug|toggle)\b|"
                          r"长按|按住|按下|连按|点击|输入|卸载|禁用|启用|重启|拔掉|插上)", re.I)
# Obtaining a service ("How do I book a pottery wheel session?" / "Pick a free slot on the studio's website and pay
# the deposit online.", "怎么预约洗牙？" / "在小程序里选择时间并支付定金") is done by its transaction: a slot or a
# date chosen, a form filled in, a deposit or a fee paid, an ID brought to a counter.
SERVICE_ASKED = re.compile(r"\b(?:book|reserve|rent|hire|order|schedule|sign up|register|enrol|enroll|apply|arrange|"
                           r"get (?:a|an|my|our|your))\b|预约|预订|预定|订[票房座位餐]|租|报名|办理|申请|登记|挂号", re.I)
_TRANSACTION = re.compile(r"\b(?:slots?|dates?|deposit|fee|pay|payment|counter|desk|reception|form|id|website|online|"
                          r"booking page|app)\b|时间|日期|定金|押金|订金|费用|支付|缴纳|付款|柜台|前台|窗口|表格?|身份证|"
                          r"证件|小程序|公众号|官网|网站|登记", re.I)


def task_step(question: str, statement: str) -> bool:
    """Whether the question asks how to operate a device or obtain a service and the statement is an instruction
    with a step of that kind: a control operated, or a transaction made."""
    if not (instructs(statement) or _DEVICE_VERB.match(statement)):
        return False
    return bool(DEVICE_ASKED.search(question) and _CONTROLS.search(statement)
                or SERVICE_ASKED.search(question) and _TRANSACTION.search(statement))
