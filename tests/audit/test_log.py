"""The session log: chained, checkpointed, tamper-evident; tombstones keep it verifiable."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from lorekeeper.audit.errors import CanonicalJSONError, TraceWriteFailedError
from lorekeeper.audit.log import SessionLog
from lorekeeper.audit.signer import Signer
from lorekeeper.store.engine import Store

KEY = bytes(range(32))


class Clock:
    def __init__(self, day: str = "2026-04-11") -> None:
        self.day = day
        self.n = 0

    def __call__(self) -> str:
        self.n += 1
        return f"{self.day}T09:{self.n // 60:02d}:{self.n % 60:02d}.000000+00:00"


def make_log(tmp_path: Path, store: Store, signer: Signer | None = None, clock: Clock | None = None) -> SessionLog:
    return SessionLog(
        tmp_path / "sessions", tmp_path / "locks", store, signer or Signer(KEY, 1), clock=clock or Clock()
    )


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request):
    url = request.getfixturevalue("migrated_sqlite_url" if request.param == "sqlite" else "migrated_pg_url")
    s = Store(url)
    yield s
    s.close()


@pytest.fixture
def log5(tmp_path: Path, store: Store) -> SessionLog:
    log = make_log(tmp_path, store)
    for i in range(5):
        log.append("memory_injected", {"i": i, "text": f"event {i}"}, story=f"PD-{i % 2}")
    return log


def lines(log: SessionLog) -> list[str]:
    (path,) = log.files()
    return path.read_text(encoding="utf-8").splitlines()


def rewrite(log: SessionLog, new_lines: list[str]) -> None:
    (path,) = log.files()
    path.write_text("\n".join(new_lines) + "\n", encoding="utf-8")


def kinds(report) -> list[tuple[int, str]]:
    return [(i.line, i.kind) for i in report.issues]


def test_a_clean_log_verifies(log5: SessionLog):
    report = log5.verify()
    assert report.ok, report.text()
    (f,) = report.files
    assert (f.events, f.valid, f.bad_signature, f.chain_breaks, f.checkpoint_events) == (5, 5, 0, 0, 5)
    assert "chain verified" in report.text()


def test_each_line_is_canonical_json_chained_to_the_previous(log5: SessionLog):
    evs = [json.loads(x) for x in lines(log5)]
    assert [e["seq"] for e in evs] == [1, 2, 3, 4, 5]
    assert evs[0]["prev"] == "" and all(evs[i]["prev"] == evs[i - 1]["sig"] for i in range(1, 5))
    assert all(e["key_version"] == 1 for e in evs)
    assert log5.files()[0].name == "2026-04-11.jsonl"


def test_edited_line_fails_and_names_the_line(log5: SessionLog):
    ls = lines(log5)
    ls[2] = ls[2].replace('"event 2"', '"event 9"')
    rewrite(log5, ls)
    report = log5.verify()
    assert not report.ok
    assert kinds(report) == [(3, "content_mismatch")]
    assert "2026-04-11.jsonl:3:" in report.text()


def test_edited_header_fails_its_signature(log5: SessionLog):
    ls = lines(log5)
    ls[1] = ls[1].replace('"type":"memory_injected"', '"type":"memory_ignored"')
    rewrite(log5, ls)
    report = log5.verify()
    assert kinds(report) == [(2, "bad_signature")]
    assert report.files[0].bad_signature == 1


def test_deleted_line_breaks_the_chain_at_the_next_line(log5: SessionLog):
    ls = lines(log5)
    del ls[1]
    rewrite(log5, ls)
    report = log5.verify()
    assert kinds(report) == [(2, "chain_break")]
    assert "#2" in report.issues[0].message and "missing" in report.issues[0].message


def test_swapped_lines_break_the_chain(log5: SessionLog):
    ls = lines(log5)
    ls[1], ls[2] = ls[2], ls[1]
    rewrite(log5, ls)
    report = log5.verify()
    assert not report.ok
    assert report.files[0].valid == 5  # every line is authentic, only their order is wrong
    assert [line for line, kind in kinds(report)] == [2, 3, 4]
    assert "reordered" in report.issues[1].message


def test_cut_tail_is_caught_by_the_checkpoint(log5: SessionLog):
    rewrite(log5, lines(log5)[:3])
    report = log5.verify()
    f = report.files[0]
    assert f.truncated and not report.ok
    assert kinds(report) == [(4, "truncated")]
    assert "2 event(s) cut from the tail" in report.issues[0].message


def test_unsigned_line_is_counted_and_named(log5: SessionLog):
    ls = lines(log5)
    ls.insert(2, json.dumps({"type": "forged", "seq": 3}))
    rewrite(log5, ls)
    report = log5.verify()
    assert report.files[0].unsigned == 1
    assert (3, "unsigned") in kinds(report)


def test_damaged_line_is_named(log5: SessionLog):
    ls = lines(log5)
    ls[3] = ls[3][:40]
    rewrite(log5, ls)
    report = log5.verify()
    assert report.files[0].damaged == 1
    assert (4, "damaged") in kinds(report)


def test_deleted_file_is_reported_from_its_checkpoint(log5: SessionLog):
    log5.files()[0].unlink()
    report = log5.verify()
    assert not report.ok and report.missing[0].file == "2026-04-11.jsonl"


def test_forged_checkpoint_is_detected(log5: SessionLog, store: Store):
    from lorekeeper.store.models import AuditCheckpoint

    with store.write() as s:
        s.get(AuditCheckpoint, (log5.workspace_id, "2026-04-11.jsonl")).events = 3
    rewrite(log5, lines(log5)[:3])
    report = log5.verify()
    assert any(i.kind == "checkpoint" and "bad signature" in i.message for i in report.issues)


def test_tombstone_drops_content_and_the_chain_still_verifies(log5: SessionLog):
    before = lines(log5)
    log5.tombstone("2026-04-11.jsonl", 3, reason="erasure request 42")
    after = lines(log5)
    assert len(after) == 5 and after[0] == before[0] and after[4] == before[4]
    ev = json.loads(after[2])
    assert "content" not in ev and ev["tombstone"]["reason"] == "erasure request 42"
    assert "event 2" not in after[2]
    assert ev["sig"] == json.loads(before[2])["sig"]
    report = log5.verify()
    assert report.ok, report.text()
    assert report.files[0].tombstones == 1


def test_forged_tombstone_is_detected(log5: SessionLog):
    ls = lines(log5)
    ev = json.loads(ls[1])
    del ev["content"]
    ev["tombstone"] = {"reason": "x", "purged_at": "2026-04-12T00:00:00+00:00", "key_version": 1, "sig": "0" * 64}
    ls[1] = json.dumps(ev)
    rewrite(log5, ls)
    report = log5.verify()
    assert kinds(report) == [(2, "bad_signature")]


def test_tombstone_story_erases_every_event_of_a_story(log5: SessionLog):
    assert log5.tombstone_story("PD-1", reason="purge PD-1") == 2
    assert log5.verify().ok
    statuses = {(r.seq, r.status) for r in log5.events()}
    assert statuses == {(1, "valid"), (2, "tombstone"), (3, "valid"), (4, "tombstone"), (5, "valid")}


def test_tombstone_refuses_an_event_that_does_not_verify(log5: SessionLog):
    from lorekeeper.errors import InvalidInputError

    ls = lines(log5)
    ls[0] = ls[0].replace('"event 0"', '"event X"')
    rewrite(log5, ls)
    with pytest.raises(InvalidInputError, match="does not verify"):
        log5.tombstone("2026-04-11.jsonl", 1, reason="hide it")


def test_events_after_rotation_verify_with_their_own_key_version(tmp_path: Path, store: Store):
    k2 = bytes(range(100, 132))
    lookup = {1: KEY, 2: k2}.__getitem__
    clock = Clock()
    make_log(tmp_path, store, Signer(KEY, 1, lookup), clock).append("a", {"n": 1})
    make_log(tmp_path, store, Signer(k2, 2, lookup), clock).append("b", {"n": 2})
    verifier = make_log(tmp_path, store, Signer(k2, 2, lookup), clock)
    assert verifier.verify().ok
    assert [e.key_version for e in verifier.events()] == [1, 2]
    # a verifier that cannot get version 1 says so, naming the line
    blind = make_log(tmp_path, store, Signer(k2, 2), clock)
    report = blind.verify()
    assert kinds(report) == [(1, "bad_signature")] and "key version 1" in report.issues[0].message


def test_invalid_data_is_rejected_before_anything_is_written(tmp_path: Path, store: Store):
    log = make_log(tmp_path, store)
    with pytest.raises(CanonicalJSONError):
        log.append("x", {"bad": float("nan")})
    assert log.files() == [] and log.checkpoints() == {}


def test_unwritable_folder_is_trace_write_failed(tmp_path: Path, store: Store):
    log = make_log(tmp_path, store)
    (tmp_path / "sessions").write_text("not a folder")  # the log folder cannot be created
    with pytest.raises(TraceWriteFailedError):
        log.append("x", {})
    assert log.checkpoints() == {}


def test_appends_continue_after_a_torn_last_line(log5: SessionLog):
    (path,) = log5.files()
    with open(path, "a", encoding="utf-8") as fh:
        fh.write('{"half": ')
    log5.append("after_crash", {})
    report = log5.verify()
    # the torn line is reported; the new event chains onto the last good one
    assert [k for _, k in kinds(report)] == ["damaged"]
    assert report.files[0].valid == 6


def test_concurrent_appends_from_threads_keep_one_chain(tmp_path: Path, store: Store):
    log = make_log(tmp_path, store)
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            for i in range(10):
                log.append("t", {"thread": n, "i": i})
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    report = log.verify()
    assert report.ok, report.text()
    assert report.files[0].events == 40


def _append_from_process(root: str, url: str, n: int, who: int) -> None:  # runs in a child process
    store = Store(url)
    log = SessionLog(Path(root) / "sessions", Path(root) / "locks", store, Signer(KEY, 1), clock=Clock())
    for i in range(n):
        log.append("p", {"process": who, "i": i})
    store.close()


def test_appends_from_several_processes_keep_one_chain(tmp_path: Path):
    import multiprocessing as mp

    url = f"sqlite:///{tmp_path / 'mp.db'}"
    Store(url).close()  # migrate once before the writers start
    ctx = mp.get_context("spawn")
    procs = [ctx.Process(target=_append_from_process, args=(str(tmp_path), url, 15, w)) for w in range(3)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    store = Store(url)
    try:
        report = make_log(tmp_path, store).verify()
        assert report.ok, report.text()
        assert report.files[0].events == 45 and report.files[0].checkpoint_events == 45
    finally:
        store.close()
