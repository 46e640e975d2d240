"""Chinese names of the five entity types (policy, organisation, place, law article, industry),
from jieba's words and tags: book titles, policy categories, runs of name-like words that end
in a head word of a type, and well-attested places. Used by ``entities.extract_entities``."""

from __future__ import annotations

import re
from functools import lru_cache
from types import SimpleNamespace

from ragpipe.core.text import jieba_ready, pos_tags

# Chinese names end in a head word of the five entity types; a run of name-like words ending in
# one is a candidate (深圳市 科技 创新局, 企业 所得税, 批发 和 零售业). Bare common nouns and verbs
# (申报, 研发, 之日起) end in none and never become entities; a head alone (优惠政策) is no name.
_ZH_HEADS = {
    "organisation": ("部", "局", "厅", "委", "署", "院", "办公室", "委员会", "管委会", "监会", "政府", "公司", "集团",
                     "银行", "分行", "支行", "大学", "协会", "商会", "基金会", "交易所", "组织", "安理会", "理事会",
                     "代表大会"),
    "place": ("省", "市", "县", "区", "州", "镇", "乡", "村", "湾区", "流域", "自由贸易港", "自贸区"),
    "law": ("法", "条例", "办法", "规定", "细则", "规则", "目录", "清单", "标准", "实施条例", "实施细则", "实施办法"),
    "policy": ("税", "补贴", "补助", "资助", "贷款", "贴息", "保障金", "加计扣除", "人才计划", "优惠政策"),
    "industry": ("业", "行业", "产业"),
}
_ZH_HEAD_WORDS = frozenset(h for heads in _ZH_HEADS.values() for h in heads)
# Last words that end like a name but name nothing on their own (总部, 地区, 纳税, 企业),
# unless a proper noun stands before them (两江 新区).
_ZH_GENERIC_LAST = {"总部", "内部", "全部", "外部", "局部", "干部", "东部", "西部", "南部", "北部", "中部", "格局",
                    "布局", "结局", "地区", "社区", "小区", "景区", "辖区", "山区", "城区", "郊区", "园区", "新区",
                    "市区", "城市", "超市", "上市", "方法", "做法", "说法", "依法", "合法", "违法", "非法",
                    "立法", "执法", "司法", "纳税", "缴税", "免税", "退税", "减税", "征税", "计税",
                    "企业", "就业", "创业", "毕业", "营业", "专业", "事业", "物业", "作业", "职业", "学业", "商业",
                    "医院", "学院", "法院", "大厅", "服务厅", "展厅", "餐厅", "海关"}
# Whole spans that are common nouns, not names.
_ZH_GENERIC_NAMES = {"上市公司", "人民政府", "税务局", "税务机关", "主管部门", "有关部门", "按规定", "补贴标准", "管理办法",
                     "外资银行", "商业银行", "电子税务局"}
# Modifiers that start no name (部分 税费优惠政策, 年度 企业所得税, 原 …法).
_ZH_LEADING_GENERIC = {"部分", "相关", "有关", "上述", "年度", "各项", "原", "新版", "省级", "市级", "县级", "国家级",
                       "地方", "各级", "会同", "主要", "申报"}  # 申报 is a verb jieba tags nz
