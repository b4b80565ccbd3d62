"""Signed store rows: sign on write, filter on read, sign what exists unsigned.

A model opts in with the `SignedColumns` mixin (store/signed.py) and names the fields its
signature covers in `__signed_fields__` (include the primary key when it is stable, so two rows
cannot swap contents). The signed object is `{"table": ..., <field>: <value>..., "key_version"}`:
datetimes become ISO 8601 strings in UTC; everything else must already be JSON.

Generic signing (issue 18): `install_row_signing(store, signer)` hooks the store's write path, so
every row of every model with the mixin that a transaction adds or changes through the ORM is
signed just before the commit, with nothing to register: a later feature's rows (facts, memory
injections, scores) are signed as soon as their model has the mixin. If the key cannot be loaded
the hook raises and the transaction rolls back (fail closed: nothing written). A row changed
through the ORM must verify *before* the change: editing a row forged in the database refuses
(ERR_UNSIGNED_ENTRY) instead of laundering it with a fresh signature.

On read, `RowVerifier.filter` keeps the rows whose signature verifies and drops the others, counts
them and reports them once as a signed `unsigned_entry` event (ERR_UNSIGNED_ENTRY) in the session
log: such a row is never trusted, whoever wrote it.
"""

from __future__ import annotations

import hmac
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any, TypeVar, cast

from sqlalchemy import Table, bindparam, event, or_, select, update
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.orm import Session

from lorekeeper.audit.errors import CanonicalJSONError, UnsignedEntryError
from lorekeeper.audit.jcs import canonicalize
from lorekeeper.audit.ledger import (
    LedgerView,
    advance_view,
    anchored_clocks,
    fill_view,
    ledger_key,
    legacy_unsigned_keys,
    load_view,
    plain_key,
    record_keyless,
    record_rows,
    row_key,
)
from lorekeeper.audit.signer import SIG_FIELD, VERSION_FIELD, Signer, Verdict, hmac_hex
from lorekeeper.store.signed import SIGNED_CORE_ROWS, SignedColumns, VersionedColumns

if TYPE_CHECKING:
    from lorekeeper.store.engine import Store

T = TypeVar("T")
R = TypeVar("R", bound=Sequence[Any])
ROW_VERSION_FIELD = "row_version"


_PLAIN = (str, int, float, bool, type(None))  # JSON already: `_json_value` leaves them as they are


def _json_value(value: Any) -> Any:
    if isinstance(value, datetime):
        # one text per instant, whichever backend gave it back (SQLite: naive UTC)
        aware = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
        return aware.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    return value


