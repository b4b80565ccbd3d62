"""The head check and recovery of the session log, under its lock: the log against its signed
head and the head's witness before anything is written.

`ChainSync.sync` is what every write starts with: the verified head, rolled forward over valid
events a crash left after it (the file written, the head not yet stored); ERR_AUDIT_CHAIN_BROKEN
when the log disagrees with its head (cut, replaced, rolled back), so a later write never
launders a break. A log with no head yet is adopted when it verifies (a log from before the head
existed) and refused otherwise; `adopt` starts a new head over the log as it stands (a signed
`audit_head_adopted` event). `since_backup` is what `restore` needs to know about the events
written after a backup.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from lorekeeper.audit.dayfiles import DayFiles, lines_after_head, read_lines, split_lines
from lorekeeper.audit.errors import ChainBrokenError, StoreRolledBackError
from lorekeeper.audit.events import EVENT_HEAD_ADOPTED, event_header, new_content, parse_line
from lorekeeper.audit.heads import Head, HeadBook
from lorekeeper.audit.reports import VerifyReport
from lorekeeper.audit.rows import verify_row
from lorekeeper.audit.signer import Signer
from lorekeeper.audit.verify import ChainVerifier
from lorekeeper.audit.writer import EventWriter


class ChainSync:
    def __init__(
        self,
        files: DayFiles,
        heads: HeadBook,
        verifier: ChainVerifier,
        writer: EventWriter,
        signer: Signer,
        clock: Callable[[], str],
    ) -> None:
        self.files = files
        self.heads = heads
        self.verifier = verifier
        self.writer = writer
        self.signer = signer
        self.clock = clock

    def sync(self, row: Any, *, persist: bool = True, restoring: bool = False) -> tuple[Head, set[str]]:
        """Under the exclusive lock: the verified head (`row`, the store's head row just read, or
        None), rolled forward over valid events a crash left after it; raises ERR_AUDIT_CHAIN_BROKEN
        when the log and its head disagree. `persist=False` only checks (no lock needed, nothing
        written: `record` calls it inside a change's transaction). A stored head more than one
        event behind the log is no crash (each event stores its head right after its append): the
        store was rolled back, refused unless `restoring` (`lorekeeper restore` put a backup back)."""
        if row is None and self.genesis():
            head = Head()  # a new log, or its first events written before a crash stored the head
        elif row is None:
            if not persist:
                self.initial_check()
                return Head(), set()
            adopted = self.initial_head()
            if adopted is None:
                return Head(), set()
            head = adopted
        else:
            if not verify_row(self.signer, row):
                raise ChainBrokenError(
                    "the store's head checkpoint of the session log does not verify (edited or forged): "
                    "nothing is appended. Run `lorekeeper audit verify`."
                )
            head = Head.of(row)
        witness, problem = self.heads.read_witness()
        if problem:
            raise ChainBrokenError(problem + ": nothing is appended. Run `lorekeeper audit verify`.")
        if self.heads.witness is not None and witness is None and row is not None and head.epoch > 0:
            raise ChainBrokenError(
                f"the head witness ({self.heads.witness.name}) is missing while the store's head is at epoch "
                f"{head.epoch}: nothing is appended. If the state was reset on purpose, run "
                "`lorekeeper audit verify --adopt`."
            )
        if not head.file:
            later = [(p.name, split_lines(p)) for p in self.files.files()]
            return self.roll_forward(head, head, later, witness, persist, crash_only=row is not None and not restoring)
        path = self.files.dir / head.file
        if not path.is_file():
            raise ChainBrokenError(
                f"{head.file} holds the head of the session log (event #{head.seq}), but the file is missing: "
                "nothing is appended. Run `lorekeeper audit verify`."
            )
        tail = lines_after_head(path, head.seq, head.sig)
        if tail is None:
            raise ChainBrokenError(
                f"{head.file}: the head event #{head.seq} is not in the file (lines cut or replaced): "
                "nothing is appended. Run `lorekeeper audit verify`."
            )
        later = [(head.file, tail)] + [(p.name, split_lines(p)) for p in self.files.files() if p.name > head.file]
        return self.roll_forward(head, head, later, witness, persist, crash_only=not restoring)

    def genesis(self) -> bool:
        """No head, no per-file checkpoint and no witness count: the log starts from nothing (any
        events in it must chain from the very first one)."""
        if self.heads.checkpoints():
            return False
        witness, problem = self.heads.read_witness()
        return not problem and (witness is None or witness.count == 0)

    def roll_forward(
        self,
        head: Head,
        start: Head,
        later: list[tuple[str, list[str]]],
        witness: Head | None,
        persist: bool,
        *,
        crash_only: bool = False,
    ) -> tuple[Head, set[str]]:
        """The head moved over the valid events after it. `crash_only`: the store's own head, which
        a crash leaves at most one event behind (`EventWriter.write_event` appends the line, then
        stores the head: the witness, then the store's row); more events after it mean the store
        (its head and checkpoints with it) was written back from an earlier moment, and the changes
        committed since are lost: ERR_AUDIT_CHAIN_BROKEN, nothing rolled forward."""
        cur = Head(start.epoch, start.count, start.file, start.seq, start.sig)
        salts: set[str] = set()
        last_salt = ""
        for name, lines in later:
            for line in lines:
                ev, problem = parse_line(line)
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
                if crash_only and cur.epoch > start.epoch:
                    raise StoreRolledBackError(
                        f"the store's head checkpoint (epoch {start.epoch}, {start.file}#{start.seq}) is more than one "
                        f"signed event behind the session log ({name}#{ev.get('seq')} follows): a crash leaves at most "
                        "one, so the store was rolled back and changes committed since are lost. Nothing is written. "
                        "Put back a backup with `lorekeeper restore`, or run `lorekeeper audit verify` for details."
                    )
                cur = Head(cur.epoch + 1, cur.count + 1, name, int(ev["seq"]), str(ev["sig"]))
                content = ev.get("content")
                last_salt = ""
                if isinstance(content, dict) and isinstance(content.get("salt"), str):
                    salts.add(content["salt"])
                    last_salt = content["salt"]
        if witness is not None:  # compared with the head rolled forward: the witness is written first
            if witness.epoch > cur.epoch:
                raise ChainBrokenError(
                    f"the store's head checkpoint (epoch {cur.epoch}, {cur.count} events) is behind the witness "
                    f"{self.heads.witness.name if self.heads.witness else ''} (epoch {witness.epoch}, {witness.count} events): "
                    "the store was rolled back. Nothing is appended; run `lorekeeper audit verify`."
                )
            if witness.epoch == cur.epoch and not witness.same_event(cur):
                raise ChainBrokenError(
                    "the store's head checkpoint and its witness name different events at the same epoch: "
                    "nothing is appended. Run `lorekeeper audit verify`."
                )
        if (
            crash_only
            and cur.epoch == start.epoch + 1
            and witness is not None
            and witness.same_event(cur)
            and self.heads.witness_outbox()
            and not (last_salt and self.heads.in_outbox(last_salt))
        ):
            # the one event after the head is an outbox row's (the witness, written before the
            # store's head, says so): a crash before the head write leaves that row in the store,
            # since the head write deletes it; a store without it was written back from before
            raise StoreRolledBackError(
                f"the store's head checkpoint (epoch {start.epoch}) is one event behind the session log, and the "
                "change that event records is not in the store (its outbox row is gone): the store was rolled "
                "back and a committed change is lost. Nothing is written. Put back a backup with "
                "`lorekeeper restore`, or run `lorekeeper audit verify` for details."
            )
        behind = self.heads.witness is not None and (witness is None or witness.epoch < cur.epoch)
        if persist and (cur.epoch != head.epoch or behind):
            self.heads.store_head(cur, self.clock(), salts_done=salts)
        return cur, salts

    def initial_check(self) -> None:
        """No head yet: refuse only what `_initial_head` would refuse (a deleted log the witness knows)."""
        witness, problem = self.heads.read_witness()
        if problem:
            raise ChainBrokenError(problem + ": nothing is written. Run `lorekeeper audit verify`.")
        has_events = any(p.stat().st_size for p in self.files.files())
        if witness is not None and witness.count > 0 and not has_events:
            raise ChainBrokenError(
                f"the head witness records {witness.count} events but there is no session log and no head: "
                "the log was deleted. Nothing is written."
            )
        if has_events or self.heads.checkpoints():  # a log from before the head: adoptable only if it verifies
            report = self.verifier.verify_all(use_head=False)
            formats = {ev.get("v") for p in self.files.files() for _, ev, prob in read_lines(p) if not prob}
            if not report.ok or not formats <= {1}:
                raise ChainBrokenError(
                    "the store has no head checkpoint for this session log: nothing is written. Run "
                    "`lorekeeper audit verify`, then `lorekeeper audit verify --adopt`."
                )

    def initial_head(self) -> Head | None:
        """No head row: a new log (None), or a log from before the head existed, adopted when its
        per-file checkpoints all verify; anything else is a break."""
        witness, problem = self.heads.read_witness()
        has_events = any(p.stat().st_size for p in self.files.files())
        if not has_events and not self.heads.checkpoints():
            if witness is not None and witness.count > 0:
                raise ChainBrokenError(
                    f"the head witness ({self.heads.witness.name if self.heads.witness else ''}) records {witness.count} events "
                    "but the store has no head and there is no session log: the log was deleted. Nothing is appended."
                )
            return None
        report = self.verifier.verify_all(use_head=False)
        formats = {ev.get("v") for p in self.files.files() for _, ev, prob in read_lines(p) if not prob}
        if report.ok and not problem and formats <= {1}:
            return self.adopt(report, automatic=True)
        raise ChainBrokenError(
            "the store has no head checkpoint for this session log"
            + (f" and the log has {len(report.issues)} problem(s)" if not report.ok else "")
            + ": nothing is appended. Run `lorekeeper audit verify`, then `lorekeeper audit verify --adopt` "
            "to start a new head over what is there (recorded in a signed event)."
        )

    def adopt(self, report: VerifyReport, *, automatic: bool) -> Head:
        """A head over the log as it stands (the last valid event), epoch past any witness."""
        last = Head()
        count = 0
        for f in report.files:
            for _line, ev, prob in read_lines(Path(f.path)):
                if prob or not self.signer.verify(event_header(ev)):
                    continue
                count += 1
                last = Head(0, 0, f.file, int(ev.get("seq") or 0), str(ev.get("sig") or ""))
        witness, _ = self.heads.read_witness()
        row = self.heads.row()
        floor = max(witness.epoch if witness else 0, int(row.epoch) if row is not None else 0)
        head = Head(floor + 1, count, last.file, last.seq, last.sig)
        self.heads.store_head(head, self.clock())
        issues = report.issues
        content = new_content(
            EVENT_HEAD_ADOPTED,
            {
                "automatic": automatic,
                "events": count,
                "problems": len(issues),
                "first_problem": str(issues[0]) if issues else None,
            },
            None,
        )
        _event, head = self.writer.write_event(head, EVENT_HEAD_ADOPTED, content, None, self.clock())
        return head

    def since_backup(self, start: Head) -> tuple[list[str], list[tuple[str, int, str]]]:
        """After a restore put back the store whose head was `start`: the stories purged in events
        written since (their erasure must run again), and (file, seq, sig) of the last signed event
        of each file whose checkpoint is missing or behind it."""
        purged: list[str] = []
        checkpoints = self.heads.checkpoints()
        fixed: list[tuple[str, int, str]] = []
        for path in self.files.files():
            if start.file and path.name < start.file:
                continue
            last: tuple[int, str] | None = None
            for _line, ev, problem in read_lines(path):
                if problem or not self.signer.verify(event_header(ev)):
                    continue
                last = (int(ev.get("seq") or 0), str(ev.get("sig") or ""))
                after_start = path.name > start.file or int(ev.get("seq") or 0) > start.seq
                if after_start and ev.get("type") == "clarification_purged" and isinstance(ev.get("story"), str):
                    purged.append(str(ev["story"]))
            cp = checkpoints.get(path.name)
            if last is not None and (cp is None or int(cp.head_seq or 0) < last[0]):
                fixed.append((path.name, *last))
        return purged, fixed