# An administrative level alone names no place: 市政府, 省政府, 市人(社局) are "the city's …".
_ZH_LEVEL_ONLY = re.compile(r"[省市县区镇乡](?:政府|人民政府|人)?")
# An industry is no enterprise or activity (小型企业, 姑苏创新创业).
_ZH_NOT_INDUSTRY = ("企业", "就业", "创业", "毕业", "营业", "专业", "事业", "物业", "作业", "职业", "学业")
# Company-like heads need a proper noun in front: 华为技术有限公司, not 互联网公司; a place
# alone before 公司 or 集团 is no name either (美国公司, 深圳公司: "a company from …").
_ZH_NEEDS_PROPER = ("公司", "集团", "银行", "组织")
_ZH_PROPER_POS = {"ns", "nr", "nt", "nz", "nrt", "nrfg", "eng"}
_ZH_NAME_POS = _ZH_PROPER_POS | {"n", "j", "b", "l", "vn", "an", "ng", "nw", "zg"}
# Verbs and adverbs that occur inside names (国家发展改革委, 批发和零售业, 残疾人就业保障金,
# 一次性创业补贴); any other verb ends a name.
_ZH_NAME_VERBS = {"发展", "改革", "改", "批发", "创新", "保障", "管理", "服务", "监督", "投资", "保护", "培育",
                  "认定", "登记", "开发", "建设", "监管", "审批", "设立", "经营", "制造", "研究", "促进", "就业",
                  "担保", "准入", "一次性"}
# Verbs that jieba's dictionary tags as places or nouns (回国 "return home", 上市 "go public",
# 部署 "deploy"): they end a name, and never are one.
_ZH_VERBS = {"回国", "归国", "来京", "离京", "入川", "下海", "上市", "部署"}
# Where jieba cuts across a name: 印花税法自…施行 as 印花税 / 法自.
_ZH_RECUT = {"法自": (("法", "n"), ("自", "p"))}
_ZH_SHORT_TAXES = {"契税", "关税"}  # the taxes whose names have two characters
# One token holding a city and its district (上海市浦东新区): two places.
_ZH_CITY_DISTRICT = re.compile(r"(.{2,}?[省市])(.{2,}[区县])")
# A country in front of people or firms is a nationality (中国企业, 日本游客, 中国的企业家,
# 中国人, 美籍): no mention of the place. Countries: names ending in 国, and these.
_ZH_COUNTRIES = {"日本", "俄罗斯", "印度", "加拿大", "澳大利亚", "新加坡", "意大利", "西班牙", "巴西", "墨西哥",
                 "越南", "荷兰", "瑞士", "瑞典", "以色列", "新西兰", "马来西亚", "印度尼西亚", "欧洲", "非洲"}
_ZH_NATIONALITY_NOUNS = {"人", "籍", "企业", "公司", "企业家", "游客", "工程师", "公民", "居民", "学生", "留学生",
                         "投资者", "消费者", "员工", "工人", "专家", "品牌", "产品", "商品", "厂商"}
_ZH_JOINERS = {"和"}  # 工业和信息化部; "与" joins two names (标准与企业所得税)
# Place + organisation, policy or law is one name (深圳市 + 税务局, 深圳市 + 创业补贴), and so are
# organisation + organisation (国家税务总局 + 深圳市税务局), policy + organisation and law + law.
_ZH_JOINS = {("place", "organisation"), ("place", "policy"), ("place", "law"), ("organisation", "organisation"),
             ("policy", "organisation"), ("law", "law")}  # 关税 + 税则委员会, 企业所得税法 + 实施条例
_ZH_ARTICLE = r"第[零〇一二三四五六七八九十百千\d]+条"
_ZH_TITLE = re.compile(rf"《[^《》]{{2,60}}》(?:{_ZH_ARTICLE})?")
# Enterprise and taxpayer categories that policies define and the graph types as policy.
_ZH_CATEGORY = re.compile(r"专精特新“小巨人”企业|(?:专精特新|科技型)中小企业|(?:小型微利|小微|中小微?|高新技术)企业"
                          r"|小规模纳税人|一般纳税人|个体工商户")
_ZH_PLACE_MIN_FREQ = 20  # jieba's dictionary tags some phrases ns (之日起, 3 uses): keep well-attested places


