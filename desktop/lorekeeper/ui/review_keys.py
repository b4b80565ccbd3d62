"""The keyboard of a review queue: shortcuts bound on the host panel, and the cheat-sheet (?) that lists them."""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QFrame, QVBoxLayout, QWidget

from lorekeeper.ui.widgets import label

if TYPE_CHECKING:
    from lorekeeper.ui.review_queue import ReviewQueue


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


def bind_queue_keys(
    queue: ReviewQueue, next_keys: Sequence[str], previous_keys: Sequence[str], undo_keys: Sequence[str], undo_text: str
) -> None:
    """The queue's own keys (A, R, E, undo, H, next/previous, Shift+A, ?, Esc), those its actions allow.
    Their texts keep the ReviewQueue translation context: they are the queue's words."""
    ops, noun = queue.ops, queue.noun

    add = queue.add_shortcut
    add(
        ("A",),
        QCoreApplication.translate("ReviewQueue", "Approve the selected {noun}").format(noun=noun),
        queue.approve,
        enabled=ops.approve is not None,
    )
    add(
        ("R",),
        QCoreApplication.translate("ReviewQueue", "Reject: type the reason, Enter to confirm, Esc to cancel"),
        queue.start_reject,
        enabled=ops.reject is not None,
    )
    add(
        ("E",),
        QCoreApplication.translate("ReviewQueue", "Edit the selected {noun}").format(noun=noun),
        queue.edit,
        enabled=ops.edit is not None,
    )
    undo_text = undo_text or QCoreApplication.translate(
        "ReviewQueue", "Undo the last decision (the item comes back, selected)"
    )
    add(tuple(undo_keys), undo_text, queue.undo, enabled=ops.undo is not None and bool(undo_keys))
    add(
        ("H",),
        QCoreApplication.translate("ReviewQueue", "History: this session's decisions; pick one to undo it"),
        queue.show_history,
        enabled=ops.undo is not None,
    )
    add(
        tuple(next_keys),
        QCoreApplication.translate("ReviewQueue", "Next {noun} (also ↓)").format(noun=noun),
        queue.next,
    )
    add(
        tuple(previous_keys),
        QCoreApplication.translate("ReviewQueue", "Previous {noun} (also ↑)").format(noun=noun),
        queue.previous,
    )
    add(
        ("Shift+A",),
        QCoreApplication.translate("ReviewQueue", "Approve every open item of the current filter (asks first)"),
        queue.bulk_approve,
        enabled=ops.bulk_approve is not None,
    )
    add(
        ("?", "Shift+?"),
        QCoreApplication.translate("ReviewQueue", "Show or hide this cheat-sheet (F1: every shortcut of the app)"),
        queue.toggle_cheatsheet,
        label="?",
    )
    add(
        ("Esc",),
        QCoreApplication.translate("ReviewQueue", "Cancel the reason or the editor, hide the cheat-sheet"),
        queue.escape,
    )
