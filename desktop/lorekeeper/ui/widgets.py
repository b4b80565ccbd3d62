"""Small widgets and helpers shared by the panels."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import (
    QLabel,
    QLineEdit,
    QMessageBox,
    QProgressBar,
    QStackedWidget,
    QTableView,
    QWidget,
)

from lorekeeper.ui.workers import error_text


def mono_font(point_size: float = 9.5) -> QFont:
    font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    font.setPointSizeF(point_size)
    return font


def label(text: str = "", name: str = "", *, wrap: bool = False, selectable: bool = False) -> QLabel:
    lab = QLabel(text)
    if name:
        lab.setObjectName(name)
    lab.setWordWrap(wrap)
    if selectable:
        lab.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return lab


class MessageBox(QLabel):
    """An inline message (error or success) that stays hidden until there is something to say."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.hide()

    def show_error(self, exc: BaseException | str) -> None:
        self.setObjectName("errorBox")
        self.setText(exc if isinstance(exc, str) else describe_error(exc))
        self._restyle()

    def show_ok(self, text: str) -> None:
        self.setObjectName("okBox")
        self.setText(text)
        self._restyle()

    def clear_message(self) -> None:
        self.setText("")
        self.hide()

    def _restyle(self) -> None:
        self.style().unpolish(self)
        self.style().polish(self)
        self.show()


def describe_error(exc: BaseException) -> str:
    """`ERR_CODE — field 'x': message`, so the user sees the code and where to look."""
    text = error_text(exc)
    field = getattr(exc, "field", None)
    rule_id = getattr(exc, "rule_id", None)
    code = getattr(exc, "code", None)
    if code and (field or rule_id):
        where = f"field '{field}'" if field else f"rule {rule_id}"
        return f"{code} ({where}): {getattr(exc, 'message', str(exc))}"
    return text


class EmptyState(QStackedWidget):
    """Shows `content`, or a sentence saying why it is empty and what to do."""

    def __init__(self, content: QWidget, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.content = content
        self.message = label(text, "emptyState", wrap=True)
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.addWidget(content)
        self.addWidget(self.message)

    def set_empty(self, empty: bool, text: str | None = None) -> None:
        if text is not None:
            self.message.setText(text)
        self.setCurrentWidget(self.message if empty else self.content)

    @property
    def is_empty(self) -> bool:
        return self.currentWidget() is self.message


def search_box(placeholder: str) -> QLineEdit:
    box = QLineEdit()
    box.setPlaceholderText(placeholder)
    box.setClearButtonEnabled(True)
    box.setObjectName("search")
    return box


def set_progress(bar: QProgressBar, done: int, total: int, fmt: str | None = None) -> None:
    """Update a progress bar with one deferred repaint. `QProgressBar` repaints at once, on the
    GUI thread, in every `setValue` and `setRange` (a few ms each on a loaded machine); with its
    updates held it only marks itself dirty and is painted with the rest of the frame.

    `total <= 0` (how much is left is not known yet): an empty bar, not Qt's busy indicator. The
    Fusion style animates that one at 30 frames a second with antialiased stripes across the
    bar's width: sampled while a job ran, painting it was most of the GUI thread's time."""
    if total <= 0:
        done, total = 0, 1
    bar.setUpdatesEnabled(False)
    try:
        if bar.minimum() != 0 or bar.maximum() != total:
            bar.setRange(0, total)
        if bar.value() != done:
            bar.setValue(done)
        if fmt is not None and bar.format() != fmt:
            bar.setFormat(fmt)
    finally:
        bar.setUpdatesEnabled(True)


def setup_table(view: QTableView) -> None:
    view.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QTableView.SelectionMode.SingleSelection)
    view.setAlternatingRowColors(True)
    view.verticalHeader().hide()
    view.verticalHeader().setDefaultSectionSize(26)
    view.horizontalHeader().setHighlightSections(False)
    view.setWordWrap(False)
    view.setShowGrid(False)


def confirm(parent: QWidget, title: str, text: str) -> bool:
    """Ask yes/no. Tests replace this function (a modal box would block them)."""
    answer = QMessageBox.question(
        parent,
        title,
        text,
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        QMessageBox.StandardButton.No,
    )
    return answer == QMessageBox.StandardButton.Yes


class Debouncer(QObject):
    """Calls `fn` once, `ms` after the last `poke()` (live views that follow typing)."""

    def __init__(self, ms: int, fn: Callable[[], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(ms)
        self.timer.timeout.connect(fn)

    def poke(self) -> None:
        self.timer.start()

    def flush(self) -> None:
        """Run now if a call is pending (tests, explicit actions)."""
        if self.timer.isActive():
            self.timer.stop()
            self.timer.timeout.emit()