def _zh_kind(words: list[tuple[str, str]]) -> str | None:
    """The type of a name made of these (word, flag) pairs, or None when it is none."""
    span = "".join(w for w, _ in words)
    last = words[-1][0]
    if span in _ZH_GENERIC_NAMES or _ZH_LEVEL_ONLY.fullmatch(words[0][0]):
        return None
    if len(span) < 3 and span not in _ZH_SHORT_TAXES:  # a name has three characters at least
        return None
    if last in _ZH_GENERIC_LAST and not any(f in _ZH_PROPER_POS for _, f in words[:-1]):
        return None
    if last == "规定" and len(words) > 1 and _zh_kind(words[:-1]):  # 实施细则 + 规定: "the rules stipulate"
        return None
    for kind, heads in _ZH_HEADS.items():
        head = max((h for h in heads if span.endswith(h)), key=len, default=None)  # 实施细则 is a head alone
        if head and span != head and not (kind == "industry" and span.endswith(_ZH_NOT_INDUSTRY)):
            if span.endswith(_ZH_NEEDS_PROPER) and not any(f in _ZH_PROPER_POS for _, f in words):
                return None
            if head in ("公司", "集团") and _zh_is_place(span[: -len(head)]):
                return None
            return kind
    return None


def _zh_is_place(word: str) -> bool:
    import jieba.posseg

    return jieba.posseg.dt.word_tag_tab.get(word) == "ns"


def _zh_tokens(text: str) -> list[tuple[str, str]]:
    """jieba's (word, flag) pairs, corrected where its dictionary misleads the name rules:
    verbs it tags as places, a city and district in one token, a head split in two (加计 扣除)."""
    tokens: list[tuple[str, str]] = []
    for word, flag in pos_tags(text):
        if word in _ZH_NAME_VERBS:
            flag = "vn"
        elif word in _ZH_VERBS:
            flag = "v"
        split = _ZH_CITY_DISTRICT.fullmatch(word) if flag == "ns" else None
        if split:
            tokens += [(split.group(1), "ns"), (split.group(2), "ns")]
        elif word in _ZH_RECUT:
            tokens += _ZH_RECUT[word]
        elif tokens and tokens[-1][0] + word in _ZH_HEAD_WORDS:
            tokens[-1] = (tokens[-1][0] + word, "n")
        else:
            tokens.append((word, flag))
    return tokens


def _zh_run_names(run: list[tuple[str, str]]) -> list[tuple[int, int, str]]:
    """(first, last, kind) token spans of one run of name-like words, each ending in a head
    word, joined where _ZH_JOINS says, extended by a bare head that follows (企业所得税 + 法)."""
    spans: list[tuple[int, int, str]] = []
    start = 0
    for end in range(len(run)):
        first = start
        while first < end and (run[first][0] in _ZH_JOINERS or run[first][0] in _ZH_LEADING_GENERIC):
            first += 1
        kind = _zh_kind(run[first:end + 1])
        while spans and spans[-1][1] == first - 1:  # 深圳市 + 税务局: the joined name decides
            joined = _zh_kind(run[spans[-1][0]:end + 1])
            if (spans[-1][2], joined) not in _ZH_JOINS:
                break
            first, kind = spans.pop()[0], joined
        if kind is None:
            continue
        spans.append((first, end, kind))
        start = end + 1
    for i, (first, last, kind) in enumerate(spans):  # 小微企业所得税 + 优惠政策, 企业所得税 + 法
        if kind not in ("policy", "industry"):  # 财政部 + 规定 is "the ministry stipulates"
            continue
        rest = run[last + 1:spans[i + 1][0] if i + 1 < len(spans) else len(run)]
        for k in range(min(2, len(rest)), 0, -1):
            tail = "".join(w for w, _ in rest[:k])
            if tail != "规定" and any(tail in _ZH_HEADS[t] for t in ("policy", "law")):
                spans[i] = (first, last + k, "law" if tail in _ZH_HEADS["law"] else "policy")
                break
    return spans


