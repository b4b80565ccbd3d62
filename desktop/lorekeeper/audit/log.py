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
"""

from __future__ import annotations

import getpass
import hashlib
import os
import re
import secrets
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from lorekeeper.audit.errors import CanonicalJSONError, ChainBrokenError, TraceWriteFailedError
from lorekeeper.audit.jcs import canonical_text, canonicalize, loads
from lorekeeper.audit.ledger import anchor as anchor_ledger
from lorekeeper.audit.rows import row_payload, sign_row, verify_row
from lorekeeper.audit.signer import SIG_FIELD, Signer, sign_with
from lorekeeper.audit.witness import HeadWitness
from lorekeeper.errors import InvalidInputError, LorekeeperError, NotFoundError
from lorekeeper.fsutil import MIB, atomic_write_text, read_regular_bytes
from lorekeeper.locks import LockTimeoutError, RWLock

_SETTLE_TIMEOUT = 5.0  # seconds a lockless check that saw a break waits to read it again under the lock

EVENT_FORMAT = 2  # 2: the first event of a file links to the last event of the previous file
HEADER_EXCLUDES = ("sig", "content", "tombstone")
LOCK_NAME = "sessions.lock"
ROTATION_LOCK_NAME = "rotation.lock"  # held (exclusive) by a key rotation from its event to its flush
EVENT_KEY_ROTATED = "audit_key_rotated"
# outbox ids of the rotations this process is performing (it holds the rotation lock for them)
OWN_ROTATIONS: set[int] = set()
MAX_LINE_CHARS = 1_000_000  # a longer line is damage on read, and refused on write
EVENT_HEAD_ADOPTED = "audit_head_adopted"
EVENT_OUTBOX_REJECTED = "unsigned_entry"
EVENT_BREAK_ACKNOWLEDGED = "break_acknowledged"
MAX_ACK_REASON = 2000


def utc_now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def content_hash(content: dict[str, Any]) -> str:
    return hashlib.sha256(canonicalize(content)).hexdigest()


def event_header(event: dict[str, Any]) -> dict[str, Any]:
    """What an event's signature covers (its `sig` included, for `Signer.verify`)."""
    return {k: v for k, v in event.items() if k not in ("content", "tombstone")}


def tombstone_payload(event_sig: str, tomb: dict[str, Any]) -> dict[str, Any]:
    return {"event_sig": event_sig, **dict(tomb.items())}


# --------------------------------------------------------------------------- reports


@dataclass
class Issue:
    file: str
    line: int
    kind: str  # bad_signature | content_mismatch | unsigned | damaged | chain_break | truncated | checkpoint
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


@dataclass
class FileReport:
    file: str
    path: str
    events: int = 0
    valid: int = 0
    bad_signature: int = 0
    unsigned: int = 0
    damaged: int = 0
    chain_breaks: int = 0
    tombstones: int = 0
    truncated: bool = False
    checkpoint_events: int | None = None
    issues: list[Issue] = field(default_factory=list)
    signed_events: int = 0  # lines whose header signature verifies (what the head counts)
    last_line: int = 0
    signed_positions: list[tuple[str, int, str]] = field(default_factory=list, repr=False)

    @property
    def ok(self) -> bool:
        return not self.issues

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("signed_positions", None)
        d["ok"] = self.ok
        d["issues"] = [asdict(i) for i in self.issues]
        return d


@dataclass
class VerifyReport:
    files: list[FileReport] = field(default_factory=list)
    missing: list[Issue] = field(default_factory=list)  # checkpointed files that are gone
    head: list[Issue] = field(default_factory=list)  # the whole log against its head and the witness
    head_info: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.missing and not self.head and all(f.ok for f in self.files)

    @property
    def issues(self) -> list[Issue]:
        return [i for f in self.files for i in f.issues] + list(self.missing) + list(self.head)

    def totals(self) -> dict[str, int]:
        keys = ("events", "valid", "bad_signature", "unsigned", "damaged", "chain_breaks", "tombstones")
        out = {k: sum(getattr(f, k) for f in self.files) for k in keys}
        out["truncated"] = sum(1 for f in self.files if f.truncated)
        out["files"] = len(self.files)
        out["missing_files"] = len(self.missing)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "totals": self.totals(),
            "files": [f.to_dict() for f in self.files],
            "missing": [asdict(i) for i in self.missing],
            "head": [asdict(i) for i in self.head],
            "head_checkpoint": self.head_info,
        }

    def text(self) -> str:
        """The readable report of the CLI and the Audit panel."""
        lines = []
        for f in self.files:
            mark = "ok  " if f.ok else "FAIL"
            cp = f", checkpoint {f.checkpoint_events}" if f.checkpoint_events is not None else ""
            lines.append(
                f"{mark} {f.file}: {f.events} events, {f.valid} valid, {f.bad_signature} bad signature, "
                f"{f.unsigned} unsigned, {f.damaged} damaged, {f.chain_breaks} chain breaks, "
                f"{f.tombstones} tombstones{', TRUNCATED' if f.truncated else ''}{cp}"
            )
            for issue in f.issues:
                lines.append(f"     {issue}")
        for issue in self.missing + self.head:
            lines.append(f"FAIL {issue}")
        if self.head_info.get("count") is not None:
            lines.append(
                f"head: {self.head_info['count']} events, epoch {self.head_info.get('epoch')}, "
                f"last {self.head_info.get('file')}#{self.head_info.get('seq')}"
                + (f"; witness {self.head_info['witness']}" if self.head_info.get("witness") else "")
            )
        if not self.files and not self.missing and not self.head:
            lines.append("No session log files yet.")
        t = self.totals()
        verdict = "chain verified" if self.ok else f"{len(self.issues)} problem(s) found"
        lines.append(f"{t['files']} file(s), {t['events']} events: {verdict}.")
        return "\n".join(lines)


@dataclass
class EventRecord:
    """One line of the log as the event browser shows it."""

    file: str
    line: int
    seq: int | None
    ts: str
    type: str
    story: str | None
    key_version: int | None
    status: str  # valid | tombstone | bad_signature | content_mismatch | unsigned | damaged
    data: Any
    raw: str

    @property
    def by(self) -> str:
        """Who made the decision the event records (its signed data's "by"; issue 25 d2)."""
        return str(self.data.get("by") or "") if isinstance(self.data, dict) else ""


@dataclass(frozen=True)
class ChainBreak:
    """One break of the chain as `audit status` and the Audit panel name it, with the fingerprint
    an acknowledgement records: the file, the line, the kind and the line's bytes (the message, its
    numbers masked, for a break without a line), so a new or different break is never covered."""

    file: str
    line: int
    seq: int | None
    kind: str
    message: str
    fingerprint: str

    def where(self) -> str:
        at = self.file if not self.line else f"{self.file} line {self.line}"
        return at + (f" (event #{self.seq})" if self.seq is not None else "")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class ChainState:
    """The log's breaks, split into those no signed `break_acknowledged` event covers yet and
    those one does; `acknowledgements` lists those events (file, seq, ts, operator, reason)."""

    breaks: list[ChainBreak] = field(default_factory=list)
    acknowledged: list[ChainBreak] = field(default_factory=list)
    acknowledgements: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """No break at all (acknowledged breaks are still breaks)."""
        return not self.breaks and not self.acknowledged

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "code": "ERR_AUDIT_VERIFY_FAILED" if self.breaks else None,
            "unacknowledged": len(self.breaks),
            "breaks": [b.to_dict() for b in self.breaks],
            "acknowledged": [b.to_dict() for b in self.acknowledged],
            "acknowledgements": list(self.acknowledgements),
        }

    def summary(self) -> str:
        """One line: where the first unacknowledged break is, or that every break is acknowledged."""
        if self.breaks:
            first = self.breaks[0]
            more = f" (+{len(self.breaks) - 1} more)" if len(self.breaks) > 1 else ""
            return f"BREAK at {first.where()}: {first.message}{more}"
        if self.acknowledged:
            last = self.acknowledgements[-1] if self.acknowledgements else {}
            return (
                f"{len(self.acknowledged)} break(s) acknowledged"
                + (f" by {last.get('operator')} at {str(last.get('ts', ''))[:19]}" if last else "")
                + (f" ({last.get('reason')})" if last.get("reason") else "")
            )
        return "verified, no break"


