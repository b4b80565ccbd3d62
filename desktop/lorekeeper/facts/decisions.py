"""`FactDecisions`: the operator's decisions on facts, each a signed event (seed 003, issue 11).

Each decision writes a signed audit event (who, when, why) in the transaction of its store change
(fail closed: no key, no change) and returns a `Decision` (`.changes` the ChangeSet, `.facts` the
facts after the decision, `.conflict`, `.event_sig`): approve, approve_many, reject (a reason is
required), reopen (the review queue's undo), edit (a type change re-ids the fact), add (an
operator-written fact, quoted verbatim from its document), resolve (a conflict's arbitration) and
reopen_conflict (its undo).
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import select

from lorekeeper.changes import ChangeSet
from lorekeeper.errors import InvalidInputError, InvalidSpecError
from lorekeeper.facts.model import (
    Provenance,
    check_confidence,
    check_statement,
    check_type,
    dumps,
    merge_provenance,
    normalise_scope,
    normalise_tags,
    quote_in,
    squash,
)
from lorekeeper.facts.reading import FactReader, conflict_key
from lorekeeper.facts.reports import (
    EVENT_ADDED,
    EVENT_APPROVED,
    EVENT_CONFLICT_REOPENED,
    EVENT_EDITED,
    EVENT_REJECTED,
    EVENT_REOPENED,
    EVENT_RESOLVED,
    MAX_REASON,
    Decision,
    loads,
    operator_name,
)
from lorekeeper.facts.rows import FactRows
from lorekeeper.facts.work import FactWork
from lorekeeper.facts.writer import FactWriter
from lorekeeper.store.models import Fact, FactConflict, utcnow
from lorekeeper.store.scopes import validate_project


class FactDecisions:
    def __init__(self, rows: FactRows, writer: FactWriter, reader: FactReader, work: FactWork) -> None:
        self.rows = rows
        self.store = rows.store
        self.writer = writer
        self.reader = reader
        self.work = work  # `add` ingests the document it quotes when it is a new or changed file

    def _operator(self) -> str:
        """Who decides: the signed log's operator (the Vault identity, else the OS login; issue 25 d2)."""
        from lorekeeper.errors import LorekeeperError

        try:
            return self.rows.audit_log().operator()
        except LorekeeperError:  # no key session: the decision fails closed later, with its own error
            return operator_name()

    def _decide(
        self,
        fact_ids: Sequence[str],
        status: str,
        event: str,
        why: str,
        by: str | None,
        *,
        require_reason: bool = False,
    ) -> Decision:
        by = (by or self._operator()).strip() or "operator"
        why = (why or "").strip()[:MAX_REASON]
        if require_reason and not why:
            raise InvalidInputError("a rejection needs a reason (--reason), so the next review can learn from it")
        ids = list(dict.fromkeys(fact_ids))
        if not ids:
            raise InvalidInputError("no fact to decide on")
        log = self.rows.audit_log()  # fail closed before anything is checked or written
        with self.store.session() as s:
            before = {}
            for fid in ids:
                row = self.rows.load(s, fid)
                self.rows.decidable(s, row)
                before[fid] = row.status
        now = utcnow()
        data: dict[str, Any] = {
            "facts": ids,
            "before": before,
            "status": status,
            "by": by,
            "at": now.isoformat(),
            "why": why,
        }
        with self.store.write() as s:
            sig = self.rows.event(log, event, data)
            signer = log.signer
            for fid in ids:
                row = self.rows.load(s, fid)
                self.rows.decidable(s, row)
                row.status = status
                row.flag = ""  # a decision is the review a flag asked for
                row.decided_by = by
                row.decided_at = now
                row.decision_reason = why
                row.event_sig = sig
                self.rows.sign(row, signer)
        changes = self.store.last_changes()
        return Decision(changes, [self.reader.show(fid) for fid in ids], None, sig)

    def approve(self, fact_id: str, *, why: str = "", by: str | None = None) -> Decision:
        return self._decide([fact_id], "approved", EVENT_APPROVED, why, by)

    def approve_many(self, fact_ids: Iterable[str], *, why: str = "", by: str | None = None) -> Decision:
        """Bulk approval (the panel's "approve all matching the filter"): one signed event, one transaction."""
        return self._decide(list(fact_ids), "approved", EVENT_APPROVED, why, by)

    def reject(self, fact_id: str, *, why: str, by: str | None = None) -> Decision:
        return self._decide([fact_id], "rejected", EVENT_REJECTED, why, by, require_reason=True)

    def reject_many(self, fact_ids: Iterable[str], *, why: str, by: str | None = None) -> Decision:
        """Bulk rejection of a selection, one reason for all: one signed event, one transaction."""
        return self._decide(list(fact_ids), "rejected", EVENT_REJECTED, why, by, require_reason=True)

    def reopen(self, fact_id: str, *, why: str = "", by: str | None = None) -> Decision:
        """Back to candidate: the undo of an approval or a rejection (signed too)."""
        return self._decide([fact_id], "candidate", EVENT_REOPENED, why or "undo", by)

    def edit(
        self,
        fact_id: str,
        *,
        statement: str | None = None,
        detail: str | None = None,
        scope: Sequence[str] | None = None,
        type: str | None = None,
        tags: Sequence[str] | None = None,
        confidence: float | None = None,
        why: str = "",
        by: str | None = None,
    ) -> Decision:
        """Change what a fact says. The status stays; a type change re-ids the fact (the id names
        its type): the old row stays, merged into the new one, so its history is kept."""
        by = (by or self._operator()).strip() or "operator"
        why = (why or "").strip()[:MAX_REASON]
        new_values: dict[str, Any] = {}
        if statement is not None:
            new_values["statement"] = check_statement(statement)
        if detail is not None:
            new_values["detail"] = squash(detail)
        if scope is not None:
            new_values["scope"] = dumps(normalise_scope(scope))
        if type is not None:
            new_values["type"] = check_type(type)
        if tags is not None:
            new_values["tags"] = dumps(normalise_tags(tags))
        if confidence is not None:
            new_values["confidence"] = check_confidence(confidence)
        log = self.rows.audit_log()
        with self.store.session() as s:
            row = self.rows.load(s, fact_id)
            self.rows.decidable(s, row)
            before = {k: getattr(row, k) for k in new_values}
        changed = {k: v for k, v in new_values.items() if before[k] != v}
        if not changed:
            return Decision(ChangeSet(), [self.reader.show(fact_id)], None, "")
        now = utcnow()
        result_id = fact_id
        with self.store.write() as s:
            sig = self.rows.event(
                log,
                EVENT_EDITED,
                {
                    "fact": fact_id,
                    "before": {k: before[k] for k in changed},
                    "after": changed,
                    "by": by,
                    "at": now.isoformat(),
                    "why": why,
                },
            )
            signer = log.signer
            row = self.rows.load(s, fact_id)
            if "type" in changed:
                result_id = self.writer.free_id(
                    s, row.project, changed["type"], changed.get("statement", row.statement)
                )
                new = Fact(
                    id=result_id,
                    project=row.project,
                    type=row.type,
                    statement=row.statement,
                    detail=row.detail,
                    scope=row.scope,
                    tags=row.tags,
                    confidence=row.confidence,
                    status=row.status,
                    provenance=row.provenance,
                    ordinal=row.ordinal,  # the same fact: it keeps its age
                    source=row.source,
                    created_at=row.created_at,
                )
                s.add(new)
                row.merged_into = result_id
                row.decision_reason = f"re-typed as {changed['type']}: {why}".strip(": ")
                self.rows.sign(row, signer)
                row = new
            for k, v in changed.items():
                setattr(row, k, v)
            row.flag = ""
            row.decided_by = by
            row.decided_at = now
            row.event_sig = sig
            if why:
                row.decision_reason = why
            self.rows.sign(row, signer)
        return Decision(self.store.last_changes(), [self.reader.show(result_id)], None, sig)

    def add(
        self,
        project: str,
        type: str,
        statement: str,
        document: str,
        quote: str,
        *,
        detail: str = "",
        scope: Sequence[str] = (),
        tags: Sequence[str] = (),
        confidence: float = 0.9,
        why: str = "",
        by: str | None = None,
    ) -> Decision:
        """An operator-written fact. Validates everything first (ERR_INVALID_SPEC), ingests the
        document if needed, runs the lexical consolidation; `.facts[0]` is the surviving fact."""
        proj = validate_project(project)
        if not proj:
            raise InvalidSpecError("a fact belongs to a project: give --project")
        type_ = check_type(type)
        text = check_statement(statement)
        conf = check_confidence(confidence)
        globs = normalise_scope(scope)
        tag_list = normalise_tags(tags)
        if not squash(quote or ""):
            raise InvalidSpecError("a fact needs a verbatim quote of its document (--quote)")
        by = (by or self._operator()).strip() or "operator"
        log = self.rows.audit_log()
        doc = self.work.document_for(proj, document)
        if not quote_in(quote, doc.text):
            raise InvalidSpecError(
                f"the quote does not occur verbatim in {doc.origin} ({doc.id}): copy the sentence exactly as "
                "the document writes it"
            )
        now = utcnow()
        prov = Provenance(doc.id, doc.origin, squash(quote))
        with self.store.write() as s:
            sig = self.rows.event(
                log,
                EVENT_ADDED,
                {
                    "project": proj,
                    "type": type_,
                    "statement": text,
                    "provenance": prov.to_dict(),
                    "by": by,
                    "at": now.isoformat(),
                    "why": why,
                },
            )
            row = self.writer.new_fact(
                s,
                log.signer,
                project=proj,
                type_=type_,
                statement=text,
                detail=squash(detail or ""),
                scope=globs,
                tags=tag_list,
                confidence=conf,
                provenance=[prov],
                source="operator",
            )
            row.decided_by = by
            row.event_sig = sig
            self.rows.sign(row, log.signer)
            merged = self.writer.lexical(s, log.signer, [row])
            survivor = s.get(Fact, merged[0]["into"]) if merged else row
            assert survivor is not None  # the merge target was loaded by the dedup search
            # the surviving fact as this transaction writes it (signed here): not read back after
            # the commit, which re-read the whole row ledger of the facts (O(facts) per add)
            # a fact this transaction created (`free_id` gave its id) is in no conflict yet: the open
            # conflicts (a query and the ledger check of their table) are read only after a merge
            fresh = survivor is row and row.id in s.info.get("facts_taken_ids", ())
            shown = self.rows.info(survivor, None if fresh else self.rows.open_conflicts(s, proj))
        return Decision(self.store.last_changes(), [shown], None, sig)

    # ------------------------------------------------------------------ arbitration
    def resolve(
        self,
        conflict_id: int | str,
        *,
        keep: str | None = None,
        merge: str | None = None,
        reject_all: bool = False,
        why: str,
        by: str | None = None,
    ) -> Decision:
        """Arbitrate a conflict: keep one fact (the others rejected), merge into a new statement
        (a new approved fact with every provenance; the others rejected, merged into it), or reject
        them all. A reason is required; the decision is a signed event; the losers keep their rows."""
        by = (by or self._operator()).strip() or "operator"
        why = (why or "").strip()[:MAX_REASON]
        choices = sum(1 for c in (keep is not None, merge is not None, reject_all) if c)
        if choices != 1:
            raise InvalidInputError("choose exactly one of --keep FACT, --merge STATEMENT or --reject-all")
        if not why:
            raise InvalidInputError("an arbitration needs a reason (--reason): it is signed with the decision")
        statement = check_statement(merge) if merge is not None else None
        cid = conflict_key(conflict_id)
        log = self.rows.audit_log()
        conflict = self.reader.conflict(cid)
        if conflict.status != "open":
            raise InvalidInputError(f"conflict #{cid} was already resolved ({conflict.resolution})")
        if keep is not None and keep not in conflict.facts:
            raise InvalidInputError(f"{keep} is not part of conflict #{cid}: choose one of {', '.join(conflict.facts)}")
        resolution = "keep" if keep is not None else "merge" if statement is not None else "reject_all"
        now = utcnow()
        result_id = keep or ""
        with self.store.write() as s:
            sig = self.rows.event(
                log,
                EVENT_RESOLVED,
                {
                    "conflict": cid,
                    "project": conflict.project,
                    "facts": list(conflict.facts),
                    "conflict_reason": conflict.reason,
                    "resolution": resolution,
                    "keep": keep,
                    "statement": statement,
                    "by": by,
                    "at": now.isoformat(),
                    "why": why,
                },
            )
            signer = log.signer
            crow = s.get(FactConflict, cid)
            if crow is None or crow.status != "open":
                raise InvalidInputError(f"conflict #{cid} was resolved by someone else meanwhile")
            rows = [r for r in (s.get(Fact, i) for i in conflict.facts) if r is not None]
            rows = self.rows.filter(rows, "arbitration")
            if statement is not None:
                rows.sort(key=lambda r: (r.ordinal, r.id))
                prov: tuple[Provenance, ...] = ()
                scope: builtins.list[str] = []
                tags: builtins.list[str] = []
                for r in rows:
                    prov = merge_provenance(prov, [Provenance.from_dict(p) for p in loads(r.provenance, [])])
                    scope += [g for g in loads(r.scope, []) if g not in scope]
                    tags += [t for t in loads(r.tags, []) if t not in tags]
                new = self.writer.new_fact(
                    s,
                    signer,
                    project=conflict.project,
                    type_=rows[0].type,
                    statement=statement,
                    detail="",
                    scope=scope,
                    tags=tags,
                    confidence=max(float(r.confidence) for r in rows),
                    provenance=prov,
                    source="merge",
                    status="approved",
                )
                new.decided_by, new.decided_at, new.decision_reason, new.event_sig = by, now, why, sig
                self.rows.sign(new, signer)
                result_id = new.id
            for r in rows:
                r.status = "approved" if r.id == keep else "rejected"
                if statement is not None:
                    r.merged_into = result_id
                r.decided_by, r.decided_at, r.event_sig = by, now, sig
                r.decision_reason = f"conflict #{cid}: {why}"
                self.rows.sign(r, signer)
            crow.status = "resolved"
            crow.resolution = resolution
            crow.result = result_id
            crow.resolved_by, crow.resolved_at, crow.resolution_reason = by, now, why
            crow.event_sig = sig
            self.rows.sign(crow, signer)
        changes = self.store.last_changes()
        shown = [self.reader.show(result_id)] if result_id else []
        shown += [f for f in (self.reader.show(i) for i in conflict.facts) if f.id != result_id]
        return Decision(changes, shown, self.reader.conflict(cid), sig)

    # ------------------------------------------------------------------ undo of an arbitration
    def reopen_conflict(self, conflict_id: int | str, *, why: str = "", by: str | None = None) -> Decision:
        """Undo an arbitration (the Conflicts queue's U, `facts reopen-conflict`): the conflict is
        open again and its facts back in conflict, as they were before the resolution; a merge's new
        fact is rejected (it keeps its row and history). A signed event naming the resolution it
        undoes. Refused while a fact of the resolution was decided since (edited, reopened, merged,
        put in another conflict): that later decision is undone first."""
        by = (by or self._operator()).strip() or "operator"
        why = (why or "").strip()[:MAX_REASON] or "undo"
        cid = conflict_key(conflict_id)
        log = self.rows.audit_log()  # fail closed before anything is checked or written
        if self.reader.conflict(cid).status != "resolved":
            raise InvalidInputError(f"conflict #{cid} is open: there is no arbitration to undo")
        now = utcnow()
        with self.store.write() as s:
            crow = s.get(FactConflict, cid)
            if crow is None or crow.status != "resolved" or not self.rows.filter([crow], "arbitration undo"):
                raise InvalidInputError(f"conflict #{cid} was reopened by someone else meanwhile")
            sides, merged = self._arbitrated_rows(s, crow)
            sig = self.rows.event(
                log,
                EVENT_CONFLICT_REOPENED,
                {
                    "conflict": cid,
                    "project": crow.project,
                    "facts": [r.id for r in sides],
                    "undoes": crow.event_sig,  # the resolution's event
                    "resolution": crow.resolution,
                    "result": crow.result,
                    "by": by,
                    "at": now.isoformat(),
                    "why": why,
                },
            )
            signer = log.signer
            for r in sides:
                r.status, r.merged_into = "conflicting", ""
                r.decided_by, r.decided_at, r.event_sig = by, now, sig
                r.decision_reason = f"conflict #{cid} reopened: {why}"
                self.rows.sign(r, signer)
            if merged is not None:
                merged.status = "rejected"
                merged.decided_by, merged.decided_at, merged.event_sig = by, now, sig
                merged.decision_reason = f"conflict #{cid} reopened, the merge undone: {why}"
                self.rows.sign(merged, signer)
            crow.status, crow.resolution, crow.result = "open", "", ""
            crow.resolved_by, crow.resolved_at, crow.resolution_reason = "", None, ""
            crow.event_sig = sig
            self.rows.sign(crow, signer)
            ids = [r.id for r in sides] + ([merged.id] if merged is not None else [])
        changes = self.store.last_changes()
        return Decision(changes, [self.reader.show(i) for i in ids], self.reader.conflict(cid), sig)

    def _arbitrated_rows(self, s: Any, crow: FactConflict) -> tuple[builtins.list[Fact], Fact | None]:
        """The facts a resolution decided, exactly as it left them (else ERR_INVALID_INPUT naming the
        later decision): each side signed by the resolution's event, approved (the kept one) or
        rejected, merged into the merge's fact only; the merge's fact approved by it and unmerged."""
        cid, sig = int(crow.id), crow.event_sig
        later = f"undo that first, then conflict #{cid}"
        ids = [str(i) for i in loads(crow.facts, [])]
        rows = {
            r.id: r
            for r in self.rows.filter([r for r in (s.get(Fact, i) for i in ids) if r is not None], "arbitration undo")
        }
        sides: builtins.list[Fact] = []
        for fid in ids:
            r = rows.get(fid)
            if r is None:
                raise InvalidInputError(
                    f"fact {fid} of conflict #{cid} cannot be read (missing or failing its signature)"
                )
            want_merged = crow.result if crow.resolution == "merge" else ""
            if r.event_sig != sig or r.status not in ("approved", "rejected") or r.merged_into != want_merged:
                raise InvalidInputError(f"fact {fid} was decided again after conflict #{cid} was resolved: {later}")
            sides.append(r)
        merged: Fact | None = None
        if crow.resolution == "merge":
            found = self.rows.filter([r for r in (s.get(Fact, crow.result),) if r is not None], "arbitration undo")
            merged = found[0] if found else None
            if merged is None:
                raise InvalidInputError(f"the merged fact {crow.result} of conflict #{cid} cannot be read")
            if merged.event_sig != sig or merged.status != "approved" or merged.merged_into:
                raise InvalidInputError(
                    f"the merged fact {merged.id} was decided again after conflict #{cid} was resolved: {later}"
                )
            joined = s.scalars(select(Fact.id).where(Fact.project == crow.project, Fact.merged_into == merged.id)).all()
            extra = sorted(set(joined) - set(ids))
            if extra:
                raise InvalidInputError(
                    f"fact {extra[0]} was merged into {merged.id} after conflict #{cid} was resolved: "
                    "the merge cannot be undone without losing it"
                )
        return sides, merged