def _zh_nationality(tokens: list[tuple[str, str]], i: int) -> bool:
    """Token i is a country in front of people or firms (中国企业, 中国的企业家, 美国人)."""
    word = tokens[i][0]
    if not (word.endswith("国") or word in _ZH_COUNTRIES):
        return False
    after = [w for w, _ in tokens[i + 1:i + 3]]
    return bool(after) and (after[0] in _ZH_NATIONALITY_NOUNS or after[0] == "的" and after[1:2] and
                            after[1] in _ZH_NATIONALITY_NOUNS)


@lru_cache(maxsize=8192)
def zh_names(text: str) -> tuple[str, ...]:
    """Book titles (《…》 with their article), policy categories, runs of name-like words
    ending in a head word (a law with its 第N条), and well-attested places."""
    jieba = jieba_ready()
    names = [m.group(0) for m in _ZH_TITLE.finditer(text)] + [m.group(0) for m in _ZH_CATEGORY.finditer(text)]
    tokens = _zh_tokens(_ZH_TITLE.sub("，", text)) + [("", "x")]
    run: list[int] = []  # indexes into tokens
    for i, (word, flag) in enumerate(tokens):
        # A one-character word is in a name only as its head (信息化 部) or an abbreviation or
        # morpheme (粤 澳, 银 保监会): 指 资源税, 经 国务院, 在 华 外资银行 are no names.
        in_name = (len(word) >= 2 or flag in ("j", "ng")) and (
            flag in _ZH_NAME_POS or _zh_kind([(word, flag)]) is not None) or word in _ZH_HEAD_WORDS
        # 工业 和 信息化局, not 财政部 和 …, nor 深圳 和 广州 (two places), nor 图书馆 和 四川省 (a place starts a name)
        joiner = (word in _ZH_JOINERS and run and _zh_kind([tokens[run[-1]]]) is None and tokens[run[-1]][1] != "ns"
                  and tokens[i + 1][1] != "ns")
        if (in_name or joiner) and word:
            run.append(i)
            continue
        words = [tokens[j] for j in run]
        named = set()
        for first, last, kind in _zh_run_names(words):
            names.append("".join(w for w, _ in words[first:last + 1]))
            named.update(range(first, last + 1))
        names += [w for k, (w, f) in enumerate(words) if k not in named and f == "ns" and len(w) >= 2
                  and w not in _ZH_GENERIC_LAST and jieba.dt.FREQ.get(w, 0) >= _ZH_PLACE_MIN_FREQ
                  and not _zh_nationality(tokens, run[k])]
        run = []
    with_article = (re.search(re.escape(name) + _ZH_ARTICLE, text) for name in names)
    return tuple(m.group(0) if m else name for name, m in zip(names, with_article))


def zh_person(name: str) -> bool:
    """jieba reads the name as a person's name (张艺谋, 陈凯歌), each of its words."""
    import jieba.posseg

    tagged = jieba.posseg.lcut(name)
    return bool(tagged) and all(w.flag.startswith("nr") for w in tagged)


# Verbs of making a work, whose agent is a person ("由老舍创作", "巴金著", "李白所作", "茅盾写的"), and the
# nouns of the maker's role ("作者是冰心"). jieba tags pen names and short names as common nouns (老舍,
# 冰心, 三毛): in these slots a short word is read as the name it is. The authoring verbs answer "作者是谁"
# whatever their characters; directing, composing and performing answer their own roles only.
_ZH_AUTHORING = ("创作", "所作", "所著", "著", "写", "写于", "撰写", "编著", "主编", "编写", "绘制", "所绘", "翻译", "译")
_ZH_MAKING = _ZH_AUTHORING + ("执导", "导演", "编剧", "作曲", "作词", "演唱", "主演")
_ZH_MAKER = ("作者", "导演", "编剧", "作曲", "作词", "译者", "主编", "执导")
# Words ending so name a kind of people or a body, not one person: 专家撰写, 由政府主编, 作者是一位记者.
_ZH_NOT_A_PERSON = re.compile(r"(?:家|者|人|员|师|们|生|士|方|组|团|队|部|门|局|处|科|室|府|院|社|会|司|厂|校|馆)$")


