"""Unpack an archive someone else made without trusting it (issue 24 d6).

Every command that unpacks (`skills import` of a .zip/.skill, `market add`/`install` of a zip
source) goes through `unpack_zip`, which checks the whole central directory before writing a byte:

- the archive is a regular file (a FIFO or /dev/zero is refused, never read) of bounded size;
- at most `max_members` members;
- every name a relative path inside the destination (no `/abs`, no `..`, no drive letter, no NUL);
- no symlinks, devices, FIFOs or sockets among the members (their Unix mode says so);
- each member at most `max_file` bytes, all of them at most `max_total`;
- an expansion ratio (uncompressed / archive size) of at most `max_ratio` once the content is
  above `ratio_floor` (a 2 MB zip of zeros that unpacks to 2 GiB is refused);

and then, while writing, counts the bytes really produced: a member whose header lies about its
size is stopped at its declared size (ERR_ARCHIVE_UNSAFE), so the limits hold for forged headers
too. Every refusal is ERR_ARCHIVE_UNSAFE (exit 2) naming the archive (and the member); what was
unpacked before the refusal stays in `dest`, which the caller's temporary folder removes.
"""

from __future__ import annotations

import os
import stat
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from lorekeeper.errors import UnsafeInputError
from lorekeeper.fsutil import MIB, not_regular, shown_path


@dataclass(frozen=True)
class ArchiveLimits:
    max_members: int = 10_000
    max_file: int = 10 * MIB
    max_total: int = 200 * MIB
    max_ratio: float = 100.0
    ratio_floor: int = 1 * MIB  # below this much content any ratio is fine (tiny files compress well)
    max_archive: int = 1024 * MIB
    #: how the per-file limit is changed (named in its error), e.g. "[skills] max_file_mb in lorekeeper.toml"
    file_limit_hint: str = ""


MAX_MEMBER_DEPTH = 64  # folders a member path may nest (the readers' walk refuses deeper trees too)
MAX_MEMBER_PATH = 1024  # characters of a member path


def is_zip(path: Path) -> bool:
    """`zipfile.is_zipfile` for a regular file only (it would block on a FIFO, read a device)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return False
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            return False
        return zipfile.is_zipfile(fh)


def _refuse(message: str, where: str) -> UnsafeInputError:
    return UnsafeInputError(message, code="ERR_ARCHIVE_UNSAFE", file=where)


def member_path(name: str, shown: str) -> str:
    """A member's name as a safe relative POSIX path, or ERR_ARCHIVE_UNSAFE."""
    clean = name.replace("\\", "/").rstrip("/")
    p = PurePosixPath(clean)
    if "\0" in name or not clean or p.is_absolute() or any(part in ("..", "") for part in p.parts) or ":" in p.parts[0]:
        raise _refuse(f"unsafe path in archive: {name!r} (it would land outside the folder it unpacks to)", shown)
    if len(p.parts) > MAX_MEMBER_DEPTH or len(clean) > MAX_MEMBER_PATH:
        raise _refuse(
            f"member path {clean[:60]!r}... is {len(p.parts)} levels and {len(clean):,} characters long; "
            f"the limits are {MAX_MEMBER_DEPTH} and {MAX_MEMBER_PATH:,}",
            shown,
        )
    return str(p)


def _member_kind(m: zipfile.ZipInfo) -> int:
    """The member's Unix file type bits (0 when the archive carries none)."""
    return stat.S_IFMT((m.external_attr >> 16) & 0xFFFF)


def check_zip(
    zf: zipfile.ZipFile, archive_size: int, limits: ArchiveLimits, shown: str, skip: Callable[[str], bool]
) -> list[tuple[zipfile.ZipInfo, str]]:
    """The members to write (with their safe paths), or the first limit they break."""
    members = zf.infolist()
    if len(members) > limits.max_members:
        raise _refuse(f"the archive holds {len(members):,} members; the limit is {limits.max_members:,}", shown)
    out: list[tuple[zipfile.ZipInfo, str]] = []
    total = 0
    for m in members:
        if skip(m.filename):
            continue
        rel = member_path(m.filename, shown)
        kind = _member_kind(m)
        if kind == stat.S_IFLNK:
            raise _refuse(
                "symlinks are refused (a skill must hold its own files): replace it with the file it points to",
                f"{shown}:{rel}",
            )
        if kind not in (0, stat.S_IFREG, stat.S_IFDIR):
            raise _refuse("special file in archive (device, FIFO or socket): only files and folders", f"{shown}:{rel}")
        if m.is_dir():
            continue
        if m.file_size > limits.max_file:
            hint = f" ({limits.file_limit_hint})" if limits.file_limit_hint else ""
            raise _refuse(
                f"file is {m.file_size / MIB:.1f} MB; the limit is {limits.max_file / MIB:g} MB per file{hint}",
                f"{shown}:{rel}",
            )
        total += m.file_size
        if total > limits.max_total:
            raise _refuse(f"the archive unpacks to more than {limits.max_total / MIB:g} MB: too large to import", shown)
        out.append((m, rel))
    if total > limits.ratio_floor and total > limits.max_ratio * max(archive_size, 1):
        raise _refuse(
            f"the archive ({archive_size:,} bytes) unpacks to {total:,} bytes, {total / max(archive_size, 1):.0f} "
            f"times its size; the limit is {limits.max_ratio:g} (a zip bomb?)",
            shown,
        )
    return out


def unpack_zip(
    archive: Path,
    dest: Path,
    limits: ArchiveLimits | None = None,
    *,
    shown: str | None = None,
    skip: Callable[[str], bool] = lambda name: False,
    keep_modes: bool = True,
) -> int:
    """Unpack the zip `archive` into the folder `dest` within `limits`; returns the files written.
    `skip(name)` leaves members out (archive litter such as `__MACOSX/`). Modes: a Unix member's
    permission bits are kept when `keep_modes` (never without owner read), else 0644."""
    limits = limits or ArchiveLimits()
    where = shown if shown is not None else shown_path(archive)
    try:
        fd = os.open(archive, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise _refuse(f"cannot read the archive: {exc.strerror or exc}", where) from None
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise not_regular(archive, st.st_mode, "archive")
        if st.st_size > limits.max_archive:
            raise _refuse(
                f"the archive is {st.st_size / MIB:.0f} MB; the limit is {limits.max_archive / MIB:g} MB", where
            )
        try:
            zf = zipfile.ZipFile(fh)
        except (zipfile.BadZipFile, OSError, ValueError) as exc:
            raise _refuse(f"not a readable zip archive: {exc}", where) from None
        with zf:
            todo = check_zip(zf, st.st_size, limits, where, skip)
            written = 0
            for m, rel in todo:
                target = dest / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                try:
                    with zf.open(m) as src, open(target, "wb") as out:
                        got = 0
                        while chunk := src.read(min(1 << 20, m.file_size + 1 - got)):
                            got += len(chunk)
                            if got > m.file_size:  # the header lied about the size
                                raise _refuse(f"member is larger than its archive header says: {rel}", where)
                            out.write(chunk)
                except (zipfile.BadZipFile, zlib.error, NotImplementedError, EOFError, RuntimeError) as exc:
                    # a bad CRC or stream, an unknown method, an encrypted member
                    raise _refuse(f"cannot unpack member {rel}: {exc}", where) from None
                perms = ((m.external_attr >> 16) & 0o777) if m.create_system == 3 and keep_modes else 0
                os.chmod(target, perms if perms & 0o400 else 0o644)
                written += 1
    return written
