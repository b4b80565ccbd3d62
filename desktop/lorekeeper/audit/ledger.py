"""The row ledger (issue 24): a validly signed row written back from an older state is detected.

A row signature alone binds the row's fields, not its age: writing back the columns of an
archived learning as they were before `learn archive` gives a row that verifies. So every
`VersionedColumns` row also carries `row_version` (covered by its signature), and the store
keeps three things, all written by the commit hook in the change's own transaction:

- `row_ledger`: per table and row (a hash of the primary key: a purged story's id is not kept in
  clear), the version and the signature the row must carry now;
- `row_ledger_heads`: per table, a clock (the last version given) and a signed digest of the
  table's ledger entries: an additive multiset hash, sum mod 2^256 of a keyed BLAKE2b of each
  entry (the key derives from the audit key, so nobody without it can compute or balance a term);
- `row_anchors`: the tables' clocks, written with the session log's signed head each time an
  event is appended, and naming that head (epoch, head_sig). The head is kept by the witness
  outside the workspace, so writing back a whole older ledger (rows, entries and head together)
  leaves a ledger head behind its anchor, and writing the older anchor back too (or deleting it)
  leaves an anchor that is not the store head's: every table is then refused on read, no write
  lands on it (nor moves an older head level with its anchor), and no event re-binds it.

On read (`RowVerifier`), a row is kept only if its signature verifies and it is the row its
ledger entry names (same version, same signature); a table whose ledger does not verify keeps
none of its rows (fail closed) and the reason is reported with the count.

The baseline: migration 0017 gives every row that existed then an entry, version 0 when it was
signed (its signature covers no version) and -1 when it was not: only those -1 rows are the
legacy rows `audit sign-rows` may sign. A row that appears without a signature later has no
entry, so it is a forgery, never signed by `sign-rows`.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from sqlalchemy import Table, bindparam, delete, insert, select, update
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.orm import Session

from lorekeeper.audit.errors import UnsignedEntryError
from lorekeeper.audit.signer import Signer

MOD = 1 << 256
LEGACY_UNSIGNED = -1  # an entry of a row that existed unsigned at migration 0017: sign-rows may sign it
LEGACY_SIGNED = 0  # a row signed before row versions existed (its signature covers no version)
_PRF_LABEL = b"lorekeeper/row-ledger/v1"


def ledger_key(table: str, pk: Sequence[Any]) -> str:
    """The ledger's key of a row: keep in step with migration 0017's `ledger_key`."""
    key = tuple(pk)
    if all(type(p) is int or type(p) is str for p in key):
        return _cached_key(table, key)
    # anything else is computed each time: the cache holds True and 1.0 as the key 1
    return _ledger_key(table, pk)


def _ledger_key(table: str, pk: Sequence[Any]) -> str:
    if pk and _PLAIN_TABLE.fullmatch(table) and all(type(p) is int for p in pk):
        text = f'["{table}",{",".join(map(str, pk))}]'  # what json.dumps gives them (issue 26: 20,000 keys per import)
    else:
        text = json.dumps([table, *pk], ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:40]


_PLAIN_TABLE = re.compile(r"[a-z0-9_]+")


@functools.lru_cache(maxsize=262_144)
def _cached_key(table: str, pk: tuple[Any, ...]) -> str:
    """A pure function of the key (issue 26: 10k reads of the same rows hashed each key again)."""
    return _ledger_key(table, pk)


def row_key(row: Any) -> str:
    mapper = sa_inspect(type(row))
    return ledger_key(str(row.__tablename__), mapper.primary_key_from_instance(row))


def _prf_key(signer: Signer, version: int | None) -> bytes | None:
    key = signer.key_for(int(version)) if version is not None else None
    return hmac.new(key, _PRF_LABEL, hashlib.sha256).digest() if key is not None else None


def _term(prf: bytes, table: str, key: str, version: int, sig: str) -> int:
    data = f"{table}\0{key}\0{int(version)}\0{sig}".encode()
    return int.from_bytes(hashlib.blake2b(data, key=prf, digest_size=32).digest(), "big")


def _hex(n: int) -> str:
    return f"{n % MOD:064x}"


def digest_of(prf: bytes, table: str, entries: Iterable[tuple[str, int, str]]) -> int:
    total = 0
    for key, version, sig in entries:
        total += _term(prf, table, key, version, sig)
    return total % MOD


def _head_ok(signer: Signer, head: Any) -> bool:
    from lorekeeper.audit.rows import verify_row

    return bool(verify_row(signer, head))


def _sign(signer: Signer, row: Any) -> None:
    from lorekeeper.audit.rows import sign_row

    sign_row(signer, row)


def _entries(s: Session, table: str) -> list[tuple[str, int, str]]:
    from lorekeeper.store.models import RowLedger

    rows = s.execute(select(RowLedger.key, RowLedger.version, RowLedger.sig).where(RowLedger.tbl == table))
    return [(str(k), int(v), str(sig or "")) for k, v, sig in rows]


def anchored_clocks(s: Session, signer: Signer, workspace: str) -> dict[str, int] | None:
    """The tables' clocks as of the last anchor ({} when there is none yet); None when the anchor
    does not verify, is not the anchor of the store's signed head of the session log, or was
    dropped (every table is then untrusted: fail closed)."""
    return _anchored(s, signer, workspace, _log_head(s, workspace))


def _anchored(s: Session, signer: Signer, workspace: str, head: tuple[int, str] | None) -> dict[str, int] | None:
    from lorekeeper.store.models import RowAnchor, RowLedger, RowLedgerHead

    anchor = s.get(RowAnchor, workspace)
    if anchor is None:
        # every event since migration 0017 writes the anchor with the head, and a table's first
        # signed ledger head writes it when it is missing: a log with a head and no anchor is one
        # from before 0017 that signed no row since (no ledger head, no entry above version 0),
        # else the anchor was deleted
        if head is None:
            return {}
        signed = s.execute(select(RowLedgerHead.tbl).limit(1)).first() is not None or (
            s.execute(select(RowLedger.key).where(RowLedger.version > LEGACY_SIGNED).limit(1)).first() is not None
        )
        return None if signed else {}
    if not _head_ok(signer, anchor):
        return None
    if head is not None and head != (int(anchor.epoch or 0), str(anchor.head_sig or "")):
        return None  # an anchor written back with an older ledger names an older head
    return _clocks(anchor)


@functools.cache
def _head_statement() -> Any:
    from sqlalchemy import bindparam

    from lorekeeper.store.models import AuditHead

    table = AuditHead.__table__
    return select(table.c.epoch, table.c.head_sig).where(table.c.workspace == bindparam("workspace"))


def _log_head(s: Session, workspace: str) -> tuple[int, str] | None:
    """(epoch, head_sig) of the store's signed head of the session log, which the chain check
    holds against the log and its witness before every write (a compiled Core statement: this
    runs with every event and every ledger read)."""
    found = s.connection().execute(_head_statement(), {"workspace": workspace}).first()
    return None if found is None else (int(found[0] or 0), str(found[1] or ""))


def _clocks(anchor: Any) -> dict[str, int] | None:
    try:
        data = json.loads(anchor.clocks or "{}")
    except ValueError:
        return None
    return {str(k): int(v) for k, v in data.items()} if isinstance(data, dict) else None


def _first_anchor(s: Session, signer: Signer, workspace: str) -> None:
    """A log from before migration 0017 has a head but no anchor yet: the first signed ledger head
    writes it, bound to that head, so an anchor missing later is one that was deleted."""
    from lorekeeper.store.models import RowAnchor

    head = _log_head(s, workspace)
    if head is None or s.get(RowAnchor, workspace) is not None:
        return
    row = RowAnchor(workspace=workspace, epoch=head[0], head_sig=head[1], clocks="{}")
    s.add(row)
    _sign(signer, row)


# --------------------------------------------------------------------------- writing


def plain_key(model: Any, values: Mapping[str, Any]) -> str:
    """`row_key` of a row given as a dict of its column values (a row written through Core)."""
    return ledger_key(str(model.__tablename__), [values[name] for name in _pk_names(model)])


@functools.cache
def _pk_names(model: Any) -> tuple[str, ...]:
    return tuple(c.name for c in model.__table__.primary_key)


def record_rows(
    s: Session,
    signer: Signer,
    rows: Sequence[Any],
    deleted: Iterable[tuple[str, str]],
    *,
    workspace: str = "",
    plain: Sequence[tuple[Any, dict[str, Any]]] = (),
) -> None:
    """In the commit hook: give `rows` their new version, sign them, update their ledger entries
    and their tables' signed heads; drop the entries of `deleted` (table, key) rows.

    `plain`: versioned rows written through Core, as (model, column values): their values get
    `row_version`, `key_version` and `sig` the same way (the caller writes them to their rows).
    The ledger entries are read and written with Core statements, a few per table whatever the
    number of rows (issue 26: an ORM object per entry, each added and flushed, cost more than the
    10,000 skills of an import took to read)."""
    from lorekeeper.store.models import RowLedger, RowLedgerHead

    by_table: dict[str, list[Any]] = {}
    for row in rows:
        by_table.setdefault(str(row.__tablename__), []).append(row)
    flat: dict[str, list[tuple[Any, dict[str, Any]]]] = {}
    for model, values in plain:
        flat.setdefault(str(model.__tablename__), []).append((model, values))
    gone: dict[str, set[str]] = {}
    for table, key in deleted:
        gone.setdefault(table, set()).add(key)
    anchors: dict[str, int] | None = None
    ledger = cast("Table", RowLedger.__table__)
    touched = False
    for table in sorted(set(by_table) | set(flat) | set(gone)):
        head = s.get(RowLedgerHead, table)
        prf = _prf_key(signer, signer.version)
        assert prf is not None
        if head is None:
            if anchors is None:
                anchors = anchored_clocks(s, signer, workspace)
            if anchors is None or anchors.get(table, 0) > 0:
                raise _ledger_error(table, "its ledger head is missing while the log's anchor names it")
            _first_anchor(s, signer, workspace)
            entries = _entries(s, table)
            head = RowLedgerHead(tbl=table, clock=max([v for _k, v, _s in entries] + [0]), count=len(entries))
            total = digest_of(prf, table, entries)
            s.add(head)
        else:
            if not _head_ok(signer, head):
                raise _ledger_error(table, "its ledger head does not verify")
            if anchors is None:
                anchors = anchored_clocks(s, signer, workspace)
            if anchors is None:
                raise _ledger_error(table, "the row ledger's anchor is not the log head's")
            if int(head.clock or 0) < anchors.get(table, 0):  # writes must not bring it level again
                raise _ledger_error(table, "its ledger was written back from an older state")
            if head.key_version != signer.version:  # after a rotation: check with the old key, re-key
                entries = _entries(s, table)
                old = _prf_key(signer, head.key_version)
                if old is None or _hex(digest_of(old, table, entries)) != head.digest:
                    raise _ledger_error(table, "its ledger entries do not match their signed digest")
                total = digest_of(prf, table, entries)
            else:
                total = int(head.digest or "0", 16)
        clock = int(head.clock or 0) + 1
        count = int(head.count or 0)
        todo = by_table.get(table, [])
        values_todo = flat.get(table, [])
        keys = [row_key(r) for r in todo]
        plain_keys = [plain_key(m, v) for m, v in values_todo]
        dropped = sorted(gone.get(table, set()) - set(keys) - set(plain_keys))
        existing: dict[str, tuple[int, str]] = {}  # key -> (version, sig) as the ledger holds it now
        wanted = sorted({*keys, *plain_keys, *dropped})
        for i in range(0, len(wanted), 500):
            chunk = wanted[i : i + 500]
            for k, v, sig in s.execute(
                select(RowLedger.key, RowLedger.version, RowLedger.sig).where(
                    RowLedger.tbl == table, RowLedger.key.in_(chunk)
                )
            ):
                existing[str(k)] = (int(v), str(sig or ""))
        inserts: dict[str, str] = {}  # key -> sig of a new entry (at `clock`)
        updates: dict[str, str] = {}  # key -> sig of an entry that moves to `clock`
        for key, sig in [
            *((key, _signed_row(signer, row, clock)) for row, key in zip(todo, keys, strict=True)),
            *((key, _signed_values(signer, m, v, clock)) for (m, v), key in zip(values_todo, plain_keys, strict=True)),
        ]:
            e = existing.get(key)
            if e is None:
                count += 1
                inserts[key] = sig
            else:
                total -= _term(prf, table, key, e[0], e[1])
                (inserts if key in inserts else updates)[key] = sig
            existing[key] = (clock, sig)
            total += _term(prf, table, key, clock, sig)
        drop = [key for key in dropped if key in existing]
        for key in drop:
            version, sig = existing.pop(key)
            total -= _term(prf, table, key, version, sig)
            count -= 1
        for i in range(0, len(drop), 500):
            s.execute(delete(ledger).where(ledger.c.tbl == table, ledger.c.key.in_(drop[i : i + 500])))
        if inserts:
            s.execute(
                insert(ledger), [{"tbl": table, "key": k, "version": clock, "sig": v} for k, v in inserts.items()]
            )
        if updates:
            s.execute(
                update(ledger)
                .where(ledger.c.tbl == bindparam("b_tbl"), ledger.c.key == bindparam("b_key"))
                .values(version=bindparam("b_version"), sig=bindparam("b_sig")),
                [{"b_tbl": table, "b_key": k, "b_version": clock, "b_sig": v} for k, v in updates.items()],
            )
        touched = touched or bool(inserts or updates or drop)
        head.clock, head.count, head.digest = clock, count, _hex(total)
        _sign(signer, head)
    if touched:
        # entries this session had loaded (a change checked against its entry) are stale now
        for obj in list(s.identity_map.values()):
            if isinstance(obj, RowLedger):
                s.expire(obj)


def _signed_row(signer: Signer, row: Any, clock: int) -> str:
    row.row_version = clock
    _sign(signer, row)
    return str(row.sig)


def _signed_values(signer: Signer, model: Any, values: dict[str, Any], clock: int) -> str:
    from lorekeeper.audit.rows import sign_values

    values["row_version"] = clock
    sign_values(signer, model, values)
    return str(values["sig"])


def record_keyless(
    s: Session, rows: Sequence[Any], deleted: Iterable[tuple[str, str]], *, plain: Iterable[tuple[str, str]] = ()
) -> None:
    """A workspace that never had a key: its rows are legacy (version -1, unsigned) until
    `audit init-key` signs them. Refused once a table's ledger is signed (fail closed).
    `plain`: the (table, ledger key) of rows written through Core, recorded the same way."""
    from lorekeeper.store.models import RowLedger, RowLedgerHead

    written = [(str(r.__tablename__), row_key(r)) for r in rows] + list(plain)
    tables = {t for t, _k in written} | {t for t, _k in deleted}
    for table in tables:
        if s.get(RowLedgerHead, table) is not None:
            raise _ledger_error(table, "its ledger is signed, so it is not written without the key")
    for table, key in deleted:
        e = s.get(RowLedger, (table, key))
        if e is not None:
            s.delete(e)
    for table, key in written:
        e = s.get(RowLedger, (table, key))
        if e is None:
            s.add(RowLedger(tbl=table, key=key, version=LEGACY_UNSIGNED, sig=""))
        else:
            e.version, e.sig = LEGACY_UNSIGNED, ""


def anchor(s: Session, signer: Signer, workspace: str, epoch: int, head_sig: str) -> None:
    """With the session log's new head (same transaction, before it is stored): record the tables'
    clocks, never lower, bound to the new head (epoch, head_sig)."""
    from lorekeeper.store.models import RowAnchor, RowLedgerHead

    row = s.get(RowAnchor, workspace)
    prev = _log_head(s, workspace)  # called before the new head is stored: the previous head
    found = _anchored(s, signer, workspace, prev) if prev is not None else {}
    if found is None:  # written back, forged or dropped: left as it is, so reads stay refused
        return
    clocks = dict(found)
    for head in s.scalars(select(RowLedgerHead)):
        if _head_ok(signer, head):
            clocks[head.tbl] = max(clocks.get(head.tbl, 0), int(head.clock or 0))
    if row is None:
        row = RowAnchor(workspace=workspace)
        s.add(row)
    row.epoch, row.head_sig = int(epoch), str(head_sig or "")
    row.clocks = json.dumps(dict(sorted(clocks.items())), separators=(",", ":"))
    _sign(signer, row)


def _ledger_error(table: str, why: str) -> UnsignedEntryError:
    return UnsignedEntryError(
        f"{table}: {why}, so it was changed outside Lorekeeper; nothing is written. Check it "
        "(`lorekeeper audit status`) and restore a backup (`lorekeeper restore`).",
        table=table,
    )


# --------------------------------------------------------------------------- reading


@dataclass
class LedgerView:
    """One table's ledger as verified at one head: what each row must be."""

    table: str
    trusted: bool
    reason: str = ""
    entries: dict[str, tuple[int, str]] = field(default_factory=dict)
    # the verified head the entries match (a filled view): what `advance_view` moves on from
    clock: int = -1
    key_version: int | None = None
    total: int = 0

    def accepts(self, row: Any) -> bool:
        return self.accepts_entry(row_key(row), row.row_version, row.sig) if self.trusted else False

    def accepts_entry(self, key: str, row_version: int | None, row_sig: str | None) -> bool:
        """`accepts` for a row given by its ledger key, version and signature (a Core row)."""
        if not self.trusted:
            return False
        entry = self.entries.get(key)
        if entry is None:  # inserted behind Lorekeeper's back (or written back after its deletion)
            return False
        version, sig = entry
        if version <= LEGACY_SIGNED:
            return bool(row_version is None and version == LEGACY_SIGNED and row_sig == sig)
        return bool(row_version == version and row_sig == sig)

    def why(self, row: Any) -> str:
        return self.why_entry(row_key(row), row.row_version) if self.trusted else self.reason

    def why_entry(self, key: str, row_version: int | None) -> str:
        if not self.trusted:
            return self.reason
        entry = self.entries.get(key)
        if entry is None:
            return "not in the row ledger (inserted outside Lorekeeper)"
        return f"older than its ledger entry (row version {row_version}, ledger {entry[0]})"