@lru_cache(maxsize=8192)
def zh_makers(text: str, authors: bool = False) -> tuple[str, ...]:
    """Words of two to four characters in the agent slot of a work: between 由/为/是 and a verb of
    making (所 between them too), or after a maker's role (作者是, 导演为) at the clause's end;
    ``authors``: only those a verb of authoring or the role 作者 names."""
    verbs, roles = (_ZH_AUTHORING, ("作者",)) if authors else (_ZH_MAKING, _ZH_MAKER)
    tokens = _zh_tokens(text) + [("", "x")]
    found = []
    for i, (word, flag) in enumerate(tokens[:-1]):
        if not (2 <= len(word) <= 4 and re.fullmatch(r"[\u4e00-\u9fff]+", word) and flag[:1] == "n"
                and not _ZH_NOT_A_PERSON.search(word) and word not in _ZH_MAKER + _ZH_MAKING):
            continue
        before = "".join(w for w, _ in tokens[max(0, i - 2):i])
        after = tokens[i + 1][0] + (tokens[i + 2][0] if tokens[i + 1][0] == "所" else "")
        made = after.startswith(verbs) and (before.endswith(("由", "为", "是")) or i == 0 or tokens[i - 1][1] == "x")
        role = before.endswith(tuple(r + v for r in roles for v in ("是", "为", ""))) and (
            tokens[i + 1][1] == "x" or tokens[i + 1][0] == "的")
        if made or role:
            found.append(word)
    return tuple(found)


# A transliterated name, its parts joined by a middle dot (阿尔伯特·爱因斯坦, 玛丽·居里): one person.
_ZH_DOTTED = re.compile(r"[\u4e00-\u9fff]+(?:\s*[·•・]\s*[\u4e00-\u9fff]+)+")


# jieba's tags of words that are no part of a name: verbs, prepositions, particles, conjunctions, adverbs, numbers.
_NO_NAME_TAGS = set("vpucdmyx")


def zh_dotted(text: str) -> tuple[str, ...]:
    """The dotted names of a text, their ends cut where a word that is no name's begins (a verb, a
    particle, a preposition): 玛丽·安托瓦内特 of "是玛丽·安托瓦内特。", 查尔斯·狄更斯 of "查尔斯·狄更斯提出的"."""
    found = []
    for match in _ZH_DOTTED.finditer(text):
        parts = re.split(r"\s*[·•・]\s*", match.group(0))
        first = list(pos_tags(parts[0]))
        first = first[max([i + 1 for i, w in enumerate(first[:-1]) if w.flag[:1] in _NO_NAME_TAGS or not w.word.isalnum()] or [0]):]
        last = list(pos_tags(parts[-1]))
        kept = next((i for i, w in enumerate(last) if i and w.flag[:1] in _NO_NAME_TAGS), len(last))
        found.append("·".join(["".join(w.word for w in first), *parts[1:-1], "".join(w.word for w in last[:kept])]))
    return tuple(found)


# Titles a surname takes to name one person (王经理, 孙市长, 赵院长): jieba splits them (刘 / 助理) or tags the whole.
_ZH_TITLES = ("经理|助理|记者|市长|省长|县长|镇长|村长|院长|校长|局长|部长|处长|科长|厂长|社长|行长|主任|书记|主席|总裁|董事长|"
              "教授|老师|医生|护士|律师|法官|警官|队长|教练|师傅|先生|女士|小姐|同学|主管|总监|组长|会长|秘书|顾问|董事|总")
# Common surnames that jieba tags otherwise before a title (黄 an adjective, 何 a pronoun, 白 …).
_ZH_SURNAMES = frozenset("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁"
                         "任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤")


# A rank before the title is part of it (李副校长, 何常务副主任): another person than 李校长's colleague of that title.
_ZH_RANKED = rf"(?:常务)?(?:副|正)?(?:{_ZH_TITLES})"
# Words that are surnames too but here a preposition, verb or adverb: 向老师请教, 他任校长, 于总部.
_ZH_NOT_SURNAME_FLAGS = ("p", "v", "d", "c")


