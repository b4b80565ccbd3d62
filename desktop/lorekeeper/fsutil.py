"""Atomic file writes: temp file in the same folder, fsync, rename.

Modes: a written file follows the umask like any file the user creates (`0o666 & ~umask`: skills,
config and exports that a team shares through git stay readable by the group when the umask says
so); `private=True` is for secrets and signing material (the signed session logs, key files), which
are 0600 whatever the umask. mkstemp alone would make every file 0600.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import threading
from pathlib import Path

PRIVATE_MODE = 0o600
_umask_lock = threading.Lock()


def current_umask() -> int:
    """The process umask (reading it means setting it: done under a lock, restored at once)."""
    with _umask_lock:
        mask = os.umask(0o077)
        os.umask(mask)
    return mask


def default_file_mode() -> int:
    return 0o666 & ~current_umask()


def atomic_write_text(path: Path, text: str, encoding: str = "utf-8", *, private: bool = False) -> None:
    """Replace `path` with `text` atomically; mode 0600 when `private`, else what the umask gives."""
    atomic_write_bytes(path, text.encode(encoding), private=private)


def atomic_write_bytes(path: Path, data: bytes, *, private: bool = False) -> None:
    """Replace `path` with `data` atomically; mode 0600 when `private`, else what the umask gives."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        if hasattr(os, "fchmod"):  # POSIX (Windows has no modes to set)
            os.fchmod(fd, PRIVATE_MODE if private else default_file_mode())
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def is_temp_file(path: Path) -> bool:
    """A temp file `atomic_write_bytes` left behind (`.<name>.<random>.tmp`): a crash mid-write."""
    name = path.name
    return name.startswith(".") and name.endswith(".tmp") and name.count(".") >= 3


def sweep_temp_files(root: Path) -> list[Path]:
    """Remove the half-written temp files of crashed atomic writes under `root`; returns them.

    Safe while other writers run only for files older than a writer can take (a live temp file
    lives milliseconds): callers sweep at start and in `lorekeeper repair`.
    """
    removed: list[Path] = []
    root = Path(root)
    if not root.is_dir():
        return removed
    for path in root.rglob(".*.tmp"):
        if path.is_file() and is_temp_file(path):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
                removed.append(path)
    return removed
