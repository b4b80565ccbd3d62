"""Embedders: `hashing` (built in, deterministic, no download: the default), `ollama`
(`nomic-embed-text`, 768 dimensions, through the ollama SDK) and optional `sentence-transformers`.

Each has a `name`, a `model` and a `dimension`; an index records the three and refuses vectors of
another embedder (see `lorekeeper.memory.index`). Vectors are float32, L2-normalised, so the inner
product is the cosine.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from lorekeeper.config import Config
from lorekeeper.errors import InvalidSpecError
from lorekeeper.llm.base import DEFAULT_EMBED_MODEL, LLMSettings, LLMUnavailableError
from lorekeeper.memory.text import tokens

EMBEDDERS = ("hashing", "ollama", "sentence-transformers")
HASHING_DIM = 512
OLLAMA_DIM = 768  # nomic-embed-text
ST_DEFAULT_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
Vectors = npt.NDArray[np.float32]


class Embedder(Protocol):
    name: str
    model: str
    dimension: int

    def embed(self, texts: Sequence[str]) -> Vectors: ...


def normalise(m: npt.NDArray[Any]) -> Vectors:
    out = np.asarray(m, dtype=np.float32)
    if out.ndim == 1:
        out = out.reshape(1, -1)
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return np.ascontiguousarray(out / norms, dtype=np.float32)


class HashingEmbedder:
    """Feature hashing of folded words and of their character trigrams (signed buckets, blake2b):
    deterministic across runs and machines, no model, no download. Words weigh 1, trigrams 0.5, so
    "index" and "indexes" share most of their vector."""

    name = "hashing"

    def __init__(self, dimension: int = HASHING_DIM) -> None:
        self.dimension = int(dimension)
        self.model = f"blake2b-words+trigrams-{self.dimension}"
        self._cache: dict[str, dict[int, float]] = {}

    def _bucket(self, feature: str) -> tuple[int, float]:
        h = int.from_bytes(hashlib.blake2b(feature.encode(), digest_size=8).digest(), "big")
        return h % self.dimension, 1.0 if (h >> 63) & 1 else -1.0

    def _word(self, word: str) -> dict[int, float]:
        """The word's own bucket (weight 1) and its trigrams' (0.5 each), cached per word."""
        hit = self._cache.get(word)
        if hit is None:
            hit = {}
            i, s = self._bucket("w:" + word)
            hit[i] = hit.get(i, 0.0) + s
            padded = f"#{word}#"
            for k in range(len(padded) - 2):
                i, s = self._bucket("t:" + padded[k : k + 3])
                hit[i] = hit.get(i, 0.0) + 0.5 * s
            if len(self._cache) < 500_000:
                self._cache[word] = hit
        return hit

    def embed(self, texts: Sequence[str]) -> Vectors:
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            acc: dict[int, float] = {}
            for word, n in Counter(tokens(text)).items():
                for i, v in self._word(word).items():
                    acc[i] = acc.get(i, 0.0) + v * n
            if acc:
                out[row, list(acc)] = list(acc.values())
        return normalise(out)


class OllamaEmbedder:
    """`nomic-embed-text` (768 dims) through the ollama SDK's /api/embed, batched."""

    name = "ollama"
    BATCH = 64

    def __init__(self, settings: LLMSettings, dimension: int = OLLAMA_DIM) -> None:
        from lorekeeper.llm.ollama_provider import OllamaProvider

        self.settings = settings
        self.model = settings.embed_model or DEFAULT_EMBED_MODEL
        self.dimension = int(dimension)
        self._provider = OllamaProvider(settings)

    def embed(self, texts: Sequence[str]) -> Vectors:
        rows: list[list[float]] = []
        items = list(texts)
        for start in range(0, len(items), self.BATCH):
            rows.extend(self._provider.embed(items[start : start + self.BATCH]))
        if not items:
            return np.zeros((0, self.dimension), dtype=np.float32)
        m = np.asarray(rows, dtype=np.float32)
        if m.ndim != 2 or m.shape[1] != self.dimension:
            got = m.shape[1] if m.ndim == 2 else 0
            raise InvalidSpecError(
                f"the ollama model {self.model!r} returned {got}-dimension vectors; the index expects "
                f"{self.dimension} ([embeddings] dimension). Set the dimension the model gives, then `memory index`.",
                field="embeddings.dimension",
            )
        return normalise(m)


class SentenceTransformersEmbedder:
    """Optional: a local sentence-transformers model (the package and the model must be installed)."""

    name = "sentence-transformers"

    def __init__(self, model: str = ST_DEFAULT_MODEL) -> None:
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError:
            raise LLMUnavailableError(
                "the sentence-transformers embedder needs the optional package: "
                "`pip install sentence-transformers` (and its model available locally), or use "
                '[embeddings] provider = "hashing" or "ollama"'
            ) from None
        self.model = model
        self._st: Any = SentenceTransformer(model)
        self.dimension = int(self._st.get_sentence_embedding_dimension() or 0)

    def embed(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return normalise(self._st.encode(list(texts), normalize_embeddings=True))


def embedder_from_config(config: Config) -> Embedder:
    """The `[embeddings]` table: provider (hashing | ollama | sentence-transformers), model,
    dimension; ollama's host is `[embeddings] base_url`, else `[llm] base_url` when the LLM is ollama."""
    provider = str(config.get("embeddings.provider", "hashing") or "hashing").strip().lower()
    if provider not in EMBEDDERS:
        raise InvalidSpecError(
            f"[embeddings] provider {provider!r} is not one of {', '.join(EMBEDDERS)}", field="embeddings"
        )
    model = str(config.get("embeddings.model", "") or "").strip()
    dim = config.get("embeddings.dimension")
    if provider == "hashing":
        return HashingEmbedder(int(dim) if dim else HASHING_DIM)
    if provider == "ollama":
        llm = LLMSettings.from_mapping(config.get("llm") or {})
        base = str(config.get("embeddings.base_url", "") or "").strip()
        if not base and llm.provider == "ollama":
            base = llm.base_url
        settings = LLMSettings(
            provider="ollama",
            base_url=base,
            timeout=llm.timeout,
            max_retries=llm.max_retries,
            embed_model=model or llm.embed_model or DEFAULT_EMBED_MODEL,
        )
        return OllamaEmbedder(settings, int(dim) if dim else OLLAMA_DIM)
    return SentenceTransformersEmbedder(model or ST_DEFAULT_MODEL)
