"""`ragpipe bench cache --answers 500`: what the scores step's cache costs per answer (one
row per registered metric), written and read one committed statement per row (the step
before batching) and in batches (ScoreCache now), in the local store and, with --pg-url
or RAGPIPE_CACHE_URL, in PostgreSQL. Each mode writes into a namespace of its own, so every
write is an insert; the rows are deleted afterwards.

Rows are synthetic but sized like the offline suite's: a value, no error and a details JSON
of about ``--details-bytes`` characters."""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
import uuid
from pathlib import Path

from ragpipe.core.metrics import REGISTRY
from ragpipe.core.schemas import EvalCase
from ragpipe.defs.evaluation.score_cache import ScoreCache


def rows_for(answers: int, details_bytes: int) -> list[tuple[str, EvalCase, dict]]:
    statement = {"statement": "The warranty covers the battery for two years.", "supported": True, "score": 0.91}
    details = json.dumps({"statements": [statement] * max(1, details_bytes // len(json.dumps(statement)))})
    cases = [EvalCase(question_id=f"q{i}", question=f"Question {i}?", answer=f"Answer {i}.") for i in range(answers)]
    return [(name, case, {"value": 0.5, "error": None, "details": details}) for case in cases for name in REGISTRY]


def measure(directory: Path, rows: list[tuple[str, EvalCase, dict]], batched: bool) -> dict[str, float]:
    cache = ScoreCache(directory, {"bench": "cache"})
    try:
        started = time.perf_counter()
        if batched:
            for name, case, row in rows:
                cache.put(name, case, row)
            cache.flush()
        else:
            for name, case, row in rows:
                cache.cache.put(cache.key(name, case), row)
        wrote = time.perf_counter() - started
        cases = [case for name, case, _ in rows if name == rows[0][0]]
        started = time.perf_counter()
        if batched:
            found = cache.get_many(list(REGISTRY), cases)
            assert all(row is not None for metric_rows in found.values() for row in metric_rows)
        else:
            assert all(cache.cache.get(cache.key(name, case)) is not None for name, case, _ in rows)
        read = time.perf_counter() - started
        cache.cache.clear()
    finally:
        cache.close()
    return {"write_s": wrote, "read_s": read}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ragpipe bench cache", description=__doc__.split("\n\n")[0])
    parser.add_argument("--answers", type=int, default=500)
    parser.add_argument("--details-bytes", type=int, default=600)
    parser.add_argument("--pg-url", default=os.environ.get("RAGPIPE_CACHE_URL"),
                        help="PostgreSQL database to measure too (default RAGPIPE_CACHE_URL)")
    args = parser.parse_args(argv)
    rows = rows_for(args.answers, args.details_bytes)
    print(f"{args.answers} answers x {len(REGISTRY)} metric rows = {len(rows)} rows, "
          f"{len(json.dumps(rows[0][2]))} bytes of JSON each")
    print(f"{'store':<11} {'mode':<12} {'write ms/answer':>16} {'read ms/answer':>15} {'write us/row':>13}")
    stores = [("local", None)] + ([("postgresql", args.pg_url)] if args.pg_url else [])
    saved = dict(os.environ)
    try:
        for store, url in stores:
            if url:
                os.environ["RAGPIPE_CACHE_URL"] = url
            else:
                os.environ.pop("RAGPIPE_CACHE_URL", None)
                os.environ.pop("DAGSTER_PG_HOST", None)  # else the instance's database would be used
            for mode, batched in (("row by row", False), ("batched", True)):
                with tempfile.TemporaryDirectory(prefix="ragpipe-bench-cache-") as tmp:
                    figures = measure(Path(tmp) / f"bench-{uuid.uuid4().hex[:12]}", rows, batched)
                print(f"{store:<11} {mode:<12} {figures['write_s'] * 1000 / args.answers:>16.3f} "
                      f"{figures['read_s'] * 1000 / args.answers:>15.3f} "
                      f"{figures['write_s'] * 1e6 / len(rows):>13.1f}")
    finally:
        os.environ.clear()
        os.environ.update(saved)
    if not args.pg_url:
        print("(no --pg-url or RAGPIPE_CACHE_URL: PostgreSQL not measured)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
