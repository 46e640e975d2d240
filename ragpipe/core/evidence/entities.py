"""Entities for the entity-aware dimensions: offline extraction, the knowledge-graph
entity set, and matching that tolerates width, case, punctuation and aliases.

An entity is a name the knowledge graph could hold (the five types: policy, organisation,
place, law article, industry). Offline extraction takes the union of
- dictionary matches against the knowledge-graph entities and their aliases,
- for Chinese: book titles (《…》) with their article, policy categories (小型微利企业, …),
  runs of jieba words that end in a head word of those types (…局, …厅, …市, …条例, …法第N条,
  …税, …补贴, …业), and places well attested in jieba's dictionary; a verb after a name
  (财政部 规定) or before it (指 资源税) is no part of it, coordinated names are two (深圳 和
  广州), and a country before people or firms is a nationality (中国企业), no place,
- for English: capitalised spans (no sentence-initial common word, month, weekday, holiday,
  nationality adjective, title or common abbreviation; "Governor of Texas" is Texas) and
  "<word> industry".
Numbers, dates, amounts and durations are no entities: ``quantities`` finds them and the
metrics check them against the retrieved contexts.
"""

from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from functools import lru_cache
from pathlib import Path

from ragpipe.core.inputs.files import decode, json_lines, read_bytes
from ragpipe.core.schemas import InputError
from ragpipe.core.text import EN_STOPWORDS, _jieba, is_chinese, numbers

_EN_MONTH = r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
_EN_DATE_WORDS = {"january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
                  "november", "december", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
                  "sunday", "mondays", "tuesdays", "wednesdays", "thursdays", "fridays", "saturdays", "sundays",
                  "thanksgiving", "christmas", "easter", "halloween", "hanukkah", "ramadan", "diwali"}
# Numbers, dates, amounts and durations: checked against the contexts, never against the graph.
_QUANTITY = re.compile(
    _EN_MONTH + r"\s+(?:\d{1,2}(?!\d)(?:,\s*\d{4})?|\d{4})|\d{4}年(?:\d{1,2}月(?:\d{1,2}日)?)?|\d+(?:[.,]\d+)*\s*"
    r"(?:%|％|万亿|亿|万元|万|元|千|个月|月|年|天|日|人|percent|million|billion|thousand|days?|weeks?|months?|years?|hours?)?"
    r"|\$\s?\d+(?:[.,]\d+)*(?:\s?(?:million|billion|k))?",
    re.I)
# English names: capitalised words, joined by of / and / for / de / "of the"; a designation
# follows a word (Section 7.42, Resolution 2024-117, Title VII).
_EN_WORD = r"(?:(?:[A-Z]\.){2,}|[A-Z][a-zA-Z&'-]*|[A-Z]{2,})"
_EN_DESIGNATION = r"(?:\s+(?:\d+(?:[.-]\d+)*|[IVXL]+)\b)?"
_EN_SPAN = re.compile(rf"\b{_EN_WORD}{_EN_DESIGNATION}(?:\s+(?:(?:of the|of|and|for|de|&)\s+)?{_EN_WORD}{_EN_DESIGNATION})*")
_EN_JOINERS = {"of", "the", "and", "for", "de"}
# Head words that end an organisation, policy or law name: "Securities and Exchange
# Commission" is one name, "Ohio and Michigan" two.
_EN_HEADS = {"act", "administration", "agency", "authority", "bank", "board", "bureau", "center", "centre",
             "commission", "committee", "council", "court", "customs", "department", "fund", "grant", "office",
             "panel", "program", "programme", "service", "university", "association", "trust", "credit", "rebate",
             "subsidy", "incentive", "relief", "holiday", "voucher", "tax", "regulation", "directive", "code",
             "reserve", "institute", "foundation", "corporation", "company", "ministry", "parliament", "union",
             "organization", "organisation"}
# Sentence-initial determiners and conjunctions that start no name ("Every LLC", "Since 2020").
_EN_LEADING = {"every", "many", "several", "another", "since", "although", "though", "however", "until", "unless",
               "because", "while", "whether", "yet"}
