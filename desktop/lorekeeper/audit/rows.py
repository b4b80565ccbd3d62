"""Signed store rows: sign on write, filter on read, sign what exists unsigned.

A model opts in with the `SignedColumns` mixin (store/models.py) and names the fields its
signature covers in `__signed_fields__` (include the primary key when it is stable, so two rows
cannot swap contents). The signed object is `{"table": ..., <field>: <value>..., "key_version"}`:
datetimes become ISO 8601 strings; everything else must already be JSON.

On read, `RowVerifier.filter` keeps the rows whose signature verifies and drops the others, counts
them and reports them once as a signed `unsigned_entry` event (ERR_UNSIGNED_ENTRY) in the session
log: such a row is never trusted, whoever wrote it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import inspect as sa_inspect
from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from lorekeeper.audit.signer import SIG_FIELD, VERSION_FIELD, Signer, Verdict

if TYPE_CHECKING:
    from lorekeeper.store.models import SignedColumns

T = TypeVar("T")


def _json_value(value: Any) -> Any:
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    return value


def row_payload(row: Any) -> dict[str, Any]:
    """The object a row's signature covers (without `sig`)."""
    fields = getattr(row, "__signed_fields__", ())
    if not fields:
        raise TypeError(f"{type(row).__name__} has no __signed_fields__")
    out: dict[str, Any] = {"table": row.__tablename__}
    for name in fields:
        out[name] = _json_value(getattr(row, name))
    out[VERSION_FIELD] = row.key_version
    return out


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

    @property
    def rejected_count(self) -> int:
        return len(self.rejected)


class RowVerifier:
    """Filters signed rows on read and reports the rejected ones (once per call) as a signed event."""

    def __init__(self, signer: Signer, report: Callable[[dict[str, Any]], object] | None = None) -> None:
        self.signer = signer
        self.report = report
        self.rejected_total = 0

    def filter(self, rows: Iterable[T], *, purpose: str = "") -> list[T]:
        result = self.check(rows)
        if result.rejected:
            self.rejected_total += result.rejected_count
            if self.report is not None:
                first = result.rejected[0]
                ident = sa_inspect(first).identity if hasattr(first, "__tablename__") else None
                self.report(
                    {
                        "code": "ERR_UNSIGNED_ENTRY",
                        "table": getattr(first, "__tablename__", ""),
                        "count": result.rejected_count,
                        "first_id": list(ident) if ident else None,
                        "purpose": purpose,
                    }
                )
        return result.kept

    def check(self, rows: Iterable[T]) -> FilterResult:
        out = FilterResult(kept=[])
        for row in rows:
            (out.kept if verify_row(self.signer, row) else out.rejected).append(row)
        return out


def sign_unsigned(session: Session, model: type[SignedColumns], signer: Signer) -> int:
    """The data migration for rows written before signing existed: sign every unsigned row.

    Rows that carry a signature are left alone, valid or not (re-signing a bad row would launder
    it). Runs inside the caller's transaction.
    """
    rows = session.scalars(select(model).where(or_(model.sig.is_(None), model.sig == ""))).all()
    for row in rows:
        sign_row(signer, row)
    return len(rows)


# Models whose rows are signed; later features add theirs (`register_signed_model(Model)`), so
# `lorekeeper audit sign-rows` can migrate them all.
SIGNED_MODELS: dict[str, type[SignedColumns]] = {}
_Model = TypeVar("_Model", bound="type[SignedColumns]")


def register_signed_model(model: _Model) -> _Model:
    SIGNED_MODELS[sa_inspect(model).local_table.name] = model  # the model's __tablename__
    return model
