"""Table model of the Compression ledger: one row per file of a pack."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from lorekeeper.context.pack import FileEntry
from lorekeeper.ui.models.base import RowsModel
from lorekeeper.ui.theme import color

MODE_COLORS = {"full": "pass", "map": "info", "signatures": "trigger", "reference": "muted", "omitted": "fail"}


class LedgerFilesModel(RowsModel[FileEntry]):
    COL_PATH, COL_RELEVANCE, COL_MODE, COL_ORIGINAL, COL_SENT, COL_DROPPED, COL_REASON = range(7)
    HEADERS = ("File", "Relevance", "Mode", "Original", "Sent", "Dropped", "Why this mode")
    SORT_ROLE = Qt.ItemDataRole.UserRole

    def cell(self, item: FileEntry, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            note = f" ({item.note})" if item.note else ""
            return (
                item.rel,
                f"{item.relevance:.3f}",
                item.mode,
                f"{item.original_tokens:,}",
                f"{item.sent_tokens:,}",
                f"{item.dropped:,}",
                item.reason + note,
            )[column]
        if role == self.SORT_ROLE:
            return (
                item.rel,
                item.relevance,
                item.mode,
                item.original_tokens,
                item.sent_tokens,
                item.dropped,
                item.reason,
            )[column]
        if role == Qt.ItemDataRole.ForegroundRole and column == self.COL_MODE:
            return color(MODE_COLORS.get(item.mode, "muted"))
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (1, 3, 4, 5):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            return (
                item.reason
                + (f"\n{item.note}" if item.note else "")
                + (f"\nwhole bodies: {', '.join(item.bodies)}" if item.bodies else "")
            )
        return None
