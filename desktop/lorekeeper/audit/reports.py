"""What verifying the session log reports: issues, per-file and whole-log reports, the event
browser's records, and the chain's breaks with their acknowledgements (`audit status`).

Plain dataclasses (no file, no store, no signer), shared by the CLI, the Audit panel and the log.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


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
