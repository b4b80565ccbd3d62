"""The reason bar of a review queue: a decision that needs a reason (a rejection, a panel's own
keep or merge, a comment) opens it; Enter confirms once a reason is typed, Esc cancels."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QLineEdit, QPushButton

from lorekeeper.ui.widgets import MessageBox


class ReasonBar(QFrame):
    """`ask(prompt, button, then)` opens the bar (it takes the keyboard); a confirmed reason goes to
    `then(reason)` unless `is_busy()`; a missing one is said in `message`. `focus_back()` gives the
    keyboard back to the queue when the bar closes."""

    def __init__(self, message: MessageBox, focus_back: Callable[[], None], is_busy: Callable[[], bool]) -> None:
        super().__init__()
        self.setObjectName("rejectBar")
        self._message = message
        self._focus_back = focus_back
        self._is_busy = is_busy
        self._then: Callable[[str], None] | None = None
        self._missing = self.tr("This decision needs a reason")
        self._optional = False
        rb = QHBoxLayout(self)
        rb.setContentsMargins(0, 0, 0, 0)
        self.edit = QLineEdit()
        self.edit.setPlaceholderText(self.tr("Why is it rejected? (Enter to reject, Esc to cancel)"))
        self.edit.returnPressed.connect(self.confirm)
        self.confirm_button = QPushButton(self.tr("Reject"))
        self.confirm_button.clicked.connect(self.confirm)
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.clicked.connect(self.cancel)
        rb.addWidget(QLabel(self.tr("Reason:")))
        rb.addWidget(self.edit, 1)
        rb.addWidget(self.confirm_button)
        rb.addWidget(self.cancel_button)
        self.hide()

    def ask(
        self,
        prompt: str,
        button: str,
        then: Callable[[str], None],
        *,
        missing: str = "",
        text: str = "",
        allow_empty: bool = False,
    ) -> None:
        self._then = then
        self._missing = missing or self.tr("This decision needs a reason")
        self._optional = allow_empty
        self.edit.setPlaceholderText(prompt)
        self.edit.setToolTip(prompt)
        self.confirm_button.setText(button)
        self.show()
        self.edit.setText(text)
        self.edit.selectAll()
        self.edit.setFocus(Qt.FocusReason.ShortcutFocusReason)

    @Slot()
    def confirm(self) -> None:
        why = self.edit.text().strip()
        if not why and not self._optional:
            self._message.show_error(
                self.tr("{reason_missing}: type it, then Enter.").format(reason_missing=self._missing)
            )
            self.edit.setFocus()
            return
        then, self._then = self._then, None
        self.hide()
        self._focus_back()
        if then is not None and not self._is_busy():
            then(why)

    @Slot()
    def cancel(self) -> None:
        if self.isVisible():
            self.hide()
            self.edit.clear()
            self._then = None
            self._focus_back()
