"""Language-aware text handling: language detection, sentence and clause splitting,
content-word tokenization for Chinese (jieba) and English, and number extraction."""

from __future__ import annotations

import logging
import re
import unicodedata
from functools import lru_cache

from ragpipe.core.clocks import hours_as_numbers

_CJK = re.compile(r"[\u4e00-\u9fff]")
_LATIN = re.compile(r"[A-Za-z]")
_SENTENCE_END = re.compile(r"(?<=[。！？!?；;])|(?<=\.)\s+(?=[A-Z0-9\"'(])|\n+")
# A title or abbreviation whose period ends no sentence: "Dr. Chen", "St. Louis", "e.g. Python".
_TITLE_END = re.compile(r"(?<![^\s(])(?:Dr|Mr|Mrs|Ms|Prof|St|Mt|vs|e\.g|i\.e)\.$")
_NUMBER_SIGN_END = re.compile(r"(?<![^\s(])No\.$")  # "a No. 1 hit": before a number, no reply "No."
# Chinese clauses joined by a comma plus a connective are separate claims
# ("…为 3.5%，且联邦政府要求…"); a bare comma usually is not.
_ZH_CLAUSE = re.compile(r"[，,](?=(?:且|并且|而且|同时|但|但是|另外|此外|并|还|以及|也)\S)")
_ZH_COMMA = re.compile(r"，|,(?!(?<=\d,)\d{3}(?!\d))")  # not the thousands comma of "5,000毫安时"
_MIN_CLAUSE_TOKENS = 3
# A clause that widens the one before to any size or kind ("包裹都免运费，不限重量", "…，无论金额多少") is part of its claim.
_ZH_WIDENS = re.compile(r"^\s*(?:不限|无论|不论|不管)")
# A condition ("没有电梯的话，…", "如需取消，…", "只要…，…") or a concession ("即使已经理赔过，…也…") sets the case
# the next clause speaks of: no claim alone.
# The condition may follow a short topic it is said of ("戏服如有破损，…", "手表如果丢了，…"); not the 如 of 例如, nor 主要是.
_ZH_CONDITION = re.compile(r"^(?:如果|假如|假若|倘若|若是?|要是|一旦|只要|如需|如有|即使|即便|哪怕|就算)|的话$"
                           r"|^[^，,。；;]{1,6}?(?:如果|假如|倘若|(?<![主需重只])要是|一旦|(?<!例)如(?:需|有)|即使|即便|哪怕)")
# A time or a case and what is done then, with no value of its own ("周一至周四办婚礼", "周末入住", "平日预订"), before a
# clause that prices it otherwise than usual ("，场地费打七折", "，房费上浮20%", "，可免费停车"): the case of that price,
# no claim alone.
_ZH_CASE = re.compile(r"^(?:(?:周|星期)[一二三四五六日天](?:至|到|-|—)(?:周|星期)[一二三四五六日天]|周末|工作日|平日|平时|节假日|"
                      r"法定节假日|旺季|淡季|夜间|晚间|白天|寒暑假|寒假|暑假)[^，,0-9零一二两三四五六七八九十百千万]{1,12}$")
_ZH_PRICED = re.compile(r"折|优惠|加收|上浮|减免|半价|免费")  # a price against the usual one, not a plain price
# A lead clause of cause or setting with no predicate of its own ("受台风影响，…", "因设备检修原因，…", "由于大雾，…",
# "在半决赛中，…", "检修期间，…"): the why or where of the next clause, no claim alone. Read alone it is found in the
# evidence and dilutes the claim that carries an error. A cause with a predicate ("因为他已经100岁了，…") is a claim, and
# "因此，…" opens a consequence.
_ZH_LEAD = re.compile(r"^(?:受[^，,。；;]{1,12}(?:影响|冲击|限制|波及|干扰)"
                      r"|(?:因(?!此|而)|因为|由于|鉴于|迫于)(?:[^，,。；;]{1,12}(?:原因|缘故|之故|关系|影响)|[^，,。；;\d]{1,4})"
                      r"|在[^，,。；;]{1,12}(?:中|上|里|期间|之际)|[^，,。；;]{1,10}期间"
                      # The time of a recurring event ("每局结束后，…", "每节课结束时，…"); not 小时 (a duration is a claim),
                      # nor a clause that counts. A single event's time ("归还房车以后，…") is left apart: merged, the
                      # faithful paraphrase after it read as a looser one.
                      r"|每[^，,。；;\d零一二两三四五六七八九十百千万半几]{1,9}(?:后|(?<!小)时|的时候))$")