def operator_name() -> str:
    """Who acknowledges (the OS login), as the review panels record it."""
    try:
        return getpass.getuser()
    except Exception:  # noqa: BLE001 - no login name in some containers
        return "operator"


def _fingerprint(file: str, line: int, kind: str, basis: str) -> str:
    text = "\0".join((file, str(line), kind, basis))
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:32]


# --------------------------------------------------------------------------- the log


class _Head:
    """The head of the whole log as the store (or a witness) records it."""

    __slots__ = ("count", "epoch", "file", "seq", "sig")

    def __init__(self, epoch: int = 0, count: int = 0, file: str = "", seq: int = 0, sig: str = "") -> None:
        self.epoch, self.count, self.file, self.seq, self.sig = epoch, count, file, seq, sig

    @classmethod
    def of(cls, d: Any) -> _Head:
        get = d.get if isinstance(d, dict) else lambda k, default=None: getattr(d, k, default)
        return cls(
            int(get("epoch", 0) or 0),
            int(get("count", 0) or 0),
            str(get("file", "") or ""),
            int(get("seq", 0) or 0),
            str(get("head_sig", "") or ""),
        )

    def same_event(self, other: _Head) -> bool:
        return (self.file, self.seq, self.sig, self.count) == (other.file, other.seq, other.sig, other.count)


# events whose fields seed 004 §3.10.1 fixes ({story_id, subprocess_name, duration_ms, success}): no "by"
FIXED_FIELDS = frozenset({"verbatim_subprocess_invoked", "verbatim_subprocess_completed"})


