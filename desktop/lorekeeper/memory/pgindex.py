"""Team memory on the engine (issue 25 d3): a corpus's index kept in the PostgreSQL store itself.

When the store is PostgreSQL and the server has pgvector, every workspace on the store shares one
index per corpus instead of its own FAISS files under `indexes/`:

- `lk_memory_corpora`: one row per corpus: the embedder, model and dimension that built the index,
  the fingerprint of what it holds (the same as the FAISS cache's), a count, a build time and a
  version that moves on every change (the status cache's stamp).
- `lk_memory_<corpus>`: one row per item (its stable 64-bit id, key, story, content hash), its
  vector in a `vector(D)` column under an HNSW index (inner product, the FAISS index's metric) and
  its folded words in a `tsvector` column under a GIN index (the full-text ranking RRF fuses with
  the vector ranking, as BM25 is on the embedded path).

A corpus's table is made for one dimension: vectors of another embedder, model or dimension are
refused (`IndexMismatchError`); a search with another embedder configured says so instead of
rebuilding the team's index under it; `lorekeeper memory index` rebuilds it explicitly (the table
is dropped and made again for the new dimension). Writers hold a transaction-level advisory lock
per corpus, so two workspaces that build at once do it one after the other (the second finds the
index up to date). These tables are derived data, like the FAISS files: not migrated, not signed,
rebuilt from the store's rows.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import text
from sqlalchemy.engine import Connection

from lorekeeper.errors import InvalidSpecError
from lorekeeper.memory.items import Item, fingerprint, fingerprint_of
from lorekeeper.privacy.purgeables import OneArtefact

if TYPE_CHECKING:
    from lorekeeper.memory.embedders import Embedder, Vectors
    from lorekeeper.store.engine import Store

FORMAT = 1
EMBED_BATCH = 256
INSERT_BATCH = 200
META_TABLE = "lk_memory_corpora"
# the ef_search of an HNSW scan: at least the candidates asked for (pgvector's default is 40)
MIN_EF_SEARCH = 40
HNSW_MAX_DIM = 2000


def table_of(corpus: str) -> str:
    return f"lk_memory_{corpus}"


def _lock_key(corpus: str) -> int:
    return int.from_bytes(
        hashlib.blake2b(f"lorekeeper-memory:{corpus}".encode(), digest_size=8).digest(), "big", signed=True
    )


def _vector_literal(vec: Any) -> str:
    return "[" + ",".join(f"{float(x):.7g}" for x in vec) + "]"


def _tsquery(query: str) -> str:
    """An OR of the query's folded words (each quoted: `\\w+` words hold nothing tsquery parses)."""
    from lorekeeper.memory.text import tokens

    words = sorted({t for t in tokens(query) if any(c.isalnum() for c in t)})
    return " | ".join(f"'{w}'" for w in words)


def pgvector_state(store: Store) -> tuple[bool, str]:
    """(usable, why not): the server must offer the `vector` extension (installed here if it is not)."""
    if store.is_sqlite:
        return False, "the store is SQLite"
    try:
        with store.engine.connect() as conn:
            have = conn.execute(text("SELECT extversion FROM pg_extension WHERE extname = 'vector'")).scalar()
            offered = conn.execute(text("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'")).scalar()
            conn.rollback()
        if have:
            return True, ""
        if not offered:
            return False, "the PostgreSQL server has no pgvector extension"
        with store.engine.begin() as conn:
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _lock_key("extension")})
            conn.execute(text("CREATE EXTENSION IF NOT EXISTS vector"))
        return True, ""
    except Exception as exc:  # noqa: BLE001 - no right to create the extension: say why, stay on FAISS
        return False, f"pgvector cannot be enabled on the store ({type(exc).__name__}: {str(exc).splitlines()[0]})"


class IndexMismatchError(InvalidSpecError):
    """Vectors of another embedder, model or dimension than the one that built the shared index."""


