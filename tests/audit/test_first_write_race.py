"""Issue 25 d4: a fresh log's first write by one process, checked by another at the same moment,
is not a broken chain. The checker's lockless read can fall between the writer's witness and its
head commit ("no head checkpoint ... --adopt", 2 of 2 runs of a 4-process scenario on PostgreSQL);
it is read again under the lock, once the write is whole."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from lorekeeper.audit.errors import ChainBrokenError
from lorekeeper.audit.log import SessionLog
from lorekeeper.audit.signer import Signer
from lorekeeper.audit.witness import FileWitness
from lorekeeper.store.engine import Store

KEY = bytes(range(32))


@pytest.fixture
def store(tmp_path: Path):
    s = Store(f"sqlite:///{tmp_path / 'lk.db'}")
    yield s
    s.close()


def make(tmp_path: Path, store: Store) -> SessionLog:
    return SessionLog(
        tmp_path / "sessions",
        tmp_path / "locks",
        store,
        Signer(KEY, 1),
        workspace_id="w1",
        witness=FileWitness("w1", tmp_path / "state"),
    )


def test_a_check_during_the_first_write_waits_for_it_instead_of_crying_broken(tmp_path: Path, store: Store):
    writer, checker = make(tmp_path, store), make(tmp_path, store)
    head_read, committed = threading.Event(), threading.Event()
    lockless: list[str] = []
    outcome: list[BaseException | None] = []

    real_head_row, real_sync = checker.head_row, checker._sync
    calls = {"n": 0}

    def head_row_read_before_the_commit():
        row = real_head_row()  # the writer has not committed its first head yet: None
        calls["n"] += 1
        if calls["n"] == 1:
            head_read.set()
            assert committed.wait(10)  # ... and the checker reads the rest after the commit
        return row

    def spying_sync(*, persist: bool = True):
        try:
            return real_sync(persist=persist)
        except ChainBrokenError as exc:
            lockless.append(str(exc))
            raise

    checker.head_row = head_row_read_before_the_commit  # type: ignore[method-assign]
    checker._sync = spying_sync  # type: ignore[method-assign]

    def check() -> None:
        try:
            checker.check()
            outcome.append(None)
        except BaseException as exc:
            outcome.append(exc)

    thread = threading.Thread(target=check)
    thread.start()
    assert head_read.wait(10)
    writer.append("first", {"by": "A"})
    committed.set()
    thread.join(20)

    assert lockless and "no head checkpoint" in lockless[0]  # the race happened, as in the report
    assert outcome == [None]  # ... and the checker, read again under the lock, found the chain whole
    assert make(tmp_path, store).verify().ok


def test_a_real_break_is_still_reported(tmp_path: Path, store: Store):
    log = make(tmp_path, store)
    log.append("first", {})
    log.append("second", {})
    day = next((tmp_path / "sessions").glob("*.jsonl"))
    day.write_text(day.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")  # tail cut
    with pytest.raises(ChainBrokenError):
        make(tmp_path, store).check()
