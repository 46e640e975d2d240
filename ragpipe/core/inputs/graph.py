"""Where the knowledge-graph entities come from: the embedded files of a dataset
(data/datasets/<dataset>/graph/) or a Neo4j database over Bolt. Both give the same
GraphSnapshot, so the entity metrics cannot tell them apart.

Neo4j layout written by ``Neo4jGraph.write`` and read by the default queries: one
``(:Entity {dataset, name, type, aliases})`` node per entity, unique on (dataset, name),
and relationships typed by the relation name (ISSUED_BY, APPLIES_IN, …) between them.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol
from urllib.parse import urlsplit, urlunsplit

from ragpipe.core.evidence.entities import GraphEntities, read_graph_files
from ragpipe.core.schemas import InputError

ENTITY_QUERY = """
MATCH (e:Entity {dataset: $dataset})
RETURN e.name AS name, coalesce(e.aliases, []) AS aliases, coalesce(e.type, '') AS type
"""
RELATION_QUERY = """
MATCH (a:Entity {dataset: $dataset})-[r]->(b:Entity {dataset: $dataset})
RETURN a.name AS source, type(r) AS relation, b.name AS target
"""
# Relation names become relationship types, which Cypher cannot take as parameters.
RELATION_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class GraphUnavailable(Exception):
    """The configured graph could not be read or written; the message names the server
    (never the password)."""


@dataclass
class GraphSnapshot:
    """The entity set (and relations) of one dataset as one source gave it."""

    entities: list[dict]  # name, type, aliases (sorted, without duplicates)
    relations: list[dict] = field(default_factory=list)  # source, relation, target
    source: str = "embedded"

    def __post_init__(self):
        self.entities = sorted(({"name": e["name"], "type": e.get("type") or "",
                                 "aliases": sorted(set(e.get("aliases") or []) - {e["name"]})}
                                for e in self.entities), key=lambda e: e["name"])
        self.relations = sorted(({k: r[k] for k in ("source", "relation", "target")} for r in self.relations),
                                key=lambda r: (r["source"], r["relation"], r["target"]))

    def graph(self, fuzzy_threshold: float | None = None) -> GraphEntities:
        return GraphEntities.from_records(self.entities, fuzzy_threshold)

    def counts(self) -> dict[str, int]:
        return {"entities": len(self.entities), "aliases": sum(len(e["aliases"]) for e in self.entities),
                "types": len({e["type"] for e in self.entities if e["type"]}), "relations": len(self.relations)}

    def version(self) -> str:
        """Changes exactly when the entity set does (the source does not enter it)."""
        payload = json.dumps(self.entities, ensure_ascii=False, sort_keys=True)
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:16]


class GraphSource(Protocol):
    description: str  # where the entities come from, safe to show (no credentials)

    def read(self, dataset: str) -> GraphSnapshot | None:
        """The dataset's snapshot, None when the dataset has no graph; raises
        GraphUnavailable when the source cannot be read."""


class EmbeddedGraph:
    """The files under ``<datasets_dir>/<dataset>/graph/``: the offline default."""

    description = "embedded"

    def __init__(self, datasets_dir: Path):
        self.datasets_dir = Path(datasets_dir)

    def read(self, dataset: str) -> GraphSnapshot | None:
        found = read_graph_files(self.datasets_dir / dataset)
        return GraphSnapshot(found[0], found[1], source=self.description) if found else None


def redact_uri(uri: str) -> str:
    """The uri without any user:password@ part."""
    parts = urlsplit(uri)
    if parts.username is None and parts.password is None:
        return uri
    host = parts.hostname or ""
    return urlunsplit(parts._replace(netloc=f"{host}:{parts.port}" if parts.port else host))


@dataclass
class Neo4jGraph:
    """Entities from Neo4j (or any server speaking Bolt and Cypher) through the official
    driver. ``query`` takes ``$dataset`` and returns ``name``, ``aliases`` and ``type``;
    ``relations_query`` returns ``source``, ``relation`` and ``target`` (only counted).
    Both run as the driver's managed transactions (``execute_read``, ``execute_write``),
    which retry transient failures (unreachable server, leader switch, deadlock) with
    exponential backoff for up to ``retry_seconds``; each attempt is bounded by ``timeout``."""

    uri: str
    user: str = "neo4j"
    password: str | None = field(default=None, repr=False)
    database: str | None = None
    query: str = ENTITY_QUERY
    relations_query: str = RELATION_QUERY
    timeout: float = 10.0
    retry_seconds: float = 30.0

    @property
    def description(self) -> str:
        return redact_uri(self.uri) + (f" (database {self.database})" if self.database else "")

    def _driver(self):
        import neo4j

        return neo4j.GraphDatabase.driver(
            self.uri, auth=(self.user, self.password) if self.password is not None else None,
            connection_timeout=self.timeout, connection_acquisition_timeout=self.timeout,
            max_transaction_retry_time=self.retry_seconds)

    def _fail(self, action: str, exc: Exception) -> GraphUnavailable:
        message = f"{type(exc).__name__}: {exc}"
        if self.password:
            message = message.replace(self.password, "***")
        return GraphUnavailable(f"knowledge graph at {self.description} could not {action}: {message}")

    def _in_session(self, action: str, work):
        """``work(session)`` in a session; its failures (the driver's retries spent, or one
        not worth retrying) become GraphUnavailable."""
        import neo4j.exceptions as errors

        try:
            with self._driver() as driver, driver.session(database=self.database) as session:
                return work(session)
        except (errors.Neo4jError, errors.DriverError, OSError) as exc:  # OSError: e.g. an unresolvable host
            raise self._fail(action, exc) from None  # the chained driver error may repeat secrets

    def read(self, dataset: str) -> GraphSnapshot | None:
        import neo4j

        @neo4j.unit_of_work(timeout=self.timeout)
        def read_both(tx) -> tuple[list[dict], list[dict]]:
            return ([record.data() for record in tx.run(self.query, dataset=dataset)],
                    [record.data() for record in tx.run(self.relations_query, dataset=dataset)])

        rows, relations = self._in_session("be read", lambda session: session.execute_read(read_both))
        bad = [r for r in rows if not isinstance(r.get("name"), str) or not r["name"].strip()]
        if bad:
            raise GraphUnavailable(f"knowledge graph at {self.description}: the entity query returned rows without a "
                                   f"name (it must return name, aliases, type): {bad[:3]}")
        if not rows:
            raise GraphUnavailable(f"knowledge graph at {self.description} holds no entities for dataset {dataset!r} "
                                   f"(load them with `ragpipe graph load --dataset {dataset}`)")
        return GraphSnapshot([{"name": r["name"], "type": r.get("type") or "", "aliases": r.get("aliases") or []}
                              for r in rows], relations, source=self.description)

    def write(self, dataset: str, snapshot: GraphSnapshot) -> dict[str, int]:
        """Make the dataset's entities and relations in the database equal to the snapshot:
        a uniqueness constraint, MERGE for what is there, removal of what no longer is.
        Running it twice changes nothing."""
        by_type: dict[str, list[dict]] = defaultdict(list)
        for relation in snapshot.relations:
            if not RELATION_NAME.fullmatch(relation["relation"]):
                raise InputError("graph/relations.jsonl", "relation",
                                 f"{relation['relation']!r} is no valid relationship type (letters, digits, _)")
            by_type[relation["relation"]].append({"source": relation["source"], "target": relation["target"]})
        keep = [f"{r['source']}|{r['relation']}|{r['target']}" for r in snapshot.relations]

        import neo4j

        @neo4j.unit_of_work(timeout=self.timeout)
        def constrain(tx) -> None:
            tx.run("CREATE CONSTRAINT ragpipe_entity IF NOT EXISTS FOR (e:Entity) "
                   "REQUIRE (e.dataset, e.name) IS UNIQUE").consume()

        @neo4j.unit_of_work(timeout=self.timeout)
        def replace(tx) -> None:
            tx.run("UNWIND $rows AS row MERGE (e:Entity {dataset: $dataset, name: row.name}) "
                   "SET e.type = row.type, e.aliases = row.aliases",
                   rows=snapshot.entities, dataset=dataset).consume()
            tx.run("MATCH (e:Entity {dataset: $dataset}) WHERE NOT e.name IN $names DETACH DELETE e",
                   dataset=dataset, names=[e["name"] for e in snapshot.entities]).consume()
            tx.run("MATCH (a:Entity {dataset: $dataset})-[r]->(b:Entity {dataset: $dataset}) "
                   "WHERE NOT (a.name + '|' + type(r) + '|' + b.name) IN $keep DELETE r",
                   dataset=dataset, keep=keep).consume()
            for name, rows in sorted(by_type.items()):
                tx.run(f"UNWIND $rows AS row MATCH (a:Entity {{dataset: $dataset, name: row.source}}) "
                       f"MATCH (b:Entity {{dataset: $dataset, name: row.target}}) MERGE (a)-[:`{name}`]->(b)",
                       rows=rows, dataset=dataset).consume()

        def write_both(session) -> None:  # a schema change and data may not share a transaction
            session.execute_write(constrain)
            session.execute_write(replace)

        self._in_session("be written", write_both)
        return snapshot.counts()
