"""`ragpipe report build|serve`: (re)render the static report site, and browse it over
HTTP on loopback (Starlette's static files on uvicorn, behind the same Guard as the other
pages)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ragpipe.cli.serve import add_allow_host


def reports_dir(project_dir: str) -> Path:
    """Where the pipeline writes the site (the same rule as the Dagster resources)."""
    import warnings

    import dagster as dg

    warnings.filterwarnings("ignore", category=dg.BetaWarning)  # raised while the definitions load
    from ragpipe.defs.definitions import build_defs

    return build_defs(Path(project_dir).resolve()).resources["paths"].reports


def make_app(folder: Path, hosts: tuple[str, ...] | None = None):
    """The site's files as an ASGI app; requests must name one of ``hosts`` (default: loopback)."""
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.routing import Mount
    from starlette.staticfiles import StaticFiles

    from ragpipe.core.web import LOOPBACK_NAMES, Guard

    return Starlette(routes=[Mount("/", StaticFiles(directory=folder, html=True))],
                     middleware=[Middleware(Guard, hosts=hosts or LOOPBACK_NAMES)])


def _build(args: argparse.Namespace) -> int:
    from ragpipe.core.report import build_site

    folder = reports_dir(args.project_dir)
    if not folder.is_dir():
        print(f"no reports under {folder} yet: run `ragpipe run` or `ragpipe eval` first", file=sys.stderr)
        return 1
    print(build_site(folder))
    return 0


def _serve(args: argparse.Namespace) -> int:
    if _build(args):
        return 1
    import uvicorn

    from ragpipe.core.web import UVICORN_LIMITS, allowed_hosts

    app = make_app(reports_dir(args.project_dir), allowed_hosts(args.host, args.allow_host))
    print(f"serving the reports on http://{args.host}:{args.port}/ (Ctrl-C stops)", flush=True)
    # uvicorn's access log (one line per request) would drown the URL printed above
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", **UVICORN_LIMITS)
    return 0


def register(sub) -> None:
    report = sub.add_parser("report", help="the HTML report site: build it, or serve it on loopback")
    actions = report.add_subparsers(dest="action", required=True)
    build = actions.add_parser("build", help="re-render every page from the stored report data")
    build.set_defaults(func=_build)
    serve = actions.add_parser("serve", help="build, then serve the site on http://127.0.0.1:PORT/")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default: loopback only)")
    serve.add_argument("--port", type=int, default=8765)
    add_allow_host(serve)
    serve.set_defaults(func=_serve)
    for parser in (build, serve):
        parser.add_argument("--project-dir", default=".", help="folder holding data/ and dagster.yaml (default: .)")
