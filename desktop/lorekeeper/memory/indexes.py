"""`ws.memory`: the corpora's derived indexes (`Derived`), hybrid search, and the erasure of a
story's index entries (`Purgeable`: the clarification summaries' vectors and cache entries).

On a PostgreSQL store whose server has pgvector (issue 25 d3), the indexes live in the store itself
(`memory.pgindex`): one per corpus, shared by every workspace on the store, searched with HNSW and
PostgreSQL full-text fused by RRF; `[memory] backend` says "auto" (that, else FAISS), "faiss" or
"pgvector" (required: an error when the store cannot hold it). FAISS stays the embedded default.

Indexes are derived from the store: `stale()` compares each index's recorded fingerprint (embedder,
model, dimension and the content hash of every item) with the store; a missing, damaged, stale or
other-embedder index is rebuilt before a search (`ensure`) or by `lorekeeper repair` / `memory index`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lorekeeper.config import Config
from lorekeeper.errors import InvalidInputError
from lorekeeper.jobs import CancelToken, Progress
from lorekeeper.memory.corpora import Doc, load_docs
from lorekeeper.memory.items import fingerprint
from lorekeeper.memory.layout import CORPORA, MemoryLayout, check_corpus, item_id64
from lorekeeper.memory.notes import IMPACTS, VERDICTS, norm_choice
from lorekeeper.memory.pgindex import PgCorpusIndex  # light: SQL text only
from lorekeeper.store.engine import Store

if TYPE_CHECKING:  # numpy, FAISS and bm25s load on the first search or build, not when a workspace opens
    from lorekeeper.memory.embedders import Embedder
    from lorekeeper.memory.index import CorpusIndex
    from lorekeeper.memory.search import Bm25

BACKENDS = ("auto", "faiss", "pgvector")
DEFAULT_TOP = 5
VECTOR_CANDIDATES = 100
OnProgress = Callable[[int, int], None]


@dataclass(frozen=True)
class IndexStatus:
    corpus: str
    documents: int
    indexed: int
    embedder: str
    model: str
    dimension: int
    stale: bool
    reason: str
    built_at: str = ""
    backend: str = "faiss"  # or "pgvector": the store's shared index (issue 25 d3)
    backend_note: str = ""  # why FAISS on a PostgreSQL store ([memory] backend = "auto")

    def to_dict(self) -> dict[str, object]:
        return dict(self.__dict__.items())


@dataclass(frozen=True)
class Filters:
    impact: str = ""
    verdict: str = ""
    domain: str = ""
    project: str = ""

    @classmethod
    def of(
        cls,
        impact: str | None = None,
        verdict: str | None = None,
        domain: str | None = None,
        project: str | None = None,
    ) -> Filters:
        try:
            imp = norm_choice(impact, IMPACTS, "impact") if impact else ""
            ver = norm_choice(verdict, VERDICTS, "verdict") if verdict else ""
        except ValueError as exc:
            raise InvalidInputError(str(exc)) from None
        return cls(imp, ver, (domain or "").strip(), (project or "").strip())

    def keep(self, doc: Doc) -> bool:
        f = doc.fields
        if self.impact and f.get("impact") != self.impact:
            return False
        if self.verdict and f.get("verdict") != self.verdict:
            return False
        if self.domain and str(f.get("domain") or "") != self.domain:
            return False
        return not (self.project and str(f.get("project") or "") != self.project)


@dataclass(frozen=True)
class Hit:
    doc: Doc
    score: float
    bm25_rank: int | None
    vector_rank: int | None
    reuse_score: float | None = None  # learnings: the reuse score (seed 004 B3), the secondary sort

    def to_dict(self) -> dict[str, Any]:
        out = {
            "id": self.doc.key,
            "title": self.doc.title,
            "score": round(self.score, 6),
            "corpus": self.doc.corpus,
            "bm25_rank": self.bm25_rank,
            "vector_rank": self.vector_rank,
            **self.doc.fields,
        }
        if self.reuse_score is not None:
            out["reuse_score"] = self.reuse_score
        return out


class MemoryIndexes:
    derived_name = "memory indexes"  # lorekeeper.protocols.Derived
    purge_name = "memory indexes"  # lorekeeper.protocols.Purgeable: a story's clarification vectors

    def __init__(
        self,
        store: Store,
        layout: MemoryLayout,
        config: Config,
        *,
        backend: str = "auto",
        verifier: Callable[[], Any] | None = None,
        learning_scores: Callable[[list[int]], dict[int, float]] | None = None,
    ) -> None:
        """`config`'s `[embeddings]` table names the embedder, built on first use (numpy and the
        model client load then, not at open); `verifier` is the session's row verifier (issue 24:
        rows verified on read); `learning_scores` maps learning ids to their live reuse scores
        (issue 25 d5: the learnings search sorts on them)."""
        if backend not in BACKENDS:
            raise InvalidInputError(f"[memory] backend = {backend!r}: use one of {', '.join(BACKENDS)}")
        self.store = store
        self.backend_setting = backend
        self._backend: tuple[str, str] | None = None
        self.layout = layout
        self.config = config
        self._embedder: Embedder | None = None
        self._lock = threading.Lock()
        self._docs: dict[str, tuple[int, list[Doc]]] = {}
        self._bm25: dict[str, tuple[int, Bm25]] = {}
        self._status: dict[str, tuple[tuple[object, ...], IndexStatus]] = {}
        self._positions: dict[str, tuple[int, dict[int, int]]] = {}
        self.verifier = verifier
        self.learning_scores = learning_scores

    # ------------------------------------------------------------------ pieces
    def embedder(self) -> Embedder:
        with self._lock:
            if self._embedder is None:
                from lorekeeper.memory.embedders import embedder_from_config

                self._embedder = embedder_from_config(self.config)
            return self._embedder

    def backend(self) -> tuple[str, str]:
        """("pgvector" | "faiss", why FAISS when the setting is auto), decided once per workspace."""
        if self._backend is None:
            if self.backend_setting == "faiss" or (self.store.is_sqlite and self.backend_setting == "auto"):
                self._backend = ("faiss", "")
            else:
                from lorekeeper.memory.pgindex import pgvector_state

                ok, why = pgvector_state(self.store)
                if not ok and self.backend_setting == "pgvector":
                    from lorekeeper.errors import InvalidSpecError

                    raise InvalidSpecError(f'[memory] backend = "pgvector" but {why}')
                self._backend = ("pgvector", "") if ok else ("faiss", why)
        return self._backend

    @property
    def shared(self) -> bool:
        """True when the indexes are the store's (every workspace on it searches the same ones)."""
        return self.backend()[0] == "pgvector"

    def index(self, corpus: str) -> CorpusIndex | PgCorpusIndex:
        if self.shared:
            return PgCorpusIndex(corpus, self.store)
        from lorekeeper.memory.index import CorpusIndex

        return CorpusIndex(corpus, self.layout.index(corpus))

    def docs(self, corpus: str) -> list[Doc]:
        check_corpus(corpus)
        rev = self.store.revision()
        hit = self._docs.get(corpus)
        if hit and hit[0] == rev:
            return hit[1]
        verifier = self.verifier() if self.verifier is not None else None
        docs = load_docs(
            self.store,
            corpus,
            (lambda rows: verifier.filter(rows, purpose=f"memory {corpus}")) if verifier is not None else None,
        )
        self._docs[corpus] = (rev, docs)
        return docs

    def _bm25_for(self, corpus: str, docs: list[Doc]) -> Bm25:
        rev = self._docs.get(corpus, (-1, []))[0]
        hit = self._bm25.get(corpus)
        if hit and hit[0] == rev and hit[1].size == len(docs):
            return hit[1]
        from lorekeeper.memory.search import Bm25

        bm = Bm25([d.text for d in docs])
        self._bm25[corpus] = (rev, bm)
        return bm

    # ------------------------------------------------------------------ Derived
    def status(self, corpus: str) -> IndexStatus:
        """Cached while the store revision, the index files and the embedder are unchanged."""
        docs = self.docs(corpus)
        idx = self.index(corpus)
        emb = self.embedder()
        key = (self._docs[corpus][0], idx._stamp(), emb.name, emb.model, emb.dimension)
        hit = self._status.get(corpus)
        if hit is not None and hit[0] == key:
            return hit[1]
        from dataclasses import replace

        backend, note = self.backend()
        st = replace(self._status_of(corpus, docs), backend=backend, backend_note=note)
        self._status[corpus] = (key, st)
        return st

    def _status_of(self, corpus: str, docs: list[Doc]) -> IndexStatus:
        idx = self.index(corpus)
        emb = self.embedder()
        meta = idx.meta()
        if meta is None or not idx.exists():
            return IndexStatus(corpus, len(docs), 0, emb.name, emb.model, emb.dimension, True, "missing")
        ident = (str(meta.get("embedder")), str(meta.get("model")), int(meta.get("dimension") or 0))
        base: dict[str, Any] = {
            "indexed": int(meta.get("count") or 0),
            "embedder": ident[0],
            "model": ident[1],
            "dimension": ident[2],
            "built_at": str(meta.get("built_at") or ""),
        }
        if ident != (emb.name, emb.model, int(emb.dimension)):
            reason = f"built by {ident[0]} ({ident[1]}, {ident[2]} dims); configured: {emb.name} ({emb.dimension} dims)"
            return IndexStatus(corpus, len(docs), stale=True, reason=reason, **base)
        if meta.get("fingerprint") != fingerprint([d.item() for d in docs], emb):
            return IndexStatus(corpus, len(docs), stale=True, reason="out of date", **base)
        if not idx.usable():
            return IndexStatus(corpus, len(docs), stale=True, reason="damaged", **base)
        return IndexStatus(corpus, len(docs), stale=False, reason="", **base)

    def stale(self) -> list[str]:
        out = []
        for corpus in CORPORA:
            st = self.status(corpus)
            if st.stale:
                where = f"store table lk_memory_{corpus}" if self.shared else f"indexes/{corpus}-index.faiss"
                out.append(f"{where} ({st.reason})")
        return out

    def build(
        self, corpus: str, *, progress: OnProgress | None = None, should_stop: Callable[[], bool] | None = None
    ) -> dict[str, Any]:
        docs = self.docs(corpus)
        meta = self.index(corpus).build(
            [d.item() for d in docs], self.embedder(), progress=progress, should_stop=should_stop
        )
        return {k: meta[k] for k in ("corpus", "embedder", "model", "dimension", "count", "built_at")}

    def rebuild(self) -> int:
        written = 0
        for corpus in CORPORA:
            if self.status(corpus).stale:
                self.build(corpus)
                written += 3
        return written

    def rebuild_job(
        self, corpora: tuple[str, ...] = CORPORA, cancel: CancelToken | None = None
    ) -> Generator[Progress, None, list[dict[str, Any]]]:
        """A job (lorekeeper.jobs): rebuilds each corpus's index, yielding progress; Cancel stops
        between embedding batches (the files of the corpus being built stay as they were)."""
        out = []
        for n, corpus in enumerate(corpora):
            yield Progress(n, len(corpora), f"Indexing {corpus}")
            out.append(self.build(corpus, should_stop=cancel))
        yield Progress(len(corpora), len(corpora), "Indexes rebuilt")
        return out

    def ensure(self, corpus: str) -> None:
        st = self.status(corpus)
        if not st.stale:
            return
        if self.shared and st.reason.startswith("built by "):
            # the team's index: a workspace with another embedder does not rebuild it under its own
            from lorekeeper.memory.pgindex import IndexMismatchError

            raise IndexMismatchError(
                f"the shared {corpus} index in the store was {st.reason}: the workspaces on one store must "
                "use one embedder ([memory] embedder and its model). Configure the same one, or rebuild the "
                "team's index for yours with `lorekeeper memory index` (every workspace then needs it)."
            )
        self.build(corpus)

    # ------------------------------------------------------------------ search
    def search(
        self,
        query: str,
        corpus: str,
        *,
        filters: Filters | None = None,
        top: int = DEFAULT_TOP,
        mode: str = "hybrid",
        min_score: float | None = None,
    ) -> list[Hit]:
        """Top `top` documents of `corpus` for `query` among those the filters keep; `mode` is
        hybrid (RRF of both), bm25 or vector.

        Seed 004 exactness (issue 25 d5): a clarification search needs a domain and a project
        (§5.2); a learnings search sorts by relevance, then by reuse score (§5.3: within each
        ranking and after the fusion, equal scores go to the higher reuse score), and
        `min_score` keeps only the learnings whose reuse score is at least that (before `top`)."""
        if top < 1:
            raise InvalidInputError("--top must be at least 1")
        if mode not in ("hybrid", "bm25", "vector"):
            raise InvalidInputError(f"unknown search mode {mode!r}")
        flt = filters or Filters()
        if corpus == "clarifications" and not (flt.domain and flt.project):
            raise InvalidInputError(
                "a clarification search needs a domain and a project (--domain D --project P): past "
                "decisions are searched within the story's own domain and project (seed 004 §5.2)"
            )
        if min_score is not None:
            if corpus != "learnings":
                raise InvalidInputError("--min-score is a learning's reuse score: use it with --corpus learnings")
            if not 0.0 <= min_score <= 1.0:
                raise InvalidInputError(f"--min-score {min_score} is not a reuse score: give a number from 0 to 1")
        docs = self.docs(corpus)
        reuse = self._reuse_scores(docs) if corpus == "learnings" else None
        allowed = [
            i
            for i, d in enumerate(docs)
            if flt.keep(d) and (min_score is None or reuse is None or reuse[i] >= min_score)
        ]
        if not allowed or not query.strip():
            return []
        bm_rank: list[int] = []
        vec_rank: list[int] = []
        subset = None if len(allowed) == len(docs) else allowed  # no filter: no selector to build
        if mode in ("hybrid", "bm25"):
            if self.shared:
                bm_rank = self.text_rank(query, corpus, docs, subset, tiebreak=reuse)
            else:
                bm_rank = self._bm25_for(corpus, docs).rank(query, subset, tiebreak=reuse)
        if mode in ("hybrid", "vector"):
            vec_rank = self.vector_rank(query, corpus, docs, subset, tiebreak=reuse)
        from lorekeeper.memory.search import fuse

        if reuse is None:
            ranked = fuse(bm_rank, vec_rank, top)
            return [Hit(docs[r.position], r.score, r.bm25_rank, r.vector_rank) for r in ranked]
        fused = fuse(bm_rank, vec_rank, len(docs))  # stable sort: equal scores and reuse keep their order
        ranked = sorted(fused, key=lambda r: (-round(r.score, 9), -reuse[r.position]))[:top]
        return [Hit(docs[r.position], r.score, r.bm25_rank, r.vector_rank, reuse[r.position]) for r in ranked]

    def _reuse_scores(self, docs: list[Doc]) -> list[float]:
        """Each learning document's reuse score (4 decimals, as serialised), 0 when never injected."""
        from lorekeeper.learnings.reuse import format_score

        ids = [int(d.key) for d in docs]
        live = self.learning_scores(ids) if self.learning_scores is not None and ids else {}
        return [float(format_score(live.get(i, 0.0))) for i in ids]

    def _position_map(self, corpus: str, docs: list[Doc]) -> dict[int, int]:
        rev = self._docs[corpus][0]
        if self._positions.get(corpus, (None,))[0] != rev:
            self._positions[corpus] = (rev, {d.id64: i for i, d in enumerate(docs)})
        return self._positions[corpus][1]

    def text_rank(
        self,
        query: str,
        corpus: str,
        docs: list[Doc],
        allowed: list[int] | None,
        *,
        tiebreak: list[float] | None = None,
    ) -> list[int]:
        """The shared index's full-text ranking (PostgreSQL ts_rank over the folded words): the
        positions in `docs` of the documents sharing a word with `query`, best first."""
        self.ensure(corpus)
        pos = self._position_map(corpus, docs)
        idx = self.index(corpus)
        sel = None if allowed is None else [docs[i].id64 for i in allowed]
        found = [(pos[i], score) for i, score in idx.text_rank(query, sel) if i in pos]  # type: ignore[union-attr]
        found.sort(key=lambda t: (-round(t[1], 6), -(tiebreak[t[0]] if tiebreak is not None else 0.0), t[0]))
        return [p for p, _ in found]

    def vector_rank(
        self,
        query: str,
        corpus: str,
        docs: list[Doc],
        allowed: list[int] | None,
        *,
        tiebreak: list[float] | None = None,
    ) -> list[int]:
        """Positions in `docs` of the nearest vectors (positive cosine), best first; `allowed`
        restricts them (None: every document); equal cosines (6 decimals) go to the larger
        `tiebreak` value first."""
        import numpy as np

        self.ensure(corpus)
        pos = self._position_map(corpus, docs)
        vec = self.embedder().embed([query])[0]
        if not np.any(vec):
            return []
        n = len(docs) if allowed is None else len(allowed)
        k = min(n, VECTOR_CANDIDATES)
        sel = None if allowed is None else [docs[i].id64 for i in allowed]
        hits = self.index(corpus).search(vec, k, allowed=sel)
        found = [(pos[i], score) for i, score in hits if score > 0 and i in pos]
        if tiebreak is not None:
            found.sort(key=lambda t: (-round(t[1], 6), -tiebreak[t[0]], t[0]))
        return [p for p, _ in found]

    # ------------------------------------------------------------------ Purgeable
    def _story_ids(self, story: str) -> dict[str, set[int]]:
        """Index ids linked to `story`, per corpus (only clarifications: their rows are erased too)."""
        out: dict[str, set[int]] = {}
        idx = self.index("clarifications")
        if isinstance(idx, PgCorpusIndex):
            return {"clarifications": idx.entries_for(story, [item_id64("clarifications", story)])}
        meta = idx.meta() or {}
        ids = {int(i) for i, e in (meta.get("entries") or {}).items() if (e or {}).get("story") == story}
        ids.add(item_id64("clarifications", story))
        out["clarifications"] = ids & (idx.faiss_ids() | {int(i) for i in (meta.get("entries") or {})})
        return out

    def artefacts_for_story(self, story: str) -> dict[str, int]:
        """What of `story` each index file still holds: faiss vectors, embeddings rows, cache entries."""
        idx = self.index("clarifications")
        want = item_id64("clarifications", story)
        if isinstance(idx, PgCorpusIndex):
            return {"store": len(idx.entries_for(story, [want]))}
        loaded = idx.load()
        meta = idx.meta() or {}
        entries = meta.get("entries") or {}
        text = idx.paths.cache.read_text("utf-8") if idx.paths.cache.is_file() else ""
        listed = sum(1 for i, e in entries.items() if int(i) == want or (e or {}).get("story") == story)
        in_cache = max(listed, int(f'"{story}"' in text))
        in_faiss = int(want in idx.faiss_ids())
        in_emb = int(loaded is not None and want in loaded.ids)
        return {"faiss": in_faiss, "embeddings": in_emb, "cache": in_cache}

    def count_for_story(self, story: str) -> int:
        return sum(len(v) for v in self._story_ids(story).values())

    def erase_story(self, story: str) -> int:
        removed = 0
        for corpus, ids in self._story_ids(story).items():
            if ids:
                removed += self.index(corpus).remove(ids)
        self._docs.clear()
        self._bm25.clear()
        return removed

    def verify_erased(self, story: str) -> bool:
        return not any(self.artefacts_for_story(story).values())
