"""`FactRows`: the one verification path of fact, conflict and document rows (issue 28).

Every fact service reads and writes rows through it: rows are verified (a row whose signature or
ledger entry fails is dropped and reported, never shown), signed, turned into the `FactInfo`,
`ConflictInfo` and `DocumentInfo` the front ends see, and a decision's event is recorded in the
decision's own transaction. Verified rows are cached, so a second `list` of 10k facts costs the
query, not the HMACs.
"""

from __future__ import annotations

import builtins
import dataclasses
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from lorekeeper.audit.rows import RowVerifier, sign_row
from lorekeeper.errors import InvalidInputError, NotFoundError
from lorekeeper.facts.model import ConflictInfo, FactInfo, Provenance
from lorekeeper.facts.reports import DocumentInfo, iso, loads
from lorekeeper.store.engine import Store
from lorekeeper.store.models import Fact, FactConflict, FactDocument, utcnow

if TYPE_CHECKING:
    from lorekeeper.audit.log import SessionLog


#: issue 26 d3: a verified fact row's `FactInfo`, by id and the row's whole content, shared by every
#: `FactRows` of this process (an info is a function of the row alone), so the resident agent
#: service, which opens the workspace again for each call, builds only the infos of changed rows
_INFOS: dict[str, tuple[tuple[Any, ...], FactInfo]] = {}
INFOS_SIZE = 200_000


