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
from pathlib import Path

from ragpipe.core.inputs.files import decode, json_lines, read_bytes
from ragpipe.core.evidence.zh_names import zh_names
from ragpipe.core.schemas import InputError
from ragpipe.core.text import EN_STOPWORDS, is_chinese, numbers

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
EN_DEMONYMS = set("""afghan african albanian algerian american arab argentine argentinian armenian asian australian
    austrian bangladeshi belgian bolivian brazilian british bulgarian burmese cambodian canadian caribbean chilean
    chinese colombian croatian cuban czech danish dutch ecuadorian egyptian english estonian ethiopian european filipino
    finnish french georgian german ghanaian greek guatemalan haitian hispanic honduran hungarian icelandic indian
    indonesian iranian iraqi irish israeli italian jamaican japanese jordanian kenyan korean kurdish latina latino
    latvian lebanese libyan lithuanian malaysian mexican mongolian moroccan nepali nigerian norwegian pakistani
    palestinian peruvian polish portuguese romanian russian saudi scottish serbian singaporean slovak somali spanish
    sudanese swedish swiss syrian taiwanese thai tunisian turkish ugandan ukrainian uruguayan venezuelan vietnamese
    welsh yemeni texan californian floridian""".split())
# Single words that are never a name alone: common abbreviations and generic nouns (the City).
_EN_NOT_NAMES = {"id", "faq", "faqs", "pdf", "cfo", "llc", "inc", "gdp", "cpi", "ppi", "pmi", "ok", "usd", "ein", "zip",
                 "tv", "hr", "vip", "diy", "asap", "url", "pin", "ssn", "am", "pm", "city", "county", "state", "town",
                 "village", "district", "government", "federal"}
_EN_INDUSTRY = re.compile(r"\b([a-z]+)\s+(?:industry|sector)\b")


def normalize_entity(text: str) -> str:
    """Fold width and case, drop punctuation and spaces: 'ＦＨＡ 贷款' ~ 'fha贷款'."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(ch for ch in folded if ch.isalnum() or ch in ".%$")


def is_numeric(entity: str) -> bool:
    return bool(numbers(entity)) and len(re.sub(r"[\d.,%％\s$]", "", entity)) <= 3


# A Chinese city, province or county named without its level (成都 for 成都市).
_ZH_PLACE_SUFFIX = re.compile(r"[\u4e00-\u9fff]{2,}[市省县]")
# Chinese and Arabic numerals: a fuzzy match may never differ in one (第二十八条 ≠ 第二十九条).
_NUMERAL = re.compile(r"[0-9零〇一二三四五六七八九十百千万亿两]")


@dataclass
class GraphEntities:
    """The knowledge-graph entities of one dataset, with aliases mapped to names.

    A Chinese place name also matches without its level (成都 for 成都市). ``canonical``
    matches exactly after normalisation, then fuzzily: the closest alias
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
        for key, name in list(graph.alias_to_name.items()):  # 成都 is 成都市, 广东 广东省
            if _ZH_PLACE_SUFFIX.fullmatch(key):
                graph.alias_to_name.setdefault(key[:-1], name)
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
        """Graph entities whose name or an alias occurs in the text: longest first, then in the
        order the text names them (never in a set's order, which changes with the process)."""
        normalized = normalize_entity(text)
        first: dict[str, int] = {}
        for alias, name in self.alias_to_name.items():
            at = normalized.find(alias) if len(alias) >= 2 else -1
            if at >= 0:
                first[name] = min(at, first.get(name, at))
        return sorted(first, key=lambda name: (-len(name), first[name], name))


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


def _en_head(word: str) -> bool:
    """A head word of an organisation, policy or law name, singular or plural (Services)."""
    word = word.lower()
    return word in _EN_HEADS or (word.endswith("s") and word[:-1] in _EN_HEADS)


def _en_name(words: list[str]) -> bool:
    """Not an adjective (Chinese, Many Europeans), and not a bare head word or common
    abbreviation (the City, the FAQ)."""
    last = words[-1].lower()
    if last in EN_DEMONYMS or (last.endswith("s") and last[:-1] in EN_DEMONYMS):
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
    each once, names inside a longer one dropped. A found name that only runs two or more graph
    names together (上海市 + 个人 + 住房公积金贷款) is those names: the graph knows the parts, and
    an answer that names them apart covers them. Numbers, dates, amounts and durations are no
    entities (see ``quantities``)."""
    text = unicodedata.normalize("NFKC", text or "")
    found: list[str] = list(graph.find_in(text)) if graph else []
    for candidate in (zh_names(text) if is_chinese(text) else _en_names(text)):
        name = graph.canonical(candidate) if graph else None
        if name is None and graph and len(outermost(graph.find_in(candidate))) >= 2:
            continue  # 上海市(个人)住房公积金贷款: two graph names run together, already found above
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