def row_payload(row: Any, values: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The object a row's signature covers (without `sig`); `values` overrides attributes (old state)."""
    fields = getattr(row, "__signed_fields__", ())
    if not fields:
        raise TypeError(f"{type(row).__name__} has no __signed_fields__")
    src = values or {}
    out: dict[str, Any] = {"table": row.__tablename__}
    for name in fields:
        out[name] = _json_value(src[name] if name in src else getattr(row, name))
    out[VERSION_FIELD] = src.get("key_version", row.key_version)
    if isinstance(row, VersionedColumns):
        version = src.get("row_version", row.row_version)
        if version is not None:  # NULL: signed before row versions existed (migration 0017)
            out[ROW_VERSION_FIELD] = version
    return out


def values_payload(model: type[SignedColumns], values: Mapping[str, Any]) -> dict[str, Any]:
    """`row_payload` of a row given as its column values (a row written through Core): the same object."""
    fields = model.__signed_fields__
    if not fields:
        raise TypeError(f"{model.__name__} has no __signed_fields__")
    out: dict[str, Any] = {"table": getattr(model, "__tablename__", "")}
    for name in fields:
        value = values[name]
        out[name] = value if type(value) in _PLAIN else _json_value(value)
    out[VERSION_FIELD] = values.get("key_version")
    if issubclass(model, VersionedColumns):
        version = values.get("row_version")
        if version is not None:
            out[ROW_VERSION_FIELD] = version
    return out


def sign_values(signer: Signer, model: type[SignedColumns], values: dict[str, Any]) -> dict[str, Any]:
    """`sign_row` for a row given as its column values: sets `key_version` and `sig` in `values`."""
    values["key_version"] = signer.version
    values["sig"] = signer.signature(values_payload(model, values))
    return values


def sign_row(signer: Signer, row: Any) -> Any:
    """Set `key_version` and `sig` on `row` (call it after the signed fields have their final value)."""
    row.key_version = signer.version
    row.sig = signer.signature(row_payload(row))
    return row


def verify_row(signer: Signer, row: Any) -> Verdict:
    if not row.sig or row.key_version is None:
        return Verdict(False, "unsigned")
    payload = row_payload(row)
    payload[SIG_FIELD] = row.sig
    return signer.verify(payload)


@dataclass
class FilterResult:
    kept: list[Any]
    rejected: list[Any] = field(default_factory=list)
    stale: int = 0  # rejected rows that verify but are older than their ledger entry

    @property
    def rejected_count(self) -> int:
        return len(self.rejected)


CACHE_SIZE = 200_000  # verdicts remembered per verifier (keyed by the full signed content)

#: issue 26 d3: the Core rows' accepted verdicts, one memo per signing key, shared by every verifier
#: of this process. "This content carries a valid signature of this key" depends on the content
#: and the key alone, so the resident agent service (which opens the workspace again for each call,
#: as the cold call does) hashes only rows it has not seen. Nothing else is shared: each verifier
#: reads and proves the row ledger itself (a ledger tampered with in place is caught as by a cold
#: call), and refusals stay with the verifier that made them (a key version it could not read).
_SHARED: OrderedDict[str, dict[tuple[str, tuple[Any, ...]], bool]] = OrderedDict()
_SHARED_LOCK = threading.Lock()
SHARED_KEYS = 4  # signing keys whose memos are kept (a process rarely sees more than one)


def shared_memo(signer: Signer) -> dict[tuple[str, tuple[Any, ...]], bool]:
    """The process's memo of accepted Core rows for `signer`'s key (named by an HMAC of that key,
    never by the key itself)."""
    name = signer.signature({"purpose": "lorekeeper-row-verdict-memo", VERSION_FIELD: signer.version})
    with _SHARED_LOCK:
        cache = _SHARED.get(name)
        if cache is None:
            cache = _SHARED[name] = {}
            while len(_SHARED) > SHARED_KEYS:
                _SHARED.popitem(last=False)
        else:
            _SHARED.move_to_end(name)
        return cache


class RowVerifier:
    """Filters signed rows on read and reports the rejected ones (once per call) as a signed event.

    Verdicts are cached by the row's whole signed payload and signature (not by its id), so a row
    changed in the database is checked again, and reading the same 100k quality events twice costs
    one HMAC each.
    """

    def __init__(
        self,
        signer: Signer,
        report: Callable[[dict[str, Any]], object] | None = None,
        *,
        store: Store | None = None,
        workspace: str = "",
        behind: Callable[[], str] | None = None,
    ) -> None:
        self.signer = signer
        # why the store is an older one than its log (`SessionLog.store_behind`): every ledgered
        # table is refused, as with an anchor that is not the head's
        self.behind = behind
        self.report = report
        self.rejected_total = 0
        self.rejected_by_table: dict[str, int] = {}
        self._cache: OrderedDict[tuple[Any, ...], bool] = OrderedDict()
        self._memo = shared_memo(signer)  # (table, a Core row's values) -> True: accepted rows, per key
        self._refused: dict[tuple[str, tuple[Any, ...]], bool] = {}  # -> False: this verifier's refusals
        self._lock = threading.Lock()
        # issue 24: with the store, versioned rows must also be the row their ledger entry names
        self.store = store
        self.workspace = workspace
        self._views: dict[str, tuple[str, LedgerView]] = {}  # table -> (head key, verified view)
        self._fresh: dict[str, LedgerView] = {}  # views checked during the current filter/check call
        self.reasons: dict[str, str] = {}  # table -> why rows were last rejected by the ledger

    def refresh(self) -> None:
        """Forget which ledger heads were read (the next check reads them again)."""
        with self._lock:
            self._fresh = {}

    def _view(self, table: str) -> LedgerView:
        with self._lock:
            hit = self._fresh.get(table)
        if hit is not None:
            return hit
        assert self.store is not None
        with self.store.session() as s:
            anchors = anchored_clocks(s, self.signer, self.workspace)
            why = self.behind() if self.behind is not None and anchors is not None else ""
            if why:
                cache_key, view = "", LedgerView(table, False, why)
            else:
                cache_key, view = load_view(s, self.signer, table, anchors)
            if cache_key:
                with self._lock:
                    cached = self._views.get(table)
                if cached is not None and cached[0] == cache_key:
                    view = cached[1]
                else:
                    # issue 26: a write since moved the head: read only what it wrote when the
                    # cached view can be proven to lead to the new head, else every entry
                    moved = advance_view(s, self.signer, cached[1]) if cached is not None else None
                    view = moved if moved is not None else fill_view(s, self.signer, view)
                    if view.trusted:
                        with self._lock:
                            self._views[table] = (cache_key, view)
        with self._lock:
            self._fresh[table] = view
        return view

    def _current(self, row: Any) -> bool:
        """Not rolled back: the row is the one its ledger entry names."""
        if self.store is None or not isinstance(row, VersionedColumns):
            return True
        if _written_here(row):
            return True
        view = self._view(str(row.__tablename__))
        if view.accepts(row):
            return True
        self.reasons[view.table] = view.why(row)
        return False

    def ok(self, row: Any) -> bool:
        return self._signed(row) and self._current(row)

    def _signed(self, row: Any) -> bool:
        if not row.sig or row.key_version is None:
            return False
        payload = row_payload(row)
        try:
            key = (row.sig, *((k, v) for k, v in payload.items()))
            hash(key)
        except TypeError:  # an unhashable value: no cache
            return bool(verify_row(self.signer, row))
        with self._lock:
            hit = self._cache.get(key)
        if hit is not None:
            return hit
        payload[SIG_FIELD] = row.sig
        verdict = bool(self.signer.verify(payload))
        with self._lock:
            self._cache[key] = verdict
            if len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
        return verdict

    def filter(self, rows: Iterable[T], *, purpose: str = "") -> list[T]:
        result = self.check(rows)
        if result.rejected:
            first = result.rejected[0]
            ident = sa_inspect(first).identity if hasattr(first, "__tablename__") else None
            self._reject(result, str(getattr(first, "__tablename__", "")), list(ident) if ident else None, purpose)
        return result.kept

    def _reject(self, result: FilterResult, table: str, first_id: list[Any] | None, purpose: str) -> None:
        self.rejected_total += result.rejected_count
        self.rejected_by_table[table] = self.rejected_by_table.get(table, 0) + result.rejected_count
        if self.report is not None:
            data: dict[str, Any] = {
                "code": "ERR_UNSIGNED_ENTRY",
                "table": table,
                "count": result.rejected_count,
                "first_id": first_id,
                "purpose": purpose,
            }
            if result.stale:
                data["stale"] = result.stale  # signed, but not the row the ledger names (rolled back)
                data["reason"] = self.reasons.get(table, "")
            self.report(data)

    # ------------------------------------------------------------------ Core rows (issue 26)
    def filter_values(self, model: type[SignedColumns], rows: Sequence[R], *, purpose: str = "") -> list[R]:
        """`filter` for Core rows of `model`'s table (`select(model.__table__)`: tuples with the
        column names as attributes, no ORM objects to build): the same verdicts, reported the
        same way. Read them outside a write transaction (a row this thread's transaction changed
        is not in the ledger before the commit).

        A row whose whole content (every column, its signature included) was verified before is
        not hashed again: the memo is keyed by the full tuple, so a row changed in the database,
        in any column, is verified again; the ledger is checked at every call."""
        self.refresh()
        table = str(getattr(model, "__tablename__", ""))  # the mixin does not declare it
        fields = model.__signed_fields__
        versioned = issubclass(model, VersionedColumns)
        view = self._view(table) if self.store is not None and versioned else None
        pk = [c.name for c in sa_inspect(model).primary_key]
        memo, refused = self._memo, self._refused
        out = FilterResult(kept=[])
        if not rows:
            return out.kept
        names = list(getattr(rows[0], "_fields", ()))
        if view is not None and {*pk, "row_version", "sig"} <= set(names):
            at = [names.index(c) for c in pk]  # by position: a Row's attribute access costs more
            i_version, i_sig = names.index("row_version"), names.index("sig")
        else:
            at, i_version, i_sig = [], -1, -1
        for row in rows:
            values = tuple(row)
            key = (table, values)
            ok = memo.get(key)
            if ok is None:
                ok = refused.get(key)
            if ok is None:
                ok = self._verify_values(table, fields, versioned, row)
                kept = memo if ok else refused
                if len(kept) >= CACHE_SIZE:
                    kept.clear()
                kept[key] = ok
            if not ok:
                out.rejected.append(row)
                continue
            if view is not None:
                if at:
                    lk = ledger_key(table, [values[i] for i in at])
                    version, sig = values[i_version], values[i_sig]
                else:
                    lk = ledger_key(table, [getattr(row, c) for c in pk])
                    version, sig = getattr(row, "row_version"), getattr(row, "sig")  # noqa: B009
                if not view.accepts_entry(lk, version, sig):
                    self.reasons[table] = view.why_entry(lk, version)
                    out.rejected.append(row)
                    out.stale += 1
                    continue
            out.kept.append(row)
        if out.rejected:
            self._reject(out, table, [getattr(out.rejected[0], c) for c in pk], purpose)
        return out.kept

    def _verify_values(self, table: str, fields: tuple[str, ...], versioned: bool, row: Any) -> bool:
        """`verify_row` for a Core row: the same signed object, the same HMAC (`Signer.verify`
        without the copy of the object it makes to drop `sig`)."""
        sig, key_version = row.sig, row.key_version
        if not isinstance(sig, str) or not sig or type(key_version) is not int:
            return False
        payload: dict[str, Any] = {"table": table}
        for name in fields:
            value = getattr(row, name)
            payload[name] = value if type(value) in _PLAIN else _json_value(value)
        payload[VERSION_FIELD] = key_version
        if versioned and row.row_version is not None:
            payload[ROW_VERSION_FIELD] = row.row_version
        key = self.signer.key_for(key_version)
        if key is None:
            return False
        try:
            expected = hmac_hex(key, canonicalize(payload))
        except CanonicalJSONError:
            return False
        return hmac.compare_digest(expected, sig.lower())

    def check(self, rows: Iterable[T]) -> FilterResult:
        self.refresh()
        out = FilterResult(kept=[])
        for row in rows:
            if not self._signed(row):
                out.rejected.append(row)
            elif not self._current(row):
                out.rejected.append(row)
                out.stale += 1
            else:
                out.kept.append(row)
        return out


def sign_unsigned(session: Session, model: type[SignedColumns], signer: Signer) -> int:
    """The data migration for rows written before signing existed: sign every unsigned row.

    Rows that carry a signature are left alone, valid or not (re-signing a bad row would launder
    it). Runs inside the caller's transaction.
    """
    rows = session.scalars(select(model).where(or_(model.sig.is_(None), model.sig == ""))).all()
    if issubclass(model, VersionedColumns):
        # issue 24: only the rows migration 0017 found unsigned are legacy; one that appeared
        # unsigned since was born signed and forged (never laundered by a signature now)
        legacy = legacy_unsigned_keys(session, str(model.__tablename__))
        refused = [r for r in rows if row_key(r) not in legacy]
        rows = [r for r in rows if row_key(r) in legacy]
        session.info.setdefault(REFUSED_UNSIGNED, {})[str(model.__tablename__)] = len(refused)
    for row in rows:
        sign_row(signer, row)
    session.info[ALLOW_UNSIGNED] = True  # the commit hook: these were unsigned on purpose
    session.flush()
    return len(rows)


# Models whose rows are signed; later features add theirs (`register_signed_model(Model)`), so
# `lorekeeper audit sign-rows` can migrate them all.
SIGNED_MODELS: dict[str, type[SignedColumns]] = {}
_Model = TypeVar("_Model", bound="type[SignedColumns]")


def register_signed_model(model: _Model) -> _Model:
    SIGNED_MODELS[sa_inspect(model).local_table.name] = model  # the model's __tablename__
    return model


def signed_models() -> dict[str, type[SignedColumns]]:
    """Every model of the store's schema with the mixin (facts, memory rows... as they land), plus
    the registered ones; not the rows the log signs itself (checkpoints, head, outbox)."""
    from lorekeeper.store.models import Base

    out: dict[str, type[SignedColumns]] = {}
    for mapper in Base.registry.mappers:
        cls = mapper.class_
        if issubclass(cls, SignedColumns) and cls.__signed_fields__ and not cls.__signed_manually__:  # fmt: skip
            out[str(getattr(cls, "__tablename__", mapper.persist_selectable.description))] = cls
    for name, model in SIGNED_MODELS.items():
        out.setdefault(name, model)
    return dict(sorted(out.items()))


# --------------------------------------------------------------------------- the commit hook

ALLOW_UNSIGNED = "lorekeeper_sign_unsigned"  # session.info: `sign_unsigned` signs legacy rows
REFUSED_UNSIGNED = "lorekeeper_refused_unsigned"  # session.info: per table, unsigned rows sign-rows refused
_DELETED = "lorekeeper_versioned_deleted"
# store.info: a workspace that has never had a key (`init` without a keyring, or before the Vault
# key is provisioned) writes its starter rows unsigned, recorded as legacy rows in the ledger:
# `audit init-key` signs them (they predate signing in this workspace)
KEYLESS_LEGACY = "lorekeeper_keyless_legacy"
_PENDING = "lorekeeper_rows_to_sign"
_SIGNING = "lorekeeper_signing_now"


def _written_here(row: Any) -> bool:
    """The row was added or changed by the write transaction that reads it (its ledger entry is
    recorded when that transaction commits): a change was checked against the ledger before it
    was made (`_verifies_before`), a new row is the transaction's own."""
    state = sa_inspect(row, raiseerr=False)
    session = state.session if state is not None else None
    return session is not None and id(row) in session.info.get(_PENDING, {})


def _old_values(row: Any) -> dict[str, Any]:
    """The row's values as last loaded or flushed (before this change)."""
    state = sa_inspect(row)
    out: dict[str, Any] = {}
    names = (*row.__signed_fields__, "key_version", "sig")
    if isinstance(row, VersionedColumns):
        names = (*names, "row_version")
    for name in names:
        hist = state.attrs[name].history
        if hist.deleted:
            out[name] = hist.deleted[0]
        elif hist.unchanged:
            out[name] = hist.unchanged[0]
        else:
            out[name] = getattr(row, name)
    return out


def _verifies_before(signer: Signer, row: Any, s: Session | None = None) -> bool:
    old = _old_values(row)
    if not old.get("sig") or old.get("key_version") is None:
        return False
    payload = row_payload(row, old)
    payload[SIG_FIELD] = old["sig"]
    if not signer.verify(payload):
        return False
    if s is not None and isinstance(row, VersionedColumns):
        # issue 24: and it is the row its ledger entry names (a row written back from an older
        # state is not re-signed by the next edit)
        from lorekeeper.store.models import RowLedger

        with s.no_autoflush:
            entry = s.get(RowLedger, (str(row.__tablename__), row_key(row)))
        if entry is None or entry.sig != old["sig"]:
            return False
        version = old.get("row_version")
        return (version is None and entry.version == 0) or (version is not None and entry.version == version)
    return True


def _core_written(s: Session, obj: Any) -> bool:
    """`obj` is a row this transaction wrote through Core (`store.signed.add_signed_rows`)."""
    core = s.info.get(SIGNED_CORE_ROWS)
    if not core:
        return False
    ident = sa_inspect(obj).identity
    return ident is not None and (str(obj.__tablename__), tuple(ident)) in core


def _core_rows(
    core: Mapping[tuple[str, tuple[Any, ...]], tuple[Any, dict[str, Any]]],
    orm_rows: Iterable[Any],
    deleted: set[tuple[str, str]],
) -> list[tuple[Any, dict[str, Any]]]:
    """The Core-written rows the commit hook signs from their values: not those the transaction
    then changed through the ORM (signed as that object) or deleted."""
    if not core:
        return []
    tables = {table for table, _pk in core}
    through_orm: set[tuple[str, tuple[Any, ...]]] = set()
    for obj in orm_rows:
        table = str(obj.__tablename__)
        ident = sa_inspect(obj).identity if table in tables else None
        if ident is not None:
            through_orm.add((table, tuple(ident)))
    return [
        (model, values)
        for (table, pk), (model, values) in core.items()
        if (table, pk) not in through_orm and not (deleted and (table, ledger_key(table, pk)) in deleted)
    ]


def _write_signed_values(
    s: Session, model: type[SignedColumns], group: Sequence[dict[str, Any]], derived: Sequence[str]
) -> None:
    """What the commit hook gave Core-written rows, from the values it signed: the `derived`
    fields (`sign_prepare_values`), `key_version`, `sig` (and `row_version`); the other signed
    fields are the values the rows were inserted with. One executemany per model."""
    table = cast("Table", model.__table__)  # type: ignore[attr-defined]  # a mapped model (the mixin declares no table)
    pk = [c.name for c in table.primary_key]
    names = [*derived, "key_version", "sig"]
    if issubclass(model, VersionedColumns):
        names.append(ROW_VERSION_FIELD)
    stmt = (
        update(table)
        .where(*(table.c[c] == bindparam(f"b_{c}") for c in pk))
        .values({n: bindparam(f"b_{n}") for n in names})
    )
    params = [{f"b_{n}": values[n] for n in (*pk, *names)} for values in group]
    for i in range(0, len(params), 1000):
        s.execute(stmt, params[i : i + 1000])


def install_row_signing(store: Store, signer: Callable[[], Signer], *, workspace: str | Callable[[], str] = "") -> None:
    """Sign every mixin row a write transaction of `store` adds or changes (see the module docstring).

    `signer()` loads the session key on first use and raises ERR_AUDIT_KEY_UNAVAILABLE when it
    cannot: only transactions that touch signed rows need it.
    """

    def before_flush(s: Session, _ctx: Any, _instances: Any) -> None:
        if s.info.get(_SIGNING):
            return
        pending: dict[int, Any] = s.info.setdefault(_PENDING, {})
        for obj in list(s.new):
            if isinstance(obj, SignedColumns) and obj.__signed_fields__ and not obj.__signed_manually__:
                pending[id(obj)] = obj
        for obj in list(s.dirty):
            if not isinstance(obj, SignedColumns) or not obj.__signed_fields__ or obj.__signed_manually__:
                continue
            if id(obj) in pending or not s.is_modified(obj):
                continue
            if _core_written(s, obj):  # written through Core by this transaction: signed as this object
                pending[id(obj)] = obj
                continue
            legacy = (s.info.get(ALLOW_UNSIGNED) or store.info.get(KEYLESS_LEGACY)) and not _old_values(obj).get("sig")
            if not legacy and not _verifies_before(signer(), obj, s):
                ident = sa_inspect(obj).identity
                table = str(getattr(obj, "__tablename__", type(obj).__name__))
                raise UnsignedEntryError(
                    f"{table} row {list(ident) if ident else '?'} does not verify: it was "
                    "changed outside Lorekeeper (or never signed), so it is not changed now either. "
                    "Check it (`lorekeeper audit status`); rows from before signing: `lorekeeper audit sign-rows`.",
                    table=table,
                )
            pending[id(obj)] = obj
        deleted: set[tuple[str, str]] = s.info.setdefault(_DELETED, set())
        for obj in list(s.deleted):
            if isinstance(obj, VersionedColumns) and obj.__signed_fields__ and not obj.__signed_manually__:
                deleted.add((str(obj.__tablename__), row_key(obj)))

    def before_commit(s: Session) -> None:
        pending: dict[int, Any] = s.info.pop(_PENDING, {})
        deleted: set[tuple[str, str]] = s.info.pop(_DELETED, set())
        core: dict[tuple[str, tuple[Any, ...]], tuple[Any, dict[str, Any]]] = s.info.pop(SIGNED_CORE_ROWS, {})
        rows = [o for o in pending.values() if o in s and not sa_inspect(o).deleted and not sa_inspect(o).was_deleted]
        plain = _core_rows(core, pending.values(), deleted)
        if not rows and not deleted and not plain:
            return
        if store.info.get(KEYLESS_LEGACY):
            with s.no_autoflush:
                keys = [(str(m.__tablename__), plain_key(m, v)) for m, v in plain if issubclass(m, VersionedColumns)]
                record_keyless(s, [r for r in rows if isinstance(r, VersionedColumns)], deleted, plain=keys)
            return
        sign = signer()  # raises when the key is unavailable: the transaction rolls back
        plain_by_model: dict[type[SignedColumns], list[dict[str, Any]]] = {}
        derived: dict[type[SignedColumns], tuple[str, ...]] = {}  # the fields the model derives before signing
        for plain_model, values in plain:
            plain_by_model.setdefault(plain_model, []).append(values)
        for plain_model, plain_group in plain_by_model.items():
            derive = getattr(plain_model, "sign_prepare_values", None)
            if derive is not None:
                with s.no_autoflush:
                    derived[plain_model] = tuple(derive(s, plain_group))
            if not issubclass(plain_model, VersionedColumns):
                for values in plain_group:
                    sign_values(sign, plain_model, values)
        versioned = [r for r in rows if isinstance(r, VersionedColumns)]
        by_type: dict[type, list[Any]] = {}
        for row in versioned:
            by_type.setdefault(type(row), []).append(row)
        for model, group in by_type.items():
            # fields derived from other rows (a skill version's files manifest); all at once when
            # the model can (issue 26: an import of 10,000 skills ran a query per version here)
            many = getattr(model, "sign_prepare_many", None)
            with s.no_autoflush:
                if many is not None:
                    many(s, group)
                    continue
                for row in group:
                    prepare = getattr(row, "sign_prepare", None)
                    if prepare is not None:
                        prepare(s)
        for row in rows:
            if not isinstance(row, VersionedColumns):
                sign_row(sign, row)
        s.info[_SIGNING] = True
        try:
            if versioned or deleted or plain:
                with s.no_autoflush:
                    record_rows(
                        s,
                        sign,
                        versioned,
                        deleted,
                        workspace=workspace() if callable(workspace) else workspace,
                        plain=[(m, v) for m, v in plain if issubclass(m, VersionedColumns)],
                    )
            for plain_model, plain_group in plain_by_model.items():
                _write_signed_values(s, plain_model, plain_group, derived.get(plain_model, ()))
            s.flush()
        finally:
            s.info.pop(_SIGNING, None)

    event.listen(store.write_sessionmaker, "before_flush", before_flush)
    store.before_commit.append(before_commit)
