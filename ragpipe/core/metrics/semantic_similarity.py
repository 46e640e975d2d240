from ragpipe.core.evidence.features import language_of, similarity_scale
from ragpipe.core.metrics.answer_correctness import asserted
from ragpipe.core.metrics.base import Metric, MetricResult, Toolkit
from ragpipe.core.schemas import EvalCase


def compute(case: EvalCase, kit: Toolkit) -> MetricResult:
    answer = asserted(case.answer)  # "According to the documents, …" says nothing of the answer
    cosine = float(kit.embedder.similarity([answer], [case.ground_truth_answer])[0, 0])
    language = language_of(case.ground_truth_answer)
    return MetricResult(float(similarity_scale(kit.embedder.backend, cosine, language)),
                        {"cosine": round(cosine, 4), "embedder": kit.embedder.backend, "language": language})


METRIC = Metric(
    name="semantic_similarity",
    definition=("Embedding similarity of the answer and the ground-truth answer on a 0-1 scale: the cosine "
                "read between the typical cosine of unrelated texts in the reference's language (0) and that of "
                "a paraphrase (1), clipped. An opening clause that only points at the sources "
                "(\"According to the documents, …\") is left out."),
    reads=("answer", "ground_truth_answer"),
    higher_is_better=True,
    nan_when="no answer, no ground-truth answer, or the bot failed",
    compute=compute,
)
