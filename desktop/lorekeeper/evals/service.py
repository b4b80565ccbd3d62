"""Running evals against the library and keeping their history in the store."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, TypeVar

from sqlalchemy import Select, func, or_, select

from lorekeeper.evals.engine import EvalReport, evaluate
from lorekeeper.evals.rules import RuleSet
from lorekeeper.store.engine import Store
from lorekeeper.store.models import EvalRun
from lorekeeper.store.ordering import order_clauses
from lorekeeper.store.scopes import validate_project


class RulesVersion(Protocol):
    """What an eval needs of a skill version (`SkillVersionInfo` satisfies it)."""

    @property
    def version(self) -> int: ...

    def rules(self) -> RuleSet: ...


class SkillSource(Protocol):
    """Where `run_skill` finds a skill's rules (`SkillLibrary` satisfies it). A protocol, so that the
    eval engine stays below the skills package that builds on its rules."""

    def get(self, name: str, project: str | None = None, version: int | None = None) -> RulesVersion: ...


_S = TypeVar("_S", bound=Select[Any])

#: the columns `history(order_by=...)` sorts on (the GUI's history table and `evals history --sort`)
HISTORY_SORT: dict[str, Any] = {
    "created_at": EvalRun.created_at,
    "skill": EvalRun.skill,
    "project": EvalRun.project,
    "passed": EvalRun.passed,
    "rules_failed": EvalRun.rules_failed,
    "source": EvalRun.source,
    "footnote": EvalRun.footnote,
}


@dataclass(frozen=True)
class EvalRunInfo:
    id: int
    skill: str | None
    project: str
    skill_version: int | None
    source: str
    response: str
    passed: bool
    rules_total: int
    rules_failed: int
    results: list[dict[str, Any]]
    footnote: str
    created_at: datetime


class EvalService:
    def __init__(self, store: Store, library: SkillSource) -> None:
        self.store = store
        self.library = library

    def run_skill(
        self, response: str, skill: str, project: str | None = None, *, source: str = "cli", record: bool = True
    ) -> EvalReport:
        """Check a response against the rules that serve `skill` for `project` (its fork, else global)."""
        version = self.library.get(skill, project)
        report = evaluate(version.rules(), response)
        if record:
            self.record(report, response, skill=skill, project=project or "", version=version.version, source=source)
        return report

    def run_rules(self, response: str, rules: RuleSet, *, source: str = "cli", record: bool = False) -> EvalReport:
        report = evaluate(rules, response)
        if record:
            self.record(report, response, skill=rules.skill, project="", version=None, source=source)
        return report

    def record(
        self,
        report: EvalReport,
        response: str,
        *,
        skill: str | None,
        project: str,
        version: int | None,
        source: str,
        created_at: datetime | None = None,
    ) -> int:
        with self.store.write() as s:
            row = EvalRun(
                skill=skill,
                project=validate_project(project),
                skill_version=version,
                source=source,
                response=response,
                passed=report.passed,
                rules_total=len(report.results),
                rules_failed=len(report.failed),
                results=json.dumps([r.to_dict() for r in report.results], ensure_ascii=False),
                footnote=report.footnote,
            )
            if created_at is not None:
                row.created_at = created_at
            s.add(row)
            s.flush()
            return row.id

    def _filtered(
        self,
        stmt: _S,
        skill: str | None,
        project: str | None,
        passed: bool | None,
        search: str,
        since: datetime | None,
    ) -> _S:
        if skill:
            stmt = stmt.where(EvalRun.skill == skill)
        if project is not None:
            stmt = stmt.where(EvalRun.project == project)
        if passed is not None:
            stmt = stmt.where(EvalRun.passed == passed)
        if search:
            like = f"%{search}%"
            stmt = stmt.where(or_(EvalRun.response.ilike(like), EvalRun.footnote.ilike(like)))
        if since is not None:
            stmt = stmt.where(EvalRun.created_at >= since)
        return stmt

    def history(
        self,
        *,
        skill: str | None = None,
        project: str | None = None,
        passed: bool | None = None,
        search: str = "",
        since: datetime | None = None,
        limit: int = 200,
        offset: int = 0,
        order_by: str = "created_at",
        descending: bool = True,
    ) -> list[EvalRunInfo]:
        """The runs a filter selects, newest first unless `order_by` (a key of `HISTORY_SORT`) and
        `descending` say otherwise; ties are broken by id in the same direction."""
        stmt = self._filtered(select(EvalRun), skill, project, passed, search, since)
        order = order_clauses(HISTORY_SORT, order_by, descending, EvalRun.id)
        stmt = stmt.order_by(*order).limit(limit).offset(offset)
        with self.store.session() as s:
            return [
                EvalRunInfo(
                    id=r.id,
                    skill=r.skill,
                    project=r.project,
                    skill_version=r.skill_version,
                    source=r.source,
                    response=r.response,
                    passed=r.passed,
                    rules_total=r.rules_total,
                    rules_failed=r.rules_failed,
                    results=json.loads(r.results),
                    footnote=r.footnote,
                    created_at=r.created_at,
                )
                for r in s.scalars(stmt)
            ]

    def count(
        self,
        *,
        skill: str | None = None,
        project: str | None = None,
        passed: bool | None = None,
        search: str = "",
        since: datetime | None = None,
    ) -> int:
        stmt = self._filtered(select(func.count(EvalRun.id)), skill, project, passed, search, since)
        with self.store.session() as s:
            return int(s.scalar(stmt) or 0)
