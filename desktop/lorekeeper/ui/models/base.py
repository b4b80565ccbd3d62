"""A small base for read-only table models over a list of rows.

A model whose rows are all in memory (a whole answer: benchmarks, quality, the audit log) sorts
itself on a header click (`SORTABLE` columns, by `sort_value`; see `enable_sorting`) and keeps
that order when `set_rows` brings new rows. Tables over a store query too large to hold page
through `ui.models.paged` and sort in SQL instead."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar, Generic, TypeVar

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QTableView

from lorekeeper.ui.i18n import header_text

T = TypeVar("T")
Index = QModelIndex | QPersistentModelIndex


def _order_key(value: Any) -> tuple[int, Any]:
    """Numbers by value, dates by time, tuples item by item, the rest by text: any mix compares."""
    if value is None:
        return (3, 0)
    if isinstance(value, int | float):
        return (0, value)
    if isinstance(value, datetime):
        return (1, value.isoformat())
    if isinstance(value, tuple):
        return (4, tuple(_order_key(v) for v in value))
    return (2, str(value).casefold())


class RowsModel(QAbstractTableModel, Generic[T]):
    HEADERS: tuple[str, ...] = ()
    SORTABLE: ClassVar[tuple[int, ...]] = ()  # columns a header click sorts (in memory)

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.rows: list[T] = []
        self.order: tuple[int, bool] | None = None  # (column, descending) once a header was clicked

    def set_rows(self, rows: list[T]) -> None:
        self.beginResetModel()
        self.rows = self._ordered(list(rows))
        self.endResetModel()

    # ------------------------------------------------------------------ sorting in memory
    def sort_value(self, item: T, column: int) -> Any:
        """What column `column` sorts by (its display text unless a model says better)."""
        return self.cell(item, column, Qt.ItemDataRole.DisplayRole)

    def _ordered(self, rows: list[T]) -> list[T]:
        if self.order is None:
            return rows
        column, descending = self.order
        keyed = [(self.sort_value(r, column), r) for r in rows]
        present = sorted(
            ((v, r) for v, r in keyed if v is not None), key=lambda vr: _order_key(vr[0]), reverse=descending
        )
        return [r for _v, r in present] + [r for v, r in keyed if v is None]  # no value: last either way

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if column not in self.SORTABLE:
            return
        self.order = (column, order == Qt.SortOrder.DescendingOrder)
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        before = [self.rows[i.row()] if 0 <= i.row() < len(self.rows) else None for i in old]
        self.rows = self._ordered(self.rows)
        where = {id(r): n for n, r in enumerate(self.rows)}
        self.changePersistentIndexList(
            old,
            [
                self.index(where[id(r)], i.column()) if r is not None and id(r) in where else QModelIndex()
                for r, i in zip(before, old, strict=True)
            ],
        )  # the selection stays on the same rows
        self.layoutChanged.emit()

    def row(self, index: int) -> T | None:
        return self.rows[index] if 0 <= index < len(self.rows) else None

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return header_text(self, section)
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


def enable_sorting(view: QTableView, model: RowsModel[Any]) -> None:
    """Header clicks sort `model` (its `SORTABLE` columns); no indicator until the first click,
    and a column that does not sort keeps the indicator where it was."""
    header = view.horizontalHeader()
    header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
    header.setSortIndicatorShown(True)
    header.setSectionsClickable(True)
    view.setSortingEnabled(True)

    def keep(column: int, _order: Qt.SortOrder) -> None:
        if column not in model.SORTABLE:
            header.blockSignals(True)
            if model.order is None:
                header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
            else:
                col, descending = model.order
                header.setSortIndicator(
                    col, Qt.SortOrder.DescendingOrder if descending else Qt.SortOrder.AscendingOrder
                )
            header.blockSignals(False)

    header.sortIndicatorChanged.connect(keep)
