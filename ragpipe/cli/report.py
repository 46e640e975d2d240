"""`ragpipe report build|serve`: (re)render the static report site, and browse it over
HTTP on loopback."""

from __future__ import annotations

import argparse
import functools
import sys
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


def reports_dir(project_dir: str) -> Path:
    """Where the pipeline writes the site (the same rule as the Dagster resources)."""
    import warnings

    import dagster as dg

    warnings.filterwarnings("ignore", category=dg.BetaWarning)  # raised while the definitions load
    from ragpipe.defs.definitions import build_defs

    return build_defs(Path(project_dir).resolve()).resources["paths"].reports


def make_server(folder: Path, host: str = "127.0.0.1", port: int = 8765) -> ThreadingHTTPServer:
    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args):  # one line per request would drown the URL we print
            pass

    return ThreadingHTTPServer((host, port), functools.partial(Quiet, directory=str(folder)))


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
    server = make_server(reports_dir(args.project_dir), args.host, args.port)
    print(f"serving the reports on http://{args.host}:{server.server_address[1]}/ (Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def register(sub) -> None:
    report = sub.add_parser("report", help="the HTML report site: build it, or serve it on loopback")
    actions = report.add_subparsers(dest="action", required=True)
    build = actions.add_parser("build", help="re-render every page from the stored report data")
    build.set_defaults(func=_build)
    serve = actions.add_parser("serve", help="build, then serve the site on http://127.0.0.1:PORT/")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default: loopback only)")
    serve.add_argument("--port", type=int, default=8765)
    serve.set_defaults(func=_serve)
    for parser in (build, serve):
        parser.add_argument("--project-dir", default=".", help="folder holding data/ and dagster.yaml (default: .)")
