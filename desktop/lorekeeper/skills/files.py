"""A skill is its whole folder: every file of it (text or binary, with its mode bits) is part of
each version. Files are stored content-addressed (`skill_blobs`, keyed by SHA-256, shared by every
version and fork that holds the same bytes); a version lists its files (`skill_version_files`).

SKILL.md and `<name>.evals.json` keep their own columns (`content`, `evals`) because every service
reads them; every other file of the folder is a `SkillFile`. Limits: a size cap per file and per
skill (`[skills] max_file_mb`, `max_skill_mb` in lorekeeper.toml; 10 MB and 50 MB by default);
symlinks, special files and paths outside the folder are refused with an error naming the path.
"""

from __future__ import annotations

import difflib
import hashlib
import os
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from lorekeeper.errors import InvalidSpecError, LorekeeperError, UnsafeInputError
from lorekeeper.fsutil import (
    atomic_write_bytes,
    current_umask,
    is_temp_file,
    read_regular_bytes,
    shown_path,
    utf8_name,
    walk,
)

MB = 1024 * 1024
DEFAULT_MAX_FILE_MB = 10
DEFAULT_MAX_SKILL_MB = 50
IGNORED_DIRS = frozenset({"__MACOSX", ".git"})  # archive litter and version-control folders


@dataclass(frozen=True)
class Limits:
    max_file: int = DEFAULT_MAX_FILE_MB * MB
    max_skill: int = DEFAULT_MAX_SKILL_MB * MB

    @classmethod
    def from_mb(cls, max_file_mb: float | None, max_skill_mb: float | None) -> Limits:
        return cls(
            int((max_file_mb or DEFAULT_MAX_FILE_MB) * MB),
            int((max_skill_mb or DEFAULT_MAX_SKILL_MB) * MB),
        )


@dataclass(frozen=True, order=True)
class SkillFile:
    """One file of a skill version besides SKILL.md and its evals file."""

    path: str  # POSIX, relative to the skill folder
    sha256: str
    mode: int  # permission bits (0o644, 0o755, ...)
    size: int

    @property
    def executable(self) -> bool:
        return bool(self.mode & 0o111)

    def to_dict(self) -> dict[str, object]:
        return {"path": self.path, "sha256": self.sha256, "mode": f"{self.mode:o}", "size": self.size}


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def safe_relpath(rel: str, *, file: str) -> str:
    """A path inside a skill folder, POSIX form; anything that could leave the folder is refused."""
    p = PurePosixPath(rel.replace("\\", "/"))
    if p.is_absolute() or not p.parts or any(part in ("..", "") for part in p.parts) or ":" in p.parts[0]:
        raise InvalidSpecError(f"unsafe path {rel!r}: it would land outside the skill folder", file=file)
    return str(p)


