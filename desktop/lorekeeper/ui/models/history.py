"""Eval run history: a paged table sorted by the store (pages fetched in a worker as they are shown)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, ClassVar

from PySide6.QtCore import QCoreApplication, Qt

from lorekeeper.evals.service import EvalRunInfo, EvalService
from lorekeeper.ui.i18n import QT_TRANSLATE_NOOP, fmt_datetime, value_text
from lorekeeper.ui.models.paged import PagedRowsModel
from lorekeeper.ui.theme import color, icon

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
        dt = dt.replace(tzinfo=UTC)
    return dt.astimezone()


class EvalHistoryModel(PagedRowsModel[EvalRunInfo, HistoryQuery]):
    COL_TIME, COL_SKILL, COL_PROJECT, COL_RESULT, COL_FAILED, COL_SOURCE, COL_FOOTNOTE = range(7)
    HEADERS = (
        QT_TRANSLATE_NOOP("EvalHistoryModel", "When"),
        QT_TRANSLATE_NOOP("EvalHistoryModel", "Skill"),
        QT_TRANSLATE_NOOP("EvalHistoryModel", "Project"),
        QT_TRANSLATE_NOOP("EvalHistoryModel", "Result"),
        QT_TRANSLATE_NOOP("EvalHistoryModel", "Failed"),
        QT_TRANSLATE_NOOP("EvalHistoryModel", "Source"),
        QT_TRANSLATE_NOOP("EvalHistoryModel", "Footnote"),
    )
    PAGE_SIZE = PAGE_SIZE
    JOB_NAME = QT_TRANSLATE_NOOP("EvalHistoryModel", "Loading eval history")
    CLEAR_ON_RELOAD = True
    SORT_KEYS: ClassVar[dict[int, str]] = dict(
        enumerate(("created_at", "skill", "project", "passed", "rules_failed", "source", "footnote"))
    )
    DEFAULT_SORT = (COL_TIME, True)  # newest first

    def __init__(self, service: EvalService, parent: Any = None) -> None:
        super().__init__(HistoryQuery(), parent)
        self.service = service

    def count_rows(self, query: HistoryQuery) -> int:
        return self.service.count(**query.kwargs())

    def fetch_rows(
        self, query: HistoryQuery, limit: int, offset: int, order_by: str, descending: bool
    ) -> list[EvalRunInfo]:
        return self.service.history(
            **query.kwargs(), limit=limit, offset=offset, order_by=order_by, descending=descending
        )

    # ------------------------------------------------------------------ display
    def cell(self, item: EvalRunInfo, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            if column == self.COL_TIME:
                return fmt_datetime(_local(item.created_at))
            if column == self.COL_SKILL:
                return item.skill or QCoreApplication.translate("EvalHistoryModel", "(rules file)")
            if column == self.COL_PROJECT:
                return item.project or "global"
            if column == self.COL_RESULT:
                return value_text("passed" if item.passed else "failed")
            if column == self.COL_FAILED:
                return f"{item.rules_failed}/{item.rules_total}"
            if column == self.COL_SOURCE:
                return value_text(item.source)
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
            return item.footnote or QCoreApplication.translate("EvalHistoryModel", "every rule passed")
        return None
