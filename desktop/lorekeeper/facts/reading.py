"""`FactReader`: lists and shows facts, documents, conflicts and runs, verified (issue 11).

Every read goes through `FactRows.filter` (`filter_values` for the Core rows of `list`): a row
whose signature or ledger entry fails is dropped and reported, never shown. After a decision, update a panel's rows from `Decision.facts` rather than listing
everything again.
"""

from __future__ import annotations

import builtins
from typing import Any

from sqlalchemy import String, select, type_coerce

from lorekeeper.errors import InvalidInputError, NotFoundError
from lorekeeper.facts.model import ConflictInfo, FactInfo, check_type
from lorekeeper.facts.reports import DocumentInfo, iso, loads
from lorekeeper.facts.rows import FactRows
from lorekeeper.store.models import Fact, FactConflict, FactDocument, FactRun
from lorekeeper.store.scopes import validate_project

FACTS = Fact.__table__
#: timestamps read as the driver gives them (SQLite: text), converted only for an info not cached
#: yet (issue 26: converting 30k of them per list of 10k facts cost a fifth of the query); none
#: is signed, so the verification reads the same values
RAW_TIMES = ("created_at", "updated_at", "decided_at")
assert not set(RAW_TIMES) & set(Fact.__signed_fields__)
LIST_COLUMNS = [type_coerce(c, String).label(c.name) if c.name in RAW_TIMES else c for c in FACTS.c]


def conflict_key(conflict_id: int | str) -> int:
    """A conflict's numeric id from `12` or `#12`; else ERR_NOT_FOUND."""
    try:
        return int(str(conflict_id).strip().lstrip("#"))
    except ValueError:
        raise NotFoundError(f"no conflict {conflict_id!r}: conflicts have numeric ids") from None


class FactReader:
    def __init__(self, rows: FactRows) -> None:
        self.rows = rows
        self.store = rows.store

    def list(
        self,
        project: str | None = None,
        status: str | None = None,
        type: str | None = None,
        document: str | None = None,
        flagged: bool | None = None,
        include_merged: bool = False,
    ) -> builtins.list[FactInfo]:
        proj = validate_project(project) if project else None
        if status is not None and status not in ("candidate", "approved", "rejected", "conflicting"):
            raise InvalidInputError(f"unknown status {status!r}: candidate, approved, rejected or conflicting")
        if type is not None:
            type = check_type(type)
        t = FACTS
        with self.store.session() as s:
            # Core rows, not ORM objects (issue 26: building 10k `Fact` objects cost more than the query)
            q = select(*LIST_COLUMNS)
            if proj:
                q = q.where(t.c.project == proj)
            if status:
                q = q.where(t.c.status == status)
            if type:
                q = q.where(t.c.type == type)
            if not include_merged:
                q = q.where(t.c.merged_into == "")
            rows = self.rows.filter_values(s.execute(q.order_by(t.c.ordinal, t.c.id)).all(), "facts list")
            conflicts = self.rows.open_conflicts(s, proj)
            out = [self.rows.cached_info(r, conflicts) for r in rows]
        if document:
            out = [f for f in out if document in f.documents]
        if flagged is not None:
            out = [f for f in out if bool(f.flag) == flagged]
        return out

    def show(self, fact_id: str) -> FactInfo:
        with self.store.session() as s:
            row = s.get(Fact, fact_id)
            if row is None or not self.rows.filter([row], "facts show"):
                raise NotFoundError(f"no fact {fact_id!r}; list them with `lorekeeper facts list`")
            return self.rows.info(row, self.rows.open_conflicts(s, row.project))

    def counts(self, project: str | None = None) -> dict[str, int]:
        out = dict.fromkeys(("candidate", "approved", "rejected", "conflicting"), 0)
        for f in self.list(project):
            out[f.status] = out.get(f.status, 0) + 1
        return out

    def projects(self) -> builtins.list[str]:
        with self.store.session() as s:
            names = set(s.scalars(select(Fact.project).distinct()).all())
            names |= set(s.scalars(select(FactDocument.project).distinct()).all())
        return sorted(names)

    def documents(self, project: str | None = None) -> builtins.list[DocumentInfo]:
        with self.store.session() as s:
            q = select(FactDocument)
            if project:
                q = q.where(FactDocument.project == validate_project(project))
            return [self.rows.doc_info(r) for r in s.scalars(q.order_by(FactDocument.project, FactDocument.origin))]

    def document(self, doc_id: str) -> DocumentInfo:
        with self.store.session() as s:
            row = s.get(FactDocument, doc_id)
            if row is None:
                raise NotFoundError(f"no document {doc_id!r}; ingest it with `lorekeeper facts ingest PATH`")
            return self.rows.doc_info(row, text=True)

    def conflicts(self, project: str | None = None, status: str | None = "open") -> builtins.list[ConflictInfo]:
        with self.store.session() as s:
            q = select(FactConflict)
            if project:
                q = q.where(FactConflict.project == validate_project(project))
            if status:
                q = q.where(FactConflict.status == status)
            rows = self.rows.filter(s.scalars(q.order_by(FactConflict.id)).all(), "fact conflicts")
            return [self.rows.conflict_info(r) for r in rows]

    def conflict(self, conflict_id: int | str) -> ConflictInfo:
        cid = conflict_key(conflict_id)
        with self.store.session() as s:
            row = s.get(FactConflict, cid)
            if row is None or not self.rows.filter([row], "fact conflict"):
                raise NotFoundError(f"no conflict {conflict_id!r}; list them with `lorekeeper facts conflicts`")
            return self.rows.conflict_info(row)

    def runs(self, limit: int = 10) -> builtins.list[dict[str, Any]]:
        with self.store.session() as s:
            rows = s.scalars(select(FactRun).order_by(FactRun.id.desc()).limit(limit)).all()
            return [
                {
                    "id": r.id,
                    "kind": r.kind,
                    "project": r.project,
                    "model": r.model,
                    "started_at": iso(r.started_at),
                    "finished_at": iso(r.finished_at),
                    "report": loads(r.report, {}),
                }
                for r in rows
            ]

    def pending(self, project: str | None = None) -> builtins.list[str]:
        """Documents whose current content was not extracted yet."""
        return [d.id for d in self.documents(project) if not d.extracted and not d.missing]