def read_folder_files(
    folder: Path, *, display: str, limits: Limits, exclude: Iterable[str] = (), counted: int = 0
) -> tuple[list[SkillFile], dict[str, bytes], list[InvalidSpecError]]:
    """Every regular file under `folder` (except `exclude`, paths relative to it), with its bytes.

    Errors name `display/<path>` (the path inside the import source), never the folder on disk.
    `counted`: bytes already read from the folder (SKILL.md, the evals file) that count toward the
    per-skill limit.
    """
    skip = set(exclude)
    files: list[SkillFile] = []
    blobs: dict[str, bytes] = {}
    errors: list[InvalidSpecError] = []
    total = counted
    top = os.fspath(folder)
    cut = len(top) + 1  # string paths, not Path objects: an import reads tens of thousands of files
    for dirpath, dirnames, filenames in walk(top, what="the skill"):
        prefix = dirpath[cut:].replace(os.sep, "/") + "/" if len(dirpath) > len(top) else ""
        for d in list(dirnames):
            if d in IGNORED_DIRS:
                dirnames.remove(d)
            elif not utf8_name(d):
                dirnames.remove(d)
                errors.append(
                    UnsafeInputError(
                        "the folder name is not UTF-8: rename it (a skill's files are named in UTF-8)",
                        code="ERR_NOT_UTF8",
                        file=f"{shown_path(display)}/{shown_path(prefix + d)}",
                    )
                )
            elif os.path.islink(os.path.join(dirpath, d)):
                dirnames.remove(d)
                errors.append(_symlink_error(display, prefix + d))
        dirnames.sort()
        for name in sorted(filenames):
            p = os.path.join(dirpath, name)
            rel = prefix + name
            if rel in skip:
                continue
            if not utf8_name(rel):
                errors.append(
                    UnsafeInputError(
                        "the file name is not UTF-8: rename it (a skill's files are named in UTF-8)",
                        code="ERR_NOT_UTF8",
                        file=f"{shown_path(display)}/{shown_path(rel)}",
                    )
                )
                continue
            st = os.lstat(p)
            if stat.S_ISLNK(st.st_mode):
                errors.append(_symlink_error(display, rel))
                continue
            if not stat.S_ISREG(st.st_mode):
                errors.append(
                    InvalidSpecError("not a regular file: only files and folders are kept", file=f"{display}/{rel}")
                )
                continue
            if st.st_size > limits.max_file:
                errors.append(
                    InvalidSpecError(
                        f"file is {st.st_size / MB:.1f} MB; the limit is {limits.max_file / MB:g} MB per file "
                        "([skills] max_file_mb in lorekeeper.toml)",
                        file=f"{display}/{rel}",
                    )
                )
                continue
            total += st.st_size
            try:  # opened without following a link, checked again after opening: never blocks
                data = read_regular_bytes(p, limit=limits.max_file, what="file", follow=False)
            except LorekeeperError as exc:
                errors.append(UnsafeInputError(exc.message.split(": ", 1)[-1], code=exc.code, file=f"{display}/{rel}"))
                continue
            sha = sha256_bytes(data)
            blobs[sha] = data
            files.append(SkillFile(rel, sha, stat.S_IMODE(st.st_mode), len(data)))
    if total > limits.max_skill:
        errors.append(
            InvalidSpecError(
                f"the skill's files total {total / MB:.1f} MB; the limit is {limits.max_skill / MB:g} MB per skill "
                "([skills] max_skill_mb in lorekeeper.toml)",
                file=display,
            )
        )
    return sorted(files), blobs, errors


def _symlink_error(display: str, rel: str) -> InvalidSpecError:
    return InvalidSpecError(
        "symlinks are refused (a skill must hold its own files): replace it with the file or folder it points to",
        file=f"{display}/{rel}",
    )


def write_folder(
    folder: Path,
    main: Mapping[str, bytes],
    files: Iterable[SkillFile],
    blobs: Mapping[str, bytes],
    *,
    fsync: bool = True,
) -> int:
    """Make `folder` hold exactly `main` (SKILL.md, evals: default mode) and `files` (their modes);
    anything else in it is removed. Returns how many files were (re)written. `fsync=False`: the
    caller syncs the whole batch once (a bulk export; each file is still replaced atomically)."""
    want: dict[str, tuple[bytes, int | None]] = {rel: (data, None) for rel, data in main.items()}
    for f in files:
        want[f.path] = (blobs[f.sha256], f.mode)
    if not os.path.lexists(folder):
        return _write_new_folder(folder, want, fsync=fsync)
    written = 0
    for rel, (data, mode) in sorted(want.items()):
        target = folder / rel
        if _same(target, data, mode):
            continue
        for parent in reversed(target.relative_to(folder).parents[:-1]):
            p = folder / parent
            if (p.exists() and not p.is_dir()) or p.is_symlink():
                p.unlink()
        if target.is_dir() and not target.is_symlink():
            _rmtree(target)
        atomic_write_bytes(target, data, mode=mode, fsync=fsync)
        written += 1
    if folder.is_dir():
        for p in sorted(folder.rglob("*"), key=lambda q: len(q.parts), reverse=True):
            rel = p.relative_to(folder).as_posix()
            if rel in want or (p.is_file() and not p.is_symlink() and is_temp_file(p)):
                continue  # a temp file is another writer's (or crash debris the sweep removes)
            if p.is_symlink() or p.is_file():
                p.unlink()
                written += 1
            elif p.is_dir() and not any(w.startswith(rel + "/") for w in want):
                _rmtree(p)
    return written


