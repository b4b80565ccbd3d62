"""Saved filters ("views") of a review panel (issue 30 d3).

`SavedViews` remembers the panel's filter combos and check boxes under a name (QSettings, one
entry per panel): Ctrl+Shift+S (or "Save view") asks the name in one field (Enter saves, Esc
cancels; an existing name is replaced), the "View" list puts a saved one back, "Forget" removes
the chosen one. A combo is stored by the text of its choice (its data may be a tuple, a band),
so a saved view survives a restart; a choice a combo no longer offers (a project gone) is left
as it is and the view says so.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from PySide6.QtCore import QSettings, QSize, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QStyle,
    QStyleOptionComboBox,
    QWidget,
)

from lorekeeper.ui.widgets import MessageBox

SETTINGS_PREFIX = "views/"


class _NameEdit(QLineEdit):
    cancelled = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.cancelled.emit()
            return
        super().keyPressEvent(event)


class SavedViews(QWidget):
    """A panel's named filter sets (see the module docstring)."""

    applied = Signal(str)  # a saved view was put back (its name)

    def __init__(
        self,
        key: str,
        combos: Sequence[QComboBox],
        checks: Sequence[QCheckBox] = (),
        *,
        host: QWidget | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.key, self.combos, self.checks = key, list(combos), list(checks)
        self.last_missing: list[str] = []
        self.choice = QComboBox()
        self.choice.setObjectName("savedViews")
        self.choice.setToolTip(self.tr("Saved views: put a saved set of filters back"))
        self.choice.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.choice.setMinimumContentsLength(10)
        self.choice.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.save_button = QPushButton(self.tr("Save view…"))
        self.save_button.setToolTip(self.tr("Save the current filters under a name (Ctrl+Shift+S)"))
        self.forget_button = QPushButton(self.tr("Forget"))
        self.name_edit = _NameEdit()
        self.name_edit.setObjectName("viewName")
        self.name_edit.setPlaceholderText(self.tr("View name (Enter saves, Esc cancels)"))
        self.name_edit.hide()
        for b in (self.save_button, self.forget_button):
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(4)
        lay.addWidget(self.choice)
        lay.addWidget(self.name_edit)
        lay.addWidget(self.save_button)
        lay.addWidget(self.forget_button)
        self.save_button.clicked.connect(self.start_save)
        self.forget_button.clicked.connect(self.forget)
        self.name_edit.returnPressed.connect(self.confirm_save)
        self.name_edit.cancelled.connect(self.cancel_save)
        self.choice.activated.connect(lambda _i: self.apply(self.choice.currentData() or ""))
        if host is not None:
            sc = QShortcut(QKeySequence("Ctrl+Shift+S"), host)
            sc.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            sc.setWhatsThis(self.tr("Save the current filters as a named view"))
            sc.activated.connect(self.start_save)
        self._fill()

    # ------------------------------------------------------------------ storage
    def _settings_key(self) -> str:
        return SETTINGS_PREFIX + self.key

    def views(self) -> dict[str, dict[str, list[object]]]:
        raw = QSettings().value(self._settings_key(), "")
        try:
            data = json.loads(str(raw)) if raw else {}
        except ValueError:
            data = {}
        return data if isinstance(data, dict) else {}

    def _store(self, views: dict[str, dict[str, list[object]]]) -> None:
        QSettings().setValue(self._settings_key(), json.dumps(views, ensure_ascii=False, sort_keys=True))
        self._fill()

    def _fill(self, select: str = "") -> None:
        self.choice.blockSignals(True)
        self.choice.clear()
        names = sorted(self.views(), key=str.casefold)
        title = self.tr("Saved views ({0})").format(len(names))
        self.choice.addItem(title, "")
        # wide enough for its title in every language (issue 30 d2: "Vues enregistrées (0)" was
        # cut at 10 characters); a longer view name is cut, its list shows it whole
        opt = QStyleOptionComboBox()
        self.choice.initStyleOption(opt)
        text = QSize(self.choice.fontMetrics().horizontalAdvance(title), self.choice.fontMetrics().height())
        need = self.choice.style().sizeFromContents(QStyle.ContentsType.CT_ComboBox, opt, text, self.choice)
        self.choice.setMinimumWidth(need.width())
        for name in names:
            self.choice.addItem(name, name)
        self.choice.setCurrentIndex(max(self.choice.findData(select), 0) if select else 0)
        self.choice.blockSignals(False)
        self.forget_button.setEnabled(bool(names) and bool(self.choice.currentData()))
        self.forget_button.setToolTip(
            self.tr("Forget the chosen view")
            if self.forget_button.isEnabled()
            else self.tr("Choose a saved view first")
        )

    def current_state(self) -> dict[str, list[object]]:
        return {"combos": [c.currentText() for c in self.combos], "checks": [b.isChecked() for b in self.checks]}

    # ------------------------------------------------------------------ actions
    def start_save(self) -> None:
        self.name_edit.setText(self.choice.currentData() or "")
        self.name_edit.show()
        self.name_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.name_edit.selectAll()

    def confirm_save(self) -> None:
        name = self.name_edit.text().strip()
        if not name:
            self.name_edit.setPlaceholderText(self.tr("A view needs a name (Enter saves, Esc cancels)"))
            return
        self.save(name)
        self.cancel_save()

    def cancel_save(self) -> None:
        self.name_edit.hide()
        self.name_edit.clear()
        parent = self.parentWidget()
        table = getattr(parent, "table", None) if parent is not None else None
        if table is not None:
            table.setFocus()

    def save(self, name: str) -> None:
        views = self.views()
        views[name[:80]] = self.current_state()
        self._store(views)
        self._fill(name[:80])

    def apply(self, name: str) -> bool:
        """Put view `name` back (False if there is none of that name)."""
        state = self.views().get(name)
        self._fill(name if state else "")
        if not state:
            return False
        self.last_missing = []
        for combo, text in zip(self.combos, state.get("combos", []), strict=False):
            index = combo.findText(str(text))
            if index < 0:
                self.last_missing.append(str(text))
            elif index != combo.currentIndex():
                combo.setCurrentIndex(index)
        for box, checked in zip(self.checks, state.get("checks", []), strict=False):
            if box.isChecked() != bool(checked):
                box.setChecked(bool(checked))
        self.applied.emit(name)
        return True

    def forget(self) -> None:
        name = self.choice.currentData()
        if not name:
            return
        views = self.views()
        views.pop(name, None)
        self._store(views)


def saved_view_note(views: SavedViews, message: MessageBox) -> None:
    """Say what a view put back could not (a choice its combo no longer offers)."""
    if views.last_missing:
        message.show_error(
            views.tr("Part of the view is no longer offered, left as it was: {0}").format(", ".join(views.last_missing))
        )
