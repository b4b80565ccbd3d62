"""Issue 18: one chain across days, the signed head checked before every write, the witness, the
outbox, the bounded reader, signed decision rows. Tampering without the key is detected, located,
and never laundered by a later write."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import text

from lorekeeper.audit.errors import ChainBrokenError
from lorekeeper.audit.jcs import canonicalize, loads
from lorekeeper.audit.log import SessionLog
from lorekeeper.audit.signer import Signer
from lorekeeper.audit.witness import FileWitness
from lorekeeper.store.engine import Store

KEY = bytes(range(32))


class Clock:
    def __init__(self, day: str = "2026-04-11") -> None:
        self.day = day
        self.n = 0

    def __call__(self) -> str:
        self.n += 1
        return f"{self.day}T09:{self.n // 60:02d}:{self.n % 60:02d}.000000+00:00"


@pytest.fixture
def store(migrated_sqlite_url: str):
    s = Store(migrated_sqlite_url)
    yield s
    s.close()


def make(tmp_path: Path, store: Store, clock: Clock) -> SessionLog:
    return SessionLog(
        tmp_path / "sessions",
        tmp_path / "locks",
        store,
        Signer(KEY, 1),
        clock=clock,
        workspace_id="w1",
        witness=FileWitness("w1", tmp_path / "state"),
    )


@pytest.fixture
def two_days(tmp_path: Path, store: Store) -> tuple[SessionLog, Clock]:
    clock = Clock("2026-04-10")
    log = make(tmp_path, store, clock)
    for i in range(3):
        log.append("e", {"i": i})
    clock.day = "2026-04-11"
    for i in range(3):
        log.append("e", {"i": 10 + i})
    return log, clock


def _lines(p: Path) -> list[str]:
    return p.read_text(encoding="utf-8").splitlines()


def _snapshot_head(store: Store) -> list[tuple]:
    with store.session() as s:
        return list(s.execute(text("SELECT * FROM audit_heads")))


def _restore_head(store: Store, rows: list[tuple]) -> None:
    with store.write() as s:
        s.execute(text("DELETE FROM audit_heads"))
        for r in rows:
            s.execute(
                text("INSERT INTO audit_heads VALUES (:a,:b,:c,:d,:e,:f,:g,:h,:i)"),
                dict(zip("abcdefghi", r, strict=True)),
            )


def test_days_are_chained_and_verify(two_days):
    log, _ = two_days
    first_of_day2 = json.loads(_lines(log.files()[1])[0])
    last_of_day1 = json.loads(_lines(log.files()[0])[-1])
    assert first_of_day2["prev"] == last_of_day1["sig"] and first_of_day2["seq"] == 1
    report = log.verify()
    assert report.ok, report.text()
    assert report.head_info["count"] == 6


def test_cut_tail_then_a_normal_write_is_refused_and_still_reported(two_days):
    log, _ = two_days
    day2 = log.files()[1]
    day2.write_text("\n".join(_lines(day2)[:1]) + "\n", encoding="utf-8")
    with pytest.raises(ChainBrokenError):
        log.append("learning_added", {"x": 1})
    assert len(_lines(day2)) == 1  # nothing written
    report = log.verify()
    assert not report.ok and any(i.kind == "truncated" and i.file == day2.name for i in report.issues)


def test_whole_day_deleted_with_its_checkpoint_is_a_break(two_days, store: Store):
    log, _ = two_days
    day1 = log.files()[0]
    day1.unlink()
    with store.write() as s:
        s.execute(text("DELETE FROM audit_checkpoints WHERE file = :f"), {"f": day1.name})
    report = log.verify()
    assert not report.ok
    issue = next(i for i in report.issues if i.kind == "chain_break")
    assert (issue.file, issue.line) == ("2026-04-11.jsonl", 1)


def test_every_file_deleted_is_a_break(two_days, store: Store):
    log, _ = two_days
    for p in log.files():
        p.unlink()
    with store.write() as s:
        s.execute(text("DELETE FROM audit_checkpoints"))
    report = log.verify()
    assert not report.ok and "chain verified" not in report.text()


def test_checkpoint_replay_after_a_cut_is_named_by_the_witness(two_days, store: Store, tmp_path: Path):
    log, _ = two_days
    day2 = log.files()[1]
    old_lines = _lines(day2)
    old_head = _snapshot_head(store)
    with store.session() as s:
        old_cps = list(s.execute(text("SELECT * FROM audit_checkpoints")))
    log.append("e", {"i": 99})
    log.append("e", {"i": 100})
    # the attacker cuts the two new events and writes back the older, validly signed rows
    day2.write_text("\n".join(old_lines) + "\n", encoding="utf-8")
    _restore_head(store, old_head)
    with store.write() as s:
        s.execute(text("DELETE FROM audit_checkpoints"))
        for r in old_cps:
            s.execute(
                text("INSERT INTO audit_checkpoints VALUES (:a,:b,:c,:d,:e,:f,:g,:h)"),
                dict(zip("abcdefgh", r, strict=True)),
            )
    report = log.verify()
    assert not report.ok
    rolled = [i for i in report.issues if i.kind == "rolled_back"]
    assert rolled and "store's head checkpoint is behind" in rolled[0].message
    with pytest.raises(ChainBrokenError, match="behind the witness"):
        log.append("e", {"after": 1})
    assert not log.verify().ok  # not laundered


def test_forged_unsigned_head_is_not_trusted(two_days, store: Store):
    log, _ = two_days
    day2 = log.files()[1]
    day2.write_text("\n".join(_lines(day2)[:2]) + "\n", encoding="utf-8")
    with store.write() as s:
        s.execute(text("UPDATE audit_heads SET seq = 2, count = 5, sig = NULL"))
    with pytest.raises(ChainBrokenError, match="does not verify"):
        log.append("x", {})
    assert any("bad signature" in i.message for i in log.verify().issues)


def test_malformed_lines_never_stop_readers_or_writers(two_days):
    log, _ = two_days
    day2 = log.files()[1]
    with open(day2, "a", encoding="utf-8") as fh:
        fh.write("[" * 1000 + "]" * 1000 + "\n")
        fh.write('{"n": ' + "1" * 5000 + "}\n")
    log.append("after", {"ok": True})  # append goes on
    report = log.verify()
    damaged = [(i.file, i.line) for i in report.issues if i.kind == "damaged"]
    assert damaged == [(day2.name, 4), (day2.name, 5)]
    assert len(log.events()) == 9
    log.tombstone(day2.name, 1, reason="erasure 1")  # rewriting the file goes on too


@pytest.mark.parametrize("value", [1e20, 2.0**53 + 2, 123456789012345680000.0, 9.007199254740993e15, 5e-324])
def test_floats_the_signer_accepts_are_read_back(tmp_path: Path, store: Store, value: float):
    log = make(tmp_path, store, Clock())
    log.append("metric", {"v": value})
    report = log.verify()
    assert report.ok, report.text()
    assert log.events()[0].data == {"v": value}
    assert loads(canonicalize({"v": value})) == {"v": value}


def test_outbox_event_commits_with_the_change_and_is_replayed(tmp_path: Path, store: Store):
    log = make(tmp_path, store, Clock())
    log.append("first", {})
    log.record("learning_added", {"id": 1}, flush=False)  # as if killed right after the commit
    assert log.pending() == 1
    fresh = make(tmp_path, store, Clock())
    fresh.recover()
    assert fresh.pending() == 0
    assert [e.type for e in fresh.events()] == ["first", "learning_added"]
    assert fresh.verify().ok


def test_outbox_rolled_back_with_its_transaction(tmp_path: Path, store: Store):
    log = make(tmp_path, store, Clock())
    with pytest.raises(RuntimeError), store.write():
        log.record("learning_added", {"id": 1})
        raise RuntimeError("the change failed")
    assert log.pending() == 0 and log.files() == []


def test_crash_between_file_and_head_is_rolled_forward_once(tmp_path: Path, store: Store):
    log = make(tmp_path, store, Clock())
    log.append("first", {})
    log.record("second", {}, flush=False)
    head = _snapshot_head(store)
    witness = (tmp_path / "state" / "audit-heads" / "w1.json").read_text()
    outbox = log.pending()
    log.flush_outbox()  # the event reaches the file ...
    _restore_head(store, head)  # ... but the head update (and the witness's) is lost: a crash
    (tmp_path / "state" / "audit-heads" / "w1.json").write_text(witness)
    assert outbox == 1
    fresh = make(tmp_path, store, Clock())
    fresh.recover()
    assert [e.type for e in fresh.events()] == ["first", "second"]
    assert fresh.verify().ok


def test_crash_between_the_witness_and_the_store_head_is_rolled_forward(tmp_path: Path, store: Store):
    log = make(tmp_path, store, Clock())
    log.append("first", {})
    head = _snapshot_head(store)
    log.append("second", {})
    _restore_head(store, head)  # the witness (written first) has the new head, the store the old one
    fresh = make(tmp_path, store, Clock())
    fresh.recover()
    report = fresh.verify()
    assert report.ok, report.text()
    assert report.head_info["count"] == 2
