"""A table over a large query, sorted by the store: the count and the first page load in a worker,
and the table has its whole length at once (the scroll bar and Ctrl+End know the count); a row
not loaded yet shows "…" and asks for its page, which loads in a worker a moment later.

Clicking a header sorts in SQL (the service's whitelisted `order_by`): the model reloads its count
and first page in the new order. A page in the second half is read as the first pages of the
reverse order (the services break ties by id, so the reverse is exact): Ctrl+End on 100k rows
reads one page with a small OFFSET, never the 100k rows before it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractProxyModel,
    QCoreApplication,
    QEvent,
    QItemSelection,
    QItemSelectionModel,
    QModelIndex,
    QObject,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView
from shiboken6 import isValid

from lorekeeper.ui.i18n import QT_TRANSLATE_NOOP, class_text, header_text
from lorekeeper.ui.models.base import Index, RowsModel
from lorekeeper.ui.workers import run_task


class _HasId(Protocol):  # read-only, so frozen dataclasses match
    @property
    def id(self) -> int: ...


R = TypeVar("R", bound=_HasId)
Q = TypeVar("Q")

PLACEHOLDER = "…"  # what a row shows until its page arrives
MAX_PAGES_ASKED = 3  # a fast scroll asks only for the pages still on screen, not every page passed


class PagedRowsModel(RowsModel[Any], Generic[R, Q]):
    PAGE_SIZE = 200
    JOB_NAME = QT_TRANSLATE_NOOP("PagedRowsModel", "Loading")  # what the status bar shows while a page loads
    JOB_VISIBLE = True
    CLEAR_ON_RELOAD = False  # True: empty the table at once; False: keep the old rows until the new ones arrive
    #: column -> the service's `order_by` name; a header without one does not sort
    SORT_KEYS: ClassVar[dict[int, str]] = {}
    DEFAULT_SORT: ClassVar[tuple[int, bool]] = (0, True)  # (column, descending)

    loaded = Signal()  # the first page of a new query arrived (or failed)
    failed = Signal(object)
    page_loaded = Signal(int, int)  # first and last row of a page that arrived

    def __init__(self, query: Q, parent: Any = None) -> None:
        super().__init__(parent)
        self.query = query
        self.total: int | None = None
        self.rows: list[Any] = []  # R, or None for a row whose page has not arrived
        self._loading = False
        self.sort_column, self.descending = self.DEFAULT_SORT
        self._generation = 0  # bumped by each reload: pages of an older query or order are dropped
        self._asked: set[int] = set()  # pages asked (or loaded) for the current generation
        self._wanted: list[int] = []  # pages painting asked for, most recent last
        self._ask_timer = QTimer(self)
        self._ask_timer.setSingleShot(True)
        self._ask_timer.setInterval(0)  # after the paint that found them: never change rows mid-paint
        self._ask_timer.timeout.connect(self._ask_pages)

    # ------------------------------------------------------------------ what a subclass provides
    def count_rows(self, query: Q) -> int:  # pragma: no cover - overridden
        raise TypeError(f"{type(self).__name__} must define count_rows")

    def fetch_rows(
        self, query: Q, limit: int, offset: int, order_by: str, descending: bool
    ) -> list[R]:  # pragma: no cover - overridden
        raise TypeError(f"{type(self).__name__} must define fetch_rows")

    # ------------------------------------------------------------------ sorting
    @property
    def sort_key(self) -> str:
        return self.SORT_KEYS.get(self.sort_column, "")

    @property
    def sort_order(self) -> Qt.SortOrder:
        return Qt.SortOrder.DescendingOrder if self.descending else Qt.SortOrder.AscendingOrder

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """A header click: reload in that order from the store (a column without a sort key is ignored)."""
        if column not in self.SORT_KEYS:
            return
        descending = order == Qt.SortOrder.DescendingOrder
        if (column, descending) == (self.sort_column, self.descending):
            return
        self.sort_column, self.descending = column, descending
        self.reload()

    def _read(self, query: Q, order_by: str, descending: bool, total: int, offset: int, limit: int) -> list[R]:
        """Rows [offset, offset+limit) in this order; in the second half, read from the other end."""
        end = min(offset + limit, total)
        if end <= offset:
            return []
        if offset > total // 2:
            rows = self.fetch_rows(query, end - offset, total - end, order_by, not descending)
            rows.reverse()
            return rows
        return self.fetch_rows(query, end - offset, offset, order_by, descending)

    # ------------------------------------------------------------------ loading
    @property
    def is_loading(self) -> bool:
        return self._loading

    def set_query(self, query: Q) -> None:
        self.query = query
        self.reload()

    def reload(self) -> None:
        query, order_by, descending = self.query, self.sort_key, self.descending
        self._generation += 1
        generation = self._generation
        if self.CLEAR_ON_RELOAD:
            self.beginResetModel()
            self.rows = []
            self.total = None
            self.endResetModel()
        self._loading = True

        def first_page() -> tuple[int, list[R]]:
            total = self.count_rows(query)
            return total, self._read(query, order_by, descending, total, 0, self.PAGE_SIZE)

        run_task(
            first_page,
            name=class_text(self, "JOB_NAME"),
            key=(self, "page"),  # a new query drops the answers to the older one
            visible=self.JOB_VISIBLE,
            on_result=lambda out: self._on_first_page(out, generation),
            on_error=lambda exc: self._on_error(exc),
        )

    def _on_first_page(self, out: tuple[int, list[Any]], generation: int | None = None) -> None:
        if generation is not None and generation != self._generation:
            return
        self._loading = False
        total, first = out
        self.beginResetModel()
        self.total = total
        self.rows = list(first[:total]) + [None] * max(total - len(first), 0)
        self._asked = {0}
        self._wanted = []
        self.endResetModel()
        self.loaded.emit()

    def _on_error(self, exc: BaseException) -> None:
        self._loading = False
        if self.total is None:
            self.total = len(self.rows)
        self.failed.emit(exc)
        self.loaded.emit()

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.ToolTipRole:
            if section in self.SORT_KEYS:
                return QCoreApplication.translate(
                    "PagedRowsModel", "Click to sort every row by {0} (click again to reverse)"
                ).format(header_text(self, section).lower())
            return QCoreApplication.translate("PagedRowsModel", "This column does not sort")
        return super().headerData(section, orientation, role)

    def is_loaded(self, row: int) -> bool:
        return 0 <= row < len(self.rows) and self.rows[row] is not None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        row = index.row()
        if index.isValid() and 0 <= row < len(self.rows) and self.rows[row] is None:
            self._want(row // self.PAGE_SIZE)
            return PLACEHOLDER if role == Qt.ItemDataRole.DisplayRole and index.column() == 0 else None
        return super().data(index, role)

    def _want(self, page: int) -> None:
        if page in self._asked:
            return
        if page in self._wanted:
            self._wanted.remove(page)
        self._wanted.append(page)
        if not self._ask_timer.isActive():
            self._ask_timer.start()

    def _ask_pages(self) -> None:
        wanted, self._wanted = self._wanted[-MAX_PAGES_ASKED:], []
        for page in wanted:
            self.load_page(page)

    def load_page(self, page: int, then: Callable[[], None] | None = None) -> None:
        """Read page `page` in a worker (once per reload), then call `then`."""
        if self.total is None or self._loading or page in self._asked:
            if then is not None and not self._loading:
                then()
            return
        self._asked.add(page)
        query, order_by, descending, total = self.query, self.sort_key, self.descending, self.total
        generation, offset = self._generation, page * self.PAGE_SIZE

        def done(rows: list[R]) -> None:
            self._on_page(offset, rows, generation)
            if then is not None:
                then()

        run_task(
            lambda: self._read(query, order_by, descending, total, offset, self.PAGE_SIZE),
            name=class_text(self, "JOB_NAME"),
            key=(self, "page", page),
            visible=self.JOB_VISIBLE,
            on_result=done,
            on_error=lambda exc: self._on_error(exc),
        )

    def _on_page(self, offset: int, rows: list[Any], generation: int) -> None:
        if generation != self._generation or not rows:
            return
        rows = rows[: max(len(self.rows) - offset, 0)]
        if not rows:
            return
        self.rows[offset : offset + len(rows)] = rows
        last = offset + len(rows) - 1
        self.dataChanged.emit(self.index(offset, 0), self.index(last, max(self.columnCount() - 1, 0)))
        self.page_loaded.emit(offset, last)

    def load_rows(self, rows: Iterable[int], then: Callable[[], None]) -> None:
        """Make every row of `rows` loaded (their missing pages in one worker job), then call
        `then`: a selection over rows not shown yet (Ctrl+A, Shift+Ctrl+End) acts on all of them."""
        pages = sorted({r // self.PAGE_SIZE for r in rows if 0 <= r < len(self.rows) and self.rows[r] is None})
        if not pages or self.total is None or self._loading:
            then()
            return
        self._asked.update(pages)
        query, order_by, descending, total = self.query, self.sort_key, self.descending, self.total
        generation, size = self._generation, self.PAGE_SIZE

        def read() -> list[tuple[int, list[R]]]:
            return [(p * size, self._read(query, order_by, descending, total, p * size, size)) for p in pages]

        def done(out: list[tuple[int, list[R]]]) -> None:
            for offset, page in out:
                self._on_page(offset, page, generation)
            then()

        run_task(
            read,
            name=class_text(self, "JOB_NAME"),
            key=(self, "rows"),
            visible=True,
            on_result=done,
            on_error=self._on_error,
        )

    def fetch_until(self, row: int, then: Callable[[], None] | None = None) -> None:
        """Make row `row` (clamped to the count) loaded, then call `then`: its page alone is read."""
        if self.total is None or self._loading:
            return
        row = max(min(row, self.total - 1), 0)
        if self.total == 0 or self.is_loaded(row):
            if then is not None:
                then()
            return
        self.load_page(row // self.PAGE_SIZE, then)


def setup_sorting(view: QTableView, model: PagedRowsModel[Any, Any]) -> None:
    """Header clicks sort `model` in the store; the indicator shows its order, and a column the
    store cannot sort keeps the indicator where it was."""
    header = view.horizontalHeader()
    header.setSortIndicatorShown(True)
    header.setSectionsClickable(True)
    header.setSortIndicator(model.sort_column, model.sort_order)
    view.setSortingEnabled(True)  # asks model.sort with the indicator: the same order, no reload

    def keep(column: int, _order: Qt.SortOrder) -> None:
        if column not in model.SORT_KEYS:
            header.blockSignals(True)
            header.setSortIndicator(model.sort_column, model.sort_order)
            header.blockSignals(False)

    header.sortIndicatorChanged.connect(keep)


def paged_model_of(view: QAbstractItemView) -> tuple[PagedRowsModel[Any, Any], QAbstractItemModel] | None:
    """The paged model behind a view (through sort/filter proxies) and the view's own model."""
    shown = view.model()
    model: QAbstractItemModel | None = shown
    while isinstance(model, QAbstractProxyModel):
        model = model.sourceModel()
    return (model, shown) if isinstance(model, PagedRowsModel) and shown is not None else None


