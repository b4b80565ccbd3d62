"""Atomic file writes (temp file in the same folder, fsync, rename) and bounded reads of files a
user names (only regular files, never more than a limit: issue 24 d6).

Modes: a written file follows the umask like any file the user creates (`0o666 & ~umask`: skills,
config and exports that a team shares through git stay readable by the group when the umask says
so); `private=True` is for secrets and signing material (the signed session logs, key files), which
are 0600 whatever the umask. mkstemp alone would make every file 0600.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from lorekeeper.errors import InvalidInputError, UnsafeInputError

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


def atomic_write_bytes(
    path: Path, data: bytes, *, private: bool = False, mode: int | None = None, fsync: bool = True
) -> None:
    """Replace `path` with `data` atomically; mode 0600 when `private`, else `mode`, else what the
    umask gives. `fsync=False`: the caller makes a batch of writes durable at once (`os.sync()`)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        if hasattr(os, "fchmod"):  # POSIX (Windows has no modes to set)
            os.fchmod(fd, PRIVATE_MODE if private else default_file_mode() if mode is None else mode)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            if fsync:
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


def sweep_temp_files(root: Path, *, older_than: float = 0.0) -> list[Path]:
    """Remove the half-written temp files of crashed atomic writes under `root`; returns them.

    Safe while other writers run only for files older than a writer can take (a live temp file
    lives milliseconds): callers sweep at start and in `lorekeeper repair`, or pass `older_than`
    (seconds since the temp file was last written) to sweep beside live writers.
    """
    removed: list[Path] = []
    cutoff = time.time() - older_than
    for path in temp_files_under(Path(root)):
        with contextlib.suppress(FileNotFoundError):
            if older_than and path.stat().st_mtime > cutoff:
                continue  # a writer may still be on it
            path.unlink()
            removed.append(path)
    return removed


def temp_files_under(root: Path) -> list[Path]:
    """The `atomic_write_bytes` temp files under `root` (regular files, any depth; symlinked folders
    are not entered). One `scandir` per folder: at 10,000 skill folders this walk runs on every
    command, and `Path.rglob` took three times as long."""
    found: list[Path] = []
    stack = [os.fspath(root)]
    while stack:
        folder = stack.pop()
        try:
            entries = os.scandir(folder)
        except OSError:  # gone, not a folder, unreadable: nothing to sweep there
            continue
        with entries:
            for entry in entries:
                try:
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)
                    elif entry.name.endswith(".tmp") and entry.is_file() and is_temp_file(Path(entry.path)):
                        found.append(Path(entry.path))
                except OSError:
                    continue
    return found


