"""The flock reader/writer lock (several processes), its timeout, and the fail-closed depth."""

from __future__ import annotations

import multiprocessing as mp
import threading
import time
from pathlib import Path

import pytest

from lorekeeper.audit.errors import FailClosedRecursionError
from lorekeeper.audit.failclosed import depth, fail_closed
from lorekeeper.locks import LockTimeoutError, RWLock


def _hold(path: str, mode: str, ready, release) -> None:  # runs in a child process
    lock = RWLock(path)
    with getattr(lock, mode)():
        ready.set()
        release.wait(30)


def _child(path: str, mode: str):
    ctx = mp.get_context("spawn")
    ready, release = ctx.Event(), ctx.Event()
    proc = ctx.Process(target=_hold, args=(path, mode, ready, release))
    proc.start()
    assert ready.wait(30), "child never got the lock"
    return proc, release


def test_a_writer_in_another_process_excludes_us_until_the_timeout(tmp_path: Path):
    path = str(tmp_path / "locks" / "memory.lock")
    proc, release = _child(path, "exclusive")
    try:
        lock = RWLock(path)
        t0 = time.monotonic()
        with pytest.raises(LockTimeoutError) as exc, lock.shared(timeout=0.3):
            pass
        assert time.monotonic() - t0 >= 0.3
        assert exc.value.code == "ERR_LOCK_TIMEOUT" and "do not delete" in exc.value.message
        with pytest.raises(LockTimeoutError), lock.exclusive(timeout=0.2):
            pass
    finally:
        release.set()
        proc.join(30)
    with RWLock(path).exclusive(timeout=5):  # released by the child: we get it
        pass


def test_readers_share_and_exclude_writers(tmp_path: Path):
    path = str(tmp_path / "rw.lock")
    proc, release = _child(path, "shared")
    try:
        with RWLock(path).shared(timeout=1):  # two readers at once
            pass
        with pytest.raises(LockTimeoutError), RWLock(path).exclusive(timeout=0.2):
            pass
    finally:
        release.set()
        proc.join(30)


def test_a_killed_holder_releases_the_lock_and_the_file_stays(tmp_path: Path):
    path = tmp_path / "k.lock"
    proc, _release = _child(str(path), "exclusive")
    proc.kill()
    proc.join(30)
    with RWLock(path).exclusive(timeout=5):
        pass
    assert path.exists()  # never deleted, whatever its age


def test_the_default_timeout_is_30_seconds(tmp_path: Path):
    assert RWLock(tmp_path / "x.lock").timeout == 30.0


def test_threads_of_one_process_exclude_each_other(tmp_path: Path):
    lock = RWLock(tmp_path / "t.lock")
    inside, peak = [0], [0]
    guard = threading.Lock()

    def work() -> None:
        for _ in range(20):
            with lock.exclusive():
                with guard:
                    inside[0] += 1
                    peak[0] = max(peak[0], inside[0])
                time.sleep(0.001)
                with guard:
                    inside[0] -= 1

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert peak[0] == 1


def test_fail_closed_depth_is_bounded_at_three():
    assert depth() == 0
    with fail_closed("trace") as d1, fail_closed() as d2, fail_closed() as d3:
        assert (d1, d2, d3) == (1, 2, 3)
        with pytest.raises(FailClosedRecursionError) as exc, fail_closed("fourth"):
            pass
        assert exc.value.code == "ERR_FAIL_CLOSED_RECURSION" and "fourth" in exc.value.message
    assert depth() == 0


def test_fail_closed_depth_is_per_thread():
    seen: list[int] = []
    with fail_closed(), fail_closed(), fail_closed():
        t = threading.Thread(target=lambda: seen.append(depth()))
        t.start()
        t.join()
    assert seen == [0]


def test_depth_unwinds_after_an_error():
    with pytest.raises(RuntimeError), fail_closed():
        raise RuntimeError("boom")
    assert depth() == 0
