"""The context engine's cache between runs: parse results and token counts per file content, the
task-independent graphs per tree content (graph.Structure), and whole packs per (tree content,
task, budget, mode), in one SQLite file.

- Keyed by content, never by path or time: a file's entry is the BLAKE2 hash of its text with its
  language and the parse detail; a pack's entry hashes every (path, content hash) of the tree with
  the arguments. Every key also holds `code_version()`, a hash of the context package's own
  sources and the tree-sitter grammars' versions, so an upgrade never serves a stale outline.
- Atomic: each run's new entries are written in one transaction (SQLite's journal), so a run killed
  half-way leaves the entries it had or none.
- Bounded: after a write, the least recently used entries go until the file holds at most
  `max_bytes` (LOREKEEPER_CACHE_MAX_MB, default 256 MB).
- Safe to delete, and never fatal: a missing, locked or damaged file is a cache miss; a damaged
  one is moved aside and started afresh. A pack never fails because of its cache.

Where: `LOREKEEPER_PACK_CACHE_DIR`, else `LOREKEEPER_CACHE_DIR` (the token table's cache too), else the workspace's `cache/` folder when a workspace is named
(--workspace or LOREKEEPER_WORKSPACE) and exists, else the user cache folder (platformdirs).
The library's `pack()` uses no cache unless it is given one; the CLI gives it one.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import sqlite3
import time
import zlib
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

CACHE_FILE = "context-cache.sqlite"
DEFAULT_MAX_BYTES = 256 << 20
_CHUNK = 500  # keys per SELECT ... IN (...)
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS entries ("
    " key BLOB PRIMARY KEY, kind TEXT NOT NULL, value BLOB NOT NULL, size INTEGER NOT NULL,"
    " used REAL NOT NULL)"
)


def default_dir(workspace: Path | None = None) -> Path:
    """Where the CLI keeps the cache (see the module's docstring)."""
    for var in ("LOREKEEPER_PACK_CACHE_DIR", "LOREKEEPER_CACHE_DIR"):
        if os.environ.get(var):
            return Path(os.environ[var]).expanduser()
    if workspace is None and os.environ.get("LOREKEEPER_WORKSPACE"):
        workspace = Path(os.environ["LOREKEEPER_WORKSPACE"]).expanduser()
    if workspace is not None and workspace.is_dir():
        return workspace / "cache"
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("lorekeeper", appauthor=False))


@lru_cache(maxsize=1)
def code_version() -> bytes:
    """A hash of what a cached entry depends on: the context package's sources and the versions of
    the tree-sitter bindings and grammars."""
    from importlib import metadata

    h = hashlib.blake2b(digest_size=16)
    here = Path(__file__).parent
    for path in sorted(here.glob("*.py")):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    for name in _DEPENDENCIES:
        try:
            h.update(f"{name}=={metadata.version(name)};".encode())
        except metadata.PackageNotFoundError:
            h.update(f"{name}: absent;".encode())
    return h.digest()


_DEPENDENCIES = (
    "tree-sitter",
    "tree-sitter-python",
    "tree-sitter-javascript",
    "tree-sitter-typescript",
    "tree-sitter-rust",
    "tree-sitter-go",
    "tree-sitter-java",
    "quicktok-v1",
)


def content_key(*parts: bytes | str) -> bytes:
    h = hashlib.blake2b(code_version(), digest_size=20)
    for p in parts:
        b = p.encode("utf-8", "surrogatepass") if isinstance(p, str) else p
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    return h.digest()


def _damaged(exc: sqlite3.DatabaseError) -> bool:
    """Whether `exc` says the file itself is damaged (not merely locked or busy)."""
    name = str(getattr(exc, "sqlite_errorname", "") or "")
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
        return True
    text = str(exc).lower()
    return "malformed" in text or "not a database" in text


