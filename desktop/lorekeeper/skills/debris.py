"""Crash debris in the workspace's `skills/` export: the temp files of a write that was killed.

An export writes each file atomically (a `.<name>.<random>.tmp` beside it, then a rename) while it
holds the export lock (exclusive: exports serialise, so none removes another's temp file and the
last one writes the latest version); a killed export (`kill -9` of a `skills import`) leaves its
temp file.
Sweeping takes the lock exclusively, so it never removes the live temp file of a running export.
It runs when a workspace opens, when it closes (the end of every command that opened one), at the
end of every other command, and in `lorekeeper repair`. Light on imports: `ctx` commands call it.

The journal (issue 26): walking `skills/` costs one `scandir` per folder, about 50 ms at 10,000
skills, and every command ran that walk three times (open, close, end of command). An export now
creates `locks/skills-export.journal` when it takes the lock and removes it when it ends cleanly:
a killed export leaves it, so the walk runs only when the journal says an export died (or when
the export marker says the folder is stale). `lorekeeper repair` still walks the whole folder.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from lorekeeper.fsutil import sweep_temp_files
from lorekeeper.locks import LockTimeoutError, RWLock

EXPORT_LOCK = "skills-export.lock"  # under the workspace's locks/
JOURNAL = "skills-export.journal"  # under the workspace's locks/: an export is running, or was killed


def export_lock(skills_dir: Path) -> RWLock:
    return RWLock(skills_dir.parent / "locks" / EXPORT_LOCK)


def journal(skills_dir: Path) -> Path:
    return skills_dir.parent / "locks" / JOURNAL


def has_debris(skills_dir: Path) -> bool:
    """Whether an export may have left temp files: it started and did not end cleanly (one stat)."""
    return journal(skills_dir).exists()


@contextmanager
def exporting(skills_dir: Path) -> Iterator[None]:
    """Around an export, inside its exclusive lock: the journal exists while it writes and stays
    when the process dies (or the export raises) mid-way, so the next command sweeps."""
    path = journal(skills_dir)
    with contextlib.suppress(OSError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
    yield
    with contextlib.suppress(OSError):
        path.unlink(missing_ok=True)


def sweep_locked(skills_dir: Path) -> list[Path]:
    """Remove the temp files and the journal; the caller holds the export lock exclusively."""
    removed = sweep_temp_files(skills_dir)
    with contextlib.suppress(OSError):
        journal(skills_dir).unlink(missing_ok=True)
    return removed


def sweep(skills_dir: Path, *, timeout: float = 0.2) -> list[Path]:
    """Remove the export's crash debris; nothing when an export holds the lock right now."""
    if not has_debris(skills_dir) or not (skills_dir.parent / "locks").is_dir():
        return []
    try:
        with export_lock(skills_dir).exclusive(timeout=timeout):
            if not has_debris(skills_dir):  # the export that held the lock ended cleanly meanwhile
                return []
            return sweep_locked(skills_dir)
    except LockTimeoutError:
        return []