class SessionLog:
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
        self.dir = Path(sessions_dir)
        # who makes the decisions this log signs (issue 25 d2): the Vault identity, else the OS login
        self._operator = operator
        # the provider's committed key version (read only for a dead rotation's outbox row)
        self.current_version = current_version
        self.workspace_id = workspace_id  # the checkpoints' key with the file name (shared stores)
        self.store = store
        self.signer = signer
        self.clock = clock
        self.witness = witness
        self.lock = RWLock(Path(locks_dir) / LOCK_NAME, timeout=lock_timeout)
        self.rotation_lock = RWLock(Path(locks_dir) / ROTATION_LOCK_NAME, timeout=lock_timeout)
        self.warnings: list[str] = []  # what recovery did or could not do (start-up replay)

    # ------------------------------------------------------------------ writing
    def _unguarded(self) -> AbstractContextManager[None]:
        """The chain's own rows (head, checkpoints, outbox bookkeeping) skip the store's write guards:
        the log checks itself before it writes them (issue 24)."""
        unguarded = getattr(self.store, "unguarded", None)
        return unguarded() if unguarded is not None else nullcontext()

    def check(self) -> None:
        """ERR_AUDIT_CHAIN_BROKEN when the log disagrees with its signed head (nothing written)."""
        self._check_settled()

    def _check_settled(self) -> None:
        """`_sync(persist=False)` without the lock reads the head row, the witness, the checkpoints
        and the files one after the other, so it can see another process's append half done (its
        event and witness written, its head not yet committed: "no head checkpoint" on a fresh log,
        issue 25 d4). A break seen that way is read again under the shared lock, where no append
        is in progress; only a break that is still there is reported. The lock is waited for a
        short while only: the caller may hold a store transaction the appender is waiting for."""
        try:
            self._sync(persist=False)
        except ChainBrokenError:
            try:
                with self.lock.shared(timeout=_SETTLE_TIMEOUT):
                    self._sync(persist=False)
            except LockTimeoutError:
                self._sync(persist=False)

    def append(self, type: str, data: Any = None, *, story: str | None = None) -> dict[str, Any]:
        """Sign, chain and durably write one event; returns it.

        ERR_TRACE_WRITE_FAILED if it cannot be written; ERR_AUDIT_CHAIN_BROKEN (nothing written) when
        the log disagrees with its signed head. Events waiting in the outbox are written first.
        """
        data = self.with_operator(type, data)
        content = self._content(type, data, story)
        try:
            with self.lock.exclusive():
                head, seen = self._sync()
                head = self._flush_locked(head, seen)
                event, head = self._write_event(head, type, content, story, self.clock())
        except LockTimeoutError as exc:
            raise TraceWriteFailedError(f"audit event not written: {exc}") from None
        except OSError as exc:
            raise TraceWriteFailedError(
                f"audit event not written to {self.dir}: {exc.strerror or exc}. Check the disk and permissions."
            ) from None
        return event

    def operator(self) -> str:
        """The name every event's data carries as "by" (issue 25 d2)."""
        if self._operator is not None:
            name = str(self._operator() or "").strip()
            if name:
                return name
        return operator_name()

    def with_operator(self, type: str, data: Any) -> Any:
        """`data` with "by": the operator (signed with it), when the log was given one (a workspace's
        log), `data` is a mapping that names nobody yet and the type's fields are not fixed by the seed."""
        if self._operator is not None and isinstance(data, dict) and not data.get("by") and type not in FIXED_FIELDS:
            return {**data, "by": self.operator()}
        return data

    @staticmethod
    def _content(type: str, data: Any, story: str | None, salt: str | None = None) -> dict[str, Any]:
        if not isinstance(type, str) or not type.strip():
            raise InvalidInputError("an audit event needs a type")
        if story is not None and not isinstance(story, str):
            raise InvalidInputError("the story of an audit event is a string")
        content = {"data": data, "salt": salt or secrets.token_hex(16)}
        if len(canonicalize(content)) > MAX_LINE_CHARS // 2:  # validates `data` before anything is written
            raise InvalidInputError(f"audit event data too large (the limit is {MAX_LINE_CHARS // 2} bytes)")
        return content

    def _write_event(
        self, head: _Head, type: str, content: dict[str, Any], story: str | None, ts: str
    ) -> tuple[dict[str, Any], _Head]:
        """Under the exclusive lock: append after `head`, then store the new head and its witness."""
        day = f"{ts[:10]}.jsonl"
        name = max(day, head.file) if head.file else day  # never before the head's file (clock moved back)
        path = self.dir / name
        seq = head.seq + 1 if name == head.file else 1
        header = {
            "v": EVENT_FORMAT,
            "seq": seq,
            "ts": ts,
            "type": type,
            "story": story,
            "content_sha256": content_hash(content),
            "prev": head.sig,
        }
        signed = self.signer.sign(header)
        event = {**signed, "content": content}
        self._append_line(path, canonical_text(event))
        new = _Head(head.epoch + 1, head.count + 1, name, seq, signed["sig"])
        self._store_head(new, ts, salts_done=[content["salt"]])
        return event, new

    def _append_line(self, path: Path, text: str) -> None:
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

    def _store_head(self, head: _Head, ts: str, *, salts_done: Iterable[str] = ()) -> None:
        """The new head, its file's checkpoint and the outbox rows now in the file: one transaction;
        then the witness."""
        from sqlalchemy import delete

        from lorekeeper.store.models import AuditCheckpoint, AuditHead, AuditOutbox

        # the witness first: a crash between the two leaves the witness ahead by events the file
        # holds (the next start rolls the store's head forward to it), never a head it has not seen
        self._write_witness(head, ts)
        try:
            with self._unguarded(), self.store.write() as s:
                row = s.get(AuditHead, self.workspace_id)
                if row is None:
                    row = AuditHead(workspace=self.workspace_id)
                    s.add(row)
                row.epoch, row.count, row.file, row.seq, row.head_sig = (
                    head.epoch,
                    head.count,
                    head.file,
                    head.seq,
                    head.sig,
                )
                row.updated_at = ts
                sign_row(self.signer, row)
                # issue 24: the row ledger's clocks as of this head (a ledger written back is behind)
                anchor_ledger(s, self.signer, self.workspace_id, head.epoch, head.sig)
                if head.file:
                    cp = s.get(AuditCheckpoint, (self.workspace_id, head.file))
                    if cp is None:
                        cp = AuditCheckpoint(workspace=self.workspace_id, file=head.file)
                        s.add(cp)
                    cp.events = head.seq
                    cp.head_seq = head.seq
                    cp.head_sig = head.sig
                    cp.updated_at = ts
                    sign_row(self.signer, cp)
                done = [x for x in salts_done if x]
                if done:
                    s.execute(
                        delete(AuditOutbox).where(
                            AuditOutbox.workspace == self.workspace_id, AuditOutbox.salt.in_(done)
                        )
                    )
        except Exception as exc:  # noqa: BLE001 - the event is on disk, but its head is not
            raise TraceWriteFailedError(
                f"audit event written to {head.file} but its checkpoint could not be stored ({exc}); "
                "the next event rolls it forward. Check the store."
            ) from None

    def _witness_payload(self, head: _Head, ts: str) -> dict[str, Any]:
        return self.signer.sign(
            {
                "kind": "audit_head",
                "workspace": self.workspace_id,
                "epoch": head.epoch,
                "count": head.count,
                "file": head.file,
                "seq": head.seq,
                "head_sig": head.sig,
                "updated_at": ts,
            }
        )

    def _write_witness(self, head: _Head, ts: str) -> None:
        if self.witness is None:
            return
        try:
            self.witness.write(self._witness_payload(head, ts))
        except (OSError, LorekeeperError) as exc:  # the store's head stands; the next write catches up
            self.warnings.append(f"the head witness ({self.witness.name}) could not be updated: {exc}")

    # ------------------------------------------------------------------ the head
    def head_row(self) -> Any:
        from lorekeeper.store.models import AuditHead

        with self.store.session() as s:
            return s.get(AuditHead, self.workspace_id)

    def _read_witness(self) -> tuple[_Head | None, str]:
        """(the witness's head, problem): (None, "") when there is no witness or it was never written."""
        if self.witness is None:
            return None, ""
        try:
            raw = self.witness.read()
        except (OSError, LorekeeperError) as exc:
            return None, f"the head witness ({self.witness.name}) cannot be read: {exc}"
        if raw is None:
            return None, ""
        if not raw or raw.get("workspace", self.workspace_id) != self.workspace_id or not self.signer.verify(raw):
            return None, f"the head witness ({self.witness.name}) does not verify: it was edited or forged"
        return _Head.of(raw), ""

    def _sync(self, *, persist: bool = True) -> tuple[_Head, set[str]]:
        """Under the exclusive lock: the verified head, rolled forward over valid events a crash left
        after it; raises ERR_AUDIT_CHAIN_BROKEN when the log and its head disagree. `persist=False`
        only checks (no lock needed, nothing written: `record` calls it inside a change's transaction)."""
        row = self.head_row()
        if row is None and self._genesis():
            head = _Head()  # a new log, or its first events written before a crash stored the head
        elif row is None:
            if not persist:
                self._initial_check()
                return _Head(), set()
            adopted = self._initial_head()
            if adopted is None:
                return _Head(), set()
            head = adopted
        else:
            if not verify_row(self.signer, row):
                raise ChainBrokenError(
                    "the store's head checkpoint of the session log does not verify (edited or forged): "
                    "nothing is appended. Run `lorekeeper audit verify`."
                )
            head = _Head.of(row)
        witness, problem = self._read_witness()
        if problem:
            raise ChainBrokenError(problem + ": nothing is appended. Run `lorekeeper audit verify`.")
        if self.witness is not None and witness is None and row is not None and head.epoch > 0:
            raise ChainBrokenError(
                f"the head witness ({self.witness.name}) is missing while the store's head is at epoch "
                f"{head.epoch}: nothing is appended. If the state was reset on purpose, run "
                "`lorekeeper audit verify --adopt`."
            )
        if not head.file:
            later = [(p.name, p.read_text(encoding="utf-8", errors="replace").split("\n")) for p in self.files()]
            return self._roll_forward(head, head, later, witness, persist)
        path = self.dir / head.file
        if not path.is_file():
            raise ChainBrokenError(
                f"{head.file} holds the head of the session log (event #{head.seq}), but the file is missing: "
                "nothing is appended. Run `lorekeeper audit verify`."
            )
        tail = _lines_after_head(path, head.seq, head.sig)
        if tail is None:
            raise ChainBrokenError(
                f"{head.file}: the head event #{head.seq} is not in the file (lines cut or replaced): "
                "nothing is appended. Run `lorekeeper audit verify`."
            )
        later = [(head.file, tail)] + [
            (p.name, p.read_text(encoding="utf-8", errors="replace").split("\n"))
            for p in self.files()
            if p.name > head.file
        ]
        return self._roll_forward(head, head, later, witness, persist)

    def _genesis(self) -> bool:
        """No head, no per-file checkpoint and no witness count: the log starts from nothing (any
        events in it must chain from the very first one)."""
        if self.checkpoints():
            return False
        witness, problem = self._read_witness()
        return not problem and (witness is None or witness.count == 0)

    def _roll_forward(
        self,
        head: _Head,
        start: _Head,
        later: list[tuple[str, list[str]]],
        witness: _Head | None,
        persist: bool,
    ) -> tuple[_Head, set[str]]:
        cur = _Head(start.epoch, start.count, start.file, start.seq, start.sig)
        salts: set[str] = set()
        for name, lines in later:
            for line in lines:
                ev, problem = _parse_line(line)
                if problem or ev is None:
                    continue  # a torn or foreign line: verify reports it, it is never chained on
                if not self.signer.verify(event_header(ev)):
                    # a whole JSON object that does not verify is no torn write (an append writes a
                    # signed line or a cut prefix of one): an event edited or forged after the head
                    raise ChainBrokenError(
                        f"{name}: a line after the head event #{cur.seq} does not verify (an event edited or "
                        "forged after the head): nothing is appended. Run `lorekeeper audit verify`."
                    )
                first = name != cur.file
                if (ev.get("seq"), ev.get("prev")) != ((1 if first else cur.seq + 1), cur.sig):
                    raise ChainBrokenError(
                        f"{name}: a signed event #{ev.get('seq')} after the head does not chain onto it: "
                        "nothing is appended. Run `lorekeeper audit verify`."
                    )
                cur = _Head(cur.epoch + 1, cur.count + 1, name, int(ev["seq"]), str(ev["sig"]))
                content = ev.get("content")
                if isinstance(content, dict) and isinstance(content.get("salt"), str):
                    salts.add(content["salt"])
        if witness is not None:  # compared with the head rolled forward: the witness is written first
            if witness.epoch > cur.epoch:
                raise ChainBrokenError(
                    f"the store's head checkpoint (epoch {cur.epoch}, {cur.count} events) is behind the witness "
                    f"{self.witness.name if self.witness else ''} (epoch {witness.epoch}, {witness.count} events): "
                    "the store was rolled back. Nothing is appended; run `lorekeeper audit verify`."
                )
            if witness.epoch == cur.epoch and not witness.same_event(cur):
                raise ChainBrokenError(
                    "the store's head checkpoint and its witness name different events at the same epoch: "
                    "nothing is appended. Run `lorekeeper audit verify`."
                )
        behind = self.witness is not None and (witness is None or witness.epoch < cur.epoch)
        if persist and (cur.epoch != head.epoch or behind):
            self._store_head(cur, self.clock(), salts_done=salts)
        return cur, salts

    def _initial_check(self) -> None:
        """No head yet: refuse only what `_initial_head` would refuse (a deleted log the witness knows)."""
        witness, problem = self._read_witness()
        if problem:
            raise ChainBrokenError(problem + ": nothing is written. Run `lorekeeper audit verify`.")
        has_events = any(p.stat().st_size for p in self.files())
        if witness is not None and witness.count > 0 and not has_events:
            raise ChainBrokenError(
                f"the head witness records {witness.count} events but there is no session log and no head: "
                "the log was deleted. Nothing is written."
            )
        if has_events or self.checkpoints():  # a log from before the head: adoptable only if it verifies
            report = self._verify_all(use_head=False)
            formats = {ev.get("v") for p in self.files() for _, ev, prob in _read_lines(p) if not prob}
            if not report.ok or not formats <= {1}:
                raise ChainBrokenError(
                    "the store has no head checkpoint for this session log: nothing is written. Run "
                    "`lorekeeper audit verify`, then `lorekeeper audit verify --adopt`."
                )

    def _initial_head(self) -> _Head | None:
        """No head row: a new log (None), or a log from before the head existed, adopted when its
        per-file checkpoints all verify; anything else is a break."""
        witness, problem = self._read_witness()
        has_events = any(p.stat().st_size for p in self.files())
        if not has_events and not self.checkpoints():
            if witness is not None and witness.count > 0:
                raise ChainBrokenError(
                    f"the head witness ({self.witness.name if self.witness else ''}) records {witness.count} events "
                    "but the store has no head and there is no session log: the log was deleted. Nothing is appended."
                )
            return None
        report = self._verify_all(use_head=False)
        formats = {ev.get("v") for p in self.files() for _, ev, prob in _read_lines(p) if not prob}
        if report.ok and not problem and formats <= {1}:
            return self._adopt(report, automatic=True)
        raise ChainBrokenError(
            "the store has no head checkpoint for this session log"
            + (f" and the log has {len(report.issues)} problem(s)" if not report.ok else "")
            + ": nothing is appended. Run `lorekeeper audit verify`, then `lorekeeper audit verify --adopt` "
            "to start a new head over what is there (recorded in a signed event)."
        )

    def _adopt(self, report: VerifyReport, *, automatic: bool) -> _Head:
        """A head over the log as it stands (the last valid event), epoch past any witness."""
        last = _Head()
        count = 0
        for f in report.files:
            for _line, ev, prob in _read_lines(Path(f.path)):
                if prob or not self.signer.verify(event_header(ev)):
                    continue
                count += 1
                last = _Head(0, 0, f.file, int(ev.get("seq") or 0), str(ev.get("sig") or ""))
        witness, _ = self._read_witness()
        row = self.head_row()
        floor = max(witness.epoch if witness else 0, int(row.epoch) if row is not None else 0)
        head = _Head(floor + 1, count, last.file, last.seq, last.sig)
        self._store_head(head, self.clock())
        issues = report.issues
        content = self._content(
            EVENT_HEAD_ADOPTED,
            {
                "automatic": automatic,
                "events": count,
                "problems": len(issues),
                "first_problem": str(issues[0]) if issues else None,
            },
            None,
        )
        _event, head = self._write_event(head, EVENT_HEAD_ADOPTED, content, None, self.clock())
        return head

    def adopt(self) -> dict[str, Any]:
        """`audit verify --adopt`: an operator starts a new head over the log as it is (signed event)."""
        with self.lock.exclusive():
            report = self._verify_all(use_head=False)
            head = self._adopt(report, automatic=False)
        return {"epoch": head.epoch, "count": head.count, "file": head.file, "seq": head.seq}

    def recover(self) -> None:
        """At start: roll the head forward and write what the outbox holds; a break is left for
        `verify` to report (and for `append` to refuse)."""
        try:
            with self.lock.exclusive():
                head, seen = self._sync()
                self._flush_locked(head, seen)
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
            source = restored if restored is not None else self.head_row()
            start = _Head.of(source) if source is not None else _Head()
            how, why = "rolled_forward", ""
            try:
                head, seen = self._sync()
            except ChainBrokenError as exc:
                how, why = "adopted", exc.message
                head = self._adopt(self._verify_all(use_head=False), automatic=False)
                seen = set()
            since = max(0, head.count - start.count - (1 if how == "adopted" else 0))
            purged: list[str] = []
            checkpoints = self.checkpoints()
            fixed: list[tuple[str, int, str]] = []
            for path in self.files():
                if start.file and path.name < start.file:
                    continue
                last: tuple[int, str] | None = None
                for _line, ev, problem in _read_lines(path):
                    if problem or not self.signer.verify(event_header(ev)):
                        continue
                    last = (int(ev.get("seq") or 0), str(ev.get("sig") or ""))
                    after_start = path.name > start.file or int(ev.get("seq") or 0) > start.seq
                    if after_start and ev.get("type") == "clarification_purged" and isinstance(ev.get("story"), str):
                        purged.append(str(ev["story"]))
                cp = checkpoints.get(path.name)
                if last is not None and (cp is None or int(cp.head_seq or 0) < last[0]):
                    fixed.append((path.name, *last))
            if fixed:
                from lorekeeper.store.models import AuditCheckpoint

                ts = self.clock()
                with self._unguarded(), self.store.write() as s:
                    for name, seq, sig in fixed:
                        row = s.get(AuditCheckpoint, (self.workspace_id, name))
                        if row is None:
                            row = AuditCheckpoint(workspace=self.workspace_id, file=name)
                            s.add(row)
                        row.events, row.head_seq, row.head_sig, row.updated_at = seq, seq, sig, ts
                        sign_row(self.signer, row)
            head = self._flush_locked(head, seen)
            payload = {**data, "audit": how, "events_since_backup": since, "purged_since_backup": sorted(set(purged))}
            content = self._content("store_restored", payload, None)
            event, head = self._write_event(head, "store_restored", content, None, self.clock())
        return {
            "audit": how,
            "reason": why,
            "events_since_backup": since,
            "checkpoints_written": [name for name, _, _ in fixed],
            "purged_since_backup": sorted(set(purged)),
            "event_sig": event["sig"],
            "head": {"epoch": head.epoch, "count": head.count, "file": head.file, "seq": head.seq},
        }

    # ------------------------------------------------------------------ the outbox
    def record(
        self, type: str, data: Any = None, *, story: str | None = None, flush: bool = True, session: Any = None
    ) -> int:
        """Add the event to the outbox in the current store transaction (its own one when none is
        open): it commits with the change it records, or not at all. After the commit it is written
        to the day file (`flush=False`: later, by `flush_outbox`). Returns the outbox row id."""
        return self._record(type, data, story=story, flush=flush)[0]

    def _record(self, type: str, data: Any, *, story: str | None, flush: bool) -> tuple[int, dict[str, Any]]:
        from lorekeeper.store.models import AuditOutbox

        data = self.with_operator(type, data)
        content = self._content(type, data, story)
        self._check_settled()  # a broken chain refuses the change too: nothing written
        with self.store.write() as s:
            row = AuditOutbox(
                workspace=self.workspace_id,
                type=type,
                story=story,
                data=canonical_text(data),
                salt=content["salt"],
                created_at=self.clock(),
            )
            s.add(row)
            s.flush()
            sign_row(self.signer, row)
            if flush:
                self.store.after_commit(s, self._flush_after_commit)
            return int(row.id), content

    def record_ref(self, type: str, data: Any = None, *, story: str | None = None) -> str:
        """`record` inside the caller's transaction (issue 24: the change and its event commit
        together or not at all); returns the `content_sha256` the written event's signed header
        will carry, so a row can name its event before the event reaches the day file."""
        _row_id, content = self._record(type, data, story=story, flush=True)
        return content_hash(content)

    def last_event(self) -> dict[str, Any] | None:
        """The event the head names (its header), or None."""
        row = self.head_row()
        if row is None or not row.file:
            return None
        for _line, ev, problem in _read_lines(self.dir / row.file):
            if not problem and ev.get("seq") == row.seq and ev.get("sig") == row.head_sig:
                return {k: v for k, v in ev.items() if k != "content"}
        return None

    def _flush_after_commit(self) -> None:
        try:
            self.flush_outbox()
        except LorekeeperError as exc:  # the events wait in the outbox; the next start or write retries
            self.warnings.append(f"audit events kept in the outbox, not yet in the day file: {exc.message}")

    def flush_outbox(self) -> int:
        """Write the outbox's events to the day file, oldest first; returns how many were written."""
        try:
            with self.lock.exclusive():
                head, seen = self._sync()
                before = head.count
                head = self._flush_locked(head, seen)
                return head.count - before
        except LockTimeoutError as exc:
            raise TraceWriteFailedError(f"audit events left in the outbox: {exc}") from None

    def pending(self) -> int:
        from sqlalchemy import func, select

        from lorekeeper.store.models import AuditOutbox

        with self.store.session() as s:
            return int(
                s.scalar(select(func.count(AuditOutbox.id)).where(AuditOutbox.workspace == self.workspace_id)) or 0
            )

    def _flush_locked(self, head: _Head, seen: set[str]) -> _Head:
        from sqlalchemy import delete, select

        from lorekeeper.store.models import AuditOutbox

        with self.store.session() as s:
            rows = list(
                s.scalars(
                    select(AuditOutbox).where(AuditOutbox.workspace == self.workspace_id).order_by(AuditOutbox.id)
                )
            )
        rejected: list[int] = []
        for row in rows:
            if row.salt in seen:  # written before a crash; only the head and the outbox lagged
                self._drop_outbox([row.id])
                continue
            if not verify_row(self.signer, row):
                rejected.append(row.id)
                continue
            try:
                data = loads(row.data)
            except CanonicalJSONError:
                rejected.append(row.id)
                continue
            rotation = row.type == EVENT_KEY_ROTATED and isinstance(data, dict)
            own = rotation and row.id in OWN_ROTATIONS and int(data.get("new_version") or 0) <= self.signer.version
            if rotation and not own:
                # another process's rotation: the rotating process holds the rotation lock from its
                # outbox row to its own flush with the new key, so a row under way is left to it; a
                # row nobody's lock covers is a dead process's (the kernel drops a dead holder's
                # flock), and the provider and the log tell whether that rotation happened (found by
                # the soak, issue 23: a refused or killed rotation was replayed as "1 -> 2" twice)
                try:
                    with self.rotation_lock.shared(timeout=0):
                        verdict = self._dead_rotation(int(data.get("new_version") or 0))
                        if verdict != "write":
                            if verdict == "drop":
                                self._drop_outbox([row.id])
                            continue
                except LockTimeoutError:
                    continue
            content = self._content(row.type, data, row.story, salt=row.salt)
            _event, head = self._write_event(head, row.type, content, row.story, row.created_at or self.clock())
        if rejected:
            with self._unguarded(), self.store.write() as s:
                s.execute(delete(AuditOutbox).where(AuditOutbox.id.in_(rejected)))
            report = {
                "code": "ERR_UNSIGNED_ENTRY",
                "table": "audit_outbox",
                "count": len(rejected),
                "first_id": [rejected[0]],
                "purpose": "outbox replay",
            }
            content = self._content(EVENT_OUTBOX_REJECTED, report, None)
            _event, head = self._write_event(head, EVENT_OUTBOX_REJECTED, content, None, self.clock())
        return head

    def _dead_rotation(self, new_version: int) -> str:
        """What to do with a rotation row whose process died: "drop" it (the log has that rotation
        already, or the provider has no such key version: it never happened), "keep" it for a
        process that holds the new key, or "write" its event now (this session's key is at least
        that version, so the rotation did happen)."""
        if new_version < 2 or self._rotation_logged(new_version):
            return "drop"
        if new_version > self.signer.version:
            if self.signer.key_for(new_version) is None:
                return "drop"
            if self.current_version is not None:
                # killed between storing the new key and its commit point (the provider's version):
                # the key exists but the rotation never happened (found by the kill -9 test)
                try:
                    if self.current_version() < new_version:
                        return "drop"
                except Exception:  # noqa: BLE001 - the provider unreachable: leave the row for later
                    return "keep"
            return "keep"
        return "write"

    def _rotation_logged(self, new_version: int) -> bool:
        """Whether a signed `audit_key_rotated` event to `new_version` is in the log (rare path: only
        for a dead rotation's row; the caller holds the sessions lock)."""
        needle = f'"{EVENT_KEY_ROTATED}"'
        for path in self.files():
            try:
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            if needle not in text:
                continue
            for _line_no, ev, problem in _read_lines(path):
                if problem or ev.get("type") != EVENT_KEY_ROTATED or self._status(ev) != "valid":
                    continue
                data = ev["content"].get("data")
                if isinstance(data, dict) and data.get("new_version") == new_version:
                    return True
        return False

    def drop_outbox(self, ids: list[int]) -> None:
        """Remove outbox rows whose change did not happen (a refused key rotation)."""
        self._drop_outbox(ids)

    def _drop_outbox(self, ids: list[int]) -> None:
        from sqlalchemy import delete

        from lorekeeper.store.models import AuditOutbox

        with self._unguarded(), self.store.write() as s:
            s.execute(delete(AuditOutbox).where(AuditOutbox.id.in_(ids)))

    def checkpoint(self, file: str) -> Any:
        """This workspace's checkpoint of `file` (a row from before migration 0008 when none)."""
        return self.checkpoints().get(file)

    def checkpoints(self) -> dict[str, Any]:
        """file -> checkpoint of this workspace; the legacy rows (workspace '') fill the gaps."""
        from sqlalchemy import select

        from lorekeeper.store.models import AuditCheckpoint

        with self.store.session() as s:
            rows = s.scalars(select(AuditCheckpoint).where(AuditCheckpoint.workspace.in_(["", self.workspace_id])))
            out: dict[str, Any] = {}
            for r in sorted(rows, key=lambda r: r.workspace == self.workspace_id):
                out[r.file] = r  # this workspace's row, sorted last, wins over a legacy one
            return out

    # ------------------------------------------------------------------ tombstones
    def tombstone(self, file: str, seq: int, *, reason: str) -> dict[str, Any]:
        """Replace event `seq` of `file` by a signed tombstone; its place and signature stay."""
        if not reason.strip():
            raise InvalidInputError("a tombstone needs a reason (e.g. the purge request id)")
        path = self._file_path(file)
        with self.lock.exclusive():
            lines = path.read_text(encoding="utf-8").split("\n")
            for i, line in enumerate(lines):
                if not line.strip():
                    continue
                try:
                    ev = loads(line)
                except CanonicalJSONError:
                    continue
                if isinstance(ev, dict) and ev.get("seq") == seq:
                    lines[i] = canonical_text(self._tombstoned(ev, reason, path.name, i + 1))
                    atomic_write_text(path, "\n".join(lines), private=True)  # signed session log: 0600 as written
                    return ev
        raise NotFoundError(f"no event with seq {seq} in {path.name}")

    def tombstone_story(self, story: str, *, reason: str) -> int:
        """Tombstone every event of `story` in every file; returns how many."""
        return self.tombstone_where(lambda ev: ev.get("story") == story, reason=reason)

    def tombstone_where(self, match: Callable[[dict[str, Any]], bool], *, reason: str) -> int:
        """Tombstone every event (with content) for which `match(event)` is true; returns how many.

        The GDPR purge uses it for the events *of* a story and the events of other stories whose
        content names it (an injection trace that served its clarification)."""
        if not reason.strip():
            raise InvalidInputError("a tombstone needs a reason (e.g. the purge request id)")
        count = 0
        for path in self.files():
            with self.lock.exclusive():
                lines = path.read_text(encoding="utf-8").split("\n")
                changed = False
                for i, line in enumerate(lines):
                    if not line.strip():
                        continue
                    try:
                        ev = loads(line)
                    except CanonicalJSONError:
                        continue
                    if isinstance(ev, dict) and "content" in ev and "tombstone" not in ev and match(ev):
                        lines[i] = canonical_text(self._tombstoned(ev, reason, path.name, i + 1))
                        changed = True
                        count += 1
                if changed:
                    atomic_write_text(path, "\n".join(lines), private=True)  # signed session log: 0600 as written
        return count

    def _tombstoned(self, ev: dict[str, Any], reason: str, file: str, line: int) -> dict[str, Any]:
        if "tombstone" in ev:
            return ev
        if not self.signer.verify(event_header(ev)) or content_hash(ev.get("content") or {}) != ev.get(
            "content_sha256"
        ):
            raise InvalidInputError(
                f"{file}:{line}: the event does not verify; a tombstone would hide tampering. Run `lorekeeper audit verify`."
            )
        tomb = {"purged_at": self.clock(), "reason": reason, "key_version": self.signer.version}
        tomb["sig"] = self.signer.signature(tombstone_payload(ev["sig"], tomb))
        out = {k: v for k, v in ev.items() if k != "content"}
        out["tombstone"] = tomb
        return out

    # ------------------------------------------------------------------ reading
    def files(self) -> list[Path]:
        if not self.dir.is_dir():
            return []
        return sorted(p for p in self.dir.glob("*.jsonl") if p.is_file())

    def _file_path(self, file: str) -> Path:
        p = Path(file)
        if not p.is_absolute() and p.parent == Path("."):
            p = self.dir / p.name
        if not p.is_file():
            raise NotFoundError(f"no session log file {file}")
        return p

    def verify(self, target: Path | None = None) -> VerifyReport:
        """Check every file (or one file, or the files of a folder) against signatures, chain and
        checkpoints; the whole log also against its head and the head's witness."""
        with self.lock.shared():
            if target is None:
                return self._verify_all(use_head=True)
            target = Path(target)
            if target.is_dir():
                paths = sorted(p for p in target.glob("*.jsonl") if p.is_file())
                if target.resolve() == self.dir.resolve():
                    return self._verify_all(use_head=True)
            elif target.is_file():
                paths = [target]
            else:
                raise NotFoundError(f"nothing to verify at {target}")
            checkpoints = self.checkpoints()
            report = VerifyReport()
            prev: str | None = None
            for path in paths:
                rep, prev = self._verify_file(path, checkpoints.get(path.name), prev)
                report.files.append(rep)
            return report

    def chain_state(self) -> ChainState:
        """Every break the full verification finds, each marked acknowledged or not (issue 31 item
        10): `audit status` and the Audit panel say where the first unacknowledged one is."""
        with self.lock.shared():
            return self._chain_state(self._verify_all(use_head=True))

    def _chain_state(self, report: VerifyReport) -> ChainState:
        issues = report.issues
        wanted = {(i.file, i.line) for i in issues if i.line > 0}
        lines: dict[tuple[str, int], tuple[str, int | None]] = {}
        acked: set[str] = set()
        acks: list[dict[str, Any]] = []
        needle = f'"{EVENT_BREAK_ACKNOWLEDGED}"'
        for path in self.files():
            has_issue = any(f == path.name for f, _ in wanted)
            if not has_issue:
                try:
                    if needle not in path.read_text(encoding="utf-8", errors="replace"):
                        continue
                except OSError:
                    continue
            for line_no, ev, _problem in _read_lines(path, keep_raw=True):
                raw = str(ev.pop("__raw__", "")) if isinstance(ev, dict) else ""
                if (path.name, line_no) in wanted:
                    seq = ev.get("seq") if isinstance(ev.get("seq"), int) else None
                    lines[(path.name, line_no)] = (hashlib.sha256(raw.encode("utf-8", "replace")).hexdigest(), seq)
                if ev.get("type") != EVENT_BREAK_ACKNOWLEDGED or self._status(ev) != "valid":
                    continue
                data = ev["content"].get("data")
                covered = data.get("breaks") if isinstance(data, dict) else None
                if not isinstance(covered, list):
                    continue
                acked.update(str(b.get("fingerprint")) for b in covered if isinstance(b, dict))
                acks.append(
                    {
                        "file": path.name,
                        "seq": ev.get("seq"),
                        "ts": ev.get("ts"),
                        "operator": data.get("operator"),
                        "reason": data.get("reason"),
                        "breaks": len(covered),
                    }
                )
        state = ChainState(acknowledgements=acks)
        seen: set[str] = set()
        for issue in issues:
            digest, seq = lines.get((issue.file, issue.line), ("", None))
            basis = digest or re.sub(r"\d+", "#", issue.message)
            fp = _fingerprint(issue.file, issue.line, issue.kind, basis)
            if fp in seen:
                continue
            seen.add(fp)
            brk = ChainBreak(issue.file, issue.line, seq, issue.kind, issue.message, fp)
            (state.acknowledged if fp in acked else state.breaks).append(brk)
        return state

    def acknowledge(self, reason: str = "", *, operator: str | None = None) -> dict[str, Any]:
        """Record that the operator has seen the breaks no acknowledgement covers yet: one signed
        `break_acknowledged` event naming each of them (file, line, seq, kind, fingerprint). Nothing
        is written when there is none. A break the head disagrees with (a cut tail, a rollback)
        cannot be acknowledged: the append is refused (ERR_AUDIT_CHAIN_BROKEN), see `verify --adopt`."""
        reason = (reason or "").strip()
        if len(reason) > MAX_ACK_REASON:
            raise InvalidInputError(f"the reason is {len(reason)} characters long (the limit is {MAX_ACK_REASON})")
        state = self.chain_state()
        if not state.breaks:
            return {"acknowledged": [], "event": None, "already_acknowledged": len(state.acknowledged)}
        who = (operator or operator_name()).strip() or "operator"
        data = {
            "breaks": [b.to_dict() for b in state.breaks],
            "reason": reason,
            "operator": who,
        }
        event = self.append(EVENT_BREAK_ACKNOWLEDGED, data)
        row = self.head_row()
        written_to = str(row.file) if row is not None and row.seq == event["seq"] else f"{event['ts'][:10]}.jsonl"
        return {
            "acknowledged": [b.to_dict() for b in state.breaks],
            "already_acknowledged": len(state.acknowledged),
            "operator": who,
            "reason": reason,
            "event": {
                "file": written_to,
                "seq": event["seq"],
                "sig": event["sig"],
                "type": EVENT_BREAK_ACKNOWLEDGED,
            },
        }

    def _verify_all(self, *, use_head: bool) -> VerifyReport:
        checkpoints = self.checkpoints()
        paths = self.files()
        report = VerifyReport()
        prev_sig = ""
        prev_name = ""
        for path in paths:
            rep, last = self._verify_file(path, checkpoints.get(path.name), prev_sig, prev_name=prev_name)
            report.files.append(rep)
            if last is not None:
                prev_sig, prev_name = last, path.name
        present = {p.name for p in paths}
        for name, cp in sorted(checkpoints.items()):
            if name not in present and cp.events:
                report.missing.append(
                    Issue(name, 0, "missing", f"file is gone, but the store's checkpoint records {cp.events} events")
                )
        if use_head:
            self._check_head(report)
        return report

    def _check_head(self, report: VerifyReport) -> None:
        """The whole log against the store's signed head and the witness: names what is behind."""
        count = 0
        last: tuple[str, int, str] | None = None
        positions: dict[tuple[str, int, str], int] = {}
        for f in report.files:
            count += f.signed_events
            for key in f.signed_positions:
                positions[key] = len(positions)
                last = key
        row = self.head_row()
        witness, w_problem = self._read_witness()
        info: dict[str, Any] = {"log_events": count}
        report.head_info = info
        if row is None:
            if count or (witness is not None and witness.count):
                what = f"the log holds {count} signed events" if count else "there is no session log"
                report.head.append(
                    Issue(
                        "(head)",
                        0,
                        "checkpoint",
                        f"no head checkpoint in the store, but {what}: the head was deleted (or the log predates it: "
                        "`lorekeeper audit verify --adopt`)",
                    )
                )
            head = None
        elif not verify_row(self.signer, row):
            report.head.append(
                Issue("(head)", 0, "checkpoint", "the store's head checkpoint has a bad signature (edited or forged)")
            )
            head = None
        else:
            head = _Head.of(row)
            info.update({"count": head.count, "epoch": head.epoch, "file": head.file, "seq": head.seq})
            key = (head.file, head.seq, head.sig)
            located = {(i.file, i.kind) for i in report.issues}
            if head.file and not (self.dir / head.file).is_file():
                if (head.file, "missing") not in located:
                    report.head.append(
                        Issue(
                            head.file,
                            0,
                            "missing",
                            f"file is gone, but it holds the head of the log (event #{head.seq}; "
                            f"{head.count} events in all)",
                        )
                    )
            elif head.count and key not in positions:
                if (head.file, "truncated") not in located:
                    last_line = next((x.last_line for x in report.files if x.file == head.file), 0)
                    report.head.append(
                        Issue(
                            head.file,
                            last_line + 1,
                            "truncated",
                            f"the head checkpoint records event #{head.seq} of {head.file} as the last of "
                            f"{head.count} events, but the log does not hold it: the tail was cut",
                        )
                    )
            elif head.count and last is not None and key != last:
                after = len(positions) - 1 - positions[key]
                report.head.append(
                    Issue(
                        last[0],
                        0,
                        "head_behind",
                        f"the store's head checkpoint (epoch {head.epoch}) is behind the log: {after} valid event(s) "
                        f"after {head.file}#{head.seq} (an older checkpoint was written back, or a crash: the next "
                        "write rolls it forward)",
                    )
                )
            if head.count != count and not report.issues:
                report.head.append(
                    Issue(
                        "(head)",
                        0,
                        "truncated" if count < head.count else "checkpoint",
                        f"the head checkpoint records {head.count} events, the log holds {count} signed events"
                        + (
                            f": {head.count - count} event(s) deleted (a whole day file?)" if count < head.count else ""
                        ),
                    )
                )
        if self.witness is not None:
            info["witness"] = self.witness.name
            if w_problem:
                report.head.append(Issue("(witness)", 0, "witness", w_problem))
            elif witness is None:
                if head is not None and head.epoch > 0:
                    report.head.append(
                        Issue(
                            "(witness)",
                            0,
                            "witness",
                            f"the head witness ({self.witness.name}) is missing while the store's head is at epoch "
                            f"{head.epoch}: deleted, or the state was reset (`lorekeeper audit verify --adopt`)",
                        )
                    )
            else:
                info["witness_epoch"] = witness.epoch
                store_epoch = head.epoch if head is not None else 0
                lagging = (witness.file, witness.seq, witness.sig) in positions and any(
                    i.kind == "head_behind" for i in report.head
                )  # a crash between the witness write and the store's: the next start rolls it forward
                if witness.epoch > store_epoch and not lagging:
                    report.head.append(
                        Issue(
                            "(head)",
                            0,
                            "rolled_back",
                            f"the store's head checkpoint is behind: epoch {store_epoch} < {witness.epoch} in the witness "
                            f"({self.witness.name}, {witness.count} events): the store was rolled back",
                        )
                    )
                elif witness.epoch < store_epoch:
                    report.head.append(
                        Issue(
                            "(witness)",
                            0,
                            "witness_behind",
                            f"the head witness ({self.witness.name}) is behind: epoch {witness.epoch} < {store_epoch} in "
                            "the store (a witness write failed; the next event brings it up to date)",
                        )
                    )
                elif head is not None and not witness.same_event(head):
                    report.head.append(
                        Issue("(head)", 0, "witness", "the store's head and its witness name different events")
                    )

    def _verify_file(
        self, path: Path, cp: Any, start_prev: str | None = "", *, prev_name: str = ""
    ) -> tuple[FileReport, str | None]:
        """One file's report, and the signature of its last event (the next file's first `prev`)."""
        rep = FileReport(file=path.name, path=str(path))
        prev_seq, prev_sig = 0, ""
        seen: dict[int, str] = {}
        seen_at: dict[int, int] = {}
        last_line_no = 0
        last_sig: str | None = None
        first = True
        for line_no, ev, problem in _read_lines(path):
            last_line_no = line_no
            rep.events += 1
            if problem:
                rep.damaged += 1
                rep.issues.append(Issue(path.name, line_no, "damaged", problem))
                continue
            if not isinstance(ev.get("sig"), str) or "key_version" not in ev:
                rep.unsigned += 1
                rep.issues.append(Issue(path.name, line_no, "unsigned", "unsigned line: not written by Lorekeeper"))
                continue
            good = True
            rep.signed_events += 1
            verdict = self.signer.verify(event_header(ev))
            if not verdict:
                good = False
                rep.bad_signature += 1
                why = {
                    "unknown_key_version": f"signed with key version {ev.get('key_version')}, which the provider cannot give",
                    "not_canonical": "holds values that cannot be canonicalised",
                }.get(
                    verdict.reason,
                    "signature does not match: the event was edited (or signed with another provider's key)",
                )
                rep.issues.append(Issue(path.name, line_no, "bad_signature", why))
            else:
                rep.signed_positions.append(
                    (path.name, ev.get("seq") if isinstance(ev.get("seq"), int) else -1, ev["sig"])
                )
                if "tombstone" in ev:
                    tomb = ev["tombstone"]
                    if not isinstance(tomb, dict) or not self.signer.verify(tombstone_payload(ev["sig"], tomb)):
                        good = False
                        rep.bad_signature += 1
                        rep.issues.append(
                            Issue(path.name, line_no, "bad_signature", "tombstone signature does not match")
                        )
                    else:
                        rep.tombstones += 1
                elif not isinstance(ev.get("content"), dict):
                    good = False
                    rep.bad_signature += 1
                    rep.issues.append(
                        Issue(path.name, line_no, "content_mismatch", "content removed without a signed tombstone")
                    )
                else:
                    try:
                        same = content_hash(ev["content"]) == ev.get("content_sha256")
                    except CanonicalJSONError:
                        same = False
                    if not same:
                        good = False
                        rep.bad_signature += 1
                        rep.issues.append(
                            Issue(
                                path.name,
                                line_no,
                                "content_mismatch",
                                "content does not match its signed hash: the data was edited",
                            )
                        )
            seq = ev.get("seq")
            if not isinstance(seq, int) or isinstance(seq, bool):
                seq = -1
            fmt = ev.get("v")
            if first and seq == 1 and isinstance(fmt, int) and fmt >= 2 and start_prev is not None:
                if ev.get("prev") != start_prev:
                    rep.chain_breaks += 1
                    rep.issues.append(
                        Issue(
                            path.name,
                            line_no,
                            "chain_break",
                            "chain break: the first event of this file does not follow the last event of "
                            + (f"the previous file ({prev_name})" if prev_name else "an earlier file")
                            + ": a whole day file (or its end) is missing, or this file was replaced",
                        )
                    )
            elif first and seq == 1 and (not isinstance(fmt, int) or fmt < 2):
                if ev.get("prev") != "":
                    rep.chain_breaks += 1
                    rep.issues.append(Issue(path.name, line_no, "chain_break", _chain_message(seq, 0, seen_at)))
            elif seq != prev_seq + 1 or ev.get("prev") != prev_sig:
                rep.chain_breaks += 1
                rep.issues.append(Issue(path.name, line_no, "chain_break", _chain_message(seq, prev_seq, seen_at)))
            first = False
            if good:
                rep.valid += 1
            prev_seq, prev_sig = seq, ev.get("sig", "")
            if verdict:
                last_sig = prev_sig
            seen[seq] = prev_sig
            seen_at.setdefault(seq, line_no)
        rep.last_line = last_line_no
        self._check_checkpoint(rep, path, cp, prev_seq, seen, last_line_no)
        return rep, last_sig

    def _check_checkpoint(
        self, rep: FileReport, path: Path, cp: Any, last_seq: int, seen: dict[int, str], last_line: int
    ) -> None:
        if cp is None:
            if rep.events:
                rep.issues.append(
                    Issue(
                        path.name,
                        0,
                        "checkpoint",
                        "no checkpoint in the store for this file (not written by this workspace, or the store was replaced)",
                    )
                )
            return
        rep.checkpoint_events = cp.events
        if not _checkpoint_verifies(self.signer, cp):
            rep.issues.append(
                Issue(path.name, 0, "checkpoint", "the store's checkpoint for this file has a bad signature")
            )
            return
        if cp.head_seq and cp.head_seq not in seen:
            if last_seq < cp.head_seq:
                rep.truncated = True
                rep.issues.append(
                    Issue(
                        path.name,
                        last_line + 1,
                        "truncated",
                        f"file ends at event #{last_seq} (line {last_line}) but the checkpoint records #{cp.head_seq}: "
                        f"{cp.head_seq - last_seq} event(s) cut from the tail",
                    )
                )
            else:
                rep.issues.append(
                    Issue(path.name, 0, "truncated", f"checkpointed event #{cp.head_seq} is missing from the file")
                )
        elif cp.head_seq and seen.get(cp.head_seq) != cp.head_sig:
            rep.issues.append(
                Issue(path.name, 0, "checkpoint", f"event #{cp.head_seq} is not the one checkpointed (replaced)")
            )

    def events(self, files: Iterable[Path] | None = None) -> list[EventRecord]:
        """Every line of every file, oldest first, with its verification status."""
        out: list[EventRecord] = []
        with self.lock.shared():
            for path in sorted(files or self.files()):
                for line_no, ev, problem in _read_lines(path, keep_raw=True):
                    raw = ev.pop("__raw__", "") if isinstance(ev, dict) else ""
                    if problem:
                        out.append(EventRecord(path.name, line_no, None, "", "", None, None, "damaged", None, raw))
                        continue
                    out.append(
                        EventRecord(
                            file=path.name,
                            line=line_no,
                            seq=ev.get("seq") if isinstance(ev.get("seq"), int) else None,
                            ts=str(ev.get("ts", "")),
                            type=str(ev.get("type", "")),
                            story=ev.get("story") if isinstance(ev.get("story"), str) else None,
                            key_version=ev.get("key_version") if isinstance(ev.get("key_version"), int) else None,
                            status=self._status(ev),
                            data=(ev.get("content") or {}).get("data") if isinstance(ev.get("content"), dict) else None,
                            raw=raw,
                        )
                    )
        return out

    def _status(self, ev: dict[str, Any]) -> str:
        if not isinstance(ev.get("sig"), str):
            return "unsigned"
        if not self.signer.verify(event_header(ev)):
            return "bad_signature"
        if "tombstone" in ev:
            return "tombstone"
        try:
            if not isinstance(ev.get("content"), dict) or content_hash(ev["content"]) != ev.get("content_sha256"):
                return "content_mismatch"
        except CanonicalJSONError:
            return "content_mismatch"
        return "valid"


