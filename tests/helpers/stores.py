"""Empty stores at the migration head, migrated once per test session and copied per test.

`Store(url)` on an empty database runs every Alembic migration: about 0.3-0.5 s a
store, paid by every test of the store and log suites, on SQLite and on PostgreSQL. A copy of a
store migrated once is the same database: the schema and the rows the migrations seed, and
nothing else (no workspace id, no key, no event). Tests of the migrations themselves keep
starting from an empty database (`pg_url`, a new SQLite path).

- SQLite: the template is built in a session folder, copied with SQLite's backup API into a clean
  file (no -wal beside it), and each test gets a byte copy of that file.
- PostgreSQL: the template is a database of the session's cluster; each test gets
  `CREATE DATABASE ... TEMPLATE` (a file-level copy inside the server), dropped afterwards.
"""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
import uuid
from collections.abc import Iterator
from pathlib import Path


def _migrate(url: str) -> None:
    from lorekeeper.store.engine import Store

    Store(url).close()


class MigratedStores:
    """The session's migrated templates, each made on first use."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self._sqlite: Path | None = None
        self._pg: dict[str, str] = {}  # admin url -> template database name

    def sqlite_url(self, dest: Path) -> str:
        """A migrated SQLite store at `dest` (a file path), as a `sqlite:///` url."""
        if self._sqlite is None:
            self.base.mkdir(parents=True, exist_ok=True)
            built = self.base / "built.db"
            _migrate(f"sqlite:///{built}")
            clean = self.base / "migrated.db"
            src, dst = sqlite3.connect(built), sqlite3.connect(clean)
            try:
                src.backup(dst)
            finally:
                src.close()
                dst.close()
            self._sqlite = clean
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(self._sqlite, dest)
        return f"sqlite:///{dest}"

    @contextlib.contextmanager
    def pg_url(self, admin_url: str) -> Iterator[str]:
        """A migrated database of the cluster for one test, dropped afterwards."""
        from sqlalchemy import create_engine, text

        base = admin_url.rsplit("/", 1)[0]
        admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
        try:
            template = self._pg.get(admin_url)
            if template is None:
                template = "lk_migrated_" + uuid.uuid4().hex[:8]
                with admin.connect() as c:
                    c.execute(text(f'CREATE DATABASE "{template}"'))
                _migrate(f"{base}/{template}")  # its engine is disposed: TEMPLATE needs no one connected
                self._pg[admin_url] = template
            name = "lk_" + uuid.uuid4().hex[:12]
            with admin.connect() as c:
                c.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{template}"'))
            try:
                yield f"{base}/{name}"
            finally:
                with admin.connect() as c:
                    c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        finally:
            admin.dispose()
