"""The reader/writer lock of DESIGN.md: `fcntl.flock`, shared for readers, exclusive for writers.

A lock file is never deleted, whatever its age: the kernel releases a flock when its holder dies
(even on SIGKILL), so a lock file on disk means nothing by itself, and deleting one while a
process holds it would let a second writer in. Waiting is bounded (30 s by default); past it the
caller gets ERR_LOCK_TIMEOUT and must not touch the protected files.

Each acquisition opens its own file description, so the lock also excludes other threads of the
same process.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from lorekeeper.errors import LorekeeperError

DEFAULT_TIMEOUT = 30.0
_POLL = 0.02


class LockTimeoutError(LorekeeperError):
    code = "ERR_LOCK_TIMEOUT"


class RWLock:
    def __init__(self, path: str | os.PathLike[str], timeout: float = DEFAULT_TIMEOUT) -> None:
        self.path = Path(path)
        self.timeout = float(timeout)

    @contextmanager
    def shared(self, timeout: float | None = None) -> Iterator[None]:
        with self._hold(fcntl.LOCK_SH, timeout):
            yield

    @contextmanager
    def exclusive(self, timeout: float | None = None) -> Iterator[None]:
        with self._hold(fcntl.LOCK_EX, timeout):
            yield

    @contextmanager
    def _hold(self, mode: int, timeout: float | None) -> Iterator[None]:
        limit = self.timeout if timeout is None else float(timeout)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            deadline = time.monotonic() + limit
            while True:
                try:
                    fcntl.flock(fd, mode | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        kind = "shared" if mode == fcntl.LOCK_SH else "exclusive"
                        raise LockTimeoutError(
                            f"could not take the {kind} lock {self.path} within {limit:g} s: another "
                            "Lorekeeper process holds it. Retry when it has finished (the lock file is "
                            "never stale: do not delete it).",
                            lock=str(self.path),
                        ) from None
                    time.sleep(_POLL)
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)


class InUseError(LorekeeperError):
    """The workspace is open in another process (or a restore holds it): the operation needs it closed."""

    code = "ERR_WORKSPACE_IN_USE"


class HeldLock:
    """A flock held until `release()` (not a block): each open `Workspace` holds the shared lock of
    `locks/workspace.lock` for its lifetime; `lorekeeper restore` takes it exclusively, so it runs
    only when no other process has the workspace open, and an open waits while a restore runs.

    The kernel drops it when the holder dies (SIGKILL included), so the file never needs deleting.
    """

    def __init__(self, path: Path, fd: int, mode: int) -> None:
        self.path = path
        self._fd: int | None = fd
        self.mode = mode

    @classmethod
    def acquire(cls, path: str | os.PathLike[str], *, exclusive: bool = False, timeout: float = 0.0) -> HeldLock:
        """Take the lock, waiting at most `timeout` seconds (0: one try); BlockingIOError when busy."""
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        mode = fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH
        fd = os.open(p, os.O_RDWR | os.O_CREAT, 0o600)
        deadline = time.monotonic() + max(0.0, float(timeout))
        while True:
            try:
                fcntl.flock(fd, mode | fcntl.LOCK_NB)
                return cls(p, fd, mode)
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(fd)
                    raise
                time.sleep(_POLL)
            except BaseException:
                os.close(fd)
                raise

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_UN)
            finally:
                os.close(fd)

    def __del__(self) -> None:  # a workspace nobody closed: the descriptor is not leaked
        with contextlib.suppress(Exception):  # interpreter shutdown: the kernel releases it anyway
            self.release()
