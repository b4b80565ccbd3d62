"""The head bookkeeping of the session log: the signed head (`audit_heads`), the per-file
checkpoints (`audit_checkpoints`) and the head's witness outside the workspace.

`HeadBook` reads and writes those rows and the witness, signed, and nothing else: whether the
log agrees with them is `sync` (before a write) and `verify` (the report). Its rows are the
chain's own bookkeeping, so they skip the store's write guards (issue 24: the log checks itself
before it writes them).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from contextlib import AbstractContextManager, nullcontext
from typing import Any, cast

from sqlalchemy import Table, bindparam

from lorekeeper.audit.errors import TraceWriteFailedError
from lorekeeper.audit.ledger import anchor as anchor_ledger
from lorekeeper.audit.rows import sign_row
from lorekeeper.audit.signer import Signer
from lorekeeper.audit.witness import HeadWitness
from lorekeeper.errors import LorekeeperError


class Head:
    """The head of the whole log as the store (or a witness) records it."""

    __slots__ = ("count", "epoch", "file", "seq", "sig")

    def __init__(self, epoch: int = 0, count: int = 0, file: str = "", seq: int = 0, sig: str = "") -> None:
        self.epoch, self.count, self.file, self.seq, self.sig = epoch, count, file, seq, sig

    @classmethod
    def of(cls, d: Any) -> Head:
        get = d.get if isinstance(d, dict) else lambda k, default=None: getattr(d, k, default)
        return cls(
            int(get("epoch", 0) or 0),
            int(get("count", 0) or 0),
            str(get("file", "") or ""),
            int(get("seq", 0) or 0),
            str(get("head_sig", "") or ""),
        )

    def same_event(self, other: Head) -> bool:
        return (self.file, self.seq, self.sig, self.count) == (other.file, other.seq, other.sig, other.count)

    def summary(self) -> dict[str, Any]:
        """What the log's operations return about the head (epoch, count, file, seq)."""
        return {"epoch": self.epoch, "count": self.count, "file": self.file, "seq": self.seq}


def _table(model: Any) -> Table:
    return cast(Table, model.__table__)


@functools.cache
def _upsert_statements(table: Table, key: tuple[str, ...]) -> tuple[Any, Any]:
    """(UPDATE, INSERT) of every column of `table` by `key`, with bound parameters: built and
    compiled once (issue 26 d3: a statement built per event cost more than running it)."""
    update = (
        table.update()
        .where(*[table.c[k] == bindparam(f"key_{k}") for k in key])
        .values({c.name: bindparam(f"col_{c.name}") for c in table.columns if c.name not in key})
    )
    insert = table.insert().values({c.name: bindparam(f"col_{c.name}") for c in table.columns})
    return update, insert


def _upsert(s: Any, row: Any, key: tuple[str, ...]) -> None:
    """Write the (transient, signed) `row`'s columns over its stored row, or insert it: Core
    statements on the table, in the session's transaction (the change feed still sees the table)."""
    table = _table(type(row))
    update, insert = _upsert_statements(table, key)
    values = {f"col_{c.name}": getattr(row, c.key) for c in table.columns}
    if not s.execute(update, {**values, **{f"key_{k}": values[f"col_{k}"] for k in key}}).rowcount:
        s.execute(insert, values)


@functools.cache
def _head_row_statement() -> Any:
    from lorekeeper.store.models import AuditHead

    table = _table(AuditHead)
    return table.select().where(table.c.workspace == bindparam("workspace"))


