"""Eval run history: a lazily loaded table (pages fetched in a worker as the view scrolls)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt, Signal

from lorekeeper.evals.service import EvalRunInfo, EvalService
from lorekeeper.ui.models.base import RowsModel
from lorekeeper.ui.theme import color, icon
from lorekeeper.ui.workers import run_task

PAGE_SIZE = 200


@dataclass(frozen=True)
class HistoryQuery:
    """The history filters (None: any)."""

    skill: str | None = None
    project: str | None = None
    passed: bool | None = None
    search: str = ""
    since: datetime | None = None

    def kwargs(self) -> dict[str, Any]:
        return {
            "skill": self.skill,
            "project": self.project,
            "passed": self.passed,
            "search": self.search,
            "since": self.since,
        }


def _local(dt: datetime) -> datetime:
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return dt.astimezone()


class EvalHistoryModel(RowsModel[EvalRunInfo]):
    COL_TIME, COL_SKILL, COL_PROJECT, COL_RESULT, COL_FAILED, COL_SOURCE, COL_FOOTNOTE = range(7)
    HEADERS = ("When", "Skill", "Project", "Result", "Failed", "Source", "Footnote")

    loaded = Signal()  # the first page of a new query arrived (or failed)
    failed = Signal(object)

    def __init__(self, service: EvalService, parent: Any = None) -> None:
        super().__init__(parent)
        self.service = service
        self.query = HistoryQuery()
        self.total: int | None = None
        self._loading = False
        self._generation = 0

    # ------------------------------------------------------------------ loading
    def set_query(self, query: HistoryQuery) -> None:
        self.query = query
        self.reload()

    def reload(self) -> None:
        self._generation += 1
        gen = self._generation
        self.beginResetModel()
        self.rows = []
        self.total = None
        self.endResetModel()
        self._loading = True
        service, query = self.service, self.query

        def first_page() -> tuple[int, list[EvalRunInfo]]:
            return service.count(**query.kwargs()), service.history(**query.kwargs(), limit=PAGE_SIZE, offset=0)

        run_task(
            first_page,
            name="Loading eval history",
            on_result=lambda out: self._on_first_page(gen, out),
            on_error=lambda exc: self._on_error(gen, exc),
        )

    def _on_first_page(self, gen: int, out: tuple[int, list[EvalRunInfo]]) -> None:
        if gen != self._generation:
            return
        total, rows = out
        self._loading = False
        self.beginResetModel()
        self.total = total
        self.rows = rows
        self.endResetModel()
        self.loaded.emit()

    def _on_error(self, gen: int, exc: BaseException) -> None:
        if gen != self._generation:
            return
        self._loading = False
        self.total = len(self.rows)
        self.failed.emit(exc)
        self.loaded.emit()

    def canFetchMore(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> bool:  # noqa: B008
        if parent.isValid() or self._loading or self.total is None:
            return False
        return len(self.rows) < self.total

    def fetchMore(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> None:  # noqa: B008
        if not self.canFetchMore(parent):
            return
        self._loading = True
        gen = self._generation
        service, query, offset = self.service, self.query, len(self.rows)
        run_task(
            lambda: service.history(**query.kwargs(), limit=PAGE_SIZE, offset=offset),
            name="Loading more eval runs",
            on_result=lambda rows: self._on_page(gen, rows),
            on_error=lambda exc: self._on_error(gen, exc),
        )

    def _on_page(self, gen: int, rows: list[EvalRunInfo]) -> None:
        if gen != self._generation:
            return
        self._loading = False
        known = {r.id for r in self.rows}
        rows = [r for r in rows if r.id not in known]  # a run recorded meanwhile shifts the offsets
        if not rows:
            self.total = len(self.rows)
            return
        first = len(self.rows)
        self.beginInsertRows(QModelIndex(), first, first + len(rows) - 1)
        self.rows.extend(rows)
        self.endInsertRows()

    @property
    def is_loading(self) -> bool:
        return self._loading

    # ------------------------------------------------------------------ display
    def cell(self, item: EvalRunInfo, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            if column == self.COL_TIME:
                return _local(item.created_at).strftime("%Y-%m-%d %H:%M")
            if column == self.COL_SKILL:
                return item.skill or "(rules file)"
            if column == self.COL_PROJECT:
                return item.project or "global"
            if column == self.COL_RESULT:
                return "passed" if item.passed else "failed"
            if column == self.COL_FAILED:
                return f"{item.rules_failed}/{item.rules_total}"
            if column == self.COL_SOURCE:
                return item.source
            if column == self.COL_FOOTNOTE:
                return item.footnote or "—"
        if column == self.COL_RESULT:
            if role == Qt.ItemDataRole.DecorationRole:
                return icon("pass") if item.passed else icon("fail")
            if role == Qt.ItemDataRole.ForegroundRole:
                return color("pass") if item.passed else color("fail")
        if role == Qt.ItemDataRole.ForegroundRole and column == self.COL_PROJECT and not item.project:
            return color("muted")
        if role == Qt.ItemDataRole.TextAlignmentRole and column == self.COL_FAILED:
            return int(Qt.AlignmentFlag.AlignCenter)
        if role == Qt.ItemDataRole.ToolTipRole and column == self.COL_FOOTNOTE:
            return item.footnote or "every rule passed"
        return None