def _checkpoint_verifies(signer: Signer, cp: Any) -> bool:
    """A checkpoint's signature; a row from before migration 0008 was signed without `workspace`."""
    if verify_row(signer, cp):
        return True
    if cp.workspace or not cp.sig or cp.key_version is None:
        return False
    payload = row_payload(cp)
    payload.pop("workspace", None)
    payload[SIG_FIELD] = cp.sig
    return bool(signer.verify(payload))


def _chain_message(seq: int, prev_seq: int, seen_at: dict[int, int]) -> str:
    expected = prev_seq + 1
    if seq == expected:
        return f"chain break: event #{seq} does not follow the previous line (its `prev` does not match): replaced or inserted"
    if seq in seen_at:
        return f"chain break: event #{seq} appears again (first at line {seen_at[seq]}): duplicated line"
    if seq > expected:
        missing = [n for n in range(expected, seq) if n not in seen_at]
        if missing:
            span = f"#{missing[0]}" if len(missing) == 1 else f"#{missing[0]}..#{missing[-1]}"
            return f"chain break: expected event #{expected}, found #{seq}: {len(missing)} event(s) missing or moved ({span})"
        return f"chain break: event #{seq} after #{prev_seq}: the events between appeared earlier (lines reordered)"
    if seq < 0:
        return "chain break: this line has no event number"
    return f"chain break: event #{seq} after #{prev_seq}: lines reordered"


