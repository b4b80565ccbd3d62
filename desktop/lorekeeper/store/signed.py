"""The `SignedColumns` mixin: rows that drive decisions carry `key_version` + `sig` over `__signed_fields__`.

It lives apart from `store/models.py` so that any model of that file (defined before or after it)
can use it. Signing and filtering live in `lorekeeper.audit.rows`: every model with the mixin is
signed when a write transaction commits (`audit.rows.install_row_signing`), checked on read
(`RowVerifier.filter`), and covered by `lorekeeper audit sign-rows`; nothing needs registering.
A row whose signature fails is ignored on read and counted (ERR_UNSIGNED_ENTRY), never trusted.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from sqlalchemy import BigInteger, Integer, String
from sqlalchemy.orm import Mapped, Session, mapped_column

#: session.info: rows a write transaction wrote through Core, (table, primary key) -> (model, values)
SIGNED_CORE_ROWS = "lorekeeper_signed_core_rows"


class SignedColumns:
    """Mixin for rows that drive decisions (see the module docstring).

    `__signed_fields__` names the columns the signature covers (include the primary key when it is
    stable, so two rows cannot swap contents). `__signed_manually__ = True` for rows the audit log
    signs itself (checkpoints, the head, the outbox): the commit hook leaves them alone.
    """

    __signed_fields__: tuple[str, ...] = ()
    __signed_manually__: bool = False

    key_version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    sig: Mapped[str | None] = mapped_column(String(64), nullable=True)


class VersionedColumns(SignedColumns):
    """A signed row that cannot be rolled back (issue 24): `row_version` is a per-table monotonic
    number set at each signed write and covered by the signature, and the row ledger
    (`lorekeeper.audit.rows`) names the version and signature each row must carry. A row written
    back from an older state (validly signed, but not the latest) is skipped on read."""

    if TYPE_CHECKING:
        __tablename__: str

    row_version: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


def add_signed_rows(s: Session, model: type[SignedColumns], rows: Iterable[dict[str, Any]]) -> None:
    """Rows of `model` that this write transaction INSERTed through Core (an executemany: no ORM
    object, no unit of work per row), to be signed by the commit hook like the ORM's own.

    Each dict holds the row's primary key and every column of `__signed_fields__` with the values
    the row was inserted with; the hook computes what the model derives before signing
    (`sign_prepare_values(s, rows)`, which returns the names of the fields it set), signs the
    values (and for a `VersionedColumns` row gives it its row version and ledger entry), and
    writes the derived fields, `key_version`, `sig` and `row_version` to the row, in the same
    transaction. Fail closed as the ORM path: without the key the transaction rolls back.
    A row of these that the transaction then changes through the ORM is signed as that object."""
    pending: dict[tuple[str, tuple[Any, ...]], tuple[type[SignedColumns], dict[str, Any]]]
    pending = s.info.setdefault(SIGNED_CORE_ROWS, {})
    table = model.__table__  # type: ignore[attr-defined]  # a mapped model (the mixin declares no table)
    pk = [c.name for c in table.primary_key]
    for values in rows:
        pending[(str(table.name), tuple(values[c] for c in pk))] = (model, values)
