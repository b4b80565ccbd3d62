"""Issue 23: nothing opens the live database files behind SQLite's back.

On POSIX, closing any descriptor of a file releases every `fcntl` lock the process holds on it,
SQLite's included. A byte scan of the workspace (the purge's residue check) that read
`lorekeeper.db`, `-wal` and `-shm` from the process holding the connection dropped the write lock
it held: another process could then write at the same time, which is how SQLite databases get
corrupted (https://sqlite.org/howtocorrupt.html §2.2)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from lorekeeper import dbfiles
from lorekeeper.workspace import Workspace

PROBE = """
import sqlite3, sys
con = sqlite3.connect(sys.argv[1], timeout=0, isolation_level=None)
try:
    con.execute("BEGIN IMMEDIATE")
except sqlite3.OperationalError as exc:
    print("locked" if "locked" in str(exc) else f"error: {exc}")
else:
    con.execute("ROLLBACK")
    print("acquired")
"""


def _other_process_can_write(db: Path) -> str:
    proc = subprocess.run([sys.executable, "-c", PROBE, str(db)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


def test_the_residue_scan_keeps_this_process_write_lock(workspace: Workspace) -> None:
    """The reproduction: while this process holds the store's write lock, the purge's byte scan
    runs; another process must still find the database locked."""
    db = workspace.root / "lorekeeper.db"
    with workspace.store.write() as s:
        s.connection()  # BEGIN IMMEDIATE: the write lock is held from here
        assert _other_process_can_write(db) == "locked"
        assert workspace.purge.residue(["a line found nowhere in this workspace, 4411"]) == []
        assert _other_process_can_write(db) == "locked", "the scan dropped SQLite's lock"


def test_the_residue_scan_still_reads_the_database_bytes(workspace: Workspace) -> None:
    """The scan still searches the database and its WAL byte for byte (from a process that holds no
    connection), so a story's text left in a free page or a WAL frame is still found."""
    from lorekeeper.store.models import Learning

    words = "ocelot-verdigris sentinel phrase 90210"
    with workspace.store.write() as s:
        s.add(Learning(project="p", rule=words))
    found = workspace.purge.residue([words])
    assert any(rel.startswith("lorekeeper.db") for rel in found), found


def _as_package_code(source: str, **names: object) -> None:
    """Run `source` as if it were a lorekeeper module (the guard looks at the code's file name)."""
    import lorekeeper

    exec(compile(source, str(Path(lorekeeper.__file__).with_name("_probe.py")), "exec"), dict(names))


def test_package_code_cannot_open_a_live_database_file(workspace: Workspace) -> None:
    """The guard: lorekeeper code that opens a database file this process is connected to fails at
    once with a coded error (before any descriptor exists) instead of silently dropping SQLite's
    locks. Every process that opens a SQLite store has it, the test suite's and its CLI children's
    included, so any code path that does it fails its test."""
    db = workspace.root / "lorekeeper.db"
    for target in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        with pytest.raises(dbfiles.LiveDatabaseAccessError) as err:
            _as_package_code("open(target, 'rb').close()", target=target)
        assert err.value.code == "ERR_LIVE_DB_ACCESS"
        assert target.name in err.value.message and "_probe.py" in err.value.message
        with pytest.raises(dbfiles.LiveDatabaseAccessError):
            _as_package_code(
                "import shutil; shutil.copyfile(target, dest)", target=target, dest=target.with_suffix(".x")
            )
    del dbfiles.violations[-6:]  # the refusals this test caused on purpose
    # the rest of the workspace stays readable, and SQLite itself still opens the database
    _as_package_code("assert open(p, 'rb').read()", p=workspace.root / "lorekeeper.toml")
    assert workspace.learnings.list() is not None


def test_folder_readers_skip_the_database_files(workspace: Workspace) -> None:
    """`facts ingest` of the workspace folder (or of the .db file itself) skips the database files
    instead of reading them (which would have dropped the locks of the open store)."""
    from lorekeeper.facts.documents import Skipped, read_text, scan

    _root, files = scan(workspace.root)
    assert not [c for c in files if dbfiles.is_database_file(c.path)]
    skipped = read_text(workspace.root / "lorekeeper.db")
    assert isinstance(skipped, Skipped) and "database" in skipped.reason


def test_name_check_covers_the_sidecars() -> None:
    for name in ("lorekeeper.db", "lorekeeper.db-wal", "lorekeeper.db-shm", "lorekeeper.db-journal", "x.sqlite3"):
        assert dbfiles.is_database_file(Path("/w") / name), name
    for name in ("lorekeeper.toml", "notes.md", "db.md", "wal.txt"):
        assert not dbfiles.is_database_file(Path("/w") / name), name