# A clause that names who says or rules ("市场监管总局规定，…", "专家指出，…") introduces the next one: no claim alone.
_ZH_SAYS = re.compile(r"(?:规定|表示|指出|认为|强调|称|说|提到|显示|宣布|介绍|报道|写道)$")
# A lead-in that only names where the words come from: a preposition of source and any noun phrase
# before a comma ("根据宣传册", "据官网介绍", "按照说明书", "According to the brochure", "As stated in the
# policy", "As the handbook says"). It says nothing about the world. One that cites a number or a
# titled work ("根据《税法》第十条") is no mere pointer: a wrong citation is a wrong claim.
SOURCE_LEAD_IN = re.compile(
    r"^(?:根据|依据|依照|按照|参照|参考|基于|据)[^，,。；;：:！？!?\d《》“”\"]{1,24}$"
    r"|^(?:according to|based on|as per|per|as (?:stated|noted|described|explained|shown|specified|mentioned|"
    r"outlined|listed|written|indicated|set out|reported) (?:in|by|on))\s[^,;:\d\"“”]{1,60}$"
    r"|^as (?:the |this |that |our |your |its |their )?[^,;:\d\"“”]{1,50}? (?:says|states|notes|explains|shows|"
    r"puts it|describes|indicates|mentions|specifies|reports)$", re.I)
# A consequence after a comma (", which is why it is used in radiators", ", which means …") or what the
# thing can or must do (", which can be carried over") is a claim of its own; a describing "which"
# clause (", which is an autonomous region of Portugal") is not split.
# After a comma, a hyphenated word ("check-in", "self-guided") is one word of the three that make
# a clause; without one it would part "essential and non-essential amino acids".
# A "while" before an ongoing state says when and joins no clauses ("… out while the red flag is flying").
_CONTRASTING_WHILE = r"while(?!\s+(?:[\w'-]+\s+){0,3}?(?:is|are|was|were)\s+\w+ing\b)"
# A number's own "and" joins no clauses: "one and a half years", "one hundred and twenty rooms"; nor does that
# of a bound ("aged 65 and over", "12 and under", "18 and older").
_EN_CLAUSE = re.compile(rf",\s+(?:and also|and|but|{_CONTRASTING_WHILE}|whereas|although)\s+(?=[\w-]+\s+[\w-]+\s+[\w-]+)"
                        rf"|(?<!hundred)(?<!thousand)\s+(?:and also|and|but|{_CONTRASTING_WHILE}|whereas|although)\s+"
                        r"(?!a (?:half|quarter)\b)(?!(?:over|above|older|up|under|below|younger)\b(?!\s+(?:\d|to\b)))"
                        r"(?=\w+\s+\w+\s+\w+)"
                        r"|,\s+(?=which (?:is why|means|explains why|can|could|will|would|may|might|must|should)\b)", re.I)
# 千 before a unit is part of it, no multiplier: "1956千米" is 1956 km, as "1956公里" (千克 kg, 千瓦 kW, 千卡 kcal).
# A comma groups digits only in threes: "17:00，16:10" (NFKC makes the full-width comma ",") is 17 and 16.
_NUMBER = re.compile(
    r"(?P<num>\d+(?:,\d{3}(?!\d))*(?:\.\d+)?)\s*(?P<unit>%|％|‰|万亿|亿|万|千(?![米克瓦卡焦])|百|percent|million|billion|thousand)?", re.I
)
_ZH_CLOCK_UNIT = re.compile(r"(\d\s*(?:点(?!钟)|分(?![钟之])|秒(?!钟)))")
# A duration's ceiling word is a word of its own: jieba reads "三天内能到" as 内能 "internal energy" + 到.
_ZH_WITHIN = re.compile(r"(?<=[天日周期时钟月年])(之内|以内|内)(?=[\u4e00-\u9fff])(?!瓦)")  # not 日内瓦 (Geneva)
# A word of approximation beside a value says what the bare value says (约30天, 差不多30天, 30天上下, "around 4 hours",
# "roughly 60 miles"), and a one-character verb before a value is a word of its own: jieba glues either to the
# word before it ("充满电约需3小时": 电约; "充满电要3小时": 电要), so that two wordings of one value share no word.
_ZH_ABOUT = re.compile(r"(?:大约|大概|约莫|差不多|(?<![预签节公条契婚邀相赴制特违履解隐])约(?=可|[需为有要]?[\s\d零一二两三四五六七八九十百千]))"
                       r"(?=[\u4e00-\u9fff]{0,4}?\s*[\d零一二两三四五六七八九十百千])")