class PgCorpusIndex:
    """One corpus's shared index in the PostgreSQL store (the interface of `index.CorpusIndex`)."""

    shared = True

    def __init__(self, corpus: str, store: Store) -> None:
        self.corpus = corpus
        self.store = store
        self.table = table_of(corpus)

    # ------------------------------------------------------------------ reading
    def _ensure_meta(self, conn: Connection) -> None:
        conn.execute(
            text(
                f"CREATE TABLE IF NOT EXISTS {META_TABLE} (corpus text PRIMARY KEY, format integer NOT NULL, "
                "embedder text NOT NULL, model text NOT NULL, dimension integer NOT NULL, fingerprint text NOT NULL, "
                "count integer NOT NULL, built_at text NOT NULL, version bigint NOT NULL)"
            )
        )

    def meta(self) -> dict[str, Any] | None:
        try:
            with self.store.engine.connect() as conn:
                row = (
                    conn.execute(
                        text(
                            f"SELECT embedder, model, dimension, fingerprint, count, built_at, version, format "
                            f"FROM {META_TABLE} WHERE corpus = :c"
                        ),
                        {"c": self.corpus},
                    )
                    .mappings()
                    .first()
                )
                conn.rollback()
        except Exception:  # noqa: BLE001 - no table yet: no index
            return None
        if row is None:
            return None
        out = dict(row)
        out["corpus"] = self.corpus
        out["backend"] = "pgvector"
        return out

    def exists(self) -> bool:
        return self.meta() is not None

    def usable(self) -> bool:
        meta = self.meta()
        if meta is None:
            return False
        try:
            with self.store.engine.connect() as conn:
                n = conn.execute(text(f"SELECT count(*) FROM {self.table}")).scalar()
                conn.rollback()
        except Exception:  # noqa: BLE001 - the table is gone: rebuilt
            return False
        return int(n or 0) == int(meta.get("count") or 0)

    def _stamp(self) -> tuple[object, ...] | None:
        meta = self.meta()
        return None if meta is None else ("pgvector", meta.get("version"), meta.get("fingerprint"))

    def ids(self) -> set[int]:
        try:
            with self.store.engine.connect() as conn:
                rows = conn.execute(text(f"SELECT id64 FROM {self.table}")).scalars().all()
                conn.rollback()
        except Exception:  # noqa: BLE001 - no table: nothing held
            return set()
        return {int(i) for i in rows}

    def entries_for(self, story: str, keys: Iterable[int] = ()) -> set[int]:
        """Ids of the rows linked to `story` (or among `keys`): what the purge erases and checks."""
        try:
            with self.store.engine.connect() as conn:
                rows = (
                    conn.execute(
                        text(f"SELECT id64 FROM {self.table} WHERE story = :s OR id64 = ANY(:k)"),
                        {"s": story, "k": [int(k) for k in keys]},
                    )
                    .scalars()
                    .all()
                )
                conn.rollback()
        except Exception:  # noqa: BLE001 - no table: nothing held
            return set()
        return {int(i) for i in rows}

    # ------------------------------------------------------------------ writing
    def _create_table(self, conn: Connection, dimension: int) -> None:
        conn.execute(text(f"DROP TABLE IF EXISTS {self.table}"))
        conn.execute(
            text(
                f"CREATE TABLE {self.table} (id64 bigint PRIMARY KEY, key text NOT NULL, story text NOT NULL, "
                f"sha text NOT NULL, tsv tsvector NOT NULL, embedding vector({int(dimension)}) NOT NULL)"
            )
        )
        if dimension <= HNSW_MAX_DIM:  # pgvector's HNSW takes up to 2,000 dims; beyond, an exact scan
            conn.execute(text(f"CREATE INDEX {self.table}_hnsw ON {self.table} USING hnsw (embedding vector_ip_ops)"))
        conn.execute(text(f"CREATE INDEX {self.table}_fts ON {self.table} USING gin (tsv)"))
        conn.execute(text(f"CREATE INDEX {self.table}_story ON {self.table} (story)"))

    def _check(self, vectors: Vectors, embedder: Embedder) -> None:
        if vectors.ndim != 2 or vectors.shape[1] != embedder.dimension:
            raise IndexMismatchError(
                f"{embedder.name} returned vectors of dimension {vectors.shape[-1]}, not {embedder.dimension}"
            )

    def build(
        self,
        items: Sequence[Item],
        embedder: Embedder,
        *,
        progress: Callable[[int, int], None] | None = None,
        should_stop: Callable[[], bool] | None = None,
    ) -> dict[str, Any]:
        """Bring the shared index to `items`: rows of unchanged items (same embedder) are kept, the
        others embedded and written, rows of items gone deleted; another embedder's index is made
        again for the new one. One transaction under the corpus's advisory lock."""
        seen: set[int] = set()
        for it in items:
            if it.id64 in seen:
                raise InvalidSpecError(f"two {self.corpus} items share the index id {it.id64} ({it.key})")
            seen.add(it.id64)
        ident = (embedder.name, embedder.model, int(embedder.dimension))
        want_fp = fingerprint(items, embedder)
        now = datetime.now(UTC).isoformat(timespec="seconds")
        with self.store.engine.begin() as conn:
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _lock_key(self.corpus)})
            self._ensure_meta(conn)
            row = conn.execute(
                text(f"SELECT embedder, model, dimension, fingerprint FROM {META_TABLE} WHERE corpus = :c FOR UPDATE"),
                {"c": self.corpus},
            ).first()
            table_ok = conn.execute(text("SELECT to_regclass(:t)"), {"t": self.table}).scalar() is not None
            same = row is not None and table_ok and (str(row[0]), str(row[1]), int(row[2])) == ident
            have: dict[int, str] = {}
            if same and row is not None:
                if str(row[3]) == want_fp:  # another workspace built it meanwhile
                    if progress:
                        progress(len(items), len(items))
                    return self._meta_dict(conn)
                have = {int(i): str(s) for i, s in conn.execute(text(f"SELECT id64, sha FROM {self.table}"))}
            else:
                self._create_table(conn, ident[2])
            wanted = {it.id64: it.sha for it in items}
            gone = [i for i, s in have.items() if wanted.get(i) != s]
            if gone:
                conn.execute(text(f"DELETE FROM {self.table} WHERE id64 = ANY(:ids)"), {"ids": gone})
            todo = [it for it in items if have.get(it.id64) != it.sha]
            done = len(items) - len(todo)
            if progress:
                progress(done, len(items))
            for start in range(0, len(todo), EMBED_BATCH):
                if should_stop is not None and should_stop():
                    from lorekeeper.jobs import Cancelled

                    raise Cancelled()  # the transaction rolls back: the index stays as it was
                batch = todo[start : start + EMBED_BATCH]
                got = embedder.embed([it.text for it in batch])
                self._check(got, embedder)
                self._insert(conn, batch, got)
                done += len(batch)
                if progress:
                    progress(done, len(items))
            self._write_meta(conn, ident, self._fingerprint(conn, ident), now)
            return self._meta_dict(conn)

    def _insert(self, conn: Connection, items: Sequence[Item], vectors: Vectors) -> None:
        from lorekeeper.memory.text import tokens

        rows = [
            {
                "id": it.id64,
                "key": it.key,
                "story": it.story,
                "sha": it.sha,
                "words": " ".join(tokens(it.text)),
                "vec": _vector_literal(vec),
            }
            for it, vec in zip(items, vectors, strict=True)
        ]
        for start in range(0, len(rows), INSERT_BATCH):
            conn.execute(
                text(
                    f"INSERT INTO {self.table} (id64, key, story, sha, tsv, embedding) VALUES "
                    "(:id, :key, :story, :sha, to_tsvector('simple', :words), CAST(:vec AS vector)) "
                    "ON CONFLICT (id64) DO UPDATE SET key = EXCLUDED.key, story = EXCLUDED.story, "
                    "sha = EXCLUDED.sha, tsv = EXCLUDED.tsv, embedding = EXCLUDED.embedding"
                ),
                rows[start : start + INSERT_BATCH],
            )

    def _fingerprint(self, conn: Connection, ident: tuple[str, str, int]) -> str:
        pairs = [(int(i), str(s)) for i, s in conn.execute(text(f"SELECT id64, sha FROM {self.table}"))]
        return fingerprint_of(pairs, ident)

    def _write_meta(self, conn: Connection, ident: tuple[str, str, int], fp: str, built_at: str | None) -> None:
        n = int(conn.execute(text(f"SELECT count(*) FROM {self.table}")).scalar() or 0)
        conn.execute(
            text(
                f"INSERT INTO {META_TABLE} AS m (corpus, format, embedder, model, dimension, fingerprint, count, "
                "built_at, version) VALUES (:c, :f, :e, :m, :d, :fp, :n, COALESCE(CAST(:b AS text), ''), 1) ON CONFLICT (corpus) DO UPDATE SET "
                "format = EXCLUDED.format, embedder = EXCLUDED.embedder, model = EXCLUDED.model, "
                "dimension = EXCLUDED.dimension, fingerprint = EXCLUDED.fingerprint, count = EXCLUDED.count, "
                "built_at = COALESCE(CAST(:b AS text), m.built_at), version = m.version + 1"
            ),
            {
                "c": self.corpus,
                "f": FORMAT,
                "e": ident[0],
                "m": ident[1],
                "d": ident[2],
                "fp": fp,
                "n": n,
                "b": built_at,
            },
        )

    def _meta_dict(self, conn: Connection) -> dict[str, Any]:
        row = (
            conn.execute(
                text(
                    f"SELECT embedder, model, dimension, fingerprint, count, built_at FROM {META_TABLE} WHERE corpus = :c"
                ),
                {"c": self.corpus},
            )
            .mappings()
            .one()
        )
        return {"corpus": self.corpus, "backend": "pgvector", **dict(row)}

    def remove(self, ids: Iterable[int]) -> int:
        """Erase rows by id (their vector, words and entry), under the corpus's lock."""
        wanted = sorted({int(i) for i in ids})
        if not wanted:
            return 0
        with self.store.engine.begin() as conn:
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _lock_key(self.corpus)})
            if conn.execute(text("SELECT to_regclass(:t)"), {"t": self.table}).scalar() is None:
                return 0
            removed = conn.execute(text(f"DELETE FROM {self.table} WHERE id64 = ANY(:ids)"), {"ids": wanted}).rowcount
            if removed:
                row = conn.execute(
                    text(f"SELECT embedder, model, dimension FROM {META_TABLE} WHERE corpus = :c"), {"c": self.corpus}
                ).first()
                if row is not None:
                    ident = (str(row[0]), str(row[1]), int(row[2]))
                    self._write_meta(conn, ident, self._fingerprint(conn, ident), None)
        return int(removed or 0)

    def delete_files(self) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _lock_key(self.corpus)})
            conn.execute(text(f"DROP TABLE IF EXISTS {self.table}"))
            self._ensure_meta(conn)
            conn.execute(text(f"DELETE FROM {META_TABLE} WHERE corpus = :c"), {"c": self.corpus})

    # ------------------------------------------------------------------ search
    def search(self, query: Vectors, k: int, allowed: Iterable[int] | None = None) -> list[tuple[int, float]]:
        """(id, inner product) of the `k` nearest rows through the HNSW index, best first."""
        if k <= 0:
            return []
        params: dict[str, Any] = {"q": _vector_literal(query.reshape(-1)), "k": int(k)}
        where = ""
        if allowed is not None:
            params["ids"] = sorted({int(i) for i in allowed})
            if not params["ids"]:
                return []
            where = "WHERE id64 = ANY(:ids)"
        with self.store.engine.begin() as conn:
            conn.execute(text(f"SET LOCAL hnsw.ef_search = {max(MIN_EF_SEARCH, min(int(k), 1000))}"))
            # a filter after the scan would leave fewer than k: pgvector >= 0.8 scans on until it has them
            conn.execute(text("SET LOCAL hnsw.iterative_scan = strict_order"))
            rows = conn.execute(
                text(
                    f"SELECT id64, -(embedding <#> CAST(:q AS vector)) AS score FROM {self.table} {where} "
                    "ORDER BY embedding <#> CAST(:q AS vector) LIMIT :k"
                ),
                params,
            ).all()
        return [(int(i), float(s)) for i, s in rows]

    def text_rank(self, query: str, allowed: Iterable[int] | None = None) -> list[tuple[int, float]]:
        """(id, ts_rank) of the rows sharing a word with `query` (PostgreSQL full-text), best first."""
        q = _tsquery(query)
        if not q:
            return []
        params: dict[str, Any] = {"q": q}
        where = ""
        if allowed is not None:
            params["ids"] = sorted({int(i) for i in allowed})
            if not params["ids"]:
                return []
            where = "AND id64 = ANY(:ids)"
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                text(
                    f"SELECT id64, ts_rank(tsv, to_tsquery('simple', :q), 1) AS score FROM {self.table} "
                    f"WHERE tsv @@ to_tsquery('simple', :q) {where} ORDER BY score DESC, id64"
                ),
                params,
            ).all()
            conn.rollback()
        return [(int(i), float(s)) for i, s in rows]

    def explain(self, query: Vectors, k: int) -> str:
        """The plan of a vector search (a test proves the HNSW index serves it)."""
        with self.store.engine.begin() as conn:
            conn.execute(text("SET LOCAL enable_seqscan = off"))
            rows = conn.execute(
                text(f"EXPLAIN SELECT id64 FROM {self.table} ORDER BY embedding <#> CAST(:q AS vector) LIMIT :k"),
                {"q": _vector_literal(query.reshape(-1)), "k": int(k)},
            ).scalars()
            return "\n".join(str(r) for r in rows)


class PgIndexEntries(OneArtefact):
    """The purge's view of one shared corpus index: the rows of a story in `lk_memory_<corpus>`
    (vector, words, entry), erased in one transaction and checked gone; the purge's compaction
    vacuums the table (`purge_tables`)."""

    purge_artefacts: tuple[str, ...] = ("store",)

    def __init__(self, index: PgCorpusIndex, item_id: Callable[[str, str], int], *, on_retention: bool = True) -> None:
        self.index = index
        self.corpus = index.corpus
        self.purge_name = f"index:{self.corpus}"
        self.purge_on_retention = on_retention
        self.item_id = item_id
        self.purge_tables: tuple[str, ...] = (index.table,)  # vacuumed by the compaction once it exists

    def _ids(self, story_id: str) -> set[int]:
        keys = {int(self.item_id(self.corpus, story_id))} if self.corpus == "clarifications" else set()
        return self.index.entries_for(story_id, keys)

    def count_for_story(self, story_id: str) -> int:
        return len(self._ids(story_id))

    def erase_story(self, story_id: str) -> int:
        return self.index.remove(self._ids(story_id))

    def verify_erased(self, story_id: str) -> bool:
        return not self._ids(story_id)