# A title before a name makes it a person's (Mayor Karen Bass) or names an office of a place or
# body (Governor of Texas → Texas).
_EN_TITLES = {"mayor", "governor", "senator", "president", "secretary", "director", "minister", "commissioner",
              "chairman", "chairwoman", "chair", "judge", "dr", "mr", "mrs", "ms", "prof", "professor", "ceo",
              "representative", "speaker", "sheriff", "deputy"}
# Nationality and demonym adjectives (and languages): "Chinese companies", "Many Europeans".
_EN_DEMONYMS = set("""afghan african albanian algerian american arab argentine argentinian armenian asian australian
    austrian bangladeshi belgian bolivian brazilian british bulgarian burmese cambodian canadian caribbean chilean
    chinese colombian croatian cuban czech danish dutch ecuadorian egyptian english estonian ethiopian european filipino
    finnish french georgian german ghanaian greek guatemalan haitian hispanic honduran hungarian icelandic indian
    indonesian iranian iraqi irish israeli italian jamaican japanese jordanian kenyan korean kurdish latina latino
    latvian lebanese libyan lithuanian malaysian mexican mongolian moroccan nepali nigerian norwegian pakistani
    palestinian peruvian polish portuguese romanian russian saudi scottish serbian singaporean slovak somali spanish
    sudanese swedish swiss syrian taiwanese thai tunisian turkish ugandan ukrainian uruguayan venezuelan vietnamese
    welsh yemeni texan californian floridian""".split())
# Single words that are never a name alone: common abbreviations and generic nouns (the City).
_EN_NOT_NAMES = {"id", "faq", "faqs", "pdf", "cfo", "llc", "inc", "gdp", "ok", "usd", "ein", "zip", "tv", "hr", "vip",
                 "diy", "asap", "url", "pin", "ssn", "am", "pm", "city", "county", "state", "town", "village",
                 "district", "government", "federal"}
_EN_INDUSTRY = re.compile(r"\b([a-z]+)\s+(?:industry|sector)\b")