_ZH_ABOUT_AFTER = re.compile(r"(?<=[\d零一二两三四五六七八九十百千万])([^\W\d]{0,3}?)(?:左右|上下)(?![\u4e00-\u9fff]{0,1}[楼层床铺班])")
_ZH_VERB_BEFORE_VALUE = re.compile(r"(?<=[\u4e00-\u9fff])(?<![必急所只想主重还将快就不])(需|(?<!需)要)(?=\s*[\d零一二两三四五六七八九十百千])")
_EN_ABOUT = re.compile(r"\b(?:approximately|approx\.|roughly|around|about)\s+(?=[$€£]?\d)", re.I)
# 为了, 除了, 到了 … are words of their own, not a verb with its 了.
_NOT_VERB_BEFORE_LE = frozenset("为除到算罢极好完对")
_DENIED_BY_PREFIX = re.compile(r"^(?:non|un)-([a-z]{4,})$")
# The spoken 块钱 and 钟头 after an amount are the written 元 and 小时: "每袋5块钱" / "每袋5元", "一个钟头" / "1小时".
_ZH_KUAI = re.compile(r"(?<=[\d零一二两三四五六七八九十百千万])\s*块钱")
_ZH_ZHONGTOU = re.compile(r"(?<=[\d零一二两三四五六七八九十百千万半])\s*个?钟头")
# A number is one word however it is grouped or its currency written: "$12,400" / "12400", "$25,000" /
# "25000 dollars" (the sign is read as its word).
_DIGIT_GROUP = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_CURRENCY = re.compile(r"([$€£])\s*(?=\d)")
_CURRENCY_WORD = {"$": "dollar ", "€": "euro ", "£": "pound "}
# A number and its unit joined by a hyphen are two words: "a 15-dollar fee" / "$15", "a 2-year warranty" / "2 years",
# "a two-year warranty" / "lasts two years" (not "twenty-one"); a light verb that only carries the value after it
# ("takes 90 minutes", "costs $5", "lasts two years") is no word: the evidence states the value with its own verb.
_EN_NUMBER_WORD = (r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|"
                   r"sixty|seventy|eighty|ninety|hundred)")
_NUMBER_COMPOUND = re.compile(rf"(\d|\b{_EN_NUMBER_WORD})-(?!{_EN_NUMBER_WORD}\b)(?=[a-z])")
_LIGHT_VERB = re.compile(rf"\b(?:takes?|took|lasts?|lasted|costs?|weighs?|weighed)\s+(?=(?:(?:about|around|roughly|nearly|almost|"
                         rf"just|only|over|under|up to|less than|more than)\s+)?(?:[$€£]?\d|{_EN_NUMBER_WORD}\b))")
_UNIT_SCALE = {"万亿": 1e12, "亿": 1e8, "万": 1e4, "千": 1e3, "百": 1e2,
               "million": 1e6, "billion": 1e9, "thousand": 1e3}

