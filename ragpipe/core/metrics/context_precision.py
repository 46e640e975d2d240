import re
from itertools import zip_longest

from ragpipe.core.metrics.base import Metric, MetricResult, Toolkit
from ragpipe.core.schemas import EvalCase
from ragpipe.core.text import normalize

# A ground-truth entry of this form is a chunk id (corpus.py's `<document stem>#<n>`), never text.
_CHUNK_ID = re.compile(r"[^\s#]+#\d+")
_TRAILING_ELLIPSIS = re.compile(r"(?:\.\.\.|…)+$")
# A text shorter than this (in letters and digits) is too short to identify a passage by containment.
MIN_MATCH_CHARS = 8


def _skeleton(text: str) -> str:
    """The letters and digits of a text, lower-cased (NFKC): layout, punctuation, Markdown
    and a trailing ellipsis ("FHA 贷款允许最低 3.5% 的首付...") do not decide a match."""
    return "".join(re.findall(r"[^\W_]+", _TRAILING_ELLIPSIS.sub("", normalize(text)).lower()))


def _same_passage(truth: str, retrieved: str) -> bool:
    """One text contains the other (an excerpt of a chunk, or a chunk of a longer ground truth)."""
    shorter, longer = sorted((_skeleton(truth), _skeleton(retrieved)), key=len)
    return len(shorter) >= MIN_MATCH_CHARS and shorter in longer


def compute(case: EvalCase, kit: Toolkit) -> MetricResult:
    truth = set(case.ground_truth_contexts)
    texts = [t for t in truth if not _CHUNK_ID.fullmatch(t)]
    if not case.retrieved_ids and not texts:
        return MetricResult.unmeasured("the ground-truth contexts are chunk ids and the bot returned no context ids")
    # rank k holds the k-th id and the k-th context (a bot may return fewer of one than the other)
    relevant = [chunk_id in truth or any(_same_passage(t, context) for t in texts)
                for chunk_id, context in zip_longest(case.retrieved_ids, case.retrieved_contexts, fillvalue="")]
    hits, precisions = 0, []
    for rank, hit in enumerate(relevant, start=1):
        if hit:
            hits += 1
            precisions.append(hits / rank)
    value = sum(precisions) / hits if hits else 0.0
    return MetricResult(value, {"relevant_ranks": [r for r, hit in enumerate(relevant, 1) if hit],
                                "retrieved_ids": case.retrieved_ids})


METRIC = Metric(
    name="context_precision",
    definition=("Average precision of the ranking: mean of precision@k over the ranks k that hold a "
                "ground-truth context; 0 when none is retrieved. Relevant chunks ranked first score high. "
                "A retrieved context is a ground-truth one when its id is among the ground-truth contexts, "
                "or, for a ground-truth context given as text, when one text contains the other, compared "
                f"on their letters and digits only (case, punctuation, spacing and a trailing ellipsis "
                f"ignored; the contained text at least {MIN_MATCH_CHARS} of them)."),
    reads=("ground_truth_contexts", "retrieved_contexts"),
    higher_is_better=True,
    nan_when=("no ground-truth contexts or no retrieved contexts, the ground truth is only chunk ids "
              "(`doc#n`) and the bot returned no ids, or the bot failed"),
    compute=compute,
)
