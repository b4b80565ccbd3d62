"""Crash debris in the workspace's `skills/` export: the temp files of a write that was killed.

An export writes each file atomically (a `.<name>.<random>.tmp` beside it, then a rename) while it
holds the export lock (exclusive: exports serialise, so none removes another's temp file and the
last one writes the latest version); a killed export (`kill -9` of a `skills import`) leaves its
temp file.
Sweeping takes the lock exclusively, so it never removes the live temp file of a running export.
It runs when a workspace opens, when it closes (the end of every command that opened one), at the
end of every other command, and in `lorekeeper repair`. Light on imports: `ctx` commands call it.
"""

from __future__ import annotations

from pathlib import Path

from lorekeeper.fsutil import sweep_temp_files, temp_files_under
from lorekeeper.locks import LockTimeoutError, RWLock

EXPORT_LOCK = "skills-export.lock"  # under the workspace's locks/


def export_lock(skills_dir: Path) -> RWLock:
    return RWLock(skills_dir.parent / "locks" / EXPORT_LOCK)


def has_debris(skills_dir: Path) -> bool:
    return bool(temp_files_under(skills_dir))


def sweep(skills_dir: Path, *, timeout: float = 0.2) -> list[Path]:
    """Remove the export's crash debris; nothing when an export holds the lock right now."""
    if not has_debris(skills_dir) or not (skills_dir.parent / "locks").is_dir():
        return []
    try:
        with export_lock(skills_dir).exclusive(timeout=timeout):
            return sweep_temp_files(skills_dir)
    except LockTimeoutError:
        return []
