"""The live database files are opened by SQLite only (issue 23).

On POSIX, closing ANY descriptor of a file releases every `fcntl` lock the process holds on that
file, SQLite's own included (https://sqlite.org/howtocorrupt.html §2.2). A process that holds a
connection and reads `lorekeeper.db`, `-wal` or `-shm` with `open()`, `Path.read_bytes()` or
`shutil` silently loses its locks: another process can then write or checkpoint while this one
believes it holds them, and the database is corrupted. So:

- scanners of arbitrary folders skip database files by name (`is_database_file`);
- a byte-level scan that must read them (the purge's residue check) runs in a child process that
  holds no connection (`privacy/residue_scan.py`);
- `install_guard()` (the store calls it) adds an audit hook: lorekeeper code that opens a database
  file this process has connected to fails at once with ERR_LIVE_DB_ACCESS, before any descriptor
  exists, instead of corrupting the store later. SQLite's own C-level opens raise no audit event.
"""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import Any

from lorekeeper.errors import LorekeeperError

#: the files SQLite keeps beside a database (rollback journal, WAL, shared-memory index)
SIDECARS = ("-wal", "-shm", "-journal")
#: names that are SQLite databases whatever their content (scanners never read them)
DB_SUFFIXES = (".db", ".sqlite", ".sqlite3")

_PKG = os.path.dirname(os.path.abspath(__file__)) + os.sep
_THIS = os.path.abspath(__file__)
_connected: set[str] = set()
_mutex = threading.Lock()
_installed = False
#: every refused open of this process ("file (where)"), newest last: the test suite fails a test
#: that caused one even when the code caught the error
violations: list[str] = []


class LiveDatabaseAccessError(LorekeeperError):
    """Lorekeeper code tried to open a database file behind SQLite's back (a bug)."""

    code = "ERR_LIVE_DB_ACCESS"


def base_name(path: str) -> str:
    """`x.db-wal` -> `x.db`: the database a sidecar belongs to (other names unchanged)."""
    for suffix in SIDECARS:
        if path.endswith(suffix):
            return path[: -len(suffix)]
    return path


def is_database_file(path: str | os.PathLike[str]) -> bool:
    """Whether `path` is named like an SQLite database or one of its sidecars."""
    name = base_name(os.fspath(path)).lower()
    return name.endswith(DB_SUFFIXES)


def _database_path(arg: Any) -> str | None:
    """The file an `sqlite3.connect(database)` call opens, absolute; None for memory databases."""
    if isinstance(arg, bytes):
        arg = os.fsdecode(arg)
    elif isinstance(arg, os.PathLike):
        arg = os.fspath(arg)
    if not isinstance(arg, str) or not arg or arg == ":memory:":
        return None
    if arg.startswith("file:"):
        arg = arg[len("file:") :].split("?", 1)[0]
        if arg.startswith("//"):  # file:///path, or file://host/path
            arg = "/" + arg[2:].split("/", 1)[1] if "/" in arg[2:] else ""
        if not arg or arg == ":memory:":
            return None
    return str(os.path.realpath(arg))


def connected() -> set[str]:
    """Database files this process has opened a connection to (absolute, resolved)."""
    with _mutex:
        return set(_connected)


def _opened_by_package() -> str | None:
    """The lorekeeper source file (and line) on the stack of the current `open`, if any."""
    frame: FrameType | None = sys._getframe(2)
    while frame is not None:
        filename = frame.f_code.co_filename
        if filename.startswith(_PKG) and filename != _THIS:
            return f"{filename[len(_PKG) :]}:{frame.f_lineno}"
        frame = frame.f_back
    return None


def _check_open(target: Any) -> None:
    if isinstance(target, int) or not _connected:
        return
    if isinstance(target, bytes):
        target = os.fsdecode(target)
    elif isinstance(target, os.PathLike):
        target = os.fspath(target)
    if not isinstance(target, str) or not is_database_file(target):
        return
    base = os.path.realpath(base_name(target))
    with _mutex:
        live = base in _connected
    if not live:
        return
    where = _opened_by_package()
    if where is None:
        return  # not lorekeeper code (a test tampering with a closed store, a library)
    with _mutex:
        violations.append(f"{target} ({where})")
    raise LiveDatabaseAccessError(
        f"refused to open {Path(target).name} outside SQLite ({where}): this process holds a connection "
        "to that database, and closing any other descriptor of it would drop SQLite's locks. This is a "
        "bug; the store is untouched. Please report it with logs/errors.log."
    )


def _hook(event: str, args: tuple[Any, ...]) -> None:
    if event == "open":
        if args:
            _check_open(args[0])
    elif event == "sqlite3.connect":
        path = _database_path(args[0]) if args else None
        if path is not None:
            with _mutex:
                _connected.add(path)


def install_guard() -> None:
    """Once per process: refuse lorekeeper opens of connected database files (audit hooks cannot be
    removed, so this is idempotent and cheap: two string compares per audit event)."""
    global _installed
    with _mutex:
        if _installed:
            return
        _installed = True
    sys.addaudithook(_hook)
