"""The proposal queue: create, list, approve, reject, undo. Every decision is a signed audit event.

Approve: the skill's current version stays in its history (the backup; the library keeps every
version, so "at least the 3 latest" always holds), the proposed content becomes a new current
version, and the proposal is marked approved — one transaction. Reject: only the proposal's
status changes. Both record who, when and why as a signed `proposal_approved` / `proposal_rejected`
event; the key session is required *before* anything is written (fail closed).

Undo: an approval is undone by restoring the backed-up version (the skill's Versions tab does the
same: `SkillLibrary.restore`), and the proposal returns to pending; a rejection is undone by
returning the proposal to pending. Both are signed `proposal_undone` events.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from lorekeeper.audit.errors import UnsignedEntryError
from lorekeeper.audit.log import SessionLog
from lorekeeper.audit.rows import verify_row
from lorekeeper.errors import InvalidInputError, LorekeeperError, NotFoundError
from lorekeeper.locations import os_login
from lorekeeper.skills.library import SkillLibrary
from lorekeeper.skills.spec import SKILL_FILE, normalise_evals_text, parse_skill_md
from lorekeeper.store.engine import Store, StoreConflictError
from lorekeeper.store.models import BenchmarkRun, Project, Proposal, SkillGeneration, SkillVersion, utcnow

operator_name = os_login  # who acts without a Vault identity (one definition: locations.os_login)

log_module = logging.getLogger(__name__)
STATUSES = ("pending", "approved", "rejected")
SOURCES = ("template", "sage", "suggest", "generator", "optimiser")  # suggest: router words from `skills suggest`;
# optimiser: description and router words from `skills optimise` (issue 27 d3)
NEW_SKILL = 0  # base_version of a proposal that creates its skill (the skill generator's)
EVENT_APPROVED = "proposal_approved"
EVENT_REJECTED = "proposal_rejected"
EVENT_UNDONE = "proposal_undone"
MAX_REASON = 2000


def _loads(text: str, default: Any) -> Any:
    try:
        return json.loads(text) if text else default
    except ValueError:
        return default


@dataclass(frozen=True)
class BenchmarkBadge:
    run_id: int
    verdict: str  # PASSED | FAILED | TIE
    improvement_pct: float | None
    wins_new: int
    wins_old: int
    ties: int

    @property
    def text(self) -> str:
        pct = "n/a" if self.improvement_pct is None else f"{self.improvement_pct:+.1f}%"
        return f"{self.verdict} {pct} ({self.wins_new}W/{self.wins_old}L/{self.ties}T)"

    def to_dict(self) -> dict[str, object]:
        return {
            "run_id": self.run_id,
            "verdict": self.verdict,
            "improvement_pct": self.improvement_pct,
            "wins_new": self.wins_new,
            "wins_old": self.wins_old,
            "ties": self.ties,
        }


@dataclass(frozen=True)
class ProposalInfo:
    id: int
    skill: str
    scope: str
    project: str
    source: str
    status: str
    reason: str
    summary: str
    metrics: dict[str, Any]
    failing_rules: list[dict[str, Any]]
    learnings: list[dict[str, Any]]
    base_version: int
    current_content: str
    proposed_content: str
    model: str
    created_at: datetime
    decided_at: datetime | None
    decided_by: str
    decision_reason: str
    applied_version: int | None
    run_id: int | None = None
    prompt: str = ""
    answer: str = ""
    benchmark: BenchmarkBadge | None = field(default=None)

    def to_dict(self, *, contents: bool = False) -> dict[str, object]:
        out: dict[str, object] = {
            "id": self.id,
            "skill": self.skill,
            "scope": self.scope or None,
            "project": self.project or None,
            "source": self.source,
            "status": self.status,
            "reason": self.reason,
            "summary": self.summary,
            "metrics": self.metrics,
            "failing_rules": self.failing_rules,
            "learnings": self.learnings,
            "base_version": self.base_version,
            "model": self.model or None,
            "created_at": self.created_at.isoformat(),
            "decided_at": self.decided_at.isoformat() if self.decided_at else None,
            "decided_by": self.decided_by or None,
            "decision_reason": self.decision_reason or None,
            "applied_version": self.applied_version,
            "benchmark": self.benchmark.to_dict() if self.benchmark else None,
        }
        if contents:
            out["current_content"] = self.current_content
            out["proposed_content"] = self.proposed_content
            if self.prompt:
                out["prompt"] = self.prompt
                out["answer"] = self.answer
        return out


def _info(row: Proposal, badge: BenchmarkBadge | None) -> ProposalInfo:
    return ProposalInfo(
        id=row.id,
        skill=row.skill,
        scope=row.scope,
        project=row.project,
        source=row.source,
        status=row.status,
        reason=row.reason,
        summary=row.summary,
        metrics=_loads(row.metrics, {}),
        failing_rules=_loads(row.failing_rules, []),
        learnings=_loads(row.learnings, []),
        base_version=row.base_version,
        current_content=row.current_content,
        proposed_content=row.proposed_content,
        model=row.model,
        created_at=row.created_at,
        decided_at=row.decided_at,
        decided_by=row.decided_by,
        decision_reason=row.decision_reason,
        applied_version=row.applied_version,
        run_id=row.run_id,
        prompt=row.prompt,
        answer=row.answer,
        benchmark=badge,
    )


@dataclass(frozen=True)
class NewProposal:
    """What nightly or Sage hands to `ProposalService.create`."""

    skill: str
    scope: str
    project: str
    source: str
    reason: str
    summary: str
    metrics: dict[str, Any]
    failing_rules: list[dict[str, Any]]
    learnings: list[dict[str, Any]]
    base_version: int
    current_content: str
    proposed_content: str
    model: str = ""
    prompt: str = ""
    answer: str = ""
    run_id: int | None = None


def edit_summary(proposed: str, edited: str) -> dict[str, Any]:
    """What the operator changed before approving: hashes of both contents and a line diff count."""
    added = removed = 0
    for line in difflib.unified_diff(proposed.splitlines(), edited.splitlines(), lineterm="", n=0):
        if line.startswith(("+++", "---", "@@")):
            continue
        if line.startswith("+"):
            added += 1
        elif line.startswith("-"):
            removed += 1
    return {
        "proposed_sha256": hashlib.sha256(proposed.encode("utf-8")).hexdigest(),
        "content_sha256": hashlib.sha256(edited.encode("utf-8")).hexdigest(),
        "lines_added": added,
        "lines_removed": removed,
        "diff": f"+{added} -{removed} lines against the proposed content",
    }


def proposed_evals_in(s: Session, proposal_id: int, skill: str) -> str:
    """The eval rules a generated skill's proposal brings (normalised), "" without any."""
    text = s.scalar(select(SkillGeneration.evals).where(SkillGeneration.proposal_id == proposal_id))
    return normalise_evals_text(text, skill) if text and text.strip() else ""


