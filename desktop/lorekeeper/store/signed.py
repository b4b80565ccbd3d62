"""The `SignedColumns` mixin: rows that drive decisions carry `key_version` + `sig` over `__signed_fields__`.

It lives apart from `store/models.py` so that any model of that file (defined before or after it)
can use it. Signing and filtering live in `lorekeeper.audit.rows`: every model with the mixin is
signed when a write transaction commits (`audit.rows.install_row_signing`), checked on read
(`RowVerifier.filter`), and covered by `lorekeeper audit sign-rows`; nothing needs registering.
A row whose signature fails is ignored on read and counted (ERR_UNSIGNED_ENTRY), never trusted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import BigInteger, Integer, String
from sqlalchemy.orm import Mapped, mapped_column


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
