"""Table model of the Compression ledger: one row per file of a pack."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QModelIndex, QSortFilterProxyModel, Qt

from lorekeeper.context.pack import FileEntry
from lorekeeper.ui.i18n import QT_TRANSLATE_NOOP
from lorekeeper.ui.models.base import Index, RowsModel
from lorekeeper.ui.theme import color

MODE_COLORS = {"full": "pass", "map": "info", "signatures": "trigger", "reference": "muted", "omitted": "fail"}


class LedgerFilesModel(RowsModel[FileEntry]):
    COL_PATH, COL_RELEVANCE, COL_MODE, COL_ORIGINAL, COL_SENT, COL_DROPPED, COL_REASON = range(7)
    HEADERS = (
        QT_TRANSLATE_NOOP("LedgerFilesModel", "File"),
        QT_TRANSLATE_NOOP("LedgerFilesModel", "Relevance"),
        QT_TRANSLATE_NOOP("LedgerFilesModel", "Mode"),
        QT_TRANSLATE_NOOP("LedgerFilesModel", "Original"),
        QT_TRANSLATE_NOOP("LedgerFilesModel", "Sent"),
        QT_TRANSLATE_NOOP("LedgerFilesModel", "Dropped"),
        QT_TRANSLATE_NOOP("LedgerFilesModel", "Why this mode"),
    )
    SORT_ROLE = Qt.ItemDataRole.UserRole
    NUMERIC = (1, 3, 4, 5)

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.display: list[tuple[str, ...]] = []

    def set_rows(self, rows: list[FileEntry]) -> None:
        # The display strings of every row, made once: painting asks data() for each visible cell
        # and several roles, and formatting there again on every paint is GUI-thread time.
        self.display = [self._display(e) for e in rows]
        super().set_rows(rows)

    @staticmethod
    def _display(item: FileEntry) -> tuple[str, ...]:
        note = f" ({item.note})" if item.note else ""
        return (
            item.rel,
            f"{item.relevance:.3f}",
            item.mode,
            f"{item.original_tokens:,}",
            f"{item.sent_tokens:,}",
            f"{item.dropped:,}",
            item.reason + note,
        )

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """The cached strings for the display role (the one painting asks most), `cell` otherwise."""
        if role == Qt.ItemDataRole.DisplayRole:
            row = index.row()
            return self.display[row][index.column()] if 0 <= row < len(self.display) else None
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return self._right if index.column() in self.NUMERIC else None
        if role == Qt.ItemDataRole.ForegroundRole and index.column() != self.COL_MODE:
            return None
        if role in (Qt.ItemDataRole.ForegroundRole, self.SORT_ROLE, Qt.ItemDataRole.ToolTipRole):
            return super().data(index, role)
        return None

    _right = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort the rows here, in one Python `sort`: a proxy's sort asks `data()` twice per
        comparison (thousands of calls into Python for a big pack, tens of ms on the GUI thread)."""
        if not 0 <= column < len(self.HEADERS):
            return
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        before = [self.rows[i.row()] if 0 <= i.row() < len(self.rows) else None for i in old]
        before_rows = list(self.rows)
        self.rows.sort(
            key=lambda e: self.cell(e, column, self.SORT_ROLE), reverse=order == Qt.SortOrder.DescendingOrder
        )
        shown = {id(e): d for e, d in zip(before_rows, self.display, strict=True)}
        self.display = [shown[id(e)] for e in self.rows]
        where = {id(e): n for n, e in enumerate(self.rows)}
        self.changePersistentIndexList(
            old,
            [
                self.index(where[id(e)], i.column()) if e is not None and id(e) in where else QModelIndex()
                for e, i in zip(before, old, strict=True)
            ],
        )
        self.layoutChanged.emit()

    def cell(self, item: FileEntry, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(item)[column]
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
        if role == Qt.ItemDataRole.TextAlignmentRole and column in self.NUMERIC:
            return self._right
        if role == Qt.ItemDataRole.ToolTipRole:
            return (
                item.reason
                + (f"\n{item.note}" if item.note else "")
                + (
                    QCoreApplication.translate("LedgerFilesModel", "\nwhole bodies: {0}").format(", ".join(item.bodies))
                    if item.bodies
                    else ""
                )
            )
        return None


class SourceSortProxy(QSortFilterProxyModel):
    """Filters like any proxy but lets the source model sort itself (see `LedgerFilesModel.sort`)."""

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        source = self.sourceModel()
        if source is not None:
            source.sort(column, order)
