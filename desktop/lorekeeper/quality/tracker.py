"""The quality tracker: records events (skill applied, eval outcome, feedback) and reads metrics back.

Agents check their answers with `lorekeeper eval --skill NAME` (eval runs of source "cli"): each
such run is a use of the skill and its outcome, so the metrics count it as one `applied` and one
`eval` event, read from the eval history rather than copied. Runs from the Evals panel ("app",
the operator trying rules) are not skill uses and are left out; the Playground and the demo
record their own events.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol, TypeVar

from sqlalchemy import Select, func, select
from sqlalchemy.orm import InstrumentedAttribute

from lorekeeper.quality.metrics import Count, DayPoint, Event, SkillMetrics, daily, from_counts, merge, with_since
from lorekeeper.store.engine import Store
from lorekeeper.store.models import EvalRun, Proposal, QualityEvent, Skill, SkillVersion, utcnow
from lorekeeper.store.scopes import validate_project

# Any SELECT (one entity, some columns or a count): the filters below keep its row type.
_Stmt = TypeVar("_Stmt", bound="Select[*tuple[Any, ...]]")

KINDS = ("applied", "eval", "feedback")
EVAL_SOURCES = ("cli",)  # eval runs that are skill uses (agents checking their answers)


def _aware(dt: datetime) -> datetime:
    return dt.replace(tzinfo=UTC) if dt.tzinfo is None else dt.astimezone(UTC)


class RowFilter(Protocol):
    def filter(self, rows: Iterable[Any], *, purpose: str = "") -> list[Any]: ...


class QualityTracker:
    def __init__(self, store: Store, verifier: Callable[[], RowFilter] | None = None) -> None:
        self.store = store
        # issue 18: quality events are signed rows; with a verifier the metrics count only the rows
        # whose signature verifies (forged events do not move nightly's verdict), none without the key
        self.verifier = verifier

    def log_applied(
        self, skills: Iterable[str], project: str | None, interaction: str = "", *, at: datetime | None = None
    ) -> None:
        self._add(
            [
                QualityEvent(kind="applied", skill=s, project=validate_project(project), interaction=interaction)
                for s in skills
            ],
            at,
        )

    def log_eval(
        self,
        skill: str,
        project: str | None,
        passed: bool,
        *,
        interaction: str = "",
        eval_run_id: int | None = None,
        at: datetime | None = None,
    ) -> None:
        self._add(
            [
                QualityEvent(
                    kind="eval",
                    skill=skill,
                    project=validate_project(project),
                    passed=bool(passed),
                    interaction=interaction,
                    eval_run_id=eval_run_id,
                )
            ],
            at,
        )

    def log_feedback(
        self,
        skills: Iterable[str],
        project: str | None,
        positive: bool,
        *,
        interaction: str = "",
        reason: str = "",
        at: datetime | None = None,
    ) -> None:
        """One event per skill the answer was routed to (none routed: one event without a skill)."""
        names = list(skills) or [""]
        self._add(
            [
                QualityEvent(
                    kind="feedback",
                    skill=s,
                    project=validate_project(project),
                    positive=bool(positive),
                    interaction=interaction,
                    detail=reason,
                )
                for s in names
            ],
            at,
        )

    def _add(self, rows: list[QualityEvent], at: datetime | None) -> None:
        when = _aware(at) if at else utcnow()
        with self.store.write() as s:
            for r in rows:
                r.created_at = when
                s.add(r)

    @staticmethod
    def _where(
        stmt: _Stmt,
        days: float | None,
        project: str | None,
        skill: str | None,
        now: datetime | None,
        since: datetime | None = None,
    ) -> _Stmt:
        if days is not None:
            stmt = stmt.where(QualityEvent.created_at >= (now or utcnow()) - timedelta(days=days))
        if since is not None:
            stmt = stmt.where(QualityEvent.created_at > since)
        if project is not None:
            stmt = stmt.where(QualityEvent.project == validate_project(project))
        if skill:
            stmt = stmt.where(QualityEvent.skill == skill)
        return stmt

    @staticmethod
    def _where_runs(
        stmt: _Stmt,
        days: float | None,
        project: str | None,
        skill: str | None,
        now: datetime | None,
        since: datetime | None = None,
    ) -> _Stmt:
        stmt = stmt.where(EvalRun.source.in_(EVAL_SOURCES), EvalRun.skill.is_not(None))
        if days is not None:
            stmt = stmt.where(EvalRun.created_at >= (now or utcnow()) - timedelta(days=days))
        if since is not None:
            stmt = stmt.where(EvalRun.created_at > since)
        if project is not None:
            stmt = stmt.where(EvalRun.project == validate_project(project))
        if skill:
            stmt = stmt.where(EvalRun.skill == skill)
        return stmt

    def events(
        self,
        *,
        days: float | None = 30,
        project: str | None = None,
        skill: str | None = None,
        now: datetime | None = None,
    ) -> list[Event]:
        stmt = self._where(select(QualityEvent), days, project, skill, now)
        stmt = stmt.order_by(QualityEvent.created_at, QualityEvent.id)
        runs = self._where_runs(
            select(EvalRun.skill, EvalRun.project, EvalRun.passed, EvalRun.created_at), days, project, skill, now
        )
        with self.store.session() as s:
            out = [
                Event(r.kind, r.skill, r.project, _aware(r.created_at), r.passed, r.positive)
                for r in self._verified(list(s.scalars(stmt)))
            ]
            for sk, proj, passed, at in s.execute(runs):
                assert sk is not None  # _where_runs keeps the runs of a skill only
                when = _aware(at)
                out += [Event("applied", sk, proj, when), Event("eval", sk, proj, when, passed=bool(passed))]
        out.sort(key=lambda e: e.created_at)
        return out

    def metrics(
        self,
        *,
        days: float | None = 30,
        project: str | None = None,
        by_project: bool = False,
        now: datetime | None = None,
        skill: str | None = None,
        since: datetime | None = None,
    ) -> list[SkillMetrics]:
        """Per-skill metrics over the last `days` (None: all time; `since`: only events after it),
        worst health first. Raw counts per skill (and project); the verdict the app shows is `health`.

        Counted in the database (one GROUP BY), so the cost does not grow with the rows read back.
        """
        # The row shape depends on by_project, so the columns are typed loosely.
        cols: list[InstrumentedAttribute[Any]] = [
            QualityEvent.skill,
            QualityEvent.kind,
            QualityEvent.passed,
            QualityEvent.positive,
        ]
        if by_project:
            cols.insert(1, QualityEvent.project)
        stmt = self._where(select(*cols, func.count(QualityEvent.id)), days, project, skill, now, since).group_by(*cols)
        run_cols: list[InstrumentedAttribute[Any]] = (
            [EvalRun.skill, EvalRun.project, EvalRun.passed] if by_project else [EvalRun.skill, EvalRun.passed]
        )
        runs = self._where_runs(select(*run_cols, func.count(EvalRun.id)), days, project, skill, now, since).group_by(
            *run_cols
        )
        with self.store.session() as s:
            if self.verifier is not None:  # count the verified rows only (issue 18)
                events = self._verified(
                    list(s.scalars(self._where(select(QualityEvent), days, project, skill, now, since)))
                )
                grouped = Counter(
                    ((e.skill, e.project) if by_project else (e.skill,)) + (e.kind, e.passed, e.positive)
                    for e in events
                )
                rows: list[tuple[Any, ...]] = [(*key, n) for key, n in grouped.items()]
            else:
                rows = [tuple(r) for r in s.execute(stmt).all()]
            run_rows = s.execute(runs).all()
        if by_project:
            counts = [Count(r[0], r[1], r[2], r[3], r[4], int(r[5])) for r in rows]
            run_counts = [(r[0], r[1], r[2], int(r[3])) for r in run_rows]
        else:
            counts = [Count(r[0], None, r[1], r[2], r[3], int(r[4])) for r in rows]
            run_counts = [(r[0], None, r[1], int(r[2])) for r in run_rows]
        for sk, proj, passed, n in run_counts:
            counts += [Count(sk, proj, "applied", None, None, n), Count(sk, proj, "eval", bool(passed), None, n)]
        return from_counts(counts)

    def _verified(self, rows: list[QualityEvent]) -> list[QualityEvent]:
        if self.verifier is None:
            return rows
        from lorekeeper.errors import LorekeeperError

        try:
            verifier = self.verifier()
        except LorekeeperError:
            return []  # fail closed: no key, no evidence
        kept: list[QualityEvent] = verifier.filter(rows, purpose="quality metrics")
        return kept

    # ------------------------------------------------------------------ the one verdict
    def scopes(self) -> dict[tuple[str, str], datetime]:
        """Every skill scope (name, project; "" is global) and when its current version was created."""
        stmt = select(Skill.name, Skill.project, SkillVersion.created_at).join(
            SkillVersion, (SkillVersion.skill_id == Skill.id) & (SkillVersion.version == Skill.current_version)
        )
        with self.store.session() as s:
            return {(str(n), str(p)): _aware(at) for n, p, at in s.execute(stmt)}

    def decisions(self) -> dict[tuple[str, str], datetime]:
        """The last approval or rejection of a proposal per skill scope (an undone one is pending again)."""
        stmt = (
            select(Proposal.skill, Proposal.scope, func.max(Proposal.decided_at))
            .where(Proposal.status.in_(("approved", "rejected")), Proposal.decided_at.is_not(None))
            .group_by(Proposal.skill, Proposal.scope)
        )
        with self.store.session() as s:
            return {(str(n), str(p)): _aware(at) for n, p, at in s.execute(stmt) if at is not None}

    def current(
        self, *, days: float | None = 30, project: str | None = None, now: datetime | None = None
    ) -> list[tuple[str, SkillMetrics]]:
        """Per (skill, project) metrics over the current evidence, each with the scope serving it:
        only events after the scope's current version was created and after the last decision on it.

        A project without its own fork is served by the global skill (as `SkillLibrary.resolve_scope`
        says), so its events are evidence on the global scope. Events of a skill no longer in the
        library keep their project as the scope. Returns (scope, metrics) pairs."""
        scopes = self.scopes()
        decided = self.decisions()
        start = None if days is None else (now or utcnow()) - timedelta(days=days)
        out: list[tuple[str, SkillMetrics]] = []
        for m in self.metrics(days=days, project=project, by_project=True, now=now):
            proj = m.project or ""
            scope = proj if (m.skill, proj) in scopes else ("" if (m.skill, "") in scopes else proj)
            marks = [t for t in (scopes.get((m.skill, scope)), decided.get((m.skill, scope))) if t is not None]
            since = max(marks) if marks else None
            if since is not None and (start is None or since > start):
                # the scope changed (or was decided on) inside the window: count what came after
                again = self.metrics(days=days, project=proj, by_project=True, now=now, skill=m.skill, since=since)
                m = with_since(merge(again, m.skill, m.project), since)
                if not (m.applied_count or m.evaluated or m.feedback_positive or m.feedback_negative):
                    continue
            out.append((scope, m))
        return out

    def health(
        self, *, days: float | None = 30, project: str | None = None, now: datetime | None = None
    ) -> list[SkillMetrics]:
        """The one underperformer verdict (panel, `lorekeeper quality`, nightly): one row per skill
        scope (`project` is the fork's project, None for the global skill) over its current evidence
        in the window, worst health first."""
        groups: dict[tuple[str, str], list[SkillMetrics]] = {}
        for scope, m in self.current(days=days, project=project, now=now):
            groups.setdefault((m.skill, scope), []).append(m)
        out = [merge(rows, skill, scope or None) for (skill, scope), rows in groups.items()]
        out.sort(key=lambda m: (m.health, m.skill, m.project or ""))
        return out

    def underperforming(self, *, days: float | None = 30, project: str | None = None) -> list[SkillMetrics]:
        return [m for m in self.health(days=days, project=project) if m.underperforming]

    def daily(self, *, days: float | None = 30, project: str | None = None, skill: str | None = None) -> list[DayPoint]:
        return daily(self.events(days=days, project=project, skill=skill), skill)