EN_STOPWORDS = frozenset(
    """a an the and or but if then than so of to in on at by for with from as is are was were be been
    being am do does did doing have has had having it its this that these those there here i you he she
    we they them his her our your their my me us what which who whom whose when where why how all any
    both each few more most other some such no nor not only own same too very can will just should
    would could may might must shall into about over under again further once also up down out off
    s t don per via within without between during before after above below through""".split()
)
ZH_STOPWORDS = frozenset(
    """的 了 的话 和 与 及 或 是 在 有 为 对 等 将 把 被 由 从 向 以 于 之 其 该 这 那 此 并 且 也 都 就 还 而 但
    中 上 下 个 些 吗 呢 吧 啊 什么 哪些 怎么 怎样 如何 多少 是否 可以 能否 哪个 哪里 通过 进行 相关 按照
    根据 以及 或者 如果 需要 应当 可 能 会 所 其中 已经 这些 那些 各 每 我 你 他 我们 你们 他们 请问""".split()
)


@lru_cache(maxsize=65536)  # every reader asks it of the same texts (7 % of the suite's scoring time uncached)
def is_chinese(text: str) -> bool:
    """True when CJK characters make up a large share of the letters."""
    cjk = len(_CJK.findall(text))
    return cjk > 0 and cjk >= len(_LATIN.findall(text)) / 4


def normalize(text: str) -> str:
    """NFKC folds full-width digits and punctuation to their half-width forms."""
    return unicodedata.normalize("NFKC", text or "").strip()


def split_sentences(text: str) -> list[str]:
    parts = _SENTENCE_END.split((text or "").strip())  # no NFKC: sentences are shown to people
    sentences: list[str] = []
    for part in (p.strip() for p in parts if p and p.strip()):
        if sentences and (_TITLE_END.search(sentences[-1]) or _NUMBER_SIGN_END.search(sentences[-1]) and part[:1].isdigit()):
            sentences[-1] = f"{sentences[-1]} {part}"  # "Dr. Chen gives…" is one sentence
        else:
            sentences.append(part)
    return [s for s in sentences if re.search(r"\w", s)]


def split_statements(text: str) -> list[str]:
    """Approximate atomic statements: sentences, further split at connective clauses."""
    statements: list[str] = []
    for sentence in split_sentences(text):
        if is_chinese(sentence):
            clauses = _zh_steps([c for part in _ZH_CLAUSE.split(sentence) for c in _merge_short(_ZH_COMMA.split(part))])
        else:
            clauses = _en_clauses(sentence)
        statements.extend(c.strip(" ，,;；。.") for c in clauses)
    return [s for s in statements if len(content_tokens(s)) > 0]


# The "and" that closes a list of short members ("a yoga mat, two resistance bands and a foam roller"): the last
# member and the one before it have three words at most, the one before follows a comma, and the list ends the sentence.
_LIST_TAIL = re.compile(r"^\W*(?:\S+\s+){0,2}\S+\W*$")


# The "and" that joins two things a verb of including, covering or having takes ("includes water and heating for the
# first year", "contains the router and a power adapter", "has 120 rooms and an indoor pool"; not the auxiliary of
# "have praised …"): the part after it is no clause when it is a noun phrase, with a
# prepositional phrase at most, and has no verb of its own (no auxiliary, and its first word no -s or -ed form:
# "and costs $30", "and the authors discuss the results" are clauses).
_TAKES_THINGS = re.compile(r"\b(?:includes?|included|contains?|covers?|comes? with|offers?|provides?|(?:has|have)(?!\s+(?:\w+(?:ed|en)|been|had|made|got|become|come)\b)|features?)\s+"
                           r"(?:(?!(?:is|are|was|were|can|could|will|would|must|may|might|should)\b)[\w'-]+\s+){0,5}?[\w'-]+$", re.I)
_PHRASE = r"(?:(?:a|an|the|its|their|one|two|three|\d+)\s+)?(?:[\w'-]+(?<![^s]s)(?<!ed)\s+){0,2}[\w'-]+"  # "café serves lunch" is none
_VERB_LESS = re.compile(rf"^(?!\w*(?:s|ed)\b)(?!(?:when|where|who|how|why|what|whether)\b)(?![^.;:]*\b(?:is|are|was|were|has|have|had|can|could|will|would|must|may|"
                        rf"might|should|do|does|did)\b){_PHRASE}(?:\s+(?:for|in|of|on|at|with|from|to|during)\s+{_PHRASE})?\W*$", re.I)


