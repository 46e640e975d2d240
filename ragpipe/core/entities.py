"""Entities for seed 000's entity-aware dimensions: offline extraction, the knowledge-graph
entity set, and matching that tolerates width, case, punctuation and aliases.

Offline extraction takes the union of
- dictionary matches against the knowledge-graph entities and their aliases,
- proper nouns by part of speech for Chinese (jieba: places, people, organisations,
  other proper nouns, abbreviations),
- numbers, dates, amounts and percentages,
- capitalised spans for English.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from functools import lru_cache
from pathlib import Path

from ragpipe.core.schemas import InputError
from ragpipe.core.text import EN_STOPWORDS, _jieba, is_chinese, numbers

_ZH_PROPER_POS = {"ns", "nr", "nt", "nz", "j", "nrt", "nrfg"}
# Runs of nominal words form domain terms (华侨 投资 审批 → 华侨投资审批).
_ZH_NOMINAL_POS = _ZH_PROPER_POS | {"n", "vn", "an", "b", "nw"}
_EN_MONTH = r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
_NUMERIC = re.compile(
    _EN_MONTH + r"\s+\d{1,2}(?:,\s*\d{4})?|\d{4}年(?:\d{1,2}月(?:\d{1,2}日)?)?|\d+(?:[.,]\d+)*\s*"
    r"(?:%|％|万亿|亿|万元|万|元|千|个月|月|年|天|日|人|percent|million|billion|thousand|days|months|years)?"
    r"|\$\s?\d+(?:[.,]\d+)*(?:\s?(?:million|billion|k))?",
    re.I)
_EN_SPAN = re.compile(r"\b(?:[A-Z][a-zA-Z&'-]*|[A-Z]{2,})(?:\s+(?:of|and|for|the|de)?\s*(?:[A-Z][a-zA-Z&'-]*|[A-Z]{2,}))*")


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
    if not (folder / "entities.jsonl").exists():
        return None
    records = _jsonl(folder / "entities.jsonl")
    for line_no, record in records:
        if not isinstance(record.get("name"), str) or not record["name"].strip():
            raise InputError(str(folder / "entities.jsonl"), "name", "each entity needs a non-empty name", line_no)
        if not isinstance(record.get("aliases", []), list):
            raise InputError(str(folder / "entities.jsonl"), "aliases", "aliases must be a list of names", line_no)
    names = {r["name"] for _, r in records}
    relations = _jsonl(folder / "relations.jsonl") if (folder / "relations.jsonl").exists() else []
    for line_no, relation in relations:
        for key in ("source", "relation", "target"):
            value = relation.get(key)
            if not isinstance(value, str) or not value.strip():
                raise InputError(str(folder / "relations.jsonl"), key, f"each relation needs a non-empty {key}", line_no)
            if key != "relation" and value not in names:
                raise InputError(str(folder / "relations.jsonl"), key, f"{value!r} is no entity of entities.jsonl", line_no)
    return [r for _, r in records], [r for _, r in relations]


def _jsonl(path: Path) -> list[tuple[int, dict]]:
    rows = []
    for line_no, line in enumerate(path.read_text(encoding="utf-8-sig").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(str(path), "json", f"invalid JSON: {exc.msg}", line_no) from exc
        if not isinstance(record, dict):
            raise InputError(str(path), "json", "each line must be a JSON object", line_no)
        rows.append((line_no, record))
    return rows


def load_graph_entities(dataset_dir: Path) -> GraphEntities | None:
    """The embedded graph of a dataset (graph/entities.jsonl), or None when it has none."""
    found = read_graph_files(dataset_dir)
    return GraphEntities.from_records(found[0]) if found else None


@lru_cache(maxsize=8192)
def _zh_terms(text: str, proper_only: bool = False) -> tuple[str, ...]:
    """Proper nouns by part of speech, and (unless ``proper_only``) runs of two or more
    nominal words."""
    import jieba.posseg

    _jieba()
    terms, run = [], []
    for word, flag in [*jieba.posseg.cut(text), ("", "x")]:
        if flag in _ZH_PROPER_POS and len(word) >= 2:
            terms.append(word)
        if flag in _ZH_NOMINAL_POS and not proper_only:
            run.append(word)
            continue
        if len(run) >= 2 and len("".join(run)) >= 4:
            terms.append("".join(run))
        run = []
    return tuple(terms)


def _en_spans(text: str) -> list[str]:
    spans = []
    for match in _EN_SPAN.finditer(text):
        words = match.group(0).split()
        while words and words[0].lower() in EN_STOPWORDS:  # "The", "In", … before a name
            words = words[1:]
        sentence_start = not text[: match.start()].strip() or text[: match.start()].rstrip()[-1] in ".!?:;"
        if words and (len(words) > 1 or not sentence_start or words[0].isupper()) and not re.fullmatch(_EN_MONTH, words[0]):
            spans.append(" ".join(words))
    return spans


def extract_entities(text: str, graph: GraphEntities | None = None, proper_only: bool = False) -> list[str]:
    """Offline entities of a text, graph names where an alias matched, deduplicated.
    ``proper_only`` leaves out Chinese noun compounds (topic terms such as 纳税所得额),
    which name no thing a knowledge graph could verify."""
    text = unicodedata.normalize("NFKC", text or "")
    found: list[str] = list(graph.find_in(text)) if graph else []
    candidates = list(_zh_terms(text, proper_only)) if is_chinese(text) else _en_spans(text)
    candidates += [m.group(0).strip() for m in _NUMERIC.finditer(text) if m.group(0).strip()]
    for candidate in candidates:
        name = graph.canonical(candidate) if graph else None
        found.append(name or candidate)
    unique: dict[str, str] = {}
    for entity in found:
        if normalize_entity(entity):
            unique.setdefault(normalize_entity(entity), entity)
    return list(unique.values())


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