def load_view(s: Session, signer: Signer, table: str, anchors: dict[str, int] | None) -> tuple[str, LedgerView]:
    """(cache key, view) of `table`'s ledger as the store holds it now."""
    from lorekeeper.store.models import RowLedgerHead

    head = s.get(RowLedgerHead, table)
    if anchors is None:
        return "", LedgerView(table, False, "the row ledger's anchor does not verify")
    if head is None:
        if anchors.get(table, 0) > 0:
            return "", LedgerView(table, False, "the row ledger's head is missing")
        entries = _entries(s, table)  # before the table's first signed write since migration 0017
        return "", LedgerView(table, True, entries={k: (v, sig) for k, v, sig in entries})
    if not _head_ok(signer, head):
        return "", LedgerView(table, False, "the row ledger's head does not verify")
    if int(head.clock or 0) < anchors.get(table, 0):
        return "", LedgerView(table, False, "the row ledger was written back from an older state")
    return f"{head.sig}:{anchors.get(table, 0)}", LedgerView(table, True)


def fill_view(s: Session, signer: Signer, view: LedgerView) -> LedgerView:
    """Load and check the entries of a view whose head verified."""
    from lorekeeper.store.models import RowLedgerHead

    head = s.get(RowLedgerHead, view.table)
    entries = _entries(s, view.table)
    prf = _prf_key(signer, head.key_version if head is not None else None)
    if head is None or prf is None:
        return LedgerView(view.table, False, "the row ledger's key version is unknown")
    total = digest_of(prf, view.table, entries)
    if len(entries) != int(head.count or 0) or _hex(total) != head.digest:
        return LedgerView(view.table, False, "the row ledger's entries do not match their signed digest")
    return LedgerView(
        view.table,
        True,
        entries={k: (v, sig) for k, v, sig in entries},
        clock=int(head.clock or 0),
        key_version=head.key_version,
        total=total,
    )