class FactRows:
    def __init__(
        self,
        store: Store,
        *,
        audit_log: Callable[[], SessionLog],
        workspace_root: Path | None = None,
        verifier: Callable[[], RowVerifier] | None = None,
    ) -> None:
        self.store = store
        self.audit_log = audit_log
        # issue 24: the session's verifier checks the row ledger too (an older, validly signed
        # row written back is refused); without one (tests of the service alone) only signatures
        self.session_verifier = verifier
        # documents inside the workspace are stored by their path relative to it (a copied or
        # moved workspace keeps finding them); others by their absolute path
        self.workspace_root = workspace_root.resolve() if workspace_root is not None else None
        self._verified: dict[tuple[str, str], tuple[Any, ...]] = {}  # (table, id) -> verified content
        self._infos = _INFOS  # id -> (the row's values, info)
        self._plain: tuple[Any, RowVerifier] | None = None  # (log, verifier) without a session verifier

    def forget(self) -> None:
        """Drop the caches of verified rows and infos (the next read verifies every row again)."""
        self._verified.clear()
        self._infos.clear()

    # ------------------------------------------------------------------ paths
    def stored_path(self, path: Path) -> str:
        resolved = path.resolve()
        if self.workspace_root is not None:
            try:
                return resolved.relative_to(self.workspace_root).as_posix()
            except ValueError:
                pass
        return str(resolved)

    def absolute_path(self, stored: str) -> Path:
        """The file a document was read from (its stored path is relative inside the workspace)."""
        p = Path(stored)
        if not p.is_absolute() and self.workspace_root is not None:
            return self.workspace_root / p
        return p

    # ------------------------------------------------------------------ signing
    def signer(self) -> Any:
        return self.audit_log().signer

    def row_verifier(self) -> RowVerifier:
        if self.session_verifier is not None:
            return self.session_verifier()
        log = self.audit_log()
        return RowVerifier(log.signer, report=lambda data: log.record("unsigned_entry", data))

    @staticmethod
    def _cache_key(row: Any) -> tuple[Any, ...]:
        d = row.__dict__  # loaded column values, without the instrumented getters
        return (d.get("sig"), d.get("key_version"), *(d.get(f) for f in row.__signed_fields__))

    def filter(self, rows: Sequence[Any], purpose: str) -> builtins.list[Any]:
        """Verified rows only; a row verified before with exactly the same content is not
        re-hashed (the cache holds the whole signed content, so any change is verified again)."""
        if not rows:
            return []
        verifier = self.row_verifier()
        if verifier.store is not None:
            # the ledger is read again at each call (a row verified earlier may have been written
            # back since); the verifier's own cache spares the HMACs of rows seen before
            return verifier.filter(rows, purpose=purpose)
        todo: builtins.list[Any] = []
        kept_ids: set[int] = set()
        verified = self._verified
        for row in rows:
            if verified.get((row.__tablename__, str(row.id))) == self._cache_key(row):
                kept_ids.add(id(row))
            else:
                todo.append(row)
        if todo:
            for row in verifier.filter(todo, purpose=purpose):
                verified[(row.__tablename__, str(row.id))] = self._cache_key(row)
                kept_ids.add(id(row))
        return [r for r in rows if id(r) in kept_ids]

    def filter_values(self, rows: Sequence[Any], purpose: str) -> builtins.list[Any]:
        """`filter` for Core rows of the facts table (`select(Fact.__table__)`), read outside a
        write transaction: the verifier's memo (keyed by each row's whole content) spares the
        HMACs of rows seen before, and no ORM object is built (issue 26: `facts list` at 10k)."""
        if not rows:
            return []
        return self._values_verifier().filter_values(Fact, rows, purpose=purpose)

    def _values_verifier(self) -> RowVerifier:
        if self.session_verifier is not None:
            return self.session_verifier()
        log = self.audit_log()  # without a session verifier (the service alone): one per log
        cached = self._plain
        if cached is None or cached[0] is not log:
            cached = (log, RowVerifier(log.signer, report=lambda data: log.record("unsigned_entry", data)))
            self._plain = cached
        return cached[1]

    def sign(self, row: Any, signer: Any) -> None:
        """Sign a row; unset signed fields get their column default first (a default is applied
        only at INSERT, and the signature must cover what the database will hold)."""
        for name in row.__signed_fields__:
            if getattr(row, name) is None:
                default = row.__table__.c[name].default
                if default is not None and getattr(default, "is_scalar", False):
                    setattr(row, name, default.arg)
        if isinstance(row, Fact):
            row.updated_at = utcnow()
        sign_row(signer, row)

    def event(self, log: Any, kind: str, data: dict[str, Any]) -> str:
        """The decision's event, in the decision's own transaction (the audit outbox, issue 24): it
        commits with the rows or not at all. Returns the event's content hash, which its signed
        header carries: the rows name their event by it (`event_sig`)."""
        return str(log.record_ref(kind, data))

    # ------------------------------------------------------------------ conversion
    @staticmethod
    def info(row: Any, conflicts: dict[str, int] | None = None) -> FactInfo:
        """A fact row (an ORM `Fact` or a Core row of its table) as the front ends see it."""
        prov = tuple(Provenance.from_dict(p) for p in loads(row.provenance, []) if isinstance(p, dict))
        return FactInfo(
            id=row.id,
            project=row.project,
            type=row.type,
            statement=row.statement,
            detail=row.detail or "",
            scope=tuple(loads(row.scope, [])),
            tags=tuple(loads(row.tags, [])),
            confidence=float(row.confidence),
            status=row.status,
            provenance=prov,
            merged_into=row.merged_into or "",
            flag=row.flag or "",
            source=row.source or "",
            ordinal=int(row.ordinal or 0),
            conflict=(conflicts or {}).get(row.id),
            decided_by=row.decided_by or "",
            decided_at=iso(row.decided_at),
            decision_reason=row.decision_reason or "",
            created_at=iso(row.created_at),
            updated_at=iso(row.updated_at),
        )

    def cached_info(self, row: Any, conflicts: dict[str, int]) -> FactInfo:
        """`info` for a verified Core row of the facts table, reused while the row is the same,
        every column of it (the cache is keyed by the whole tuple)."""
        key = tuple(row)
        hit = self._infos.get(row.id)
        if hit is not None and hit[0] == key:
            info = hit[1]
        else:
            info = self.info(row)
            if len(self._infos) >= INFOS_SIZE:
                self._infos.clear()
            self._infos[info.id] = (key, info)
        cid = conflicts.get(info.id)
        return info if info.conflict == cid else dataclasses.replace(info, conflict=cid)

    @staticmethod
    def conflict_info(row: FactConflict) -> ConflictInfo:
        return ConflictInfo(
            id=int(row.id),
            project=row.project,
            facts=tuple(loads(row.facts, [])),
            reason=row.reason,
            status=row.status,
            resolution=row.resolution or "",
            result=row.result or "",
            resolved_by=row.resolved_by or "",
            resolved_at=iso(row.resolved_at),
            resolution_reason=row.resolution_reason or "",
            created_at=iso(row.created_at),
        )

    @staticmethod
    def doc_info(row: FactDocument, *, text: bool = False) -> DocumentInfo:
        return DocumentInfo(
            id=row.id,
            project=row.project,
            origin=row.origin,
            path=row.path,
            kind=row.kind,
            sha256=row.sha256,
            size=int(row.size or 0),
            missing=bool(row.missing),
            extracted=row.extracted_sha256 == row.sha256,
            text=row.text if text else "",
        )

    def open_conflicts(self, s: Session, project: str | None = None) -> dict[str, int]:
        q = select(FactConflict).where(FactConflict.status == "open")
        if project:
            q = q.where(FactConflict.project == project)
        out: dict[str, int] = {}
        for c in self.filter(s.scalars(q).all(), "fact conflicts"):
            for fid in loads(c.facts, []):
                out[str(fid)] = int(c.id)
        return out

    def load(self, s: Session, fact_id: str) -> Fact:
        row = s.get(Fact, fact_id)
        if row is None or not self.filter([row], "fact decision"):
            raise NotFoundError(f"no fact {fact_id!r}; list them with `lorekeeper facts list`")
        if row.merged_into:
            raise InvalidInputError(f"fact {fact_id} was merged into {row.merged_into}; decide on that one")
        return row

    def decidable(self, s: Session, row: Fact) -> None:
        if row.status == "conflicting":
            cid = self.open_conflicts(s, row.project).get(row.id)
            raise InvalidInputError(
                f"fact {row.id} is in conflict #{cid}; arbitrate it with `lorekeeper facts resolve {cid} ...`"
            )