def zh_titled(text: str) -> tuple[str, ...]:
    """People named by a surname and a title: 刘助理 of "王经理被刘助理解雇了", 王经理 too, 李副校长."""
    tokens = list(pos_tags(text)) + [SimpleNamespace(word="", flag="x")] * 2
    found = [t.word for t in tokens if t.flag == "nr" and re.fullmatch(rf"[\u4e00-\u9fff]{_ZH_RANKED}", t.word)]
    for t, after, then in zip(tokens, tokens[1:], tokens[2:]):
        if (t.flag == "nr" and len(t.word) == 1 or t.word in _ZH_SURNAMES and t.flag[:1] not in _ZH_NOT_SURNAME_FLAGS):
            title = next((w for w in (after.word, after.word + then.word) if re.fullmatch(_ZH_RANKED, w)), "")
            found += [t.word + title] if title else []
    return tuple(found)


def zh_surname(name: str) -> str:
    """The surname of a name made of a surname and a title (王 of 王医生, 李 of 李副校长), else the name."""
    return name[0] if re.fullmatch(rf"[\u4e00-\u9fff]{_ZH_RANKED}", name) else name


def short_form(a: str, b: str) -> bool:
    """One Chinese name is the other's short form: its characters, two or three, in the long name's order, from the
    same first character, the long name two characters longer at least (珠峰 / 珠穆朗玛峰, 北大 / 北京大学, 清华 /
    清华大学). Not a given name less one character (李明 / 李小明): a short form drops a word, not a character; nor a
    name of four characters (中国银行 / 中国工商银行): that is a name of its own."""
    short, long = sorted((a, b), key=len)
    if not (re.fullmatch(r"[\u4e00-\u9fff]{2,3}", short) and re.fullmatch(r"[\u4e00-\u9fff]+", long)):
        return False
    rest = iter(long[1:])
    return len(long) - len(short) >= 2 and short[0] == long[0] and all(ch in rest for ch in short[1:])


# A state's formal name before one of its bodies ("中华人民共和国国家统计局", "大韩民国外交部") is the body's legal name;
# the body alone ("国家统计局") is its everyday name. A short name of the state ("美国国家统计局") names another body.
_FORMAL_STATE = re.compile(r"^[\u4e00-\u9fff]{1,6}?(?:人民共和国|共和国|合众国|联邦|王国|民国)")


def without_formal_state(text: str, other: str) -> str:
    """The text less the formal state name it opens with, where the other text names the body that follows (three
    characters at least, as a short form: "司法部"; "国会" is too many bodies' name)."""
    opening = _FORMAL_STATE.match(text.strip())
    body = re.sub(r"[\W_]+$", "", text.strip()[opening.end():]) if opening else ""
    return text.strip()[opening.end():] if len(body) >= 3 and body in other else text


def other_modifier(a: str, b: str) -> bool:
    """Two Chinese names that end alike (two characters at least) after modifiers sharing no character: "上海图书馆" /
    "国家图书馆", "首都博物馆" / "南京博物馆". jieba keeps each one word, so no head word is seen apart from its modifier.
    A modifier on one name only ("协和医院" / "北京协和医院") may be its short form, and one of one character is no name
    (种 of "哪种元素" / "铁元素")."""
    if not (re.fullmatch(r"[\u4e00-\u9fff]+", a) and re.fullmatch(r"[\u4e00-\u9fff]+", b)):
        return False
    shared = 0
    while shared < min(len(a), len(b)) and a[-1 - shared] == b[-1 - shared]:
        shared += 1
    first, second = a[:len(a) - shared], b[:len(b) - shared]
    return shared >= 2 and len(first) >= 2 and len(second) >= 2 and not set(first) & set(second)