def _write_new_folder(folder: Path, want: Mapping[str, tuple[bytes, int | None]], *, fsync: bool) -> int:
    """A skill folder that did not exist (an import): created, then each file written in place
    (exclusive create, no temp file and rename: nothing else is in a folder made a moment ago
    under the export lock; a crash mid-way leaves the export marker unwritten, so the next start
    rewrites what differs)."""
    mask = current_umask()
    folder.mkdir(parents=True)
    base = os.fspath(folder)
    made = {base}
    for rel, (data, mode) in sorted(want.items()):
        path = os.path.join(base, rel)
        parent = os.path.dirname(path)
        if parent not in made:
            os.makedirs(parent, exist_ok=True)
            made.add(parent)
        bits = 0o666 & ~mask if mode is None else mode
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), bits)
        try:
            if bits & mask and hasattr(os, "fchmod"):
                os.fchmod(fd, bits)  # an executable script keeps its bits whatever the umask
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            if fsync:
                os.fsync(fd)
        finally:
            os.close(fd)
    return len(want)


def _rmtree(p: Path) -> None:
    import shutil

    shutil.rmtree(p)


def _same(target: Path, data: bytes, mode: int | None) -> bool:
    try:
        if target.is_symlink() or not target.is_file():
            return False
        if mode is not None and stat.S_IMODE(target.stat().st_mode) != mode:
            return False
        return target.read_bytes() == data
    except OSError:
        return False


def folder_differences(
    folder: Path, main: Mapping[str, bytes], files: Iterable[SkillFile], blobs: Mapping[str, bytes]
) -> list[str]:
    """What differs between `folder` and what it should hold (relative paths, with why)."""
    want: dict[str, tuple[bytes, int | None]] = {rel: (data, None) for rel, data in main.items()}
    for f in files:
        want[f.path] = (blobs[f.sha256], f.mode)
    out = [rel for rel, (data, mode) in sorted(want.items()) if not _same(folder / rel, data, mode)]
    if folder.is_dir():
        for p in sorted(folder.rglob("*")):
            rel = p.relative_to(folder).as_posix()
            if rel not in want and (p.is_file() or p.is_symlink()):
                out.append(f"{rel} (should not exist)")
    return out


def is_text(data: bytes) -> bool:
    if b"\0" in data[:8192]:
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def diff_files(
    label_a: str,
    label_b: str,
    a: Mapping[str, tuple[bytes, int]],
    b: Mapping[str, tuple[bytes, int]],
) -> dict[str, str]:
    """Per-file unified diffs between two file sets (path -> (bytes, mode)); only changed files."""
    out: dict[str, str] = {}
    for path in sorted(set(a) | set(b)):
        old, new = a.get(path), b.get(path)
        if old == new:
            continue
        lines: list[str] = []
        if old is not None and new is not None and old[1] != new[1]:
            lines.append(f"mode {old[1]:o} -> {new[1]:o}: {path}\n")
        if old is None or new is None or old[0] != new[0]:
            da, db = (old[0] if old else b""), (new[0] if new else b"")
            fa = f"{label_a}/{path}" if old is not None else "/dev/null"
            fb = f"{label_b}/{path}" if new is not None else "/dev/null"
            if is_text(da) and is_text(db):
                lines.extend(
                    difflib.unified_diff(
                        da.decode("utf-8").splitlines(keepends=True),
                        db.decode("utf-8").splitlines(keepends=True),
                        fromfile=fa,
                        tofile=fb,
                    )
                )
                if lines and not lines[-1].endswith("\n"):
                    lines[-1] += "\n"
            else:
                lines.append(
                    f"Binary file {path} differs: {fa} ({len(da)} bytes, {sha256_bytes(da)[:12]}) -> "
                    f"{fb} ({len(db)} bytes, {sha256_bytes(db)[:12]})\n"
                )
        out[path] = "".join(lines)
    return out