def append_text(path: Path, text: str) -> None:
    """Append `text` (UTF-8) to a log file, creating it. A FIFO, device or socket in its place is
    refused with OSError instead of waiting for a reader: the file is opened non-blocking and
    checked with fstat before a byte is written (a log must never hang the command)."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags, 0o666)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFileError(path, mode)
        data = text.encode("utf-8", "backslashreplace")
        while data:
            data = data[os.write(fd, data) :]
    finally:
        os.close(fd)


# --------------------------------------------------------------------------- bounded reads

MIB = 1024 * 1024
#: what a file a user names may hold unless its caller says otherwise (a response, a transcript,
#: a learnings file, a recording): far above any real one, far below what exhausts memory
DEFAULT_READ_LIMIT = 32 * MIB


def shown_path(path: os.PathLike[str] | str) -> str:
    """A path as it can be printed whatever its bytes: a name that is not UTF-8 (kept by Python as
    surrogate escapes) shows its odd bytes as `\\xNN` instead of failing to print."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def utf8_name(name: str) -> bool:
    """Whether a file name (as Python holds it) is valid UTF-8: a name that is not holds surrogate
    escapes, which neither SQLite, JSON output nor a terminal can take."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def not_regular(path: os.PathLike[str] | str, mode: int, what: str = "file") -> UnsafeInputError:
    """The refusal of a special file where a regular one was wanted (names the path)."""
    link = " (through a symlink)" if os.path.islink(path) else ""
    return UnsafeInputError(
        f"{what} is {_kind(mode)}{link}, not a regular file: only regular files are read",
        code="ERR_NOT_REGULAR_FILE",
        file=shown_path(path),
    )


def too_large(shown: str, size: int | None, limit: int, what: str = "file") -> UnsafeInputError:
    held = f" (it holds {size / MIB:.1f} MiB)" if size is not None else ""
    return UnsafeInputError(
        f"{what} is over the limit of {limit / MIB:g} MiB{held}", code="ERR_INPUT_TOO_LARGE", file=shown
    )


class NotRegularFileError(OSError):
    """`read_regular_raw` found a FIFO, device, socket or folder: never read."""

    def __init__(self, path: os.PathLike[str] | str, mode: int) -> None:
        super().__init__(errno.EINVAL, f"{_kind(mode)}, not a regular file", str(path))
        self.mode = mode


class FileTooLargeError(OSError):
    """`read_regular_raw` found more than its limit."""

    def __init__(self, path: os.PathLike[str] | str, size: int | None, limit: int) -> None:
        super().__init__(errno.EFBIG, f"over the limit of {limit} bytes", str(path))
        self.size, self.limit = size, limit


def read_regular_raw(path: os.PathLike[str] | str, *, limit: int = DEFAULT_READ_LIMIT, follow: bool = True) -> bytes:
    """The bytes of a regular file, at most `limit`, never blocking: the file is opened
    non-blocking and checked with fstat (a FIFO without a writer, /dev/zero, a socket: refused
    before a byte is read). Raises OSError as `open` does (FileNotFoundError, ...),
    NotRegularFileError or FileTooLargeError (its growth while read is caught too). `follow=False`
    refuses a symlink itself (ELOOP). For callers that sort OS errors themselves; the others use
    `read_regular_bytes`."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    if not follow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    st = os.stat(path, follow_symlinks=follow)
    if not stat.S_ISREG(st.st_mode):
        raise NotRegularFileError(path, st.st_mode)
    if st.st_size > limit:
        raise FileTooLargeError(path, st.st_size, limit)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)  # what was opened, not what the name pointed at a moment ago
        if not stat.S_ISREG(st.st_mode):
            raise NotRegularFileError(path, st.st_mode)
        with os.fdopen(fd, "rb", closefd=False) as fh:
            # the size fstat saw, plus one byte to see it grow (reading `limit + 1` at once made
            # CPython allocate the whole limit, 10 MB, for every 5 KB SKILL.md of an import)
            data = fh.read(min(st.st_size, limit) + 1)
            if len(data) > st.st_size:  # it grew while read: read on up to the limit
                data += fh.read(limit + 1 - len(data))
    finally:
        os.close(fd)
    if len(data) > limit:
        raise FileTooLargeError(path, None, limit)
    return data


def read_regular_bytes(
    path: os.PathLike[str] | str, *, limit: int = DEFAULT_READ_LIMIT, what: str = "file", follow: bool = True
) -> bytes:
    """The bytes of a regular file a user named, at most `limit` of them, without ever blocking.

    A FIFO, device or socket (or a symlink to one) is ERR_NOT_REGULAR_FILE, a file over `limit`
    ERR_INPUT_TOO_LARGE, a symlink with `follow=False` ERR_NOT_REGULAR_FILE; other OS errors are
    ERR_INVALID_INPUT. Every message names the path (see `read_regular_raw`).
    """
    shown = shown_path(path)
    try:
        return read_regular_raw(path, limit=limit, follow=follow)
    except NotRegularFileError as exc:
        raise not_regular(path, exc.mode, what) from None
    except FileTooLargeError as exc:
        raise too_large(shown, exc.size, limit, what) from None
    except OSError as exc:
        if exc.errno == errno.ELOOP and not follow:
            raise UnsafeInputError(f"{what} is a symlink: refused", code="ERR_NOT_REGULAR_FILE", file=shown) from None
        raise InvalidInputError(f"cannot read {what} {shown}: {exc.strerror or exc}") from None


