"""The store: migrations from an empty database on SQLite and PostgreSQL, WAL, foreign keys."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import inspect, text

from lorekeeper.store import Store
from lorekeeper.store.migrate import current_revisions, downgrade, head_revisions


@pytest.fixture(params=["sqlite", "postgres"])
def url(request, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'lk.db'}"
    return request.getfixturevalue("pg_url")


def test_migrations_from_empty_database(url: str) -> None:
    store = Store(url)
    try:
        tables = set(inspect(store.engine).get_table_names())
        assert {"skills", "skill_versions", "eval_runs", "projects", "alembic_version"} <= tables
        assert current_revisions(store.engine) == head_revisions()
        # Opening again is a no-op; going down to nothing and back up works.
        Store(url).close()
        downgrade(store.engine, "base")
        assert "skills" not in set(inspect(store.engine).get_table_names())
        store.migrate()
        assert "skills" in set(inspect(store.engine).get_table_names())
    finally:
        store.close()


def test_sqlite_runs_in_wal_with_foreign_keys(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'lk.db'}")
    with store.session() as s:
        assert s.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert s.execute(text("PRAGMA foreign_keys")).scalar() == 1
    store.close()


def test_failed_write_rolls_back(url: str) -> None:
    from lorekeeper.store.models import Project

    store = Store(url)
    try:
        with pytest.raises(RuntimeError), store.write() as s:
            s.add(Project(name="p1"))
            s.flush()
            raise RuntimeError("boom")
        with store.session() as s:
            assert s.query(Project).count() == 0
    finally:
        store.close()


def test_the_fast_head_check_agrees_with_alembic_and_spares_its_import(tmp_path: Path) -> None:
    """Opening an up-to-date store answers from the migration files without importing Alembic
    (a few hundred ms of every command); a store behind the heads is still migrated by Alembic."""
    import subprocess
    import sys

    from lorekeeper.store.heads import script_heads

    assert set(script_heads()) == head_revisions()
    url = f"sqlite:///{tmp_path / 'lk.db'}"
    Store(url).close()  # migrated here
    probe = (
        "import sys; from lorekeeper.store import Store; Store(sys.argv[1]).close(); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'alembic'))"
    )
    out = subprocess.run([sys.executable, "-c", probe, url], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
    store = Store(url)
    try:
        downgrade(store.engine, "0017_row_versions")
        assert current_revisions(store.engine) != head_revisions()
    finally:
        store.close()
    Store(url).close()  # behind the heads: Alembic brings it up again
    store = Store(url)
    try:
        assert current_revisions(store.engine) == head_revisions()
    finally:
        store.close()
