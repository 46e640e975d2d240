"""`ragpipe graph …`: the knowledge graph behind entity verification. `load` writes a
dataset's embedded graph (data/datasets/<d>/graph/) into Neo4j; `show` reads the
configured source (embedded, or Neo4j when RAGPIPE_NEO4J_URI is set) as the scores would.
Connection settings come from the RAGPIPE_NEO4J_* environment variables; the password is
never taken on the command line, where other users could read it."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from ragpipe.core.inputs.graph import EmbeddedGraph, GraphUnavailable, Neo4jGraph
from ragpipe.core.schemas import InputError, InputErrors


def _source(args: argparse.Namespace):
    from ragpipe.defs.resources import GraphResource

    return GraphResource.from_env().process_config_and_initialize().source(Path(args.data_dir) / "datasets")


def cmd_load(args: argparse.Namespace) -> int:
    snapshot = EmbeddedGraph(Path(args.data_dir) / "datasets").read(args.dataset)
    if snapshot is None:
        print(f"{Path(args.data_dir) / 'datasets' / args.dataset / 'graph' / 'entities.jsonl'} not found", file=sys.stderr)
        return 1
    target = _source(args)
    if not isinstance(target, Neo4jGraph):
        print("set RAGPIPE_NEO4J_URI (and RAGPIPE_NEO4J_USER, RAGPIPE_NEO4J_PASSWORD, RAGPIPE_NEO4J_DATABASE) "
              "to the Neo4j server to load into", file=sys.stderr)
        return 2
    counts = target.write(args.dataset, snapshot)
    print(f"loaded {args.dataset} into {target.description}: " + ", ".join(f"{v} {k}" for k, v in counts.items()))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    source = _source(args)
    snapshot = source.read(args.dataset)
    if snapshot is None:
        print(f"{args.dataset} has no knowledge graph ({source.description})")
        return 0
    print(f"{args.dataset} from {source.description} (version {snapshot.version()}): "
          + ", ".join(f"{v} {k}" for k, v in snapshot.counts().items()))
    for kind, n in sorted(Counter(e["type"] for e in snapshot.entities).items()):
        print(f"  {kind or '(no type)'}: {n}")
    return 0


def register(sub) -> None:
    parser = sub.add_parser("graph", help="the knowledge graph: load a dataset's graph into Neo4j, show a snapshot")
    parser.add_argument("--data-dir", default="data")
    parser.add_argument("--dataset", required=True)
    actions = parser.add_subparsers(dest="action", required=True)
    actions.add_parser("load", help="write the dataset's entities and relations into Neo4j (idempotent)",
                       ).set_defaults(gfunc=cmd_load)
    actions.add_parser("show", help="counts of the dataset's graph from the configured source").set_defaults(gfunc=cmd_show)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        return args.gfunc(args)
    except (InputError, InputErrors) as exc:
        print(str(exc), file=sys.stderr)
        return 2
    except GraphUnavailable as exc:
        print(str(exc), file=sys.stderr)
        return 1
