"""Issue 23: nothing opens the live database files behind SQLite's back.

On POSIX, closing any descriptor of a file releases every `fcntl` lock the process holds on it,
SQLite's included. A byte scan of the workspace (the purge's residue check) that read
`lorekeeper.db`, `-wal` and `-shm` from the process holding the connection dropped the write lock
it held: another process could then write at the same time, which is how SQLite databases get
corrupted (https://sqlite.org/howtocorrupt.html §2.2)."""

from __future__ import annotations

import ast
import re
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


# ------------------------------------------------------------------ the static half of the guard
#: byte-level file access: open() and os.open(), Path.open/read_bytes/read_text/write_*, shutil copies
_READERS = {"open", "read_bytes", "read_text", "write_bytes", "write_text"}
_COPIERS = {"copy", "copy2", "copyfile", "copyfileobj", "move", "copytree"}
#: a target expression that names a database or one of its sidecars (`db`, `db_path`, `"x.db-wal"`, ...)
_DB_NAMED = re.compile(
    r"(\.db\b|\.sqlite3?\b|-wal\b|-shm\b|-journal\b|\bdb\b|_db\b|\bdb_|database|\bwal\b|\bshm\b)", re.I
)


_ACCESS_CALL = re.compile(r"\bopen\(|\.read_bytes\(|\.read_text\(|\.write_bytes\(|\.write_text\(|shutil\.\w+\(")


def _may_open_a_database(source: str) -> bool:
    """A cheap superset of the AST rule: a file access call with a database name on its line or the next."""
    if not _ACCESS_CALL.search(source):
        return False
    lines = source.splitlines()
    return any(
        _ACCESS_CALL.search(line) and _DB_NAMED.search(line + " " + (lines[i + 1] if i + 1 < len(lines) else ""))
        for i, line in enumerate(lines)
    )


def _file_access_targets(source: str) -> list[tuple[int, str, str]]:
    """(line, call, target expression) of every byte-level file access in `source`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        fn = node.func
        name = fn.attr if isinstance(fn, ast.Attribute) else fn.id if isinstance(fn, ast.Name) else ""
        if name not in _READERS and name not in _COPIERS:
            continue
        owner = ast.unparse(fn.value) if isinstance(fn, ast.Attribute) else ""
        if name in _COPIERS and owner == "shutil":
            target = " ".join(ast.unparse(a) for a in node.args[:2])
        elif name == "open" and (not owner or owner in ("os", "io", "builtins")):
            target = ast.unparse(node.args[0]) if node.args else ""
        elif name in _READERS and owner:
            target = owner  # path.open(), path.read_bytes(), (root / "x.db").read_bytes()
        else:
            continue
        found.append((node.lineno, name, target))
    return found


def test_no_package_code_opens_a_file_named_as_a_database() -> None:
    """Static, over every module of the package (the runtime guard sees only the paths a test runs):
    no open / read / copy call has a target that names a database or its -wal/-shm/-journal. Byte
    scans of arbitrary folders go through `dbfiles.is_database_file` or run in a process without a
    connection (`privacy/residue_scan.py`); backups and restores use SQLite's backup API."""
    import lorekeeper

    # the rule is not vacuous: each of these is what the purge's residue scan used to do
    for bad in ('(root / "lorekeeper.db").read_bytes()', 'open(db_path, "rb")', "shutil.copy2(self.db, dst)",
                'Path(str(db) + "-wal").read_bytes()', "os.open(wal, os.O_RDONLY)"):  # fmt: skip
        assert _may_open_a_database(bad), bad
        assert any(_DB_NAMED.search(t) for _l, _n, t in _file_access_targets(bad)), bad
    package = Path(lorekeeper.__file__).parent
    offenders = []
    modules = sorted(package.rglob("*.py"))
    assert len(modules) > 100  # the whole package, not a folder of it
    for module in modules:
        source = module.read_text(encoding="utf-8")
        if not _may_open_a_database(source):
            continue  # parsing all 2.6 MB of the package costs seconds; a line scan finds the candidates
        for line, name, target in _file_access_targets(source):
            if _DB_NAMED.search(target):
                offenders.append(f"{module.relative_to(package)}:{line}: {name}({target})")
    assert not offenders, "database files opened behind SQLite's back:\n" + "\n".join(offenders)
