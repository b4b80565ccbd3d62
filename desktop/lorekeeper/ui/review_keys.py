"""The keyboard of a review queue: shortcuts bound on the host panel, and the cheat-sheet (?) that lists them."""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QFrame, QVBoxLayout, QWidget

from lorekeeper.ui.widgets import label


@dataclass
class _Key:
    keys: tuple[str, ...]
    text: str
    slot: Callable[[], None]
    shortcuts: list[QShortcut] = field(default_factory=list)


class ShortcutSheet(QFrame):
    """The cheat-sheet frame (hidden until ?) and the shortcuts it lists, bound on `host`."""

    def __init__(self, host: QWidget) -> None:
        super().__init__()
        self._host = host
        self._keys: list[_Key] = []
        self._rows: list[tuple[str, str]] = []
        self.setObjectName("cheatsheet")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        cs = QVBoxLayout(self)
        cs.addWidget(label(self.tr("Keyboard shortcuts"), "sectionTitle"))
        self.body = label("")
        self.body.setTextFormat(Qt.TextFormat.RichText)
        cs.addWidget(self.body)
        self.hide()

    def add(self, keys: tuple[str, ...], text: str, slot: Callable[[], None], *, shown: str = "") -> None:
        """Bind `keys` on the host (while it or a child has the focus) and list them (as `shown`, or the keys)."""
        entry = _Key(keys, text, slot)
        for key in keys:
            sc = QShortcut(QKeySequence(key), self._host)
            sc.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            sc.activated.connect(slot)
            entry.shortcuts.append(sc)
        self._keys.append(entry)
        self._rows.append((shown or " / ".join(k for k in keys if k != "Shift+?"), text))
        self.body.setText(
            self.tr("<table>")
            + "".join(
                f"<tr><td style='padding-right:14px'><b>{html.escape(k)}</b></td><td>{html.escape(v)}</td></tr>"
                for k, v in self._rows
            )
            + self.tr("</table>")
        )

    def rows(self) -> list[tuple[str, str]]:
        """(keys, what they do) of every shortcut listed."""
        return list(self._rows)

    @property
    def shortcuts(self) -> list[QShortcut]:
        return [sc for k in self._keys for sc in k.shortcuts]

    def toggle(self) -> None:
        self.setVisible(not self.isVisible())