class HeadBook:
    """The signed head, the checkpoints and the witness of one workspace's log."""

    def __init__(
        self,
        store: Any,
        signer: Signer,
        workspace_id: str,
        witness: HeadWitness | None,
        warnings: list[str],
    ) -> None:
        self.store = store
        self.signer = signer
        self.workspace_id = workspace_id  # the rows' key with the file name (shared stores)
        self.witness = witness
        self.warnings = warnings  # the log's list: what a witness write could not do

    def unguarded(self) -> AbstractContextManager[None]:
        """The chain's own rows (head, checkpoints, outbox bookkeeping) skip the store's write guards:
        the log checks itself before it writes them (issue 24)."""
        unguarded = getattr(self.store, "unguarded", None)
        return unguarded() if unguarded is not None else nullcontext()

    # ------------------------------------------------------------------ the store's rows
    def row(self) -> Any:
        """The store's head row as it is now (a detached copy), or None."""
        from lorekeeper.store.models import AuditHead

        with self._reader() as conn:
            # a Core read of the one row (issue 26 d3: every write reads it twice; an ORM session
            # and its load cost three times this)
            found = conn.execute(_head_row_statement(), {"workspace": self.workspace_id}).mappings().first()
        return None if found is None else AuditHead(**found)

    def _reader(self) -> AbstractContextManager[Any]:
        """A read connection of the store (a Core connection: no ORM session to build)."""
        engine = getattr(self.store, "engine", None)
        return cast(AbstractContextManager[Any], engine.connect() if engine is not None else self.store.session())

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

    def store_head(self, head: Head, ts: str, *, salts_done: Iterable[str] = (), outbox: bool = False) -> None:
        """The new head, its file's checkpoint and the outbox rows now in the file: one transaction;
        then the witness. `outbox`: the head's event is an outbox row's (the witness records it)."""
        from lorekeeper.store.models import AuditCheckpoint, AuditHead, AuditOutbox

        # the witness first: a crash between the two leaves the witness ahead by events the file
        # holds (the next start rolls the store's head forward to it), never a head it has not seen
        self.write_witness(head, ts, outbox=outbox)
        try:
            with self.unguarded(), self.store.write() as s:
                # Core statements on signed copies (issue 26 d3: the ORM's loads and flush of these
                # rows were a third of an event's cost); signed exactly as the ORM rows were
                row = sign_row(
                    self.signer,
                    AuditHead(
                        workspace=self.workspace_id,
                        epoch=head.epoch,
                        count=head.count,
                        file=head.file,
                        seq=head.seq,
                        head_sig=head.sig,
                        updated_at=ts,
                    ),
                )
                # issue 24: the row ledger's clocks as of this head (a ledger written back is behind),
                # before the head is stored: the anchor is checked against the previous head
                anchor_ledger(s, self.signer, self.workspace_id, head.epoch, head.sig)
                _upsert(s, row, ("workspace",))
                if head.file:
                    cp = sign_row(
                        self.signer,
                        AuditCheckpoint(
                            workspace=self.workspace_id,
                            file=head.file,
                            events=head.seq,
                            head_seq=head.seq,
                            head_sig=head.sig,
                            updated_at=ts,
                        ),
                    )
                    _upsert(s, cp, ("workspace", "file"))
                done = [x for x in salts_done if x]
                if done:
                    table = _table(AuditOutbox)
                    s.execute(table.delete().where(table.c.workspace == self.workspace_id, table.c.salt.in_(done)))
        except Exception as exc:  # noqa: BLE001 - the event is on disk, but its head is not
            raise TraceWriteFailedError(
                f"audit event written to {head.file} but its checkpoint could not be stored ({exc}); "
                "the next event rolls it forward. Check the store."
            ) from None

    def store_checkpoints(self, fixed: list[tuple[str, int, str]], ts: str) -> None:
        """Checkpoints (file, last seq, its sig) for files the head never checkpointed (after a restore)."""
        from lorekeeper.store.models import AuditCheckpoint

        with self.unguarded(), self.store.write() as s:
            for name, seq, sig in fixed:
                row = s.get(AuditCheckpoint, (self.workspace_id, name))
                if row is None:
                    row = AuditCheckpoint(workspace=self.workspace_id, file=name)
                    s.add(row)
                row.events, row.head_seq, row.head_sig, row.updated_at = seq, seq, sig, ts
                sign_row(self.signer, row)

    # ------------------------------------------------------------------ the witness
    def witness_name(self) -> str:
        return self.witness.name if self.witness else ""

    def witness_payload(self, head: Head, ts: str, *, outbox: bool = False) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "kind": "audit_head",
            "workspace": self.workspace_id,
            "epoch": head.epoch,
            "count": head.count,
            "file": head.file,
            "seq": head.seq,
            "head_sig": head.sig,
            "updated_at": ts,
        }
        if outbox:  # the head's event is an outbox row's: its change committed before the append
            payload["outbox"] = True
        return self.signer.sign(payload)

    def write_witness(self, head: Head, ts: str, *, outbox: bool = False) -> None:
        """The signed head to the witness; a failure is a warning (the store's head stands)."""
        if self.witness is None:
            return
        try:
            self.witness.write(self.witness_payload(head, ts, outbox=outbox))
        except (OSError, LorekeeperError) as exc:  # the store's head stands; the next write catches up
            self.warnings.append(f"the head witness ({self.witness.name}) could not be updated: {exc}")

    def witness_outbox(self) -> bool:
        """Whether the witness's (verified) head event is an outbox row's (`store_head(outbox=True)`)."""
        if self.witness is None:
            return False
        try:
            raw = self.witness.read()
        except (OSError, LorekeeperError):
            return False
        return bool(raw and raw.get("outbox") is True and self.signer.verify(raw))

    def in_outbox(self, salt: str) -> bool:
        """Whether the store's outbox still holds the row of the event with this salt."""
        from lorekeeper.store.models import AuditOutbox

        table = _table(AuditOutbox)
        with self._reader() as conn:
            found = conn.execute(
                table.select().where(table.c.workspace == self.workspace_id, table.c.salt == salt).limit(1)
            ).first()
        return found is not None

    def read_witness(self) -> tuple[Head | None, str]:
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
        return Head.of(raw), ""
