"""Walk a source tree the way a developer sees it: no VCS folders, caches, dependencies or binaries.

Honours the root `.gitignore` (plain names, `*` globs and `dir/` patterns; negations are ignored).
Paths come back sorted, with forward slashes, so a pack is the same on every machine.
"""

from __future__ import annotations

import fnmatch
import os
from dataclasses import dataclass
from pathlib import Path

from lorekeeper.dbfiles import is_database_file

IGNORED_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "node_modules",
        "__pycache__",
        ".venv",
        "venv",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".idea",
        ".vscode",
        "dist",
        "build",
        "target",
        ".eggs",
        ".next",
        "coverage",
        ".cache",
        "site-packages",
    }
)
IGNORED_SUFFIXES = (".pyc", ".pyo", ".so", ".dll", ".dylib", ".lock", ".min.js", ".map", ".egg-info")
MAX_FILE_BYTES = 1_000_000  # larger files are listed as skipped: generated or data, not code to read
BINARY_SNIFF_BYTES = 8192  # a NUL byte in this prefix marks a binary file


@dataclass
class Source:
    rel: str
    text: str


@dataclass
class Skipped:
    rel: str
    reason: str


def scan(root: Path) -> tuple[list[Source], list[Skipped]]:
    root = Path(root)
    if root.is_file():
        if is_database_file(root):
            return [], [Skipped(root.name, "an SQLite database file")]
        data = root.read_bytes()
        return [Source(root.name, _decode(data) or "")], []
    patterns = _gitignore(root)
    sources: list[Source] = []
    skipped: list[Skipped] = []
    for dirpath, dirnames, filenames in os.walk(root):
        reldir = os.path.relpath(dirpath, root).replace(os.sep, "/")
        reldir = "" if reldir == "." else reldir
        dirnames[:] = sorted(
            d
            for d in dirnames
            if d not in IGNORED_DIRS
            and not d.endswith(".egg-info")
            and not _ignored(f"{reldir}/{d}".lstrip("/"), d, True, patterns)
        )
        for name in sorted(filenames):
            rel = f"{reldir}/{name}".lstrip("/")
            if name.endswith(IGNORED_SUFFIXES) or _ignored(rel, name, False, patterns):
                continue
            path = Path(dirpath) / name
            if is_database_file(name):  # never read behind SQLite's back (lorekeeper.dbfiles)
                skipped.append(Skipped(rel, "an SQLite database file"))
                continue
            try:
                size = path.stat().st_size
                if size > MAX_FILE_BYTES:
                    skipped.append(Skipped(rel, f"larger than {MAX_FILE_BYTES:,} bytes"))
                    continue
                data = path.read_bytes()
            except OSError as exc:
                skipped.append(Skipped(rel, f"unreadable: {exc.strerror or exc}"))
                continue
            text = _decode(data)
            if text is None:
                skipped.append(Skipped(rel, "binary"))
                continue
            sources.append(Source(rel, text))
    sources.sort(key=lambda s: s.rel)
    return sources, skipped


def _decode(data: bytes) -> str | None:
    if b"\0" in data[:BINARY_SNIFF_BYTES]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        # legacy-encoded text (latin-1, cp1252) is still text a reader needs: keep it
        return data.decode("latin-1")


def _gitignore(root: Path) -> list[tuple[str, bool]]:
    f = root / ".gitignore"
    out: list[tuple[str, bool]] = []
    if not f.is_file():
        return out
    for line in f.read_text(encoding="utf-8", errors="replace").splitlines():
        line = line.strip()
        if not line or line.startswith(("#", "!")):
            continue
        out.append((line.rstrip("/").lstrip("/"), line.endswith("/")))
    return out


def _ignored(rel: str, name: str, is_dir: bool, patterns: list[tuple[str, bool]]) -> bool:
    for pat, dir_only in patterns:
        if dir_only and not is_dir:
            continue
        if "/" in pat:
            if fnmatch.fnmatch(rel, pat) or rel.startswith(pat + "/"):
                return True
        elif fnmatch.fnmatch(name, pat):
            return True
    return False