class JumpToEnd(QObject):
    """Ctrl+End / Ctrl+Home in a table over a paged model: reads the last (first) page in the
    current order, then selects its last (first) row, so the selection handlers see a loaded row.
    Installed on every such view by the window."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() in (Qt.Key.Key_End, Qt.Key.Key_Home)
            and event.modifiers() & Qt.KeyboardModifier.ControlModifier
            and isinstance(watched, QAbstractItemView)
        ):
            found = paged_model_of(watched)
            if found is None or found[0].total is None:
                return False
            model, shown = found
            view = watched
            to_end = event.key() == Qt.Key.Key_End

            def select() -> None:
                row = shown.rowCount() - 1 if to_end else 0
                if shown.rowCount() > 0:
                    index = shown.index(row, max(view.currentIndex().column(), 0))
                    view.setCurrentIndex(index)
                    view.scrollTo(index)

            model.fetch_until((model.total or 1) - 1 if to_end else 0, select)
            return True
        return False


KEEPS_OWN_SELECTION = "lorekeeperKeepsSelection"  # a view property: its owner restores selection itself


class KeepViewState(QObject):
    """A reload of a paged model (another process's change, F5, a decision) keeps what the
    operator was looking at (issue 23 d4): the selected rows and the current row, by id, and the
    row at the top of the viewport (the view does not jump when rows arrive above it). A new
    query or order keeps the selection of the rows it still holds and starts at the top.
    Rows not loaded yet are selected when their page arrives. Installed on every view over a
    paged model by the window, except those whose owner restores its own (`KEEPS_OWN_SELECTION`)."""

    def __init__(self, view: QAbstractItemView, model: PagedRowsModel[Any, Any], shown: QAbstractItemModel) -> None:
        super().__init__(view)
        self.view, self.model, self.shown = view, model, shown
        self._selected: set[Any] = set()
        self._current: Any = None
        self._top: tuple[Any, int] | None = None  # (id of the top row, pixels of it above the viewport)
        self._scroll = 0
        self._shown_key: object = None  # the query and order the view shows
        self._pending: set[Any] = set()  # selected ids whose page has not arrived
        model.modelAboutToBeReset.connect(self._remember)
        model.modelReset.connect(self._restore)
        model.page_loaded.connect(self._on_page)

    def _key(self) -> object:
        return (repr(self.model.query), self.model.sort_column, self.model.descending)

    def _source_row(self, index: QModelIndex) -> int:
        m: QAbstractItemModel = self.shown
        while isinstance(m, QAbstractProxyModel):
            index = m.mapToSource(index)
            m = m.sourceModel()
        return index.row() if index.isValid() else -1

    def _id_at(self, index: QModelIndex) -> Any:
        row = self._source_row(index)
        if 0 <= row < len(self.model.rows) and self.model.rows[row] is not None:
            return self.model.rows[row].id
        return None

    def _shown_index(self, row: int) -> QModelIndex:
        index = self.model.index(row, 0)
        chain: list[QAbstractProxyModel] = []
        m: QAbstractItemModel = self.shown
        while isinstance(m, QAbstractProxyModel):
            chain.append(m)
            m = m.sourceModel()
        for proxy in reversed(chain):
            index = proxy.mapFromSource(index)
        return index

    def _remember(self) -> None:
        if not self.model.rows:
            return  # a cleared model (CLEAR_ON_RELOAD): keep what was remembered before the clear
        sel = self.view.selectionModel()
        self._selected = {i for i in (self._id_at(ix) for ix in sel.selectedRows()) if i is not None} | self._pending
        self._current = self._id_at(self.view.currentIndex())
        same = self._shown_key == self._key()
        bar = self.view.verticalScrollBar()
        self._scroll = bar.value() if same else 0
        self._top = None
        if same and isinstance(self.view, QTableView):
            top = self.view.indexAt(self.view.viewport().rect().topLeft())
            top_id = self._id_at(top) if top.isValid() else None
            if top_id is not None:
                self._top = (top_id, -self.view.visualRect(top).top())

    def _restore(self) -> None:
        if self.model.total is None:
            return  # the clear before a reload: the rows come with the next reset
        self._shown_key = self._key()
        self._pending = set(self._selected)
        self._select_loaded()
        scroll, top = self._scroll, self._top
        self._scroll, self._top = 0, None
        if scroll or top is not None:  # a refresh of what was shown (a new query starts at the top)
            QTimer.singleShot(0, lambda: self._scroll_back(scroll, top))  # once the view knows its new length

    def _rows_of(self, ids: set[Any]) -> dict[Any, int]:
        return {r.id: n for n, r in enumerate(self.model.rows) if r is not None and r.id in ids}

    def _select_loaded(self) -> None:
        sel = self.view.selectionModel()
        if sel is None or (not self._pending and self._current is None):
            return
        wanted = set(self._pending) | ({self._current} if self._current is not None else set())
        found = self._rows_of(wanted)
        selection = QItemSelection()
        for ident, row in found.items():
            if ident in self._pending:
                ix = self._shown_index(row)
                if ix.isValid():
                    selection.select(ix, ix)
                self._pending.discard(ident)
        flags = QItemSelectionModel.SelectionFlag.Rows
        if not selection.isEmpty():
            sel.select(selection, flags | QItemSelectionModel.SelectionFlag.Select)
        if self._current is not None and self._current in found:
            ix = self._shown_index(found[self._current])
            if ix.isValid():
                sel.setCurrentIndex(ix, QItemSelectionModel.SelectionFlag.NoUpdate)
            self._current = None

    def _on_page(self, _first: int, _last: int) -> None:
        if self._pending or self._current is not None:
            self._select_loaded()

    def _scroll_back(self, scroll: int, top: tuple[Any, int] | None) -> None:
        if not isValid(self.view):
            return
        bar = self.view.verticalScrollBar()
        if top is not None and isinstance(self.view, QTableView):
            row = self._rows_of({top[0]}).get(top[0])
            if row is not None:
                ix = self._shown_index(row)
                if ix.isValid():
                    self.view.scrollTo(ix, QAbstractItemView.ScrollHint.PositionAtTop)
                    if self.view.verticalScrollMode() == QAbstractItemView.ScrollMode.ScrollPerPixel:
                        bar.setValue(bar.value() + top[1])
                    return
        bar.setValue(min(scroll, bar.maximum()))


def keep_view_state(view: QAbstractItemView) -> KeepViewState | None:
    """Install `KeepViewState` on a view over a paged model (once); None when it does not apply."""
    if isinstance(view, QHeaderView):
        return None  # a header shares its table's model and selection model: only the table restores them
    found = paged_model_of(view)
    if found is None or view.property(KEEPS_OWN_SELECTION) or view.findChild(KeepViewState) is not None:
        return None
    return KeepViewState(view, found[0], found[1])