def decode_text(data: bytes, shown: str, *, what: str = "file", encoding: str = "utf-8") -> str:
    """`data` as text, or ERR_NOT_UTF8 naming the file and the first bad byte's offset."""
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise UnsafeInputError(
            f"{what} is not UTF-8 text: invalid byte 0x{data[exc.start]:02x} at byte offset {exc.start}",
            code="ERR_NOT_UTF8",
            file=shown,
        ) from None


def read_regular_text(
    path: os.PathLike[str] | str,
    *,
    limit: int = DEFAULT_READ_LIMIT,
    what: str = "file",
    encoding: str = "utf-8",
    follow: bool = True,
) -> str:
    """`read_regular_bytes` decoded (newlines untouched); bytes that are not UTF-8: ERR_NOT_UTF8."""
    data = read_regular_bytes(path, limit=limit, what=what, follow=follow)
    return decode_text(data, shown_path(path), what=what, encoding=encoding)


def read_stream_bytes(stream: BinaryIO | None = None, *, limit: int = DEFAULT_READ_LIMIT, what: str = "stdin") -> bytes:
    """At most `limit` bytes of a stream (stdin by default): `< /dev/zero` is refused, not read forever."""
    fh = stream if stream is not None else sys.stdin.buffer
    chunks: list[bytes] = []
    got = 0
    while got <= limit:
        chunk = fh.read(min(1 << 20, limit + 1 - got))
        if not chunk:
            break
        chunks.append(chunk)
        got += len(chunk)
    if got > limit:
        raise too_large(what, None, limit, what)
    return b"".join(chunks)


def read_user_bytes(source: os.PathLike[str] | str, *, limit: int = DEFAULT_READ_LIMIT, what: str = "file") -> bytes:
    """A file a user named, or stdin for `-`: bounded, regular files only."""
    if str(source) == "-":
        return read_stream_bytes(limit=limit, what="stdin")
    return read_regular_bytes(source, limit=limit, what=what)


#: how deep a folder a user gives us may go (skills, imports): far below PATH_MAX, far above real trees
MAX_WALK_DEPTH = 64


def walk(
    top: os.PathLike[str] | str, *, max_depth: int = MAX_WALK_DEPTH, what: str = "folder"
) -> Iterator[tuple[str, list[str], list[str]]]:
    """`os.walk(top, followlinks=False)` without its recursion (Python 3.11's recurses once per
    level: 1,000 nested folders are a RecursionError) and with a depth bound: a folder nested more
    than `max_depth` levels below `top` is ERR_INPUT_TOO_DEEP naming it. Top-down; pruning
    `dirnames` in place works as with os.walk; symlinks to folders are listed in `dirnames`, never
    entered; unreadable folders are skipped (os.walk's default)."""
    stack: list[tuple[str, int]] = [(os.fspath(top), 0)]
    while stack:
        here, depth = stack.pop()
        dirs: list[str] = []
        files: list[str] = []
        links: set[str] = set()
        try:
            with os.scandir(here) as it:
                for entry in it:
                    try:
                        is_dir = entry.is_dir()
                    except OSError:
                        is_dir = False
                    (dirs if is_dir else files).append(entry.name)
                    if is_dir and entry.is_symlink():
                        links.add(entry.name)
        except OSError:
            continue
        yield here, dirs, files
        below = [d for d in dirs if d not in links]
        if below and depth >= max_depth:
            raise UnsafeInputError(
                f"{what} nests folders more than {max_depth} levels deep: refused",
                code="ERR_INPUT_TOO_DEEP",
                file=shown_path(os.path.join(here, below[0])),
            )
        stack.extend((os.path.join(here, d), depth + 1) for d in reversed(below))