def advance_view(s: Session, signer: Signer, old: LedgerView) -> LedgerView | None:
    """The view at the table's current (verified) head from `old`, a filled view of an earlier
    head, reading only the entries written since (version > old clock) instead of all of them;
    None when that cannot be proven (a deletion, a re-key, any mismatch): fill it again.

    As sound as `fill_view`: the new view's entries sum to the signed digest of the head, which
    nobody without the key can balance, and `old` was proven the same way. (An old entry
    tampered with in place is not re-read: the view keeps its proven value, so the row it names
    is judged against the real ledger, as a view cached under an unchanged head already was.)"""
    from lorekeeper.store.models import RowLedger, RowLedgerHead

    head = s.get(RowLedgerHead, old.table)
    if not old.trusted or old.clock < 0 or head is None or head.key_version != old.key_version:
        return None
    prf = _prf_key(signer, head.key_version)
    if prf is None:
        return None
    entries = dict(old.entries)
    total = old.total
    newer = s.execute(
        select(RowLedger.key, RowLedger.version, RowLedger.sig).where(
            RowLedger.tbl == old.table, RowLedger.version > old.clock
        )
    )
    for k, v, sig in newer:
        key, version, text = str(k), int(v), str(sig or "")
        prev = entries.get(key)
        if prev is not None:
            total -= _term(prf, old.table, key, prev[0], prev[1])
        total += _term(prf, old.table, key, version, text)
        entries[key] = (version, text)
    total %= MOD
    if len(entries) != int(head.count or 0) or _hex(total) != head.digest:
        return None
    return LedgerView(
        old.table, True, entries=entries, clock=int(head.clock or 0), key_version=head.key_version, total=total
    )


def legacy_unsigned_keys(s: Session, table: str) -> set[str]:
    """The rows migration 0017 found unsigned: the only ones `audit sign-rows` may sign."""
    from lorekeeper.store.models import RowLedger

    return set(s.scalars(select(RowLedger.key).where(RowLedger.tbl == table, RowLedger.version == LEGACY_UNSIGNED)))
