"""`ragpipe serve`: the evaluation service (POST /v1/evaluate, GET /healthz) on uvicorn."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path

# Vectors the service keeps in memory (384 floats each: about 75 MB); older ones are read
# back from the pipeline's disk cache when asked for again.
MEMORY_VECTORS = 50_000


def _serve(args: argparse.Namespace) -> int:
    from ragpipe.core.evidence.embeddings import Embedder
    from ragpipe.core.secrets import Redactor, RedactingFilter, short_key_problem
    from ragpipe.core.web import UVICORN_LIMITS, allowed_hosts
    from ragpipe.service import TOKEN_ENV, ServiceSettings, binding_problem, create_app

    if args.time_budget < 0:
        print(f"--time-budget: {args.time_budget:g} seconds; give a positive number, or 0 for no limit",
              file=sys.stderr)
        return 2
    token = os.environ.get(TOKEN_ENV) or None
    problem = binding_problem(args.host, token) or (token and short_key_problem(TOKEN_ENV, token))
    if problem:
        print(problem, file=sys.stderr)
        return 2
    if token:  # uvicorn's logs write the paths asked for, and a client may put the token in one
        for name in ("uvicorn.access", "uvicorn.error"):
            logging.getLogger(name).addFilter(RedactingFilter(Redactor([token])))

    import uvicorn

    resources = project_resources(args.project_dir)
    recorder = None
    if args.record:
        from ragpipe.core.inputs.recorded import Recorder, recording_problem

        dataset_dir = resources["paths"].dataset_dir(args.record)
        problem = recording_problem(dataset_dir)
        if problem:
            print(problem, file=sys.stderr)
            return 2
        recorder = Recorder(dataset_dir)
    settings = ServiceSettings(token=token, max_body_bytes=args.max_body_bytes, max_batch=args.max_batch,
                               llm_cache=Path(resources["embedder"].cache_dir) / "llm",
                               time_budget=args.time_budget or None, hosts=allowed_hosts(args.host, args.allow_host))
    embedder = Embedder(resources["embedder"].backend, resources["embedder"].cache_path, memory_limit=MEMORY_VECTORS)
    app = create_app(settings, embedder, recorder)
    print(f"serving POST http://{args.host}:{args.port}/v1/evaluate"
          f"{' (token required)' if token else ''}"
          f"{f', recording into {recorder.path}' if recorder else ''} (Ctrl-C stops)", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, **UVICORN_LIMITS)
    return 0


def project_resources(project_dir: str) -> dict:
    """The project's Dagster resources: the service uses the pipeline's folders and caches."""
    import warnings

    import dagster as dg

    warnings.filterwarnings("ignore", category=dg.BetaWarning)  # raised while the definitions load
    from ragpipe.defs.definitions import build_defs

    return build_defs(Path(project_dir).resolve()).resources


def add_allow_host(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                        help="a Host name clients use to reach the server, beyond the loopback names and --host "
                             "(repeatable); requests naming any other host are refused")


def register(sub) -> None:
    serve = sub.add_parser("serve", help="the evaluation service: POST /v1/evaluate scores answers, GET /healthz")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default: loopback only; beyond it RAGPIPE_SERVICE_TOKEN is required)")
    serve.add_argument("--port", type=int, default=8766)
    add_allow_host(serve)
    serve.add_argument("--project-dir", default=".", help="folder holding data/ and .ragpipe/ (default: .)")
    serve.add_argument("--max-body-bytes", type=int, default=2_000_000, help="larger request bodies get 413")
    serve.add_argument("--max-batch", type=int, default=32, help="answers per batch request at most")
    serve.add_argument("--time-budget", type=float, default=5.0, metavar="SECONDS",
                       help="seconds to score a request's answers; what is not measured by then is named as cut "
                            "(default 5, as seed 000; 0: no limit)")
    serve.add_argument("--record", metavar="DATASET",
                       help="append every evaluated answer to this dataset's recording (data/datasets/DATASET/recorded/)"
                            ", which a bot config of kind: recorded replays in the pipeline")
    serve.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    serve.set_defaults(func=_serve)
