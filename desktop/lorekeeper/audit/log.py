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
- a cut tail is caught by the checkpoint in the store (file, events, head seq and sig, signed);
- a GDPR tombstone drops `content` (the data and its salt, so the hash cannot be brute-forced
  back into the data) and adds a signed `tombstone` record; the header and its signature stay,
  so the chain still verifies after an erasure.

Writers take the exclusive flock of `locks/sessions.lock`, append one `write()` and fsync; readers
(verification, the event browser) take the shared lock.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from lorekeeper.audit.errors import CanonicalJSONError, TraceWriteFailedError
from lorekeeper.audit.jcs import canonical_text, canonicalize, loads
from lorekeeper.audit.rows import row_payload, sign_row, verify_row
from lorekeeper.audit.signer import SIG_FIELD, Signer, sign_with
from lorekeeper.errors import InvalidInputError, NotFoundError
from lorekeeper.fsutil import atomic_write_text
from lorekeeper.locks import LockTimeoutError, RWLock

EVENT_FORMAT = 1
HEADER_EXCLUDES = ("sig", "content", "tombstone")
LOCK_NAME = "sessions.lock"


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

    @property
    def ok(self) -> bool:
        return not self.issues

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["ok"] = self.ok
        d["issues"] = [asdict(i) for i in self.issues]
        return d


@dataclass
class VerifyReport:
    files: list[FileReport] = field(default_factory=list)
    missing: list[Issue] = field(default_factory=list)  # checkpointed files that are gone

    @property
    def ok(self) -> bool:
        return not self.missing and all(f.ok for f in self.files)

    @property
    def issues(self) -> list[Issue]:
        return [i for f in self.files for i in f.issues] + list(self.missing)

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
        for issue in self.missing:
            lines.append(f"FAIL {issue}")
        if not self.files and not self.missing:
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