class DiskCache:
    """One SQLite file of pickled, compressed values. Every method swallows the cache's own
    failures: `get_many` then finds nothing and `put_many` stores nothing."""

    def __init__(self, folder: Path, max_bytes: int | None = None) -> None:
        self.path = Path(folder) / CACHE_FILE
        env = os.environ.get("LOREKEEPER_CACHE_MAX_MB", "")
        self.max_bytes = (
            max_bytes if max_bytes is not None else (int(env) << 20 if env.isdigit() else DEFAULT_MAX_BYTES)
        )
        self._db: sqlite3.Connection | None = None
        self.hits = 0
        self.misses = 0
        self.errors: list[str] = []

    def _conn(self) -> sqlite3.Connection | None:
        if self._db is not None:
            return self._db
        for attempt in (1, 2):
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(self.path, timeout=2.0, isolation_level=None)
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")
                db.execute(_SCHEMA)
                self._db = db
                return db
            except sqlite3.DatabaseError as exc:
                self.errors.append(f"{self.path}: {exc}")
                if attempt == 1 and "locked" not in str(exc) and self.path.exists():
                    self._set_aside()
                    continue
                return None
            except OSError as exc:
                self.errors.append(f"{self.path}: {exc}")
                return None
        return None

    def _set_aside(self) -> None:
        """A damaged cache file is renamed (kept for a look, replaced by a fresh one). Only the
        newest damaged file is kept, so a cache that keeps breaking stays within its bound."""
        for old in self.path.parent.glob(self.path.name + ".damaged-*"):
            with contextlib.suppress(OSError):
                old.unlink()
        with contextlib.suppress(OSError):
            os.replace(self.path, self.path.with_name(self.path.name + f".damaged-{int(time.time())}"))
            for suffix in ("-wal", "-shm"):
                Path(str(self.path) + suffix).unlink(missing_ok=True)

    def get_many(self, keys: list[bytes]) -> dict[bytes, Any]:
        db = self._conn()
        out: dict[bytes, Any] = {}
        if db is None or not keys:
            self.misses += len(keys)
            return out
        try:
            for n in range(0, len(keys), _CHUNK):
                chunk = keys[n : n + _CHUNK]
                marks = ",".join("?" * len(chunk))
                for key, value in db.execute(f"SELECT key, value FROM entries WHERE key IN ({marks})", chunk):
                    try:
                        out[bytes(key)] = pickle.loads(zlib.decompress(value))
                    except Exception:  # noqa: BLE001 - a value written by another version: a miss
                        continue
            if out:
                now = time.time()
                db.executemany("UPDATE entries SET used = ? WHERE key = ?", [(now, k) for k in out])
        except sqlite3.DatabaseError as exc:
            self.errors.append(str(exc))
            out = {}
            if _damaged(exc):  # pages garbled after the file opened: start afresh, the next put fills it
                self._restart()
        self.hits += len(out)
        self.misses += len(keys) - len(out)
        return out

    def get(self, key: bytes) -> Any:
        return self.get_many([key]).get(key)

    def put_many(self, kind: str, items: Iterable[tuple[bytes, Any]]) -> None:
        """Store the items in one transaction, then trim the file to `max_bytes`."""
        rows = []
        now = time.time()
        for key, value in items:
            blob = zlib.compress(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL), 1)
            rows.append((key, kind, blob, len(blob), now))
        for attempt in (1, 2):
            db = self._conn()
            if db is None or not rows:
                return
            try:
                db.execute("BEGIN IMMEDIATE")
                db.executemany(
                    "INSERT OR REPLACE INTO entries (key, kind, value, size, used) VALUES (?, ?, ?, ?, ?)", rows
                )
                self._trim(db)
                db.execute("COMMIT")
                return
            except sqlite3.DatabaseError as exc:
                self.errors.append(str(exc))
                with contextlib.suppress(sqlite3.DatabaseError):
                    db.execute("ROLLBACK")
                if attempt == 2 or not _damaged(exc):
                    return
                self._restart()  # a damaged file is set aside and the entries go to a fresh one

    def _restart(self) -> None:
        """Close the damaged file, set it aside and let the next call open a fresh one."""
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
            self._db = None
        self._set_aside()

    def put(self, kind: str, key: bytes, value: Any) -> None:
        self.put_many(kind, [(key, value)])

    def _trim(self, db: sqlite3.Connection) -> None:
        total = db.execute("SELECT COALESCE(SUM(size), 0) FROM entries").fetchone()[0]
        if total <= self.max_bytes:
            return
        drop: list[bytes] = []
        for key, size in db.execute("SELECT key, size FROM entries ORDER BY used, key"):
            if total <= self.max_bytes * 0.9:  # some room, so the next run does not trim again
                break
            drop.append(key)
            total -= size
        db.executemany("DELETE FROM entries WHERE key = ?", [(k,) for k in drop])

    def size(self) -> int:
        db = self._conn()
        if db is None:
            return 0
        return int(db.execute("SELECT COALESCE(SUM(size), 0) FROM entries").fetchone()[0])

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