# One instruction of two steps ("Eat a proper meal and drink about 500 ml of water", "Fill in the form and attend one
# rehearsal"): a bare "and" between two verbs without a subject, each with its object (a determiner, possessive or
# number after the verb, or after its particle), is one claim, as a person reads it; its second step alone is read
# by added_clauses.py. A verb here is a word that is neither a function word nor -s, -ed, -ly or a gerund's -ing (not
# "bring"): "Today the museum…", "Guests get a drink…", "Drying the towel…" open no step.
_STEP = re.compile(r"(?P<verb>[a-z]+)(?<![^s]s)(?<!ed)(?<![a-z]{3}ing)(?<!ly)\s+(?:(?:in|out|up|off|on|down|back|over)\s+)?"
                   r"(?:a|an|the|your|their|his|her|its|some|about|one|two|three|\d)\b", re.I)
_STEP_LEAD = re.compile(r"^\W*(?:(?:please|then|first|next|also)\W+)*", re.I)
_NO_VERB = frozenset("although though because since unless until whereas while however today tonight tomorrow yesterday".split())


def is_step(text: str) -> bool:
    """The text opens with an instruction's verb ("Fill in…", "Press…")."""
    found = _STEP.match(text, _STEP_LEAD.match(text).end())
    return bool(found) and found.group("verb").lower() not in EN_STOPWORDS | _NO_VERB


# The same in Chinese: an instruction its opening marks as one (请, 先, 首先, 把, 将) whose next clause adds a step with
# 并 and a verb ("把衣物按颜色分开，并选择温水模式") is one claim; its second step alone is read by added_clauses.py.
_ZH_STEP = re.compile(r"^\W*(?:请|先|首先|把|将)")


def _zh_steps(clauses: list[str]) -> list[str]:
    """A sentence's clauses with an instruction's second step joined to its first."""
    if len(clauses) < 2 or not _ZH_STEP.match(clauses[0]) or not clauses[1].startswith("并") or clauses[1].startswith("并且"):
        return clauses
    # jieba may glue the verb to its object's first character ("选择面的粗细": 选择面, a noun): its first two read alone.
    verb = [tag for tag in (*pos_tags(clauses[1][1:])[:1], *pos_tags(clauses[1][1:3])[:1]) if tag.flag.startswith("v")]
    return [f"{clauses[0]}，{clauses[1]}", *clauses[2:]] if verb else clauses


def joined_object(statement: str) -> str:
    """The second thing an English verb of including takes after the "and" the splitter keeps ("a free audio guide" of
    "The ticket includes entry to the museum and a free audio guide"), or ""."""
    for cut in re.finditer(r"\s+and\s+", statement):
        if _TAKES_THINGS.search(statement[:cut.start()]) and _VERB_LESS.match(statement[cut.end():]):
            return statement[cut.end():]
    return ""


_MODAL_VERB = re.compile(r"\b(?:may|can|cannot|must|should|will|not|to)\s+[a-z]+\s*$", re.I)
_SHARED_PLACE = re.compile(r"^[a-z]+\s+(?:in|at|on|inside|outside|during)\b", re.I)


_OPENING_PLURAL = re.compile(r"[A-Z][a-z]+[^s\W]s")


