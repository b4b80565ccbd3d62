"""Where a review queue's selection goes when its model reloads: the same item if it is still
listed (or the one asked for with `keep`: an undone item coming back), else the item that took its row."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from PySide6.QtCore import QAbstractItemModel


class SelectionKeeper:
    """`before_reset()` notes the current item and row, `after_reset()` selects it again.

    `current()`, `current_row()`, `item(row)` and `select_row(row)` are the queue's; `item_id(item)`
    names an item. `id` (the item to select after the next reload), `row` (the row to fall back to)
    and `restoring` (True while the selection is put back: not a move of the reviewer's) are read by the queue.
    """

    def __init__(
        self,
        model: QAbstractItemModel,
        item_id: Callable[[Any], Hashable],
        current: Callable[[], Any],
        current_row: Callable[[], int],
        item: Callable[[int], Any],
        select_row: Callable[[int], None],
    ) -> None:
        self._model = model
        self._item_id = item_id
        self._current = current
        self._current_row = current_row
        self._item = item
        self._select_row = select_row
        self.id: Hashable | None = None
        self.row = 0
        self.restoring = False

    def before_reset(self) -> None:
        cur = self._current()
        if self.id is None and cur is not None:
            self.id = self._item_id(cur)
        row = self._current_row()
        if row >= 0:
            self.row = row

    def after_reset(self) -> None:
        keep_id, self.id = self.id, None
        self.restoring = True
        try:
            count = self._model.rowCount()
            row = -1
            if keep_id is not None:
                row = next(
                    (r for r in range(count) if (it := self._item(r)) is not None and self._item_id(it) == keep_id),
                    -1,
                )
            if row < 0 and count:
                row = min(self.row, count - 1)
            if row >= 0:
                self._select_row(row)
        finally:
            self.restoring = False
