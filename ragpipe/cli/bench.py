"""`ragpipe bench WHAT …`: run one of the benchmarks (ragpipe.bench) with its own options."""

from __future__ import annotations

import argparse


BENCHMARKS = {"latency": "ragpipe.bench.latency", "quality": "ragpipe.bench.quality",
              "llm-calls": "ragpipe.bench.llm_calls", "faults": "ragpipe.bench.faults",
              "perf": "ragpipe.bench.perf", "service": "ragpipe.bench.service", "scale": "ragpipe.bench.scale",
              "sanity": "ragpipe.bench.sanity", "gate": "ragpipe.bench.gate", "cache": "ragpipe.bench.cache",
              "perturb": "ragpipe.bench.perturb_run"}


def _bench(args: argparse.Namespace) -> int:
    import importlib

    return importlib.import_module(BENCHMARKS[args.what]).main(args.rest)


def register(sub) -> None:
    bench = sub.add_parser("bench", help="measure: `latency` of ragpipe.evaluate, `quality` against human "
                                         "labels, `llm-calls` of the LLM suite, `faults` of bot calls, `perf` "
                                         "of the offline suite against RAGAS, `service` under 10 concurrent "
                                         "clients, `scale` over Dask workers, `sanity` of the offline metrics "
                                         "on the behavioural (CheckList) cases, `gate` false alarms and detection "
                                         "of the regression gate, `cache` writes and reads per answer, `perturb` typed edits of the suite's faithful answers")
    bench.add_argument("what", choices=sorted(BENCHMARKS))
    bench.add_argument("rest", nargs=argparse.REMAINDER, help="options of the benchmark (see its --help)")
    bench.set_defaults(func=_bench)
