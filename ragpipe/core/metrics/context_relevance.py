from ragpipe.core.evidence import MAX_EMBED_CHARS, evidence_sentences, shortlist
from ragpipe.core.metrics.base import Metric, MetricResult, Toolkit
from ragpipe.core.schemas import EvalCase
from ragpipe.core.text import content_tokens

RELEVANCE_THRESHOLD = 0.5


def _offline(case: EvalCase, kit: Toolkit) -> list[tuple[bool, str]]:
    """A context is relevant when it takes up the question's content words or a sentence
    of it is semantically close to the question (mean of the two ≥ 0.5). Only the
    sentences sharing most of the question's words are embedded (a JSON context's lines
    are its sentences, as in the verifier)."""
    terms = set(content_tokens(case.question))
    judged = []
    for context in case.retrieved_contexts:
        coverage = len(terms & set(content_tokens(context))) / len(terms) if terms else 0.0
        sentences = evidence_sentences(context) or [context]
        sentences = [sentences[j][:MAX_EMBED_CHARS]
                     for j in shortlist([terms], [set(content_tokens(s)) for s in sentences])]
        related = float(kit.relatedness(kit.embedder.similarity([case.question], sentences)[0]).max())
        score = (coverage + related) / 2
        judged.append((score >= RELEVANCE_THRESHOLD, f"question terms {coverage:.2f}, semantic {related:.2f}"))
    return judged


def compute(case: EvalCase, kit: Toolkit) -> MetricResult:
    judged = (kit.llm.context_relevance(case.question, case.retrieved_contexts) if kit.llm is not None
              else _offline(case, kit))
    contexts = [{"rank": i + 1, "relevant": bool(ok), "reason": why} for i, (ok, why) in enumerate(judged)]
    return MetricResult(sum(c["relevant"] for c in contexts) / len(contexts), {"contexts": contexts})


METRIC = Metric(
    name="context_relevance",
    definition="Share of the retrieved contexts that are relevant to the question.",
    reads=("question", "retrieved_contexts"),
    higher_is_better=True,
    nan_when="no retrieved contexts, or the bot failed",
    compute=compute,
)
