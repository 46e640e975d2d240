"""Generate questions from a corpus without an LLM: pick sentences that carry a fact (an
amount, percentage, date, duration, count or an agency), ask for that fact in place
(深圳市…给予一次性创业补贴多少万元？ / …pays what percentage of eligible costs?) and keep
the sentence as the ground-truth answer and its chunk as the ground-truth context.

Filters: the question must be well formed (``malformed_reason``), must not contain its
answer, must keep enough of its own words to be specific, and must not repeat another
question. Factual questions only: an inferential or multi-hop question needs a reasoned
answer that extraction cannot write, so those come from the LLM generator."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ragpipe.core.evidence.entities import GraphEntities, normalize_entity
from ragpipe.core.inputs.question_filters import (DISCOURSE_MARKERS, gives_away, is_dependent_clause, malformed_reason,
                                                   opens_with_connective, strip_clause)
from ragpipe.core.schemas import Chunk, Question, QuestionType
from ragpipe.core.text import content_tokens, is_chinese, split_sentences

GENERATOR = "offline-extractive/1"
MIN_OWN_TOKENS = 4

# (pattern, wh-phrase) in priority order; the first pattern that matches a sentence is asked for.
_ZH_SLOTS = [
    (re.compile(r"\d{4}年\d{1,2}月\d{1,2}日"), "什么时间"),
    (re.compile(r"(?<!\d)\d{4}年(?![\d度])"), "哪一年"),
    (re.compile(r"\d+(?:\.\d+)?\s*(?:万元|亿元|元)"), lambda m: "多少" + re.sub(r"[\d.\s]", "", m.group(0))),
    (re.compile(r"\d+(?:\.\d+)?\s*[%％]"), "多大比例"),
    # not a year (2022年) nor a day of a month (6月1日)
    (re.compile(r"(?<![\d月.])(?!\d{4}年)\d+(?:\.\d+)?\s*(?:个月|个工作日|日|天|年)(?!\d)"), lambda m: "多长时间" if "年" not in m.group(0) else "几年"),
    (re.compile(r"\d+(?:\.\d+)?\s*(?:人|家|项|次|倍)"), lambda m: "多少" + re.sub(r"[\d.\s]", "", m.group(0))),
]
_EN_MONTH = r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
_EN_SLOTS = [
    (re.compile(_EN_MONTH + r"\s+\d{1,2}(?:,\s*\d{4})?"), "what date"),
    (re.compile(r"\$\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:million|billion))?"), "how much"),
    (re.compile(r"\d+(?:\.\d+)?\s?(?:%|percent\b)"), "what percentage"),  # not "2 percentage points"
    (re.compile(r"\b\d+\s+(days|weeks|months|years|employees|hours)\b"), lambda m: f"how many {m.group(1)}"),
]


# A value that bounds a range ("0.2%至1.9%", "from $250,000 up to $1 million"): asking for one
# end gives a question about half a fact.
_RANGE_AFTER = re.compile(r"^\s*(?:至|到|-|–|to|up to)\s*\$?\d")
_RANGE_BEFORE = re.compile(r"(?:至|到|\bfrom|-|–)\s*$")


def _slot(sentence: str, slots) -> tuple[str, str] | None:
    """(answer span, wh-phrase) of the first fact the sentence states that is no end of a range."""
    for pattern, wh in slots:
        for match in pattern.finditer(sentence):
            if _RANGE_AFTER.search(sentence[match.end():]) or _RANGE_BEFORE.search(sentence[:match.start()]):
                continue
            return match.group(0), wh(match) if callable(wh) else wh
    return None


def _agency_slot(sentence: str, graph: GraphEntities | None) -> tuple[str, str] | None:
    if graph is None:
        return None
    for name in graph.find_in(sentence):
        if graph.types.get(name) == "agency" and name in sentence:
            return name, "哪个部门" if is_chinese(sentence) else "which agency"
    return None


_ZH_CLAUSE = re.compile(r"(?<=[，,；;：:])")
_EN_CLAUSE = re.compile(r"(?<=[;:])\s+|(?<=,)\s+(?=[a-z])")


def _fact_clauses(sentence: str, span: str, chinese: bool) -> str:
    """The sentence's first clause and the clauses stating the fact: the question asks for
    the fact, not for the whole sentence back. A fact clause that cannot stand alone takes
    its neighbours: one that opens with a connective ("以及…", "and …") the clause before
    it, a dependent one ("自…起", "…30人以下的企业", "if …") the clause after it, else the
    question would be a fragment ("…多少人（含）以下的企业？")."""
    clauses = [c for c in (_ZH_CLAUSE if chinese else _EN_CLAUSE).split(sentence) if c.strip()]
    at = next((i for i, c in enumerate(clauses) if span in c), None)
    if at is None:  # the span crosses a clause boundary
        return sentence
    start, end = at, at
    while start > 0 and opens_with_connective(clauses[start]):
        start -= 1
    while end + 1 < len(clauses) and is_dependent_clause(clauses[end]):
        end += 1
    lead = clauses[:1] if start > 0 and not is_dependent_clause(clauses[0]) else clauses[:start]
    kept = [c for c in lead + clauses[start:end + 1] if strip_clause(c) not in DISCOURSE_MARKERS]
    return "".join(kept) if chinese else " ".join(kept)


def question_for(sentence: str, title: str, graph: GraphEntities | None = None) -> tuple[str, str] | None:
    """(question, answer span) for one sentence, or None when it states no askable fact."""
    chinese = is_chinese(sentence)
    found = _slot(sentence, _ZH_SLOTS if chinese else _EN_SLOTS) or _agency_slot(sentence, graph)
    if found is None:
        return None
    span, wh = found
    body = _fact_clauses(sentence, span, chinese)
    body = re.sub(rf"\bthe {re.escape(span)}", wh, body, count=1) if not chinese else body
    body = body.replace(span, wh, 1).rstrip("。.；;！!，,:： ")
    if chinese:
        question = f"根据《{title}》，{body}？"
    else:
        question = f"According to “{title}”, {body[0].lower() + body[1:] if body[:2] != body[:2].upper() else body}?"
    return question, span


def _trivial(question: str, span: str, sentence: str) -> bool:
    """A question that is no whole question, gives its answer away, or keeps too little of
    the sentence to be specific."""
    if malformed_reason(question) or gives_away(question, span):
        return True
    own = set(content_tokens(question)) & set(content_tokens(sentence))
    return len(own) < MIN_OWN_TOKENS


def generate_offline(chunks: Iterable[Chunk], per_document: int = 3, graph: GraphEntities | None = None,
                     prefix: str = "gen") -> list[Question]:
    """Up to ``per_document`` extractive questions per document, one per sentence, spread over
    its chunks in order, deduplicated by normalised question text."""
    questions: list[Question] = []
    seen: set[str] = set()
    per_doc: dict[str, int] = {}
    for chunk in chunks:
        if per_doc.get(chunk.doc_id, 0) >= per_document:
            continue
        for sentence in split_sentences(chunk.text):
            if sentence.lstrip().startswith("#"):
                continue
            made = question_for(sentence, chunk.title, graph)
            if made is None or _trivial(made[0], made[1], sentence):
                continue
            key = normalize_entity(made[0])
            if key in seen:
                continue
            seen.add(key)
            per_doc[chunk.doc_id] = per_doc.get(chunk.doc_id, 0) + 1
            questions.append(Question(
                question_id=f"{prefix}-{len(questions) + 1:03d}", question=made[0], ground_truth_answer=sentence,
                ground_truth_contexts=[chunk.chunk_id], question_type=QuestionType.FACTUAL,
                origin=f"{GENERATOR} from {chunk.chunk_id}", source=GENERATOR,
            ))
            break  # one question per chunk spreads them over the document
    return questions
