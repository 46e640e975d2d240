"""`ragpipe label serve|validate`: the labelling page of a dataset, and a check of its
label files."""

from __future__ import annotations

import argparse
import ipaddress
import os
import secrets
import sys
from pathlib import Path

from ragpipe.cli.serve import add_allow_host

LOOPBACK = "127.0.0.1"


def _paths(project_dir: str):
    import warnings

    import dagster as dg

    warnings.filterwarnings("ignore", category=dg.BetaWarning)  # raised while the definitions load
    from ragpipe.defs.definitions import build_defs

    return build_defs(Path(project_dir).resolve()).resources["paths"]


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def _validate(args: argparse.Namespace) -> int:
    from ragpipe.core.labels.reading import load_labels

    folder = _paths(args.project_dir).dataset_dir(args.dataset)
    labels, problems = load_labels(folder)
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"{len(labels)} valid labels, {len(problems)} problem(s) in {folder / 'labels'}")
    return 1 if problems else 0


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from ragpipe.core.labels.page import make_app
    from ragpipe.core.web import UVICORN_LIMITS, allowed_hosts

    token = args.token or os.environ.get("RAGPIPE_LABEL_TOKEN")
    made = not _is_loopback(args.host) and not token
    if made:
        token = secrets.token_urlsafe(18)  # bound beyond this machine: never without a token
    paths = _paths(args.project_dir)
    app = make_app(paths.reports, paths.dataset_dir(args.dataset), token, paths.calibrations,
                   allowed_hosts(args.host, args.allow_host))
    # A token made here is printed: nobody else knows it. One that was given is never printed.
    query = f"?token={token}" if made else ""
    given = " (token required: the one given)" if token and not made else ""
    print(f"labelling {args.dataset} on http://{args.host}:{args.port}/{query}{given} (Ctrl-C stops)", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", **UVICORN_LIMITS)
    return 0


def register(sub) -> None:
    label = sub.add_parser("label", help="human labels: the labelling page, and a check of the label files")
    actions = label.add_subparsers(dest="action", required=True)
    serve = actions.add_parser("serve", help="the labelling page of a dataset on http://127.0.0.1:PORT/")
    serve.add_argument("--host", default=LOOPBACK,
                       help="address to listen on (default: loopback only; any other needs a token)")
    serve.add_argument("--port", type=int, default=8767)  # ragpipe serve has 8766, report serve 8765
    add_allow_host(serve)
    serve.add_argument("--token", help="required from every request (default: RAGPIPE_LABEL_TOKEN; bound "
                                       "beyond loopback without one, a random token is made and printed)")
    serve.set_defaults(func=_serve)
    validate = actions.add_parser("validate", help="list every problem of the label files; exits 1 if any")
    validate.set_defaults(func=_validate)
    for parser in (serve, validate):
        parser.add_argument("--dataset", required=True)
        parser.add_argument("--project-dir", default=".", help="folder holding data/ and dagster.yaml (default: .)")