def _parse_line(line: str) -> tuple[dict[str, Any] | None, str]:
    """(event, problem) of one line; bounded in length, nesting and number size (never raises)."""
    if not line.strip():
        return None, "empty line inside the log"
    if len(line) > MAX_LINE_CHARS:
        return None, f"not a valid event: a line of {len(line)} characters (the limit is {MAX_LINE_CHARS})"
    try:
        ev = loads(line)
    except CanonicalJSONError as exc:
        return None, f"not a valid event: {exc.message}"
    except (ValueError, RecursionError, MemoryError) as exc:  # defence in depth: never stop a reader
        return None, f"not a valid event: {type(exc).__name__}"
    if not isinstance(ev, dict):
        return None, "not a JSON object"
    return ev, ""


SESSION_FILE_LIMIT = 4096 * MIB  # one day's signed log; a reader never holds more than this in memory


def _read_lines(path: Path, keep_raw: bool = False) -> Iterable[tuple[int, Any, str]]:
    """(line number, parsed event, problem) for each non-empty line; a blank line inside is damage."""
    try:  # a regular file only: a FIFO or device in sessions/ is unreadable, never a hang
        text = read_regular_bytes(path, limit=SESSION_FILE_LIMIT, what="session log").decode("utf-8", "replace")
    except (OSError, LorekeeperError):
        return
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for i, line in enumerate(lines, start=1):
        ev, problem = _parse_line(line)
        if problem or ev is None:
            yield i, {"__raw__": line[:2000]} if keep_raw else {}, problem
            continue
        if keep_raw:
            ev["__raw__"] = line
        yield i, ev, ""


def _lines_after_head(path: Path, seq: int, sig: str) -> list[str] | None:
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
            ev, problem = _parse_line(line)
            if not problem and ev is not None and ev.get("seq") == seq and ev.get("sig") == sig:
                return lines[i + 1 :]
        if start == 0:
            return None
        chunk *= 4


def sign_payload_with_key(key: bytes, payload: dict[str, Any]) -> tuple[str, str]:
    """(canonical text, signature) of a payload without its `sig`: `audit sign --test-key`. A
    session-log event line (it has `content_sha256`) is signed as the log signs it: its header,
    without `content` and `tombstone`, after its content is checked against `content_sha256`."""
    if "content_sha256" in payload:
        content = payload.get("content")
        if isinstance(content, dict) and content_hash(content) != payload["content_sha256"]:
            raise InvalidInputError("the event's content does not hash to its content_sha256 (the content was edited)")
        body = {k: v for k, v in payload.items() if k not in HEADER_EXCLUDES}
    else:
        body = {k: v for k, v in payload.items() if k != "sig"}
    return canonical_text(body), sign_with(key, body)
