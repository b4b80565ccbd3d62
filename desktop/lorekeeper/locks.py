"""The reader/writer lock of DESIGN.md: `fcntl.flock`, shared for readers, exclusive for writers.

A lock file is never deleted, whatever its age: the kernel releases a flock when its holder dies
(even on SIGKILL), so a lock file on disk means nothing by itself, and deleting one while a
process holds it would let a second writer in. Waiting is bounded (30 s by default); past it the
caller gets ERR_LOCK_TIMEOUT and must not touch the protected files.

Each acquisition opens its own file description, so the lock also excludes other threads of the
same process.
"""

from __future__ import annotations

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
