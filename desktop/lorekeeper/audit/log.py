"""The signed session log: `sessions/YYYY-MM-DD.jsonl`, append-only, chained, checkpointed.

One line is one event, written as its RFC 8785 canonical JSON:

    {"content": {"data": {...}, "salt": "<16 random bytes, hex>"},
     "content_sha256": "<sha256 of the canonical content>",
     "key_version": 1, "prev": "<sig of the previous line, or \"\" on line 1>",
     "seq": 1, "sig": "<HMAC-SHA256 hex>", "story": "PD-12" | null,
     "ts": "2026-04-11T09:30:00.000000+00:00", "type": "memory_injected", "v": 1}

The signature covers the event *header*: every field except `sig`, `content` and `tombstone`.
The header commits to the content through `content_sha256`, so:

- an edited line fails (header edited: bad signature; content edited: hash mismatch);
- a deleted, swapped or inserted line breaks the chain (`seq` + `prev`);
- one chain across days (format 2): the first event of a day carries the signature of the last
  event of the previous day, so a whole missing day file breaks the chain at the next one;
- a cut tail is caught by the checkpoints in the store: one per file (file, events, head seq and
  sig, signed) and one signed *head* for the whole log (count, last event, key version and a
  monotonic epoch, `audit_heads`), also kept by a witness outside the workspace (Vault KV or the
  user's state dir, `audit.witness`), so a head written back from an older state is named;
- `append` checks the stored head against the file before it writes: a log that disagrees with
  its head (cut, replaced, rolled back) gets nothing appended (ERR_AUDIT_CHAIN_BROKEN), so a later
  write never launders a break; valid events found after the head (a crash between the file write
  and the head update) are rolled forward;
- the outbox (`record`): an event added in the same store transaction as the change it records,
  written to the day file after the commit (and replayed at start if a crash left it), so no
  change exists without its event;
- a GDPR tombstone drops `content` (the data and its salt, so the hash cannot be brute-forced
  back into the data) and adds a signed `tombstone` record; the header and its signature stay,
  so the chain still verifies after an erasure.

Writers take the exclusive flock of `locks/sessions.lock`, append one `write()` and fsync; readers
(verification, the event browser) take the shared lock.

`SessionLog` is the facade the services and front ends use; it holds the two locks and sequences
the pieces, each with one job (issue 28):

- `events`: the line format (content hash, signed header, tombstone payload, status);
- `dayfiles.DayFiles`: the day files (list, fsync'ed append, atomic rewrite, bounded reads);
- `heads.HeadBook`: the signed head, the per-file checkpoints and the witness;
- `writer.EventWriter`: one event signed and appended after the head (and the operator's "by");
- `sync.ChainSync`: the log against its head before a write, roll forward, adoption, restore;
- `outbox.Outbox`: events committed with their change, written after the commit;
- `verify.ChainVerifier` and `breaks`: the verification report, the breaks and their acknowledgement;
- `tombstones.Tombstoner`: GDPR erasure;
- `reports`: the dataclasses the CLI and the Audit panel show.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from lorekeeper.audit.breaks import MAX_ACK_REASON, acknowledged, acknowledgement, chain_state, check_ack_reason
from lorekeeper.audit.dayfiles import SESSION_FILE_LIMIT, DayFiles
from lorekeeper.audit.errors import ChainBrokenError, StoreRolledBackError, TraceWriteFailedError
from lorekeeper.audit.events import (
    EVENT_BREAK_ACKNOWLEDGED,
    EVENT_FORMAT,
    EVENT_HEAD_ADOPTED,
    EVENT_KEY_ROTATED,
    EVENT_OUTBOX_REJECTED,
    FIXED_FIELDS,
    HEADER_EXCLUDES,
    MAX_LINE_CHARS,
    content_hash,
    event_header,
    new_content,
    sign_payload_with_key,
    tombstone_payload,
    utc_now_iso,
)
from lorekeeper.audit.heads import Head, HeadBook
from lorekeeper.audit.outbox import OWN_ROTATIONS, Outbox
from lorekeeper.audit.reports import ChainBreak, ChainState, EventRecord, FileReport, Issue, VerifyReport
from lorekeeper.audit.signer import Signer
from lorekeeper.audit.sync import ChainSync
from lorekeeper.audit.tombstones import Tombstoner, check_reason
from lorekeeper.audit.verify import ChainVerifier
from lorekeeper.audit.witness import HeadWitness
from lorekeeper.audit.writer import EventWriter, operator_name
from lorekeeper.errors import LorekeeperError, NotFoundError
from lorekeeper.locks import LockTimeoutError, RWLock

__all__ = [
    "EVENT_BREAK_ACKNOWLEDGED",
    "EVENT_FORMAT",
    "EVENT_HEAD_ADOPTED",
    "EVENT_KEY_ROTATED",
    "EVENT_OUTBOX_REJECTED",
    "FIXED_FIELDS",
    "HEADER_EXCLUDES",
    "LOCK_NAME",
    "MAX_ACK_REASON",
    "MAX_LINE_CHARS",
    "OWN_ROTATIONS",
    "ROTATION_LOCK_NAME",
    "SESSION_FILE_LIMIT",
    "ChainBreak",
    "ChainState",
    "EventRecord",
    "FileReport",
    "Head",
    "Issue",
    "SessionLog",
    "VerifyReport",
    "content_hash",
    "event_header",
    "operator_name",
    "sign_payload_with_key",
    "tombstone_payload",
    "utc_now_iso",
]

_SETTLE_TIMEOUT = 5.0  # seconds a lockless check that saw a break waits to read it again under the lock

LOCK_NAME = "sessions.lock"
ROTATION_LOCK_NAME = "rotation.lock"  # held (exclusive) by a key rotation from its event to its flush

_Head = Head  # the name tests/helpers/workspaces.py imports


class SessionLog:
    """The signed session log of one workspace: its locks, and each operation's steps in order."""

    def __init__(
        self,
        sessions_dir: Path,
        locks_dir: Path,
        store: Any,
        signer: Signer,
        *,
        clock: Callable[[], str] = utc_now_iso,
        lock_timeout: float = 30.0,
        workspace_id: str = "",
        witness: HeadWitness | None = None,
        current_version: Callable[[], int] | None = None,
        operator: Callable[[], str] | None = None,
    ) -> None:
        self.workspace_id = workspace_id  # the checkpoints' key with the file name (shared stores)
        self.store = store
        self.signer = signer
        self.clock = clock  # read at each use (a test may set it): the pieces call `self._now`
        self.witness = witness
        self.lock = RWLock(Path(locks_dir) / LOCK_NAME, timeout=lock_timeout)
        self.rotation_lock = RWLock(Path(locks_dir) / ROTATION_LOCK_NAME, timeout=lock_timeout)
        self.warnings: list[str] = []  # what recovery did or could not do (start-up replay)
        self._behind: tuple[tuple[int, str] | None, str] | None = None  # store head -> `store_behind`
        self.day_files = DayFiles(sessions_dir)
        self.dir = self.day_files.dir
        self.heads = HeadBook(store, signer, workspace_id, witness, self.warnings)
        self.writer = EventWriter(self.day_files, self.heads, signer, self._now, operator)
        self.verifier = ChainVerifier(self.day_files, self.heads, signer)
        self.sync = ChainSync(self.day_files, self.heads, self.verifier, self.writer, signer, self._now)
        self.outbox = Outbox(
            store,
            self.heads,
            self.writer,
            self.day_files,
            signer,
            self._now,
            workspace_id=workspace_id,
            rotation_lock=self.rotation_lock,
            current_version=current_version,
        )
        self.tombstoner = Tombstoner(signer, self._now)

    def _now(self) -> str:
        return self.clock()

    def _sync(self, *, persist: bool = True) -> tuple[Head, set[str]]:
        """The log checked against the store's head row as read now (`ChainSync.sync`)."""
        return self.sync.sync(self.head_row(), persist=persist)

    def _ready(self) -> tuple[Head, int]:
        """Under the exclusive lock, what every write starts with: the head checked against the log
        (rolled forward over a crash's events), then the outbox written after it. Returns the head
        and how many outbox events were written."""
        head, seen = self._sync()
        flushed = self.outbox.flush_locked(head, seen)
        return flushed, flushed.count - head.count

    # ------------------------------------------------------------------ writing
    def check(self) -> None:
        """ERR_AUDIT_CHAIN_BROKEN when the log disagrees with its signed head (nothing written).

        The check without the lock reads the head row, the witness, the checkpoints and the files
        one after the other, so it can see another process's append half done (its event and
        witness written, its head not yet committed: "no head checkpoint" on a fresh log, issue 25
        d4). A break seen that way is read again under the shared lock, where no append is in
        progress; only a break that is still there is reported. The lock is waited for a short
        while only: the caller may hold a store transaction the appender is waiting for."""
        try:
            self._sync(persist=False)
        except ChainBrokenError:
            try:
                with self.lock.shared(timeout=_SETTLE_TIMEOUT):
                    self._sync(persist=False)
            except LockTimeoutError:
                self._sync(persist=False)

    def store_behind(self) -> str:
        """Why the store's head is no crash's but an older store's (several events behind the
        log: `StoreRolledBackError`), or "". Read again only when the store's head row changed;
        a rollback seen without the lock (another process's append half done) is read again under
        the shared lock, as `check` does."""
        row = self.head_row()
        key = None if row is None else (int(row.epoch or 0), str(row.head_sig or ""))
        cached = self._behind
        if cached is not None and cached[0] == key:
            return cached[1]
        why = ""
        try:
            self._sync(persist=False)
        except StoreRolledBackError:
            try:
                with self.lock.shared(timeout=_SETTLE_TIMEOUT):
                    self._sync(persist=False)
            except StoreRolledBackError as exc:
                why = exc.message
            except (ChainBrokenError, LockTimeoutError):
                pass  # another break: `check` and `verify` report it
        except ChainBrokenError:
            pass
        self._behind = (key, why)
        return why

    def append(self, type: str, data: Any = None, *, story: str | None = None) -> dict[str, Any]:
        """Sign, chain and durably write one event; returns it.

        ERR_TRACE_WRITE_FAILED if it cannot be written; ERR_AUDIT_CHAIN_BROKEN (nothing written) when
        the log disagrees with its signed head. Events waiting in the outbox are written first.
        """
        data = self.writer.with_operator(type, data)
        content = new_content(type, data, story)
        try:
            with self.lock.exclusive():
                head, _flushed = self._ready()
                event, head = self.writer.write_event(head, type, content, story, self.clock())
        except LockTimeoutError as exc:
            raise TraceWriteFailedError(f"audit event not written: {exc}") from None
        except OSError as exc:
            raise TraceWriteFailedError(
                f"audit event not written to {self.dir}: {exc.strerror or exc}. Check the disk and permissions."
            ) from None
        return event

    def operator(self) -> str:
        """The name every event's data carries as "by" (issue 25 d2)."""
        return self.writer.operator()

    def with_operator(self, type: str, data: Any) -> Any:
        """`data` with "by" (the operator), as `append` and `record` sign it (`EventWriter.with_operator`)."""
        return self.writer.with_operator(type, data)

    # ------------------------------------------------------------------ the head
    def head_row(self) -> Any:
        return self.heads.row()

    def adopt(self) -> dict[str, Any]:
        """`audit verify --adopt`: an operator starts a new head over the log as it is (signed event)."""
        with self.lock.exclusive():
            report = self.verifier.verify_all(use_head=False)
            head = self.sync.adopt(report, automatic=False)
        return head.summary()

    def recover(self) -> None:
        """At start: roll the head forward and write what the outbox holds; a break is left for
        `verify` to report (and for `append` to refuse)."""
        try:
            with self.lock.exclusive():
                self._ready()
        except (ChainBrokenError, TraceWriteFailedError, LockTimeoutError, OSError) as exc:
            self.warnings.append(str(exc))

    def after_restore(self, data: dict[str, Any], restored: dict[str, Any] | None = None) -> dict[str, Any]:
        """`lorekeeper restore` put an older store back: a legitimate, operator-initiated rollback.

        The log keeps its history. When it continues the restored head's chain, the head is rolled
        forward over the events written since the backup (they stay: the record of what happened,
        changes the restored store no longer holds) and the witness agrees again; otherwise (the
        backup's own log was put back, or the head was adopted since) a new head is adopted over the
        log as it stands, past the witness's epoch (a signed `audit_head_adopted` event). Then the
        files written since the backup get their checkpoints, the restored outbox is written, and a
        signed `store_restored` event (with `data`) closes it. So the next signed write works and
        `audit verify` passes. Returns how, and the stories purged since the backup (their erasure
        must be run again on the restored store). `restored`: the backup's head (file, seq, sig,
        count) as the restored store held it, before anything rolled it forward."""
        with self.lock.exclusive():
            source = restored if restored is not None else self.heads.row()
            start = Head.of(source) if source is not None else Head()
            how, why = "rolled_forward", ""
            try:
                head, seen = self.sync.sync(self.head_row(), restoring=True)
            except ChainBrokenError as exc:
                how, why = "adopted", exc.message
                head = self.sync.adopt(self.verifier.verify_all(use_head=False), automatic=False)
                seen = set()
            since = max(0, head.count - start.count - (1 if how == "adopted" else 0))
            purged, fixed = self.sync.since_backup(start)
            if fixed:
                self.heads.store_checkpoints(fixed, self.clock())
            head = self.outbox.flush_locked(head, seen)
            payload = {**data, "audit": how, "events_since_backup": since, "purged_since_backup": sorted(set(purged))}
            content = new_content("store_restored", payload, None)
            event, head = self.writer.write_event(head, "store_restored", content, None, self.clock())
        return {
            "audit": how,
            "reason": why,
            "events_since_backup": since,
            "checkpoints_written": [name for name, _, _ in fixed],
            "purged_since_backup": sorted(set(purged)),
            "event_sig": event["sig"],
            "head": head.summary(),
        }

    def checkpoint(self, file: str) -> Any:
        """This workspace's checkpoint of `file` (a row from before migration 0008 when none)."""
        return self.heads.checkpoints().get(file)

    def checkpoints(self) -> dict[str, Any]:
        """file -> checkpoint of this workspace; the legacy rows (workspace '') fill the gaps."""
        return self.heads.checkpoints()

    def last_event(self) -> dict[str, Any] | None:
        """The event the head names (its header), or None."""
        row = self.heads.row()
        if row is None or not row.file:
            return None
        ev = self.day_files.find(row.file, row.seq, row.head_sig)
        return None if ev is None else {k: v for k, v in ev.items() if k != "content"}

    def _write_witness(self, head: Head, ts: str) -> None:
        """Kept for tests/helpers/workspaces.py (a copied workspace's witness); `heads.write_witness`."""
        self.heads.write_witness(head, ts)

    # ------------------------------------------------------------------ the outbox
    def record(
        self, type: str, data: Any = None, *, story: str | None = None, flush: bool = True, session: Any = None
    ) -> int:
        """Add the event to the outbox in the current store transaction (its own one when none is
        open): it commits with the change it records, or not at all. After the commit it is written
        to the day file (`flush=False`: later, by `flush_outbox`). Returns the outbox row id."""
        return self._record(type, data, story=story, flush=flush)[0]

    def record_ref(self, type: str, data: Any = None, *, story: str | None = None) -> str:
        """`record` inside the caller's transaction (issue 24: the change and its event commit
        together or not at all); returns the `content_sha256` the written event's signed header
        will carry, so a row can name its event before the event reaches the day file."""
        _row_id, content = self._record(type, data, story=story, flush=True)
        return content_hash(content)

    def _record(self, type: str, data: Any, *, story: str | None, flush: bool) -> tuple[int, dict[str, Any]]:
        data = self.writer.with_operator(type, data)
        content = new_content(type, data, story)
        # a broken chain refuses the change too: nothing written. A transaction the workspace's
        # write guard let through was checked just before it began (`check_writable`, issue 24):
        # not read again here (issue 26 d3); one without the guard (unguarded, or a bare store) is.
        write_guarded = getattr(self.store, "write_guarded", None)
        if write_guarded is None or not write_guarded():
            self.check()
        on_commit = self._flush_after_commit if flush else None
        return self.outbox.add(type, data, story, content["salt"], on_commit), content

    def _flush_after_commit(self) -> None:
        try:
            self.flush_outbox()
        except LorekeeperError as exc:  # the events wait in the outbox; the next start or write retries
            self.warnings.append(f"audit events kept in the outbox, not yet in the day file: {exc.message}")

    def flush_outbox(self) -> int:
        """Write the outbox's events to the day file, oldest first; returns how many were written."""
        try:
            with self.lock.exclusive():
                return self._ready()[1]
        except LockTimeoutError as exc:
            raise TraceWriteFailedError(f"audit events left in the outbox: {exc}") from None

    def pending(self) -> int:
        return self.outbox.pending()

    def drop_outbox(self, ids: list[int]) -> None:
        """Remove outbox rows whose change did not happen (a refused key rotation)."""
        self.outbox.drop(ids)

    # ------------------------------------------------------------------ tombstones
    def tombstone(self, file: str, seq: int, *, reason: str) -> dict[str, Any]:
        """Replace event `seq` of `file` by a signed tombstone; its place and signature stay."""
        check_reason(reason)
        path = self.day_files.path(file)
        with self.lock.exclusive():
            ev = self.tombstoner.erase_seq(path, seq, reason)
        if ev is None:
            raise NotFoundError(f"no event with seq {seq} in {path.name}")
        return ev

    def tombstone_story(self, story: str, *, reason: str) -> int:
        """Tombstone every event of `story` in every file; returns how many."""
        return self.tombstone_where(lambda ev: ev.get("story") == story, reason=reason)

    def tombstone_where(self, match: Callable[[dict[str, Any]], bool], *, reason: str) -> int:
        """Tombstone every event (with content) for which `match(event)` is true; returns how many.

        The GDPR purge uses it for the events *of* a story and the events of other stories whose
        content names it (an injection trace that served its clarification)."""
        check_reason(reason)
        count = 0
        for path in self.files():
            with self.lock.exclusive():
                count += self.tombstoner.erase_matching(path, match, reason)
        return count

    # ------------------------------------------------------------------ reading
    def files(self) -> list[Path]:
        return self.day_files.files()

    def verify(self, target: Path | None = None) -> VerifyReport:
        """Check every file (or one file, or the files of a folder) against signatures, chain and
        checkpoints; the whole log also against its head and the head's witness."""
        with self.lock.shared():
            return self.verifier.verify(target)

    def chain_state(self) -> ChainState:
        """Every break the full verification finds, each marked acknowledged or not (issue 31 item
        10): `audit status` and the Audit panel say where the first unacknowledged one is."""
        with self.lock.shared():
            return chain_state(self.verifier.verify_all(use_head=True), self.files(), self.signer)

    def acknowledge(self, reason: str = "", *, operator: str | None = None) -> dict[str, Any]:
        """Record that the operator has seen the breaks no acknowledgement covers yet: one signed
        `break_acknowledged` event naming each of them (file, line, seq, kind, fingerprint). Nothing
        is written when there is none. A break the head disagrees with (a cut tail, a rollback)
        cannot be acknowledged: the append is refused (ERR_AUDIT_CHAIN_BROKEN), see `verify --adopt`."""
        reason = check_ack_reason(reason)
        state = self.chain_state()
        if not state.breaks:
            return {"acknowledged": [], "event": None, "already_acknowledged": len(state.acknowledged)}
        who = (operator or operator_name()).strip() or "operator"
        event = self.append(EVENT_BREAK_ACKNOWLEDGED, acknowledgement(state, reason, who))
        row = self.heads.row()
        written_to = str(row.file) if row is not None and row.seq == event["seq"] else f"{event['ts'][:10]}.jsonl"
        return acknowledged(state, reason, who, event, written_to)

    def events(self, files: Iterable[Path] | None = None) -> list[EventRecord]:
        """Every line of every file, oldest first, with its verification status."""
        with self.lock.shared():
            return self.verifier.records(sorted(files or self.files()))
