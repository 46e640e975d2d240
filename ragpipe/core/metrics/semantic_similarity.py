from ragpipe.core.metrics.base import Metric, MetricResult, Toolkit
from ragpipe.core.schemas import EvalCase


def compute(case: EvalCase, kit: Toolkit) -> MetricResult:
    cosine = float(kit.embedder.similarity([case.answer], [case.ground_truth_answer])[0, 0])
    return MetricResult(float(kit.relatedness(cosine)), {"cosine": round(cosine, 4), "embedder": kit.embedder.backend})


METRIC = Metric(
    name="semantic_similarity",
    definition=("Embedding similarity of the answer and the ground-truth answer, rescaled so that "
                "unrelated texts score 0 and paraphrases 1."),
    reads=("answer", "ground_truth_answer"),
    higher_is_better=True,
    nan_when="no answer, no ground-truth answer, or the bot failed",
    compute=compute,
)
