"""A review queue's action bar: its decision and navigation buttons (they never take the focus:
the keyboard stays on the queue), wrapping in a narrow window; a panel adds its own buttons."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton, QWidget

from lorekeeper.ui.theme import icon
from lorekeeper.ui.widgets import FlowLayout

if TYPE_CHECKING:
    from lorekeeper.ui.review_queue import QueueActions, ReviewQueue


def _button(text: str, icon_name: str, slot: Callable[[], None]) -> QPushButton:
    b = QPushButton(text)
    if icon_name:
        b.setIcon(icon(icon_name))
    b.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the keyboard stays on the queue
    b.clicked.connect(slot)
    return b


class ActionBar(QWidget):
    """The buttons of `queue` (those its `actions` allow are shown); `bulk_in_bar` False: the panel
    places `bulk` itself (by its filters)."""

    def __init__(
        self,
        queue: ReviewQueue,
        actions: QueueActions,
        *,
        next_keys: Sequence[str],
        previous_keys: Sequence[str],
        undo_keys: Sequence[str],
        bulk_in_bar: bool,
    ) -> None:
        super().__init__()
        self.approve = _button(self.tr("Approve (A)"), "pass", queue.approve)
        self.reject = _button(self.tr("Reject (R)"), "fail", queue.start_reject)
        self.edit = _button(self.tr("Edit (E)"), "", queue.edit)
        self.undo = _button(
            self.tr("Undo ({0})").format(undo_keys[0]) if undo_keys else self.tr("Undo"), "", queue.undo
        )
        self.bulk = _button(self.tr("Approve all (Shift+A)"), "", queue.bulk_approve)
        self.bulk.setToolTip(self.tr("Approve every open item of the current filter (asks first)"))
        self.prev = _button(self.tr("◀ Prev ({0})").format(previous_keys[0]), "", queue.previous)
        self.next = _button(self.tr("Next ({0}) ▶").format(next_keys[0]), "", queue.next)
        self.history = _button(self.tr("History (H)"), "", queue.show_history)
        self.history.setToolTip(
            self.tr("This session's decisions, newest first: pick one to undo it (not only the last)")
        )
        self.help = _button("?", "", queue.toggle_cheatsheet)
        self.help.setToolTip(self.tr("Keyboard shortcuts (?; F1 lists every shortcut of the app)"))
        self.help.setFixedWidth(32)
        self._layout = ab = FlowLayout(self)  # wraps in a narrow window
        for b in (self.approve, self.reject, self.edit, self.undo, self.history):
            ab.addWidget(b)
        self._extra_at = ab.count()
        for b in (self.bulk, self.prev, self.next, self.help):
            if b is not self.bulk or bulk_in_bar:
                ab.addWidget(b)
        # hidden once parented (showing a parentless widget would open a window of its own)
        self.approve.setHidden(actions.approve is None)
        self.reject.setHidden(actions.reject is None)
        self.edit.setHidden(actions.edit is None)
        self.undo.setHidden(actions.undo is None)
        self.history.setHidden(actions.undo is None)
        self.bulk.setHidden(actions.bulk_approve is None)

    def add(self, button: QPushButton) -> None:
        """A panel's own button, after the decisions (it never takes the focus)."""
        button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self._layout.insertWidget(self._extra_at, button)
        self._extra_at += 1

    def show_count(self, n: int | None) -> None:
        """Approve and Reject name how many they decide (n: the open items of a multi-selection; None: one)."""
        if n is None:
            self.approve.setText(self.tr("Approve (A)"))
            self.reject.setText(self.tr("Reject (R)"))
        else:
            self.approve.setText(self.tr("Approve {0} (A)").format(n))
            self.reject.setText(self.tr("Reject {0} (R)").format(n))