# --------------------------------------------------------------------------- the log


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
    ) -> None:
        self.dir = Path(sessions_dir)
        self.workspace_id = workspace_id  # the checkpoints' key with the file name (shared stores)
        self.store = store
        self.signer = signer
        self.clock = clock
        self.lock = RWLock(Path(locks_dir) / LOCK_NAME, timeout=lock_timeout)

    # ------------------------------------------------------------------ writing
    def append(self, type: str, data: Any = None, *, story: str | None = None) -> dict[str, Any]:
        """Sign, chain and durably write one event; returns it. ERR_TRACE_WRITE_FAILED if it cannot."""
        if not isinstance(type, str) or not type.strip():
            raise InvalidInputError("an audit event needs a type")
        if story is not None and not isinstance(story, str):
            raise InvalidInputError("the story of an audit event is a string")
        content = {"data": data, "salt": secrets.token_hex(16)}
        digest = content_hash(content)  # validates `data` (canonical JSON) before anything is written
        ts = self.clock()
        path = self.dir / f"{ts[:10]}.jsonl"
        try:
            with self.lock.exclusive():
                seq, prev = self._tail(path)
                header = {
                    "v": EVENT_FORMAT,
                    "seq": seq + 1,
                    "ts": ts,
                    "type": type,
                    "story": story,
                    "content_sha256": digest,
                    "prev": prev,
                }
                signed = self.signer.sign(header)
                event = {**signed, "content": content}
                self._append_line(path, canonical_text(event))
                self._checkpoint(path.name, signed["seq"], signed["sig"], ts)
        except LockTimeoutError as exc:
            raise TraceWriteFailedError(f"audit event not written: {exc}") from None
        except OSError as exc:
            raise TraceWriteFailedError(
                f"audit event not written to {path}: {exc.strerror or exc}. Check the disk and permissions."
            ) from None
        return event

    def _tail(self, path: Path) -> tuple[int, str]:
        """(seq, sig) of the file's last event; from the checkpoint when the last line is damaged."""
        last = _last_line(path)
        if last:
            try:
                ev = json.loads(last)
                if isinstance(ev, dict) and isinstance(ev.get("seq"), int) and isinstance(ev.get("sig"), str):
                    return ev["seq"], ev["sig"]
            except ValueError:
                pass
        cp = self.checkpoint(path.name)
        if cp is not None:
            return cp.head_seq, cp.head_sig
        return 0, ""

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

    def _checkpoint(self, file: str, seq: int, sig: str, ts: str) -> None:
        from lorekeeper.store.models import AuditCheckpoint

        try:
            with self.store.write() as s:
                row = s.get(AuditCheckpoint, (self.workspace_id, file))
                if row is None:
                    row = AuditCheckpoint(workspace=self.workspace_id, file=file)
                    s.add(row)
                row.events = seq
                row.head_seq = seq
                row.head_sig = sig
                row.updated_at = ts
                sign_row(self.signer, row)
        except Exception as exc:  # noqa: BLE001 - the event is on disk, but its checkpoint is not
            raise TraceWriteFailedError(
                f"audit event written to {file} but its checkpoint could not be stored ({exc}); "
                "the next event will repair it. Check the store."
            ) from None

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
        """Tombstone every event of `story` in every file (the GDPR purge's hook); returns how many."""
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
                    if isinstance(ev, dict) and ev.get("story") == story and "content" in ev:
                        lines[i] = canonical_text(self._tombstoned(ev, reason, path.name, i + 1))
                        changed = True
                        count += 1
                if changed:
                    atomic_write_text(path, "\n".join(lines), private=True)  # signed session log: 0600 as written
        return count

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
        """Check every file (or one file, or the files of a folder) against signatures, chain and checkpoints."""
        with self.lock.shared():
            checkpoints = self.checkpoints()
            if target is None:
                paths = self.files()
                whole = True
            else:
                target = Path(target)
                if target.is_dir():
                    paths = sorted(p for p in target.glob("*.jsonl") if p.is_file())
                    whole = target.resolve() == self.dir.resolve()
                elif target.is_file():
                    paths, whole = [target], False
                else:
                    raise NotFoundError(f"nothing to verify at {target}")
            report = VerifyReport()
            for path in paths:
                report.files.append(self._verify_file(path, checkpoints.get(path.name)))
            if whole:
                present = {p.name for p in paths}
                for name, cp in sorted(checkpoints.items()):
                    if name not in present and cp.events:
                        report.missing.append(
                            Issue(
                                name,
                                0,
                                "missing",
                                f"file is gone, but the store's checkpoint records {cp.events} events",
                            )
                        )
            return report

    def _verify_file(self, path: Path, cp: Any) -> FileReport:
        rep = FileReport(file=path.name, path=str(path))
        prev_seq, prev_sig = 0, ""
        seen: dict[int, str] = {}
        seen_at: dict[int, int] = {}
        last_line_no = 0
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
            elif "tombstone" in ev:
                tomb = ev["tombstone"]
                if not isinstance(tomb, dict) or not self.signer.verify(tombstone_payload(ev["sig"], tomb)):
                    good = False
                    rep.bad_signature += 1
                    rep.issues.append(Issue(path.name, line_no, "bad_signature", "tombstone signature does not match"))
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
            if not isinstance(seq, int):
                seq = -1
            if seq != prev_seq + 1 or ev.get("prev") != prev_sig:
                rep.chain_breaks += 1
                rep.issues.append(Issue(path.name, line_no, "chain_break", _chain_message(seq, prev_seq, seen_at)))
            if good:
                rep.valid += 1
            prev_seq, prev_sig = seq, ev.get("sig", "")
            seen[seq] = prev_sig
            seen_at.setdefault(seq, line_no)
        self._check_checkpoint(rep, path, cp, prev_seq, seen, last_line_no)
        return rep

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


def _read_lines(path: Path, keep_raw: bool = False) -> Iterable[tuple[int, Any, str]]:
    """(line number, parsed event, problem) for each non-empty line; a blank line inside is damage."""
    text = path.read_text(encoding="utf-8", errors="replace")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for i, line in enumerate(lines, start=1):
        if not line.strip():
            yield i, {"__raw__": line} if keep_raw else {}, "empty line inside the log"
            continue
        try:
            ev = loads(line)
        except CanonicalJSONError as exc:
            yield i, {"__raw__": line} if keep_raw else {}, f"not a valid event: {exc.message}"
            continue
        if not isinstance(ev, dict):
            yield i, {"__raw__": line} if keep_raw else {}, "not a JSON object"
            continue
        if keep_raw:
            ev["__raw__"] = line
        yield i, ev, ""


def _last_line(path: Path) -> str:
    """The last non-empty line of a file, read from its end."""
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            end = fh.tell()
            buf = b""
            pos = end
            while pos > 0:
                step = min(8192, pos)
                pos -= step
                fh.seek(pos)
                buf = fh.read(step) + buf
                stripped = buf.rstrip(b"\n")
                if b"\n" in stripped:
                    return stripped.rsplit(b"\n", 1)[1].decode("utf-8", errors="replace")
            return buf.rstrip(b"\n").decode("utf-8", errors="replace")
    except FileNotFoundError:
        return ""


def sign_payload_with_key(key: bytes, payload: dict[str, Any]) -> tuple[str, str]:
    """(canonical text, signature) of a payload without its `sig`: `audit sign --test-key`."""
    body = {k: v for k, v in payload.items() if k != "sig"}
    return canonical_text(body), sign_with(key, body)
