"""A table over a large query: the count and the first page load in a worker, later pages as the
view scrolls (Qt's canFetchMore/fetchMore), so 100k rows never block the GUI thread."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractProxyModel,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QAbstractItemView

from lorekeeper.ui.models.base import RowsModel
from lorekeeper.ui.workers import run_task


class _HasId(Protocol):  # read-only, so frozen dataclasses match
    @property
    def id(self) -> int: ...


R = TypeVar("R", bound=_HasId)
Q = TypeVar("Q")


class PagedRowsModel(RowsModel[R], Generic[R, Q]):
    PAGE_SIZE = 200
    JOB_NAME = "Loading"  # what the status bar shows while a page loads
    JOB_VISIBLE = True
    CLEAR_ON_RELOAD = False  # True: empty the table at once; False: keep the old rows until the new ones arrive

    loaded = Signal()  # the first page of a new query arrived (or failed)
    failed = Signal(object)

    def __init__(self, query: Q, parent: Any = None) -> None:
        super().__init__(parent)
        self.query = query
        self.total: int | None = None
        self._loading = False

    # ------------------------------------------------------------------ what a subclass provides
    def count_rows(self, query: Q) -> int:  # pragma: no cover - overridden
        raise TypeError(f"{type(self).__name__} must define count_rows")

    def fetch_rows(self, query: Q, limit: int, offset: int) -> list[R]:  # pragma: no cover - overridden
        raise TypeError(f"{type(self).__name__} must define fetch_rows")

    # ------------------------------------------------------------------ loading
    @property
    def is_loading(self) -> bool:
        return self._loading

    def set_query(self, query: Q) -> None:
        self.query = query
        self.reload()

    def reload(self) -> None:
        query = self.query
        if self.CLEAR_ON_RELOAD:
            self.beginResetModel()
            self.rows = []
            self.total = None
            self.endResetModel()
        self._loading = True

        def first_page() -> tuple[int, list[R]]:
            return self.count_rows(query), self.fetch_rows(query, self.PAGE_SIZE, 0)

        run_task(
            first_page,
            name=self.JOB_NAME,
            key=(self, "page"),  # a new query drops the answers (first page or later) to the older one
            visible=self.JOB_VISIBLE,
            on_result=lambda out: self._on_first_page(out),
            on_error=lambda exc: self._on_error(exc),
        )

    def _on_first_page(self, out: tuple[int, list[R]]) -> None:
        self._loading = False
        self.beginResetModel()
        self.total, self.rows = out
        self.endResetModel()
        self.loaded.emit()

    def _on_error(self, exc: BaseException) -> None:
        self._loading = False
        self.total = len(self.rows)
        self.failed.emit(exc)
        self.loaded.emit()

    def canFetchMore(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> bool:  # noqa: B008
        return not parent.isValid() and not self._loading and self.total is not None and len(self.rows) < self.total

    def fetchMore(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> None:  # noqa: B008
        if not self.canFetchMore(parent):
            return
        self._loading = True
        query, offset = self.query, len(self.rows)
        run_task(
            lambda: self.fetch_rows(query, self.PAGE_SIZE, offset),
            name=self.JOB_NAME,
            key=(self, "page"),
            visible=self.JOB_VISIBLE,
            on_result=lambda rows: self._on_page(rows),
            on_error=lambda exc: self._on_error(exc),
        )

    def _on_page(self, rows: list[R]) -> None:
        self._loading = False
        known = {r.id for r in self.rows}
        rows = [r for r in rows if r.id not in known]  # a row added meanwhile shifts the offsets
        if not rows:
            self.total = len(self.rows)
            return
        first = len(self.rows)
        self.beginInsertRows(QModelIndex(), first, first + len(rows) - 1)
        self.rows.extend(rows)
        self.endInsertRows()

    def fetch_until(self, row: int, then: Callable[[], None] | None = None) -> None:
        """Load every row up to `row` (clamped to the count) in one query in a worker, then call
        `then`: Ctrl+End reaches the last row of 100k without scrolling page by page."""
        if self.total is None or self._loading:
            return
        row = min(row, self.total - 1)
        if row < len(self.rows):
            if then is not None:
                then()
            return
        self._loading = True
        query, offset = self.query, len(self.rows)

        def done(rows: list[R]) -> None:
            self._on_page(rows)
            if then is not None:
                then()

        run_task(
            lambda: self.fetch_rows(query, row + 1 - offset, offset),
            name=self.JOB_NAME,
            key=(self, "page"),
            visible=True,
            on_result=done,
            on_error=lambda exc: self._on_error(exc),
        )


def paged_model_of(view: QAbstractItemView) -> tuple[PagedRowsModel[Any, Any], QAbstractItemModel] | None:
    """The paged model behind a view (through sort/filter proxies) and the view's own model."""
    shown = view.model()
    model: QAbstractItemModel | None = shown
    while isinstance(model, QAbstractProxyModel):
        model = model.sourceModel()
    return (model, shown) if isinstance(model, PagedRowsModel) and shown is not None else None


class JumpToEnd(QObject):
    """Ctrl+End in a table over a paged model: loads the rest, then selects the last row (Qt's own
    Ctrl+End only reaches the rows fetched so far). Installed on every such view by the window."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_End
            and event.modifiers() & Qt.KeyboardModifier.ControlModifier
            and isinstance(watched, QAbstractItemView)
        ):
            found = paged_model_of(watched)
            if found is None or found[0].total is None:
                return False
            model, shown = found
            view = watched

            def select_last() -> None:
                last = shown.rowCount() - 1
                if last >= 0:
                    index = shown.index(last, max(view.currentIndex().column(), 0))
                    view.setCurrentIndex(index)
                    view.scrollTo(index)

            model.fetch_until(model.total - 1 if model.total else 0, select_last)
            return True
        return False
