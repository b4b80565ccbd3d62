"""Engine and session factory. SQLite runs in WAL mode with foreign keys on; writes are serialised.

Migrations (Alembic) are applied when the store is opened, so a workspace always has the schema
of the code that opens it. The same code runs on PostgreSQL when `store.url` says so.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from lorekeeper.errors import LorekeeperError

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


class StoreError(LorekeeperError):
    code = "ERR_STORE"


def _sqlite_pragmas(dbapi_conn, _record) -> None:  # type: ignore[no-untyped-def]
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.close()


def resolve_url(url: str, base: Path) -> str:
    """`sqlite:///lorekeeper.db` is relative to the workspace; absolute paths and servers pass through."""
    prefix = "sqlite:///"
    if url.startswith(prefix) and not url.startswith(prefix + "/") and url != "sqlite:///:memory:":
        return prefix + str((base / url[len(prefix) :]).resolve())
    return url


class Store:
    """Owns the engine. `session()` for reads, `write()` for serialised, transactional writes."""

    def __init__(self, url: str, *, migrate: bool = True) -> None:
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        kwargs: dict[str, object] = {"future": True}
        if self.is_sqlite:
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        else:
            kwargs["pool_pre_ping"] = True
        try:
            self.engine: Engine = create_engine(url, **kwargs)
        except (SQLAlchemyError, ImportError, ValueError) as exc:
            raise StoreError(f"cannot open store {url!r}: {exc}. Check [store] url in lorekeeper.toml.") from None
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._write_lock = threading.RLock()
        if migrate:
            self.migrate()

    def migrate(self) -> None:
        from lorekeeper.store.migrate import upgrade

        try:
            upgrade(self.engine)
        except SQLAlchemyError as exc:
            raise StoreError(f"cannot migrate store: {exc}") from None

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A read session (no commit)."""
        s = self._sessions()
        try:
            yield s
        finally:
            s.close()

    @contextmanager
    def write(self) -> Iterator[Session]:
        """One transaction; commit on success, roll back on any error. Writers are serialised."""
        with self._write_lock:
            s = self._sessions()
            try:
                yield s
                s.commit()
            except BaseException:
                s.rollback()
                raise
            finally:
                s.close()

    def close(self) -> None:
        self.engine.dispose()
