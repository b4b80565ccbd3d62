"""The router's ranked skills."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from lorekeeper.skills.router import RouteMatch
from lorekeeper.ui.models.base import RowsModel
from lorekeeper.ui.theme import color


class RouteTableModel(RowsModel[RouteMatch]):
    COL_RANK, COL_SKILL, COL_SCORE, COL_TRIGGERS, COL_KEYWORDS = range(5)
    HEADERS = ("#", "Skill", "Score", "Matched triggers (×2)", "Matched keywords (×1)")

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
