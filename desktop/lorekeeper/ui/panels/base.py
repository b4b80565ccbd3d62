"""What every panel is: a widget built from the app context, with refresh and a search box."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QLineEdit, QPlainTextEdit, QWidget

from lorekeeper.ui import i18n
from lorekeeper.ui.bus import ChangeBus
from lorekeeper.workspace import Workspace


@dataclass
class AppContext:
    """Handed to each panel: the open workspace, the change bus and a status-bar message line."""

    ws: Workspace
    bus: ChangeBus
    status: Callable[[str], None] = lambda _msg: None


class Panel(QWidget):
    """Base class. Panels load their data with `run_task` and react to `ctx.bus` topics."""

    panel_id = ""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        i18n.ensure_installed()
        self.ctx = ctx

    @property
    def ws(self) -> Workspace:
        return self.ctx.ws

    def refresh(self) -> None:
        """Reload what the panel shows (F5)."""

    def search_box(self) -> QLineEdit | QPlainTextEdit | None:
        """The box Ctrl+F focuses, if the panel has one."""
        return None

    def leave(self, proceed: Callable[[], object]) -> bool:
        """Asked before the operator leaves the panel (another panel, closing the window) while it
        may hold unsaved edits. True: go on now. False: stay — the operator cancelled, or a save
        started and `proceed` is called (later, from the event loop) once it succeeded."""
        return True

    def showcase(self) -> None:
        """Put a representative example on screen (screenshot mode); default: nothing to add."""

    def more_showcases(self) -> list[tuple[str, Callable[[], object]]]:
        """Other views of the panel worth a screenshot of their own (another tab): (suffix, the
        call that puts it on screen); `--screenshot` saves each as `<panel>-<suffix>.png`."""
        return []

    def cheatsheet_rows(self) -> list[tuple[str, str]]:
        """(keys, what they do) for the F1 cheat-sheet: the panel module's `SHORTCUTS` table if it
        has one, then every QShortcut under the panel whose `whatsThis` says what it does. A panel
        may override this to list more."""
        found = [(str(k), str(v)) for k, v in getattr(sys.modules.get(type(self).__module__), "SHORTCUTS", ())]
        queue = getattr(self, "queue", None)  # a review panel: the keys its review queue binds
        if queue is not None and hasattr(queue, "sheet_rows"):
            found.extend(queue.sheet_rows())
        known = {k for k, _ in found}
        for sc in self.findChildren(QShortcut):
            key = sc.key().toString(QKeySequence.SequenceFormat.NativeText)
            if key and key not in known and sc.whatsThis():
                found.append((key, sc.whatsThis()))
                known.add(key)
        return found


class FactQueuePanel(Panel):
    """What the Facts review and Conflicts panels share: a `ReviewQueue` (`self.queue`, its
    `table` and `model`) that takes the keyboard when shown and reloads on the facts topics."""

    queue: Any
    table: Any
    model: Any

    def reload(self) -> None:
        """Load the queue's items in a job (each panel's own query)."""

    def refresh(self) -> None:
        self.reload()

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        self.table.setFocus(Qt.FocusReason.OtherFocusReason)

    def showcase(self) -> None:
        if self.model.rows and self.queue.current_row() < 0:
            self.queue.select_row(0)

    def _filter_changed(self) -> None:
        self.queue.reset_progress()
        self.reload()

    def _on_bus(self, topic: str) -> None:
        if topic in ("facts", "fact_conflicts"):
            self.reload()
