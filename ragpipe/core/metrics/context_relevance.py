import numpy as np

from ragpipe.core.evidence.agreement import words
from ragpipe.core.evidence.features import MAX_EMBED_CHARS, shortlist
from ragpipe.core.evidence.sentences import evidence_sentences
from ragpipe.core.judged.prompts import CONTEXT_RELEVANCE
from ragpipe.core.metrics.base import JudgeUse, Metric, MetricResult, Toolkit
from ragpipe.core.schemas import EvalCase
from ragpipe.core.text import content_tokens, is_chinese

# A context is embedded whole up to this many characters (the gist of a chunk): embedding
# is nearly all the offline cost, and one 2,000-character context took as long as all of
# an answer's statements. Held out, 800 against 2,000 changed no set's AUROC by over 0.001.
MAX_CONTEXT_CHARS = 800
# Of a context's sentences only those sharing most of the question's words are embedded:
# the best-matching one is nearly always among them (held out, 5 or 8 against all changed
# no set's AUROC by over 0.001), and a long context has 30-50.
SENTENCE_SHORTLIST = 8
# Logistic model over (best-sentence cosine, whole-context cosine, each minus the best of
# the case's contexts, question in Chinese), the question embedded as an e5 query and the
# contexts as passages. Fitted by scripts/fit_context_relevance.py on the two sample
# datasets (ground-truth chunks against the other retrieved chunks) and three benchmark
# files (a question's own context against other questions'), each set weighing the same.
WEIGHTS = np.array([2.811, 13.092, 14.044, 23.128, -1.331])
INTERCEPT = -12.845
# The probability from which a context counts as relevant: the one maximising the mean F1
# over the five sets (see the script for the held-out figures).
RELEVANCE_THRESHOLD = 0.56
# Or from this share of the question's content words (whole words, not character pairs) in the context.
QUESTION_WORDS_NAMED = 0.6


def relevance_features(case: EvalCase, kit: Toolkit) -> np.ndarray:
    """One row per retrieved context: the model's features (see WEIGHTS)."""
    question = {*content_tokens(case.question)}
    per_context = []
    for context in case.retrieved_contexts:
        sentences = evidence_sentences(context) or [context]
        kept = shortlist([question], [{*content_tokens(s)} for s in sentences], SENTENCE_SHORTLIST)
        per_context.append([sentences[j][:MAX_EMBED_CHARS] for j in kept])
    wholes = [c[:MAX_CONTEXT_CHARS] for c in case.retrieved_contexts]
    texts = [s for sentences in per_context for s in sentences] + wholes
    cosines = kit.embedder.similarity([case.question], texts, query=True)[0]
    bounds = np.cumsum([0] + [len(s) for s in per_context])
    best_sentence = np.array([cosines[a:b].max() for a, b in zip(bounds, bounds[1:])])
    whole = cosines[bounds[-1]:]
    return np.column_stack([best_sentence, whole, best_sentence - best_sentence.max(), whole - whole.max(),
                            np.full(len(whole), float(is_chinese(case.question)))])


def _offline(case: EvalCase, kit: Toolkit) -> list[tuple[bool, str, float]]:
    features = relevance_features(case, kit)
    probability = 1 / (1 + np.exp(-(features @ WEIGHTS + INTERCEPT)))
    # A context that names most of what the question asks about is about it, however its
    # cosine compares with a closer context's.
    asked = set(words(case.question))
    named = [len(asked & set(words(c))) / len(asked) if asked else 0.0 for c in case.retrieved_contexts]
    return [(p >= RELEVANCE_THRESHOLD or n >= QUESTION_WORDS_NAMED,
             f"relevance {p:.2f}: cosine to the question {w:.3f} (whole), {s:.3f} (best sentence); "
             f"{n:.0%} of the question's words", float(p)) for p, n, (s, w) in zip(probability, named, features[:, :2])]


def compute(case: EvalCase, kit: Toolkit) -> MetricResult:
    if kit.llm is not None:
        judged = [(ok, why, None) for ok, why in kit.llm.context_relevance(case.question, case.retrieved_contexts)]
    else:
        judged = _offline(case, kit)
    contexts = [{"rank": i + 1, "relevant": bool(ok), "reason": why, **({} if p is None else {"score": round(p, 4)})}
                for i, (ok, why, p) in enumerate(judged)]
    return MetricResult(sum(c["relevant"] for c in contexts) / len(contexts), {"contexts": contexts})


METRIC = Metric(
    name="context_relevance",
    definition=("Share of the retrieved contexts that are relevant to the question. Offline, each context "
                "gets a relevance probability (details: score) from its e5 cosine to the question, as a "
                f"query against passages, for the whole context (its first {MAX_CONTEXT_CHARS} characters) and "
                f"its best sentence (of the {SENTENCE_SHORTLIST} sharing most of the question's words), also "
                f"relative to the best retrieved context; relevant from {RELEVANCE_THRESHOLD}, or when the context "
                f"holds at least {QUESTION_WORDS_NAMED:.0%} of the question's content words."),
    reads=("question", "retrieved_contexts"),
    higher_is_better=True,
    nan_when="no retrieved contexts, or the bot failed",
    compute=compute,
    judge=JudgeUse(("relevance",), (CONTEXT_RELEVANCE,)),
)
