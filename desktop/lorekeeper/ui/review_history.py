"""A review queue's decisions of the session and the H list that undoes any of them.

`Decision` is one decision the queue applied (what, on which items, what the action returned);
`DecisionHistory` keeps the session's decisions (newest last, Ctrl+Z pops) and shows them under the
queue on H, newest first: Enter undoes the chosen one (not only the last), Esc closes.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import QFrame, QListWidget, QListWidgetItem, QVBoxLayout

from lorekeeper.ui.widgets import label

# what the queue's own decisions are called (the `kind` of a `Decision` and of `decided`)
APPROVE, REJECT, BULK, UNDO = "approve", "reject", "bulk", "undo"
BULK_REJECT = "bulk_reject"  # the selected items rejected with one reason


@dataclass(frozen=True)
class Decision:
    """One decision the queue applied: what, on which items (ids), and what the action returned."""

    kind: str
    ids: tuple[Hashable, ...]
    result: Any = None


class DecisionHistory(QFrame):
    """The session's decisions (`decisions`, newest last) and the list that shows them on H.

    `describe(decision)` is the panel's own line for a decision (None: the queue's wording);
    `on_chosen(decision)` undoes the one picked; `focus_back()` gives the keyboard back to the list.
    """

    def __init__(
        self,
        noun: str,
        describe: Callable[[Decision], str | None],
        on_chosen: Callable[[Decision], None],
        focus_back: Callable[[], None],
    ) -> None:
        super().__init__()
        self.noun = noun
        self.decisions: list[Decision] = []
        self._describe = describe
        self._on_chosen = on_chosen
        self._focus_back = focus_back
        self.setObjectName("decisionHistory")
        hl = QVBoxLayout(self)
        hl.setContentsMargins(0, 4, 0, 0)
        hl.addWidget(label(self.tr("Decisions of this session — Enter undoes the chosen one, Esc closes"), "hintText"))
        self.list = QListWidget()
        self.list.setObjectName("decisionHistoryList")
        self.list.setMaximumHeight(140)
        self.list.itemActivated.connect(self._chosen)
        hl.addWidget(self.list)
        self.hide()

    def toggle(self) -> None:
        """Show the list (newest first, the newest current, the keyboard on it), or hide it when shown."""
        if self.isVisible():
            self.close_list()
            return
        self.list.clear()
        for decision in reversed(self.decisions):
            entry = QListWidgetItem(self.text(decision))
            entry.setData(Qt.ItemDataRole.UserRole, decision)
            self.list.addItem(entry)
        self.show()
        self.list.setCurrentRow(0)
        self.list.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def close_list(self) -> None:
        if self.isVisible():
            self.hide()
            self._focus_back()

    @Slot(QListWidgetItem)
    def _chosen(self, entry: QListWidgetItem) -> None:
        decision = entry.data(Qt.ItemDataRole.UserRole)
        self.close_list()
        if isinstance(decision, Decision):
            self._on_chosen(decision)

    def text(self, decision: Decision) -> str:
        """The history's line for `decision`."""
        own = self._describe(decision)
        if own:
            return own
        what = {
            APPROVE: self.tr("Approved"),
            REJECT: self.tr("Rejected"),
            BULK: self.tr("Approved"),
            BULK_REJECT: self.tr("Rejected"),
        }.get(decision.kind, decision.kind.replace("_", " ").capitalize())
        ids = ", ".join(f"#{i}" for i in decision.ids[:6]) + (" …" if len(decision.ids) > 6 else "")
        return self.tr("Undo: {0} {1} {2}").format(what, self.noun, ids)
