"""The day files of the session log (`sessions/YYYY-MM-DD.jsonl`): where lines are written and read.

Storage only: one fsync'ed `write()` per appended line, an atomic rewrite (0600) for a tombstone,
bounded reads that never hang on a FIFO. What the lines mean is `events`; the lock that orders
readers and writers is the caller's (`SessionLog` holds `locks/sessions.lock`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from lorekeeper.audit.events import parse_line
from lorekeeper.errors import LorekeeperError, NotFoundError
from lorekeeper.fsutil import MIB, atomic_write_text, read_regular_bytes

SESSION_FILE_LIMIT = 4096 * MIB  # one day's signed log; a reader never holds more than this in memory


def read_lines(path: Path, keep_raw: bool = False) -> Iterable[tuple[int, Any, str]]:
    """(line number, parsed event, problem) for each non-empty line; a blank line inside is damage."""
    try:  # a regular file only: a FIFO or device in sessions/ is unreadable, never a hang
        text = read_regular_bytes(path, limit=SESSION_FILE_LIMIT, what="session log").decode("utf-8", "replace")
    except (OSError, LorekeeperError):
        return
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for i, line in enumerate(lines, start=1):
        ev, problem = parse_line(line)
        if problem or ev is None:
            yield i, {"__raw__": line[:2000]} if keep_raw else {}, problem
            continue
        if keep_raw:
            ev["__raw__"] = line
        yield i, ev, ""


def lines_after_head(path: Path, seq: int, sig: str) -> list[str] | None:
    """The lines of `path` after the event (seq, sig), or None when the file does not hold it.

    Read from the end: the head is normally the last line, so this costs one small read.
    """
    size = path.stat().st_size
    chunk = 1 << 16
    while True:
        start = max(0, size - chunk)
        with open(path, "rb") as fh:
            fh.seek(start)
            data = fh.read()
        lines = data.decode("utf-8", errors="replace").split("\n")
        if start > 0:
            lines = lines[1:]  # the first one may be partial
        for i in range(len(lines) - 1, -1, -1):
            line = lines[i]
            if sig not in line:
                continue
            ev, problem = parse_line(line)
            if not problem and ev is not None and ev.get("seq") == seq and ev.get("sig") == sig:
                return lines[i + 1 :]
        if start == 0:
            return None
        chunk *= 4


def split_lines(path: Path) -> list[str]:
    """The whole file, split on newlines (a torn last line included), for the rolls forward."""
    return path.read_text(encoding="utf-8", errors="replace").split("\n")


def mentions(path: Path, needle: str) -> bool:
    """Whether the file's text holds `needle` (a cheap filter before parsing; unreadable: False)."""
    try:
        return needle in path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False


class DayFiles:
    """The folder of day files: listing, appending one line durably, rewriting one file atomically."""

    def __init__(self, sessions_dir: Path) -> None:
        self.dir = Path(sessions_dir)

    def files(self) -> list[Path]:
        if not self.dir.is_dir():
            return []
        return sorted(p for p in self.dir.glob("*.jsonl") if p.is_file())

    def path(self, file: str) -> Path:
        """A file of the log by its name (or a path); ERR_NOT_FOUND when it is not there."""
        p = Path(file)
        if not p.is_absolute() and p.parent == Path("."):
            p = self.dir / p.name
        if not p.is_file():
            raise NotFoundError(f"no session log file {file}")
        return p

    def append_line(self, path: Path, text: str) -> None:
        """One line at the end of `path`, in one `write()`, fsync'ed (and the folder, for a new file)."""
        self.dir.mkdir(parents=True, exist_ok=True)
        new = not path.exists()
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            data = (text + "\n").encode("utf-8")
            size = os.fstat(fd).st_size
            if size:
                os.lseek(fd, size - 1, os.SEEK_SET)
                if os.read(fd, 1) != b"\n":  # a torn line before us: ours starts on its own line
                    data = b"\n" + data
            view = memoryview(data)
            while view:
                n = os.write(fd, view)
                view = view[n:]
            os.fsync(fd)
        finally:
            os.close(fd)
        if new:
            dfd = os.open(self.dir, os.O_RDONLY)
            try:
                os.fsync(dfd)
            finally:
                os.close(dfd)

    @staticmethod
    def rewrite(path: Path, lines: list[str]) -> None:
        atomic_write_text(path, "\n".join(lines), private=True)  # signed session log: 0600 as written

    def find(self, file: str, seq: int, sig: str) -> dict[str, Any] | None:
        """The event (seq, sig) of `file`, parsed, or None."""
        for _line, ev, problem in read_lines(self.dir / file):
            if not problem and ev.get("seq") == seq and ev.get("sig") == sig:
                return dict(ev)
        return None
