"""Does rag_responses survive a faulty bot and a killed run, without asking twice?

A throwaway copy of the project gets an HTTP bot pointing at the loopback bot server
(``ragpipe.testing.bot_server``), which fails ``--failure-rate`` of its requests (HTTP 500,
replies held past the timeout, truncated JSON, garbage) deterministically by ``--seed``
and wants an API key. Three materializations of rag_responses for one partition:

1. in a subprocess, killed with SIGKILL once a third of the answers are cached;
2. again, to the end (transient failures retried with backoff);
3. once more: everything comes from the answer cache.

Printed per run and in total: requests sent, failures injected, answers recovered
(questions whose first request failed and that got their answer), repeat calls (requests
for questions whose answer was already cached when the run began; must be 0) and rows
lost (questions without a row in the Parquet file, or whose answer cached before the
kill differs from the final one; must be 0). Exit status 1 when either is not 0.

    ragpipe bench faults [--dataset product_en] [--failure-rate 0.2] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BOT = "httpbot@v1"
KEY_VARIABLE, FAKE_KEY = "RAGPIPE_BOT_REFBOT_KEY", "sk-bench-not-a-real-key"


def materialize_responses(project: Path, dataset: str, bot: str):
    """The dataset assets and rag_responses of one (dataset, bot) partition, recorded in
    the instance under $DAGSTER_HOME."""
    import dagster as dg

    from ragpipe.defs.definitions import build_defs
    from ragpipe.defs.instance import prepare_dagster_home
    from ragpipe.defs.liveness import fail_dead_runs, held_run_lock
    from ragpipe.defs.partitions import sync_partitions
    from ragpipe.defs.runner import QUIET

    prepare_dagster_home(project)
    defs = build_defs(project)
    with dg.DagsterInstance.get() as instance:
        sync_partitions(instance, project / "data")
        fail_dead_runs(instance)  # the killed attempt still holds the bot endpoint's pool slot
        defs.resolve_job_def("prepare_dataset").execute_in_process(instance=instance, partition_key=dataset,
                                                                 run_config=QUIET)
        with held_run_lock(instance) as (run_id, lock_tags):  # so that a kill is seen as a dead run
            return defs.resolve_job_def("evaluate_bot_version").execute_in_process(
                instance=instance, partition_key=dg.MultiPartitionKey({"dataset": dataset, "bot": bot}),
                asset_selection=[dg.AssetKey("rag_responses")], raise_on_error=False, run_config=QUIET,
                run_id=run_id, tags=lock_tags)


def cached_answers(cache_dir: Path) -> dict[str, str]:
    """question id -> answer in the answer cache, read as another process would."""
    from ragpipe.core.inputs.answers import AnswerCache

    if not (cache_dir / "answers").is_dir():
        return {}
    cache = AnswerCache(cache_dir / "answers")
    try:
        return {v["question_id"]: v["answer"] for _, v in cache.items()}
    finally:
        cache.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ragpipe bench faults", description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", default="product_en")
    parser.add_argument("--failure-rate", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--child", help=argparse.SUPPRESS)  # the run to be killed
    args = parser.parse_args(argv)
    if args.child:
        materialize_responses(Path(args.child), args.dataset, BOT)
        return 0

    import pandas as pd

    from ragpipe.testing.bot_server import FAULTS, BotServer

    repo = Path(__file__).resolve().parents[2]
    with tempfile.TemporaryDirectory(prefix="ragpipe-faults-") as tmp, \
            BotServer(repo / "data" / "datasets", api_key=FAKE_KEY, failure_rate=args.failure_rate,
                      seed=args.seed) as server:
        project = Path(tmp)
        shutil.copytree(repo / "data", project / "data")
        shutil.copy(repo / "dagster.yaml", project / "dagster.yaml")
        config = json.loads(server.bot_yaml(timeout=1.0, max_failure_share=0.5))
        config["http"]["concurrency"] = 2
        (project / "data" / "bots" / f"{BOT}.yaml").write_text(json.dumps(config, indent=2), encoding="utf-8")
        cache = project / "cache"
        os.environ.update({KEY_VARIABLE: FAKE_KEY, "RAGPIPE_CACHE_DIR": str(cache),
                           "DAGSTER_HOME": str(project / "dagster_home")})
        for name in ("RAGPIPE_DATA_DIR", "RAGPIPE_OUTPUT_DIR", "DAGSTER_PG_HOST"):
            os.environ.pop(name, None)
        n_questions = len(pd.read_json(project / "data" / "datasets" / args.dataset / "questions" / "questions.jsonl",
                                       lines=True))
        rows, at_kill = [], {}

        def measure(label: str, run) -> None:
            before_cache, before_requests = cached_answers(cache), dict(server.requests)
            before_faults = sum(server.injected.values())
            started = time.perf_counter()
            outcome = run()
            requests = {q: n - before_requests.get(q, 0) for q, n in server.requests.items()}
            answered = cached_answers(cache)
            # answered in this run although its first request in this run met a fault
            recovered = [q for q, n in requests.items() if n and q in answered and q not in before_cache
                         and server.fault_of(q, before_requests.get(q, 0)) in FAULTS]
            rows.append({"run": label, "outcome": outcome, "seconds": round(time.perf_counter() - started, 1),
                         "requests": sum(requests.values()),
                         "failures injected": sum(server.injected.values()) - before_faults,
                         "answers recovered": len(recovered),
                         "repeat calls": sum(n for q, n in requests.items() if q in before_cache),
                         "cached after": len(answered)})

        def killed_run() -> str:
            child = subprocess.Popen([sys.executable, "-m", "ragpipe.bench.faults", "--dataset", args.dataset,
                                      "--child", str(project)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            while len(cached_answers(cache)) < n_questions // 3 and child.poll() is None:
                time.sleep(0.05)
            child.send_signal(signal.SIGKILL)
            child.wait()
            at_kill.update(cached_answers(cache))
            return f"killed (-9) with {len(at_kill)} answers cached"

        def full_run() -> str:
            result = materialize_responses(project, args.dataset, BOT)
            return "succeeded" if result.success else "failed"

        measure("1 killed midway", killed_run)
        measure("2 resumed", full_run)
        measure("3 again", full_run)
        frame = pd.read_parquet(project / ".ragpipe" / "warehouse" / "rag_responses" / BOT / f"{args.dataset}.parquet")
        final = dict(zip(frame["question_id"], frame["answer"]))
        lost = (n_questions - len(frame)) + sum(final.get(q) != a for q, a in at_kill.items())

    table = pd.DataFrame(rows)
    print(f"\nrag_responses of {BOT} on {args.dataset} ({n_questions} questions) against a bot failing "
          f"{args.failure_rate:.0%} of requests (seed {args.seed}):\n")
    print(table.to_string(index=False))
    print(f"\nrequests sent {table['requests'].sum()}, failures injected {table['failures injected'].sum()}, "
          f"answers recovered {table['answers recovered'].sum()}, repeat calls {table['repeat calls'].sum()} "
          f"(must be 0), rows lost {lost} (must be 0); final errors {int(frame['error'].notna().sum())}")
    return 0 if table["repeat calls"].sum() == 0 and lost == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