def _en_clauses(sentence: str) -> list[str]:
    """An English sentence cut at its connective clauses (_EN_CLAUSE), not at the "and" of a list's last member nor
    at one that joins a verb's two objects."""
    clauses, start = [], 0
    for cut in _EN_CLAUSE.finditer(sentence):
        before = sentence[start:cut.start()]
        if cut.group(0).strip().lower() == "and" and "," in before and _LIST_TAIL.match(before.rsplit(",", 1)[1]) \
                and _LIST_TAIL.match(sentence[cut.end():]):
            continue
        if cut.group(0).strip().lower() == "and" and _TAKES_THINGS.search(before) and _VERB_LESS.match(sentence[cut.end():]):
            continue
        if cut.group(0).strip().lower() == "and" and "," not in cut.group(0) and start == 0 and is_step(before) \
                and is_step(sentence[cut.end():]):
            continue
        if cut.group(0).strip().lower() == "and" and _MODAL_VERB.search(before) and _SHARED_PLACE.match(sentence[cut.end():]):
            continue  # two verbs of one modal and one place: "you may eat and drink in the auditorium"
        # A bare noun before "and" is the first member of the subject after it ("clay and glazes are not included"):
        # no clause of its own, it has no predicate.
        # So is a sentence's opening plural ("Residents and pets must stay out…"), which _VERB_LESS takes for a verb's -s:
        # a verb that opens a sentence has no subject. Not before a phrase with no verb ("Symbols and trivia of Rome"):
        # there is no clause for it to be the subject of.
        if cut.group(0).strip().lower() == "and" and "," not in cut.group(0) and len(before.split()) <= 2 \
                and (_VERB_LESS.match(before.strip()) or start == 0 and _OPENING_PLURAL.fullmatch(before.strip())
                     and not _VERB_LESS.match(sentence[cut.end():])):
            continue
        clauses.append(sentence[start:cut.start()])
        start = cut.end()
    return clauses + [sentence[start:]]


def _merge_short(pieces: list[str]) -> list[str]:
    """Comma-separated Chinese clauses stand alone only when each carries enough content."""
    merged: list[str] = []
    for piece in pieces:
        # A source lead-in merged before is no content of its own: "根据文档，2015年" is short.
        head, _, rest = merged[-1].partition("，") if merged else ("", "", "")
        before = rest if rest and SOURCE_LEAD_IN.match(head.strip()) else merged[-1] if merged else ""
        if merged and (len(content_tokens(piece)) < _MIN_CLAUSE_TOKENS or _ZH_WIDENS.match(piece)
                       or len(content_tokens(before)) < _MIN_CLAUSE_TOKENS or _ZH_SAYS.search(merged[-1].strip())
                       or _ZH_CONDITION.search(merged[-1].strip()) or _ZH_LEAD.match(merged[-1].strip())
                       or _ZH_CASE.match(merged[-1].strip()) and _ZH_PRICED.search(piece)
                       or SOURCE_LEAD_IN.match(merged[-1].strip())):
            merged[-1] = f"{merged[-1]}，{piece}"
        else:
            merged.append(piece)
    return merged


@lru_cache(maxsize=1)
def jieba_ready():
    """jieba, its dictionary loaded once and its log quiet."""
    import jieba

    jieba.setLogLevel(logging.WARNING)
    jieba.initialize()
    return jieba


@lru_cache(maxsize=32768)  # the readers of names, roles and places tag the same texts (a sixth of the suite's scoring time in a profile)
def pos_tags(text: str) -> tuple:
    """jieba's words of a Chinese text with their part-of-speech tags (pairs: ``word, flag = pair``)."""
    import jieba.posseg

    jieba_ready()
    return tuple(jieba.posseg.dt.cut(text))


# A verb's -s in four letters ("runs", "pays", "gets") is stemmed as a longer word's is, so that
# "the SBA runs it" meets the question's "run"; not after s, u, i or a ("less", "plus", "axis", "bias").
_SHORT_S = re.compile(r"^[a-z]{2}[^suia\W\d]s$")


def stem(word: str) -> str:
    """An English word less a plural or verb ending ("pays" / "pay", "studies" / "study")."""
    if _SHORT_S.match(word):
        return word[:-1]
    for suffix in ("ies", "es", "s", "ing", "ed"):
        if suffix == "s" and word.endswith(("ss", "us", "is")):
            continue  # "class", "campus", "analysis" are no plurals: "class" stems as "classes" does
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


def y_spelled(term: str) -> str:
    """A stemmed term of a verb or noun in -y with its y back: ``stem`` leaves "dried", "drying" whole and cuts
    "applied", "dries" to "appli", "drie", none of which starts "dry" or "apply" ("dry" / "dried", "deny" / "denied")."""
    for ending, kept in (("ied", 5), ("ying", 6), ("ie", 4), ("i", 4)):
        if len(term) >= kept and term.endswith(ending):
            return term[:-len(ending)] + "y"
    return term


@lru_cache(maxsize=65536)
def en_value_words(text: str) -> str:
    """Lower-cased English text with a number's compound split and a light verb before a value left out."""
    return _NUMBER_COMPOUND.sub(r"\1 ", _LIGHT_VERB.sub("", text))


