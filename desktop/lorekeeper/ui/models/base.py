"""A small base for read-only table models over a list of rows."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

T = TypeVar("T")
Index = QModelIndex | QPersistentModelIndex


class RowsModel(QAbstractTableModel, Generic[T]):
    HEADERS: tuple[str, ...] = ()

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.rows: list[T] = []

    def set_rows(self, rows: list[T]) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()

    def row(self, index: int) -> T | None:
        return self.rows[index] if 0 <= index < len(self.rows) else None

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.HEADERS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        item = self.row(index.row())
        if item is None:
            return None
        return self.cell(item, index.column(), role)

    def cell(self, item: T, column: int, role: int) -> Any:  # pragma: no cover - overridden
        return None
