"""The quality tracker: records events (skill applied, eval outcome, feedback) and reads metrics back.

Agents check their answers with `lorekeeper eval --skill NAME` (eval runs of source "cli"): each
such run is a use of the skill and its outcome, so the metrics count it as one `applied` and one
`eval` event, read from the eval history rather than copied. Runs from the Evals panel ("app",
the operator trying rules) are not skill uses and are left out; the Playground and the demo
record their own events.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import Select, func, select
from sqlalchemy.orm import InstrumentedAttribute

from lorekeeper.quality.metrics import Count, DayPoint, Event, SkillMetrics, daily, from_counts
from lorekeeper.store.engine import Store
from lorekeeper.store.models import EvalRun, QualityEvent, utcnow
from lorekeeper.store.scopes import validate_project

# Any SELECT (one entity, some columns or a count): the filters below keep its row type.
_Stmt = TypeVar("_Stmt", bound="Select[*tuple[Any, ...]]")

KINDS = ("applied", "eval", "feedback")
EVAL_SOURCES = ("cli",)  # eval runs that are skill uses (agents checking their answers)


def _aware(dt: datetime) -> datetime:
    return dt.replace(tzinfo=UTC) if dt.tzinfo is None else dt.astimezone(UTC)


class QualityTracker:
    def __init__(self, store: Store) -> None:
        self.store = store

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
    def _where(stmt: _Stmt, days: float | None, project: str | None, skill: str | None, now: datetime | None) -> _Stmt:
        if days is not None:
            stmt = stmt.where(QualityEvent.created_at >= (now or utcnow()) - timedelta(days=days))
        if project is not None:
            stmt = stmt.where(QualityEvent.project == validate_project(project))
        if skill:
            stmt = stmt.where(QualityEvent.skill == skill)
        return stmt

    @staticmethod
    def _where_runs(
        stmt: _Stmt, days: float | None, project: str | None, skill: str | None, now: datetime | None
    ) -> _Stmt:
        stmt = stmt.where(EvalRun.source.in_(EVAL_SOURCES), EvalRun.skill.is_not(None))
        if days is not None:
            stmt = stmt.where(EvalRun.created_at >= (now or utcnow()) - timedelta(days=days))
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
                Event(r.kind, r.skill, r.project, _aware(r.created_at), r.passed, r.positive) for r in s.scalars(stmt)
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
    ) -> list[SkillMetrics]:
        """Per-skill metrics over the last `days` (None: all time), worst health first.

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
        stmt = self._where(select(*cols, func.count(QualityEvent.id)), days, project, None, now).group_by(*cols)
        run_cols: list[InstrumentedAttribute[Any]] = (
            [EvalRun.skill, EvalRun.project, EvalRun.passed] if by_project else [EvalRun.skill, EvalRun.passed]
        )
        runs = self._where_runs(select(*run_cols, func.count(EvalRun.id)), days, project, None, now).group_by(*run_cols)
        with self.store.session() as s:
            rows = s.execute(stmt).all()
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

    def underperforming(
        self, *, days: float | None = 30, project: str | None = None, by_project: bool = True
    ) -> list[SkillMetrics]:
        return [m for m in self.metrics(days=days, project=project, by_project=by_project) if m.underperforming]

    def daily(self, *, days: float | None = 30, project: str | None = None, skill: str | None = None) -> list[DayPoint]:
        return daily(self.events(days=days, project=project, skill=skill), skill)
