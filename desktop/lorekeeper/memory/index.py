"""One corpus's derived index: `<corpus>-index.faiss`, `<corpus>-embeddings.npy`, `<corpus>-cache.json`.

- The FAISS index is an `IndexIDMap2` over an inner-product flat index: every item has a stable
  64-bit id (`layout.item_id64`), so erasing an item is `remove_ids`, never a renumbering.
- The embeddings file holds the vectors in the cache's `ids` order (rebuilds reuse the vector of an
  unchanged item instead of embedding it again).
- The cache records the embedder, model and dimension that built the index, the fingerprint of
  what it was built from, and one entry per id (key, story, content hash). An index refuses vectors
  of another embedder (`IndexMismatchError`); the service then rebuilds it from the store.

Files are written atomically (temp + rename), cache last: a reader that finds the three out of step
treats the index as stale.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import faiss
import numpy as np

from lorekeeper.errors import InvalidSpecError
from lorekeeper.fsutil import atomic_write_bytes, atomic_write_text
from lorekeeper.memory.embedders import Embedder, Vectors
from lorekeeper.memory.items import Item, fingerprint, fingerprint_of
from lorekeeper.memory.layout import IndexPaths

FORMAT = 1
EMBED_BATCH = 256
# One query at a time over a flat index: FAISS's OpenMP threads only contend (measured 89 ms with
# the default threads vs 11 ms with one, 10k x 512 on a shared 2-core machine).
faiss.omp_set_num_threads(1)


class IndexMismatchError(InvalidSpecError):
    """Vectors of another embedder, model or dimension than the one that built the index."""


@dataclass
class Loaded:
    index: Any  # faiss.IndexIDMap2
    embeddings: Vectors
    meta: dict[str, Any]
    ids: list[int] = field(default_factory=list)

    @property
    def identity(self) -> tuple[str, str, int]:
        return (str(self.meta.get("embedder")), str(self.meta.get("model")), int(self.meta.get("dimension") or 0))


def _new_index(dimension: int) -> Any:
    return faiss.IndexIDMap2(faiss.IndexFlatIP(dimension))


_LOADED: dict[str, tuple[tuple[tuple[int, int], ...], Loaded]] = {}


class CorpusIndex:
    def __init__(self, corpus: str, paths: IndexPaths) -> None:
        self.corpus = corpus
        self.paths = paths

    # ------------------------------------------------------------------ reading
    def exists(self) -> bool:
        return all(p.is_file() for p in self.paths.all())

    def meta(self) -> dict[str, Any] | None:
        try:
            data = json.loads(self.paths.cache.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def _stamp(self) -> tuple[tuple[int, int], ...] | None:
        try:
            return tuple((st.st_mtime_ns, st.st_size) for st in (p.stat() for p in self.paths.all()))
        except OSError:
            return None

    def load(self, *, fresh: bool = False) -> Loaded | None:
        """The three files, or None when one is missing, unreadable or out of step with the others.

        Searches share one loaded copy per process while the files are unchanged (same mtime and
        size); writers take a `fresh` copy of their own."""
        stamp = self._stamp()
        if stamp is None:
            return None
        key = str(self.paths.faiss)
        if not fresh:
            hit = _LOADED.get(key)
            if hit is not None and hit[0] == stamp:
                return hit[1]
        loaded = self._read()
        if loaded is not None and not fresh:
            _LOADED[key] = (stamp, loaded)
        return loaded

    def _read(self) -> Loaded | None:
        meta = self.meta()
        if meta is None or not self.paths.faiss.is_file() or not self.paths.embeddings.is_file():
            return None
        try:
            index = faiss.deserialize_index(np.frombuffer(self.paths.faiss.read_bytes(), dtype=np.uint8))
            emb = np.load(io.BytesIO(self.paths.embeddings.read_bytes()), allow_pickle=False)
        except Exception:  # noqa: BLE001 - a damaged derived file is stale, rebuilt from the store
            return None
        ids = [int(i) for i in meta.get("ids", [])]
        dim = int(meta.get("dimension") or 0)
        if index.ntotal != len(ids) or emb.shape[0] != len(ids) or (len(ids) and emb.shape[1] != dim):
            return None
        if index.d != dim:
            return None
        return Loaded(index, np.ascontiguousarray(emb, dtype=np.float32), meta, ids)

    def usable(self) -> bool:
        """The three files load and agree with each other."""
        return self.load() is not None

    def faiss_ids(self) -> set[int]:
        """The ids the FAISS file itself holds (what the purge verifies)."""
        loaded = self.load()
        if loaded is None:
            return set()
        n = loaded.index.ntotal
        return {int(x) for x in faiss.vector_to_array(loaded.index.id_map)[:n]}

    # ------------------------------------------------------------------ writing
    def build(
        self,
        items: Sequence[Item],
        embedder: Embedder,
        *,
        progress: Callable[[int, int], None] | None = None,
        should_stop: Callable[[], bool] | None = None,
    ) -> dict[str, Any]:
        """Write the index of `items`; vectors of unchanged items (same embedder) are reused."""
        previous = self.load(fresh=True)
        reuse: dict[tuple[int, str], np.ndarray[Any, Any]] = {}
        ident = (embedder.name, embedder.model, int(embedder.dimension))
        if previous is not None and previous.identity == ident:
            entries = previous.meta.get("entries", {})
            for row, id64 in enumerate(previous.ids):
                sha = str((entries.get(str(id64)) or {}).get("sha", ""))
                reuse[(id64, sha)] = previous.embeddings[row]
        seen: set[int] = set()
        unique: list[Item] = []
        for it in items:
            if it.id64 in seen:
                raise InvalidSpecError(f"two {self.corpus} items share the index id {it.id64} ({it.key})")
            seen.add(it.id64)
            unique.append(it)
        vectors = np.zeros((len(unique), embedder.dimension), dtype=np.float32)
        todo = [(row, it) for row, it in enumerate(unique) if (it.id64, it.sha) not in reuse]
        for row, it in enumerate(unique):
            if (it.id64, it.sha) in reuse:
                vectors[row] = reuse[(it.id64, it.sha)]
        done = len(unique) - len(todo)
        if progress:
            progress(done, len(unique))
        for start in range(0, len(todo), EMBED_BATCH):
            if should_stop is not None and should_stop():
                from lorekeeper.jobs import Cancelled

                raise Cancelled()
            batch = todo[start : start + EMBED_BATCH]
            got = embedder.embed([it.text for _, it in batch])
            self._check(got, embedder)
            for (row, _), vec in zip(batch, got, strict=True):
                vectors[row] = vec
            done += len(batch)
            if progress:
                progress(done, len(unique))
        index = _new_index(embedder.dimension)
        ids = np.asarray([it.id64 for it in unique], dtype=np.int64)
        if len(unique):
            index.add_with_ids(vectors, ids)
        meta = {
            "format": FORMAT,
            "corpus": self.corpus,
            "embedder": embedder.name,
            "model": embedder.model,
            "dimension": int(embedder.dimension),
            "fingerprint": fingerprint(unique, embedder),
            "built_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "count": len(unique),
            "ids": [int(i) for i in ids],
            "entries": {str(it.id64): {"key": it.key, "story": it.story, "sha": it.sha} for it in unique},
        }
        self._write(index, vectors, meta)
        return meta

    def _check(self, vectors: Vectors, embedder: Embedder) -> None:
        if vectors.ndim != 2 or vectors.shape[1] != embedder.dimension:
            raise IndexMismatchError(
                f"{embedder.name} returned vectors of dimension {vectors.shape[-1]}, not {embedder.dimension}"
            )

    def _write(self, index: Any, vectors: Vectors, meta: dict[str, Any]) -> None:
        self.paths.faiss.parent.mkdir(parents=True, exist_ok=True)
        buf = io.BytesIO()
        np.save(buf, vectors, allow_pickle=False)
        atomic_write_bytes(self.paths.faiss, faiss.serialize_index(index).tobytes())
        atomic_write_bytes(self.paths.embeddings, buf.getvalue())
        atomic_write_text(self.paths.cache, json.dumps(meta, ensure_ascii=False, indent=1, sort_keys=True))

    def add(self, items: Sequence[Item], vectors: Vectors, embedder: Embedder) -> None:
        """Add or replace items in the existing index; refuses another embedder's vectors."""
        loaded = self.load(fresh=True)
        ident = (embedder.name, embedder.model, int(embedder.dimension))
        if loaded is None:
            raise IndexMismatchError(f"no usable {self.corpus} index to add to: run `lorekeeper memory index`")
        if loaded.identity != ident:
            raise IndexMismatchError(
                f"the {self.corpus} index was built by {loaded.identity[0]} ({loaded.identity[1]}, "
                f"{loaded.identity[2]} dims), not {ident[0]} ({ident[1]}, {ident[2]} dims): it refuses to mix "
                "them. Rebuild it with `lorekeeper memory index`."
            )
        self._check(vectors, embedder)
        self.remove([it.id64 for it in items], _loaded=loaded, write=False)
        ids = np.asarray([it.id64 for it in items], dtype=np.int64)
        loaded.index.add_with_ids(np.ascontiguousarray(vectors, dtype=np.float32), ids)
        loaded.embeddings = np.vstack([loaded.embeddings.reshape(-1, ident[2]), vectors]).astype(np.float32)
        loaded.ids.extend(int(i) for i in ids)
        for it in items:
            loaded.meta["entries"][str(it.id64)] = {"key": it.key, "story": it.story, "sha": it.sha}
        self._save(loaded)

    def remove(self, ids: Iterable[int], *, _loaded: Loaded | None = None, write: bool = True) -> int:
        """Erase items by id: `remove_ids` in FAISS, their rows in the embeddings, their cache entries."""
        loaded = _loaded or self.load(fresh=True)
        if loaded is None:
            return 0
        wanted = {int(i) for i in ids} & set(loaded.ids)
        if not wanted:
            return 0
        removed = int(loaded.index.remove_ids(np.asarray(sorted(wanted), dtype=np.int64)))
        keep = [row for row, i in enumerate(loaded.ids) if i not in wanted]
        loaded.embeddings = loaded.embeddings[keep] if keep else loaded.embeddings[:0]
        loaded.ids = [loaded.ids[row] for row in keep]
        for i in wanted:
            loaded.meta.get("entries", {}).pop(str(i), None)
        if write:
            self._save(loaded)
        return removed

    def _save(self, loaded: Loaded) -> None:
        loaded.meta["ids"] = list(loaded.ids)
        loaded.meta["count"] = len(loaded.ids)
        entries = loaded.meta.get("entries", {})
        loaded.meta["fingerprint"] = fingerprint_of(
            ((int(i), str((entries.get(str(i)) or {}).get("sha", ""))) for i in loaded.ids), loaded.identity
        )
        self._write(loaded.index, loaded.embeddings, loaded.meta)

    def delete_files(self) -> None:
        for p in self.paths.all():
            p.unlink(missing_ok=True)

    # ------------------------------------------------------------------ search
    def search(self, query: Vectors, k: int, allowed: Iterable[int] | None = None) -> list[tuple[int, float]]:
        loaded = self.load()
        if loaded is None or loaded.index.ntotal == 0 or k <= 0:
            return []
        params = None
        if allowed is not None:
            allow = np.asarray(sorted({int(i) for i in allowed}), dtype=np.int64)
            if not len(allow):
                return []
            params = faiss.SearchParameters()
            params.sel = faiss.IDSelectorBatch(allow)
        k = min(k, loaded.index.ntotal)
        scores, ids = loaded.index.search(query.reshape(1, -1).astype(np.float32), k, params=params)
        return [(int(i), float(s)) for i, s in zip(ids[0], scores[0], strict=True) if i != -1]
