"""The outbox of the session log (`audit_outbox`): an event added in the same store transaction as
the change it records, written to the day file after the commit (and replayed at start if a
crash left it), so no change exists without its event.

`Outbox.add` signs the row inside the caller's transaction; `flush_locked` (under the log's
exclusive lock, after `sync`) writes the rows, oldest first, through `EventWriter`, drops those a
crash already wrote, reports forged rows in a signed `unsigned_entry` event, and leaves a key
rotation's row to the process that holds the rotation lock (or decides a dead one's fate).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lorekeeper.audit.dayfiles import DayFiles, mentions, read_lines
from lorekeeper.audit.errors import CanonicalJSONError
from lorekeeper.audit.events import EVENT_KEY_ROTATED, EVENT_OUTBOX_REJECTED, event_status, new_content
from lorekeeper.audit.heads import Head, HeadBook
from lorekeeper.audit.jcs import canonical_text, loads
from lorekeeper.audit.rows import sign_row, verify_row
from lorekeeper.audit.signer import Signer
from lorekeeper.audit.writer import EventWriter
from lorekeeper.locks import LockTimeoutError, RWLock

# outbox ids of the rotations this process is performing (it holds the rotation lock for them)
OWN_ROTATIONS: set[int] = set()


class Outbox:
    def __init__(
        self,
        store: Any,
        heads: HeadBook,
        writer: EventWriter,
        files: DayFiles,
        signer: Signer,
        clock: Callable[[], str],
        *,
        workspace_id: str,
        rotation_lock: RWLock,
        current_version: Callable[[], int] | None,
    ) -> None:
        self.store = store
        self.heads = heads
        self.writer = writer
        self.files = files
        self.signer = signer
        self.clock = clock
        self.workspace_id = workspace_id
        self.rotation_lock = rotation_lock
        # the provider's committed key version (read only for a dead rotation's outbox row)
        self.current_version = current_version

    def add(self, type: str, data: Any, story: str | None, salt: str, on_commit: Callable[[], None] | None) -> int:
        """The signed outbox row of one event, in the current store transaction (its own one when
        none is open); `on_commit` runs after that transaction commits. Returns the row id."""
        from lorekeeper.store.models import AuditOutbox

        with self.store.write() as s:
            row = AuditOutbox(
                workspace=self.workspace_id,
                type=type,
                story=story,
                data=canonical_text(data),
                salt=salt,
                created_at=self.clock(),
            )
            s.add(row)
            s.flush()
            sign_row(self.signer, row)
            if on_commit is not None:
                self.store.after_commit(s, on_commit)
            return int(row.id)

    def pending(self) -> int:
        from sqlalchemy import func, select

        from lorekeeper.store.models import AuditOutbox

        with self.store.session() as s:
            return int(
                s.scalar(select(func.count(AuditOutbox.id)).where(AuditOutbox.workspace == self.workspace_id)) or 0
            )

    def flush_locked(self, head: Head, seen: set[str]) -> Head:
        from sqlalchemy import delete, select

        from lorekeeper.store.models import AuditOutbox

        table = AuditOutbox.__table__
        engine = getattr(self.store, "engine", None)
        with engine.connect() if engine is not None else self.store.session() as s:
            # Core rows as detached copies (issue 26 d3: read before every event written)
            found = s.execute(
                select(table).where(table.c.workspace == self.workspace_id).order_by(table.c.id)
            ).mappings()
            rows = [AuditOutbox(**r) for r in found]
        rejected: list[int] = []
        for row in rows:
            if row.salt in seen:  # written before a crash; only the head and the outbox lagged
                self.drop([row.id])
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
                        verdict = self.dead_rotation(int(data.get("new_version") or 0))
                        if verdict != "write":
                            if verdict == "drop":
                                self.drop([row.id])
                            continue
                except LockTimeoutError:
                    continue
            content = new_content(row.type, data, row.story, salt=row.salt)
            _event, head = self.writer.write_event(
                head, row.type, content, row.story, row.created_at or self.clock(), outbox=True
            )
        if rejected:
            with self.heads.unguarded(), self.store.write() as s:
                s.execute(delete(AuditOutbox).where(AuditOutbox.id.in_(rejected)))
            report = {
                "code": "ERR_UNSIGNED_ENTRY",
                "table": "audit_outbox",
                "count": len(rejected),
                "first_id": [rejected[0]],
                "purpose": "outbox replay",
            }
            content = new_content(EVENT_OUTBOX_REJECTED, report, None)
            _event, head = self.writer.write_event(head, EVENT_OUTBOX_REJECTED, content, None, self.clock())
        return head

    def dead_rotation(self, new_version: int) -> str:
        """What to do with a rotation row whose process died: "drop" it (the log has that rotation
        already, or the provider has no such key version: it never happened), "keep" it for a
        process that holds the new key, or "write" its event now (this session's key is at least
        that version, so the rotation did happen)."""
        if new_version < 2 or self.rotation_logged(new_version):
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

    def rotation_logged(self, new_version: int) -> bool:
        """Whether a signed `audit_key_rotated` event to `new_version` is in the log (rare path: only
        for a dead rotation's row; the caller holds the sessions lock)."""
        needle = f'"{EVENT_KEY_ROTATED}"'
        for path in self.files.files():
            if not mentions(path, needle):
                continue
            for _line_no, ev, problem in read_lines(path):
                if problem or ev.get("type") != EVENT_KEY_ROTATED or event_status(self.signer, ev) != "valid":
                    continue
                data = ev["content"].get("data")
                if isinstance(data, dict) and data.get("new_version") == new_version:
                    return True
        return False

    def drop(self, ids: list[int]) -> None:
        from sqlalchemy import delete

        from lorekeeper.store.models import AuditOutbox

        with self.heads.unguarded(), self.store.write() as s:
            s.execute(delete(AuditOutbox).where(AuditOutbox.id.in_(ids)))