class ProposalService:
    """`audit_log` hands out the signed log; it loads the key on first use and raises
    ERR_AUDIT_KEY_UNAVAILABLE without one, so each decision fails closed before any write."""

    def __init__(
        self,
        store: Store,
        skills: SkillLibrary,
        audit_log: Callable[[], SessionLog],
        verifier: Callable[[], Any] | None = None,
    ) -> None:
        self.store = store
        self.skills = skills
        self.audit_log = audit_log
        # issue 24: the session's row verifier: a proposal that does not verify or is older than its
        # ledger entry (a rejected one written back as pending) is not listed and cannot be approved
        self.verifier = verifier

    def _operator(self) -> str:
        """Who decides: the signed log's operator (the Vault identity, else the OS login; issue 25 d2)."""
        from lorekeeper.errors import LorekeeperError

        try:
            return self.audit_log().operator()
        except LorekeeperError:  # no key session: the decision fails closed later, with its own error
            return operator_name()

    def _verified(self, rows: Sequence[Proposal], purpose: str) -> list[Proposal]:
        """The rows that verify (signature and row ledger); none when the key cannot be loaded."""
        if self.verifier is None:
            return list(rows)
        try:
            verifier = self.verifier()
        except LorekeeperError:
            return []
        kept: list[Proposal] = verifier.filter(rows, purpose=purpose)
        return kept

    # ------------------------------------------------------------------ reading
    def _badges(self, s, ids: list[int]) -> dict[int, BenchmarkBadge]:  # type: ignore[no-untyped-def]
        if not ids:
            return {}
        latest = (
            select(BenchmarkRun.proposal_id, func.max(BenchmarkRun.id).label("rid"))
            .where(BenchmarkRun.proposal_id.in_(ids))
            .group_by(BenchmarkRun.proposal_id)
            .subquery()
        )
        rows = s.scalars(select(BenchmarkRun).join(latest, BenchmarkRun.id == latest.c.rid)).all()
        return {
            r.proposal_id: BenchmarkBadge(r.id, r.verdict, r.improvement_pct, r.wins_new, r.wins_old, r.ties)
            for r in rows
        }

    def list(
        self, status: str | None = None, *, skill: str | None = None, limit: int | None = None
    ) -> list[ProposalInfo]:
        """Proposals, oldest first for pending (the review order), newest first otherwise."""
        if status not in (None, "", "all") and status not in STATUSES:
            raise InvalidInputError(f"unknown status {status!r}: use {', '.join(STATUSES)} or all")
        stmt = select(Proposal)
        if status in STATUSES:
            stmt = stmt.where(Proposal.status == status)
        if skill:
            stmt = stmt.where(Proposal.skill == skill)
        stmt = stmt.order_by(Proposal.id if status == "pending" else Proposal.id.desc())
        if limit:
            stmt = stmt.limit(limit)
        with self.store.session() as s:
            rows = self._verified(s.scalars(stmt).all(), "proposals list")
            badges = self._badges(s, [r.id for r in rows])
            return [_info(r, badges.get(r.id)) for r in rows]

    def get(self, proposal_id: int) -> ProposalInfo:
        with self.store.session() as s:
            row = s.get(Proposal, proposal_id)
            if row is None:
                raise NotFoundError(f"no proposal #{proposal_id}. `lorekeeper proposals list` shows the queue.")
            return _info(row, self._badges(s, [row.id]).get(row.id))

    def counts(self) -> dict[str, int]:
        with self.store.session() as s:
            rows = s.execute(select(Proposal.status, func.count(Proposal.id)).group_by(Proposal.status)).all()
        out = dict.fromkeys(STATUSES, 0)
        out.update({k: int(n) for k, n in rows})
        return out

    def proposed_evals(self, proposal_id: int, skill: str) -> str:
        """The eval rules proposed beside the content (generated skills), "" for other proposals."""
        with self.store.session() as s:
            return proposed_evals_in(s, proposal_id, skill)

    def pending_keys(self) -> set[tuple[str, str]]:
        """(skill, scope) of every pending proposal: the loop never adds a duplicate of one."""
        with self.store.session() as s:
            rows = s.execute(select(Proposal.skill, Proposal.scope).where(Proposal.status == "pending")).all()
        return {(str(a), str(b)) for a, b in rows}

    # ------------------------------------------------------------------ writing
    def create(self, new: NewProposal) -> ProposalInfo | None:
        """Store a proposal unless one is already pending for the same skill scope (then None)."""
        if new.source not in SOURCES:
            raise InvalidInputError(f"unknown proposal source {new.source!r}")
        try:
            return self._create(new)
        except StoreConflictError:  # uq_proposals_pending: another process made the pending one first
            return None

    def _create(self, new: NewProposal) -> ProposalInfo | None:
        # The duplicate check runs under the store's write lock, so it sees every other process's
        # committed proposal; the partial unique index uq_proposals_pending backs it up.
        with self.store.write() as s:
            dupe = s.scalar(
                select(Proposal.id).where(
                    Proposal.skill == new.skill, Proposal.scope == new.scope, Proposal.status == "pending"
                )
            )
            if dupe is not None:
                return None
            row = Proposal(
                skill=new.skill,
                scope=new.scope,
                project=new.project,
                source=new.source,
                status="pending",
                reason=new.reason,
                summary=new.summary,
                metrics=json.dumps(new.metrics, ensure_ascii=False),
                failing_rules=json.dumps(new.failing_rules, ensure_ascii=False),
                learnings=json.dumps(new.learnings, ensure_ascii=False),
                base_version=new.base_version,
                current_content=new.current_content,
                proposed_content=new.proposed_content,
                model=new.model,
                prompt=new.prompt,
                answer=new.answer,
                run_id=new.run_id,
                created_at=utcnow(),
            )
            s.add(row)
            s.flush()
            info = _info(row, None)
        return info

    def _pending(self, s: Session, proposal_id: int) -> Proposal:
        row: Proposal | None = s.get(Proposal, proposal_id)
        if row is None:
            raise NotFoundError(f"no proposal #{proposal_id}. `lorekeeper proposals list` shows the queue.")
        if row.status != "pending":
            raise InvalidInputError(
                f"proposal #{proposal_id} is already {row.status}"
                + (f" by {row.decided_by}" if row.decided_by else "")
                + "; undo it first (`lorekeeper proposals undo`) to decide again."
            )
        return row

    def _event(self, log, kind: str, data: dict[str, Any]) -> str:  # type: ignore[no-untyped-def]
        """The decision's event in the decision's own transaction (the audit outbox, issue 24);
        returns the content hash its signed header carries (the row's `event_sig`)."""
        return str(log.record_ref(kind, data))

    def approve(
        self,
        proposal_id: int,
        *,
        why: str = "",
        by: str | None = None,
        force: bool = False,
        content: str | None = None,
    ) -> ProposalInfo:
        """Make the proposed content the skill's current version (the old one stays as the backup).

        `content`: the operator's edit of the proposed SKILL.md, approved instead of it ("approve
        with edits"); the edit (its hash, the proposed content's hash and a line diff summary) is
        part of the signed decision event. Validate everything, then write the signed decision event
        (fail closed: no event, no change), then apply it in one store transaction.
        """
        by = (by or self._operator()).strip() or "operator"
        why = (why or "").strip()[:MAX_REASON]
        log = self.audit_log()  # no key session: ERR_AUDIT_KEY_UNAVAILABLE before anything is written
        lib = self.skills
        with self.store.session() as s:
            row = self._pending(s, proposal_id)
            # issue 18: the content approved is the content proposed; issue 24: and the row is the
            # one its ledger entry names (a rejected proposal written back as pending is refused)
            if not verify_row(log.signer, row) or not self._verified([row], "proposal approval"):
                raise UnsignedEntryError(
                    f"proposal #{proposal_id} does not verify: it was changed outside Lorekeeper (or never "
                    "signed), so it cannot be approved. Reject it, or run `lorekeeper audit sign-rows` once "
                    "if it predates signing.",
                    table="proposals",
                )
            p = _info(row, None)
            sk = lib.skill_in(s, p.skill, p.scope)
            if sk is None and p.base_version != NEW_SKILL:
                raise NotFoundError(
                    f"skill {p.skill!r} no longer exists" + (f" in project {p.scope}" if p.scope else "")
                )
            backup = sk.current_version if sk is not None else NEW_SKILL
        if backup != p.base_version and not force:
            raise InvalidInputError(
                f"{p.skill} changed since proposal #{proposal_id} was made (v{p.base_version} → v{backup}); "
                "review the new version, then approve with --force, or run the analysis again."
            )
        approved = p.proposed_content
        edit: dict[str, Any] | None = None
        if content is not None:
            if not content.strip():
                raise InvalidInputError(f"the edited content for proposal #{proposal_id} is empty")
            if content.replace("\r\n", "\n") != p.proposed_content:
                approved = content.replace("\r\n", "\n")
                edit = edit_summary(p.proposed_content, approved)
        doc = parse_skill_md(approved, file=f"proposal #{proposal_id} {p.skill}/{SKILL_FILE}")
        if doc.name != p.skill:
            raise InvalidInputError(
                f"proposal #{proposal_id} renames the skill to {doc.name!r}; a proposal cannot rename it"
            )
        default_why = f"accepted with edits: {p.reason}" if edit else f"accepted as proposed: {p.reason}"
        why = why or default_why[:MAX_REASON]  # an approval without a note agrees with the reason
        now = utcnow()
        data: dict[str, Any] = {
            "proposal": proposal_id,
            "skill": p.skill,
            "scope": p.scope or None,
            "project": p.project or None,
            "source": p.source,
            "by": by,
            "at": now.isoformat(),
            "why": why,
            "proposal_reason": p.reason,
            "backup_version": backup,
            "content_sha256": hashlib.sha256(approved.encode("utf-8")).hexdigest(),
        }
        if edit is not None:
            data["edited"] = edit
        with self.store.write() as s:
            sig = self._event(log, EVENT_APPROVED, data)
            row = self._pending(s, proposal_id)
            sk = lib.skill_in(s, p.skill, p.scope)
            if sk is None and p.base_version != NEW_SKILL:  # deleted by another process since the check above
                raise NotFoundError(f"skill {p.skill!r} no longer exists")
            if sk is None:  # a generated skill: it is created with the rules proposed beside it
                evals = proposed_evals_in(s, proposal_id, p.skill)
                if p.scope and s.scalar(select(Project).where(Project.name == p.scope)) is None:
                    s.add(Project(name=p.scope))
            else:
                cur = s.scalar(
                    select(SkillVersion).where(
                        SkillVersion.skill_id == sk.id, SkillVersion.version == sk.current_version
                    )
                )
                evals = normalise_evals_text(cur.evals, p.skill) if cur is not None and cur.evals.strip() else ""
            how = "approved with edits" if edit else "approved"
            message = f"proposal #{proposal_id} {how} by {by} ({p.source}): {p.reason}"[:500]
            version = lib.write_version_in(s, doc, evals, p.scope, message, by)
            row.status = "approved"
            row.decided_at = now
            row.decided_by = by
            row.decision_reason = why
            row.applied_version = version.version
            row.base_version = backup
            row.event_sig = sig
        lib.committed(p.skill, p.scope)  # after commit: a failed write is ERR_DERIVED_WRITE_FAILED
        return self.get(proposal_id)

    def reject(self, proposal_id: int, *, why: str, by: str | None = None) -> ProposalInfo:
        """Mark the proposal rejected; nothing else changes. A reason is required."""
        by = (by or self._operator()).strip() or "operator"
        why = (why or "").strip()[:MAX_REASON]
        if not why:
            raise InvalidInputError("a rejection needs a reason (why), so the next analysis can learn from it")
        log = self.audit_log()
        with self.store.session() as s:
            p = _info(self._pending(s, proposal_id), None)
        now = utcnow()
        with self.store.write() as s:
            sig = self._event(
                log,
                EVENT_REJECTED,
                {
                    "proposal": proposal_id,
                    "skill": p.skill,
                    "scope": p.scope or None,
                    "project": p.project or None,
                    "source": p.source,
                    "by": by,
                    "at": now.isoformat(),
                    "why": why,
                    "proposal_reason": p.reason,
                },
            )
            row = self._pending(s, proposal_id)
            row.status = "rejected"
            row.decided_at = now
            row.decided_by = by
            row.decision_reason = why
            row.event_sig = sig
        return self.get(proposal_id)

    @staticmethod
    def _refuse_second_pending(s, skill: str, scope: str, proposal_id: int) -> None:  # type: ignore[no-untyped-def]
        """Undo returns a proposal to pending: not while another one of the same skill scope is pending."""
        other = s.scalar(
            select(Proposal.id).where(
                Proposal.skill == skill,
                Proposal.scope == scope,
                Proposal.status == "pending",
                Proposal.id != proposal_id,
            )
        )
        if other is not None:
            raise InvalidInputError(
                f"proposal #{other} for {skill} is pending: a skill has one pending proposal at a time. "
                f"Decide #{other} first, then undo #{proposal_id}."
            )

    def undo(self, proposal_id: int, *, why: str = "", by: str | None = None) -> ProposalInfo:
        """Back to pending; an approval also restores the backed-up version (as a new current version,
        exactly what the skill's Versions tab does)."""
        by = (by or self._operator()).strip() or "operator"
        why = (why or "").strip()[:MAX_REASON]
        log = self.audit_log()
        p = self.get(proposal_id)
        if p.status == "pending":
            raise InvalidInputError(f"proposal #{proposal_id} is pending: there is no decision to undo")
        with self.store.session() as s:
            self._refuse_second_pending(s, p.skill, p.scope, proposal_id)
        if p.status == "approved" and p.base_version == NEW_SKILL:
            raise InvalidInputError(
                f"proposal #{proposal_id} created the skill {p.skill}; there is no earlier version to restore. "
                "Edit or replace the skill in the Skills panel instead."
            )
        now = utcnow()
        # the undo, the restored version and their events: one transaction (issue 24)
        with self.store.write() as s:
            sig = self._event(
                log,
                EVENT_UNDONE,
                {
                    "proposal": proposal_id,
                    "skill": p.skill,
                    "scope": p.scope or None,
                    "undone": p.status,
                    "by": by,
                    "at": now.isoformat(),
                    "why": why,
                    "restore_version": p.base_version if p.status == "approved" else None,
                },
            )
            base = p.base_version
            if p.status == "approved":
                base = self.skills.restore(
                    p.skill,
                    p.scope or None,
                    p.base_version,
                    message=f"undo of proposal #{proposal_id} by {by}: restored v{p.base_version}",
                ).version
            row = s.get(Proposal, proposal_id)
            assert row is not None
            self._refuse_second_pending(s, row.skill, row.scope, proposal_id)
            row.status = "pending"
            row.decided_at = None
            row.decided_by = ""
            row.decision_reason = ""
            row.applied_version = None
            row.base_version = base  # the restored copy of the old content: approving again needs no --force
            row.event_sig = sig
        return self.get(proposal_id)