def normalize_entity(text: str) -> str:
    """Fold width and case, drop punctuation and spaces: 'ＦＨＡ 贷款' ~ 'fha贷款'."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(ch for ch in folded if ch.isalnum() or ch in ".%$")


def is_numeric(entity: str) -> bool:
    return bool(numbers(entity)) and len(re.sub(r"[\d.,%％\s$]", "", entity)) <= 3


# Chinese and Arabic numerals: a fuzzy match may never differ in one (第二十八条 ≠ 第二十九条).
_NUMERAL = re.compile(r"[0-9零〇一二三四五六七八九十百千万亿两]")


@dataclass
class GraphEntities:
    """The knowledge-graph entities of one dataset, with aliases mapped to names.

    ``canonical`` matches exactly after normalisation, then fuzzily: the closest alias
    whose similarity (difflib ratio on normalised text) reaches ``fuzzy_threshold``,
    unless the two differ in a numeral or name different graph entities inside them
    (杭州市人社局 ≠ 苏州市人社局). ``error`` says why a configured graph could not be read:
    metrics that depend on it are then unmeasured, never computed without it.
    """

    names: list[str] = field(default_factory=list)
    types: dict[str, str] = field(default_factory=dict)
    alias_to_name: dict[str, str] = field(default_factory=dict)  # normalised alias → name
    fuzzy_threshold: float = 1.0
    error: str | None = None
    _fuzzy_memo: dict[str, str | None] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_records(cls, records: list[dict], fuzzy_threshold: float | None = None) -> "GraphEntities":
        if fuzzy_threshold is None:
            from ragpipe.core.config import load_config

            fuzzy_threshold = load_config().entity_matching.fuzzy_threshold
        graph = cls(fuzzy_threshold=fuzzy_threshold)
        for record in records:
            name = record["name"]
            graph.names.append(name)
            graph.types[name] = record.get("type") or ""
            for surface in [name, *(record.get("aliases") or [])]:
                graph.alias_to_name[normalize_entity(surface)] = name
        return graph

    @classmethod
    def unavailable(cls, reason: str) -> "GraphEntities":
        return cls(error=reason)

    def canonical(self, entity: str) -> str | None:
        key = normalize_entity(entity)
        exact = self.alias_to_name.get(key)
        if exact is not None or self.fuzzy_threshold >= 1 or len(key) < 4:
            return exact
        if key not in self._fuzzy_memo:
            self._fuzzy_memo[key] = self._fuzzy(key)
        return self._fuzzy_memo[key]

    def _fuzzy(self, key: str) -> str | None:
        scored: dict[str, float] = {}
        for alias, name in self.alias_to_name.items():
            matcher = SequenceMatcher(None, key, alias, autojunk=False)
            if matcher.real_quick_ratio() < self.fuzzy_threshold or matcher.quick_ratio() < self.fuzzy_threshold:
                continue
            ratio = matcher.ratio()
            if ratio >= self.fuzzy_threshold and ratio > scored.get(name, 0) and self._compatible(key, alias, name, matcher):
                scored[name] = ratio
        if not scored:
            return None
        best = max(scored.values())
        winners = [name for name, ratio in scored.items() if ratio == best]
        return winners[0] if len(winners) == 1 else None  # a tie is no evidence for either

    def _compatible(self, key: str, alias: str, name: str, matcher: SequenceMatcher) -> bool:
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            if op != "equal" and (_NUMERAL.search(key[i1:i2]) or _NUMERAL.search(alias[j1:j2])):
                return False
        inside = lambda text: {n for a, n in self.alias_to_name.items() if len(a) >= 2 and a in text} - {name}  # noqa: E731
        return inside(key) == inside(alias)

    def find_in(self, text: str) -> list[str]:
        """Graph entities whose name or an alias occurs in the text (longest first)."""
        normalized = normalize_entity(text)
        found = {name for alias, name in self.alias_to_name.items() if len(alias) >= 2 and alias in normalized}
        return sorted(found, key=len, reverse=True)


def read_graph_files(dataset_dir: Path) -> tuple[list[dict], list[dict]] | None:
    """The entity records (name, type, aliases) and relations (source, relation, target)
    of a dataset's embedded graph (graph/entities.jsonl, graph/relations.jsonl), or None
    when it has none. Bad lines are named by file, line and field."""
    folder = dataset_dir / "graph"
    if not os.path.lexists(folder / "entities.jsonl"):  # a dangling link is an error, not "no graph"
        return None
    records = _jsonl(folder / "entities.jsonl", dataset_dir)
    for line_no, record in records:
        if not isinstance(record.get("name"), str) or not record["name"].strip():
            raise InputError(str(folder / "entities.jsonl"), "name", "each entity needs a non-empty name", line_no)
        if not isinstance(record.get("type") or "", str):
            raise InputError(str(folder / "entities.jsonl"), "type", "type must be a string", line_no)
        aliases = record.get("aliases") or []
        if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
            raise InputError(str(folder / "entities.jsonl"), "aliases", "aliases must be a list of names", line_no)
    names = {r["name"] for _, r in records}
    relations = _jsonl(folder / "relations.jsonl", dataset_dir) if (folder / "relations.jsonl").exists() else []
    for line_no, relation in relations:
        for key in ("source", "relation", "target"):
            value = relation.get(key)
            if not isinstance(value, str) or not value.strip():
                raise InputError(str(folder / "relations.jsonl"), key, f"each relation needs a non-empty {key}", line_no)
            if key != "relation" and value not in names:
                raise InputError(str(folder / "relations.jsonl"), key, f"{value!r} is no entity of entities.jsonl", line_no)
    return [r for _, r in records], [r for _, r in relations]


def _jsonl(path: Path, dataset_dir: Path) -> list[tuple[int, dict]]:
    from ragpipe.core.config import load_config  # imported late as in GraphEntities.from_records

    raw = read_bytes(path, dataset_dir, load_config().limits.max_file_bytes)
    rows = json_lines(path, decode(path, raw, ("utf-8-sig",)))
    for line_no, record in rows:
        if not isinstance(record, dict):
            raise InputError(str(path), "json", "each line must be a JSON object", line_no)
    return rows


def load_graph_entities(dataset_dir: Path) -> GraphEntities | None:
    """The embedded graph of a dataset (graph/entities.jsonl), or None when it has none."""
    found = read_graph_files(dataset_dir)
    return GraphEntities.from_records(found[0]) if found else None


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
    import jieba.posseg

    tokens: list[tuple[str, str]] = []
    for word, flag in jieba.posseg.cut(text):
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
def _zh_names(text: str) -> tuple[str, ...]:
    """Book titles (《…》 with their article), policy categories, runs of name-like words
    ending in a head word (a law with its 第N条), and well-attested places."""
    jieba = _jieba()
    names = [m.group(0) for m in _ZH_TITLE.finditer(text)] + [m.group(0) for m in _ZH_CATEGORY.finditer(text)]
    tokens = _zh_tokens(_ZH_TITLE.sub("，", text)) + [("", "x")]
    run: list[int] = []  # indexes into tokens
    for i, (word, flag) in enumerate(tokens):
        # A one-character word is in a name only as its head (信息化 部) or an abbreviation or
        # morpheme (粤 澳, 银 保监会): 指 资源税, 经 国务院, 在 华 外资银行 are no names.
        in_name = (len(word) >= 2 or flag in ("j", "ng")) and (
            flag in _ZH_NAME_POS or _zh_kind([(word, flag)]) is not None) or word in _ZH_HEAD_WORDS
        # 工业 和 信息化局, not 财政部 和 …, nor 深圳 和 广州 (two places)
        joiner = word in _ZH_JOINERS and run and _zh_kind([tokens[run[-1]]]) is None and tokens[run[-1]][1] != "ns"
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


def _en_head(word: str) -> bool:
    """A head word of an organisation, policy or law name, singular or plural (Services)."""
    word = word.lower()
    return word in _EN_HEADS or (word.endswith("s") and word[:-1] in _EN_HEADS)


def _en_name(words: list[str]) -> bool:
    """Not an adjective (Chinese, Many Europeans), and not a bare head word or common
    abbreviation (the City, the FAQ)."""
    last = words[-1].lower()
    if last in _EN_DEMONYMS or (last.endswith("s") and last[:-1] in _EN_DEMONYMS):
        return False
    return len(words) > 1 or not (last in _EN_NOT_NAMES or _en_head(last))


def _en_names(text: str) -> list[str]:
    """Capitalised spans without sentence-initial common words, dates, holidays, titles,
    nationality adjectives or codes, split at "and" between two names; and "<word> industry"."""
    names = []
    for match in _EN_SPAN.finditer(text):
        if text[match.end():match.end() + 1].isdigit():
            continue  # a code such as Q3 or W-2
        before = text[: match.start()].rstrip()
        sentence_start = not before or before[-1] in ".!?:;"
        words = match.group(0).split()
        while words and (words[0].lower() in EN_STOPWORDS or words[0].lower() in _EN_DATE_WORDS
                         or words[0].lower() in _EN_LEADING):
            words, sentence_start = words[1:], False  # "The", "In", "On Monday" before a name
        if words and words[0].lower().rstrip(".") in _EN_TITLES:  # Governor of Texas; Mayor Karen Bass
            words = words[2 + (words[2:3] == ["the"]):] if words[1:2] == ["of"] else []
            sentence_start = False
        elif sentence_start and "of" in words[1:2] and not _en_head(words[0]):
            words = words[2 + (words[2:3] == ["the"]):]  # "Members of the European Parliament"
        parts = [words]
        if "and" in words:
            cut = words.index("and")
            if not _en_head(words[-1]) or _en_head(words[cut - 1]):
                parts, sentence_start = [words[:cut], words[cut + 1:]], False  # coordinated: both are names
        if len(words) > 3 and re.fullmatch(r"\d+(?:[.-]\d+)*|[IVXL]+", words[1]) and words[2] == "of":
            parts = [words[:2], words[3 + (words[3] == "the"):]]  # Title VII + Civil Rights Act
        # A lone sentence-initial word is a common word ("Grants are…") unless a list of names
        # follows it ("Texas, Florida and Georgia").
        listed = bool(re.match(r",\s+[A-Z]", text[match.end():]))
        for part in parts:
            if not part or part[-1] == "Day" or any(w.lower() in _EN_DATE_WORDS for w in part):
                continue  # dates and holidays: Independence Day, Black Friday
            while part and part[-1] in _EN_JOINERS:
                part = part[:-1]
            if part and _en_name(part) and (len(part) > 1 or not sentence_start or part[0].isupper() or listed):
                names.append(" ".join(part))
    names += [m.group(0) for m in _EN_INDUSTRY.finditer(text) if m.group(1) not in EN_STOPWORDS]
    return names


def quantities(text: str) -> list[str]:
    """Numbers, dates, amounts, percentages and durations named in a text."""
    text = unicodedata.normalize("NFKC", text or "")
    return list(dict.fromkeys(m.group(0).strip() for m in _QUANTITY.finditer(text) if m.group(0).strip()))


def is_quantity(entity: str) -> bool:
    return bool(_QUANTITY.fullmatch(unicodedata.normalize("NFKC", entity).strip())) or is_numeric(entity)


def quantity_in(quantity: str, text: str) -> bool:
    """Whether the text states this quantity: the same numeric values (scale applied, so
    10万元 = 100000元) and the same words (months, units such as "months")."""
    values = numbers(quantity)
    words = {w.rstrip("s") for w in re.findall(r"[a-z]+", quantity.casefold())}
    return bool(values) and values <= numbers(text) and words <= {w.rstrip("s") for w in re.findall(r"[a-z]+", text.casefold())}


def extract_entities(text: str, graph: GraphEntities | None = None) -> list[str]:
    """Offline entities of a text: names a knowledge graph could hold (the five types: policy,
    organisation, place, law article and industry), graph names where an alias matched,
    each once, names inside a longer one dropped. Numbers, dates, amounts and durations are
    no entities (see ``quantities``)."""
    text = unicodedata.normalize("NFKC", text or "")
    found: list[str] = list(graph.find_in(text)) if graph else []
    for candidate in (_zh_names(text) if is_chinese(text) else _en_names(text)):
        name = graph.canonical(candidate) if graph else None
        found.append(name or candidate)
    unique: dict[str, str] = {}
    for entity in found:
        if normalize_entity(entity) and not is_quantity(entity):
            unique.setdefault(normalize_entity(entity), entity)
    return outermost(list(unique.values()))


def outermost(entities: list[str]) -> list[str]:
    """Drop entities contained in a longer one of the list (发改委 inside 国家发改委)."""
    keys = [normalize_entity(e) for e in entities]
    return [e for e, k in zip(entities, keys) if not any(k != other and k in other for other in keys)]


def same_entity(a: str, b: str) -> bool:
    """Equal after normalisation, one containing the other, or equal numeric values."""
    na, nb = normalize_entity(a), normalize_entity(b)
    if not na or not nb:
        return False
    if is_numeric(a) or is_numeric(b):
        return is_numeric(a) and is_numeric(b) and numbers(a) == numbers(b)
    return na == nb or (min(len(na), len(nb)) >= 2 and (na in nb or nb in na))


def covered(required: list[str], available: list[str], text: str = "") -> tuple[list[str], list[str]]:
    """(covered, missing) entities of ``required``: matched by an available entity, or
    named in ``text`` itself."""
    normalized = normalize_entity(text)
    hit = [e for e in required
           if any(same_entity(e, other) for other in available) or (normalize_entity(e) in normalized and not is_numeric(e))]
    return hit, [e for e in required if e not in hit]
