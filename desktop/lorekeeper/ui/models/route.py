"""The router's ranked skills."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from lorekeeper.rates import format_rate
from lorekeeper.skills.router import RouteMatch
from lorekeeper.skills.triggers import SkillTriggerScore
from lorekeeper.ui.i18n import QT_TRANSLATE_NOOP
from lorekeeper.ui.models.base import RowsModel
from lorekeeper.ui.theme import color


class RouteTableModel(RowsModel[RouteMatch]):
    COL_RANK, COL_SKILL, COL_SCORE, COL_TRIGGERS, COL_KEYWORDS = range(5)
    HEADERS = (
        "#",
        QT_TRANSLATE_NOOP("RouteTableModel", "Skill"),
        QT_TRANSLATE_NOOP("RouteTableModel", "Score"),
        QT_TRANSLATE_NOOP("RouteTableModel", "Matched triggers (×2)"),
        QT_TRANSLATE_NOOP("RouteTableModel", "Matched keywords (×1)"),
    )

    def cell(self, item: RouteMatch, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            if column == self.COL_RANK:
                return self.rows.index(item) + 1
            if column == self.COL_SKILL:
                return item.name
            if column == self.COL_SCORE:
                return item.score
            if column == self.COL_TRIGGERS:
                return ", ".join(item.triggers) or "—"
            if column == self.COL_KEYWORDS:
                return ", ".join(item.keywords) or "—"
        if role == Qt.ItemDataRole.ForegroundRole:
            if column == self.COL_TRIGGERS and item.triggers:
                return color("trigger")
            if column == self.COL_KEYWORDS and item.keywords:
                return color("keyword")
        if role == Qt.ItemDataRole.FontRole and column in (self.COL_SKILL, self.COL_SCORE):
            from PySide6.QtGui import QFont

            f = QFont()
            f.setBold(True)
            return f
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (self.COL_RANK, self.COL_SCORE):
            return int(Qt.AlignmentFlag.AlignCenter)
        if role == Qt.ItemDataRole.ToolTipRole and column == self.COL_SKILL:
            return item.description
        return None


def _rate(value: float | None) -> str:
    return format_rate(value, none="—")  # rounded down, as every rate shown (issue 31 item 8)


class TriggerTableModel(RowsModel[SkillTriggerScore]):
    """One row per skill with trigger cases: how the router does on them."""

    COL_SKILL, COL_CASES, COL_PRECISION, COL_RECALL, COL_COLLISIONS = range(5)
    HEADERS = (
        QT_TRANSLATE_NOOP("TriggerTableModel", "Skill"),
        QT_TRANSLATE_NOOP("TriggerTableModel", "Cases"),
        QT_TRANSLATE_NOOP("TriggerTableModel", "Precision"),
        QT_TRANSLATE_NOOP("TriggerTableModel", "Recall"),
        QT_TRANSLATE_NOOP("TriggerTableModel", "Collisions (other skills firing on its cases)"),
    )
    SORTABLE = (0, 1, 2, 3)

    def sort_value(self, item: SkillTriggerScore, column: int) -> Any:
        if column == self.COL_PRECISION:
            return item.precision
        if column == self.COL_RECALL:
            return item.recall
        return super().sort_value(item, column)

    def cell(self, item: SkillTriggerScore, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            if column == self.COL_SKILL:
                return item.name
            if column == self.COL_CASES:
                return item.cases
            if column == self.COL_PRECISION:
                return _rate(item.precision)
            if column == self.COL_RECALL:
                return _rate(item.recall)
            if column == self.COL_COLLISIONS:
                top = sorted(item.collisions.items(), key=lambda kv: (-kv[1], kv[0]))[:4]
                return ", ".join(f"{k} ({v})" for k, v in top) or "—"
        if role == Qt.ItemDataRole.ForegroundRole and column in (self.COL_PRECISION, self.COL_RECALL):
            value = item.precision if column == self.COL_PRECISION else item.recall
            if value is not None and value < 0.8:
                return color("trigger") if value >= 0.5 else color("fail")
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (
            self.COL_CASES,
            self.COL_PRECISION,
            self.COL_RECALL,
        ):
            return int(Qt.AlignmentFlag.AlignCenter)
        return None
