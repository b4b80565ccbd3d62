"""Reading and verifying the session log: every line against its signature, its content hash,
the chain (`seq` + `prev`, across days), the per-file checkpoints, the signed head and its witness.

`ChainVerifier` only reads: it reports what it finds (`reports.VerifyReport`) and changes
nothing. The caller holds the log's shared lock (`SessionLog.verify`, `SessionLog.events`);
`sync` also uses it, under the exclusive lock, before it adopts a log that has no head.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from lorekeeper.audit.dayfiles import DayFiles, read_lines
from lorekeeper.audit.errors import CanonicalJSONError
from lorekeeper.audit.events import content_hash, event_header, event_status, tombstone_payload
from lorekeeper.audit.heads import Head, HeadBook
from lorekeeper.audit.reports import EventRecord, FileReport, Issue, VerifyReport
from lorekeeper.audit.rows import row_payload, verify_row
from lorekeeper.audit.signer import SIG_FIELD, Signer
from lorekeeper.errors import NotFoundError


class ChainVerifier:
    def __init__(self, files: DayFiles, heads: HeadBook, signer: Signer) -> None:
        self.files = files
        self.heads = heads
        self.signer = signer

    def verify(self, target: Path | None = None) -> VerifyReport:
        """Check every file (or one file, or the files of a folder) against signatures, chain and
        checkpoints; the whole log also against its head and the head's witness (the caller holds
        the shared lock)."""
        if target is None:
            return self.verify_all(use_head=True)
        target = Path(target)
        if target.is_dir():
            paths = sorted(p for p in target.glob("*.jsonl") if p.is_file())
            if target.resolve() == self.files.dir.resolve():
                return self.verify_all(use_head=True)
        elif target.is_file():
            paths = [target]
        else:
            raise NotFoundError(f"nothing to verify at {target}")
        checkpoints = self.heads.checkpoints()
        report = VerifyReport()
        prev: str | None = None
        for path in paths:
            rep, prev = self.verify_file(path, checkpoints.get(path.name), prev)
            report.files.append(rep)
        return report

    def verify_all(self, *, use_head: bool) -> VerifyReport:
        checkpoints = self.heads.checkpoints()
        paths = self.files.files()
        report = VerifyReport()
        prev_sig = ""
        prev_name = ""
        for path in paths:
            rep, last = self.verify_file(path, checkpoints.get(path.name), prev_sig, prev_name=prev_name)
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
            self.check_head(report)
        return report

    def check_head(self, report: VerifyReport) -> None:
        """The whole log against the store's signed head and the witness: names what is behind."""
        count = 0
        last: tuple[str, int, str] | None = None
        positions: dict[tuple[str, int, str], int] = {}
        for f in report.files:
            count += f.signed_events
            for key in f.signed_positions:
                positions[key] = len(positions)
                last = key
        row = self.heads.row()
        witness, w_problem = self.heads.read_witness()
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
            head = Head.of(row)
            info.update({"count": head.count, "epoch": head.epoch, "file": head.file, "seq": head.seq})
            key = (head.file, head.seq, head.sig)
            located = {(i.file, i.kind) for i in report.issues}
            if head.file and not (self.files.dir / head.file).is_file():
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
                        f"after {head.file}#{head.seq} "
                        + (
                            "(an older checkpoint was written back, or a crash: the next write rolls it forward)"
                            if after <= 1
                            else "(a crash leaves at most one: the store was rolled back, and the changes committed "
                            "since are lost; put back a backup with `lorekeeper restore`)"
                        ),
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
        if self.heads.witness is not None:
            info["witness"] = self.heads.witness.name
            if w_problem:
                report.head.append(Issue("(witness)", 0, "witness", w_problem))
            elif witness is None:
                if head is not None and head.epoch > 0:
                    report.head.append(
                        Issue(
                            "(witness)",
                            0,
                            "witness",
                            f"the head witness ({self.heads.witness.name}) is missing while the store's head is at epoch "
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
                            f"({self.heads.witness.name}, {witness.count} events): the store was rolled back",
                        )
                    )
                elif witness.epoch < store_epoch:
                    report.head.append(
                        Issue(
                            "(witness)",
                            0,
                            "witness_behind",
                            f"the head witness ({self.heads.witness.name}) is behind: epoch {witness.epoch} < {store_epoch} in "
                            "the store (a witness write failed; the next event brings it up to date)",
                        )
                    )
                elif head is not None and not witness.same_event(head):
                    report.head.append(
                        Issue("(head)", 0, "witness", "the store's head and its witness name different events")
                    )

    def verify_file(
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
        for line_no, ev, problem in read_lines(path):
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
                    rep.issues.append(Issue(path.name, line_no, "chain_break", chain_message(seq, 0, seen_at)))
            elif seq != prev_seq + 1 or ev.get("prev") != prev_sig:
                rep.chain_breaks += 1
                rep.issues.append(Issue(path.name, line_no, "chain_break", chain_message(seq, prev_seq, seen_at)))
            first = False
            if good:
                rep.valid += 1
            prev_seq, prev_sig = seq, ev.get("sig", "")
            if verdict:
                last_sig = prev_sig
            seen[seq] = prev_sig
            seen_at.setdefault(seq, line_no)
        rep.last_line = last_line_no
        self.check_checkpoint(rep, path, cp, prev_seq, seen, last_line_no)
        return rep, last_sig

    def check_checkpoint(
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
        if not checkpoint_verifies(self.signer, cp):
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

    def records(self, paths: Iterable[Path]) -> list[EventRecord]:
        """Every line of these files, in order, with its verification status (the event browser)."""
        out: list[EventRecord] = []
        for path in paths:
            for line_no, ev, problem in read_lines(path, keep_raw=True):
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
                        status=event_status(self.signer, ev),
                        data=(ev.get("content") or {}).get("data") if isinstance(ev.get("content"), dict) else None,
                        raw=raw,
                    )
                )
        return out


def checkpoint_verifies(signer: Signer, cp: Any) -> bool:
    """A checkpoint's signature; a row from before migration 0008 was signed without `workspace`."""
    if verify_row(signer, cp):
        return True
    if cp.workspace or not cp.sig or cp.key_version is None:
        return False
    payload = row_payload(cp)
    payload.pop("workspace", None)
    payload[SIG_FIELD] = cp.sig
    return bool(signer.verify(payload))


def chain_message(seq: int, prev_seq: int, seen_at: dict[int, int]) -> str:
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