@lru_cache(maxsize=65536)
def content_tokens(text: str) -> tuple[str, ...]:
    """Content words (no stopwords or punctuation), lower-cased, light English stemming.

    Chinese text is segmented with jieba; multi-character words also contribute their
    character bigrams so that 所得税 matches 企业所得税 partially.
    """
    text = _DIGIT_GROUP.sub("", normalize(text).lower())
    tokens: list[str] = []
    if _CJK.search(text):
        # A clock time ends at its unit: jieba reads "6点30分发船" as 分发 "distribute" + 船.
        text = _ZH_ZHONGTOU.sub("小时", _ZH_KUAI.sub("元", _ZH_WITHIN.sub(r"\1 ", _ZH_CLOCK_UNIT.sub(r"\1 ", text))))
        text = _ZH_VERB_BEFORE_VALUE.sub(r" \1", _ZH_ABOUT_AFTER.sub(r"\1 ", _ZH_ABOUT.sub(" ", text)))
        for word in jieba_ready().lcut(text):
            word = word.strip()
            if not word or word in ZH_STOPWORDS or not re.search(r"\w", word):
                continue
            if word.isascii():
                if word not in EN_STOPWORDS:
                    tokens.append(stem(word))
                continue
            # A verb's 了 or 掉 is no word: jieba keeps "交了", "脱掉" whole where the evidence says 交, 脱 ("交了以后不退" /
            # "先交定金", "把鞋脱掉" / "须脱鞋"); nor is a modal jieba joins to a position word ("前得" / "前须": 前), nor
            # the 来 of a direction ("把猫咪抱起来" / "禁止抱起猫咪": 起).
            if len(word) == 2 and (word[1] in "了掉" and word[0] not in _NOT_VERB_BEFORE_LE
                                   or word[0] in "前后时内外" and word[1] in "得须需要应"
                                   or word[1] == "来" and word[0] in "起下上出进回过"):  # "抱起来" / "抱起"
                word = word[0]
            tokens.append(word)
            if len(word) > 2:
                tokens.extend(word[i : i + 2] for i in range(len(word) - 1))
    else:
        text = _CURRENCY.sub(lambda m: _CURRENCY_WORD[m.group(1)], en_value_words(_EN_ABOUT.sub("", text)))
        for word in re.findall(r"[a-z0-9]+(?:[.'-][a-z0-9]+)*", text):
            word = re.sub(r"'s$", "", word)  # a possessive is its noun: "the library's" / "the library"
            if word not in EN_STOPWORDS:
                tokens.append(stem(word))
            # A word its prefix denies holds the word's verb too: "non-refundable" speaks of a refund, as "cannot be
            # refunded" does (the denial is read by polarity and negated_words, not here).
            if (denied := _DENIED_BY_PREFIX.match(word)):
                tokens.append(stem(re.sub(r"(?<=\w{3})[ai]ble$", "", denied.group(1))))
    return tuple(tokens)


def numbers(text: str) -> set[float]:
    """Numeric values with their scale applied (3.5% → 3.5, 10万 → 100000)."""
    return set(number_mentions(text))


def number_mentions(text: str) -> dict[float, str]:
    """Each numeric value with its scale applied, and how the text writes it first
    (100000.0 → "10万"; a clock time as its 24-hour reading)."""
    found: dict[float, str] = {}
    for match in _NUMBER.finditer(hours_as_numbers(normalize(text))):
        if (value := _value(match)) is not None:
            found.setdefault(value, match.group(0).strip())
    return found


def number_spans(text: str) -> list[tuple[float, int, int]]:
    """Each numeric value of ``text`` (normalized by the caller) with where it stands."""
    return [(value, match.start(), match.end()) for match in _NUMBER.finditer(text)
            if (value := _value(match)) is not None]


def _value(match: re.Match) -> float | None:
    try:
        value = float(match.group("num").replace(",", ""))
    except ValueError:
        return None
    return round(value * _UNIT_SCALE.get((match.group("unit") or "").lower(), 1.0), 6)
