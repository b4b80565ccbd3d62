"""Start: what waits for the operator, one key to each (issue 30 d1).

The first panel the window opens on. Five lines, each with its key: 1 the proposals waiting for a
decision, 2 the open conflicts, 3 the candidate facts to review, 4 the stories due for the
retention purge, 5 the audit key's state. Enter (or a click) on a line goes there too.

The panel paints at once with "…" counts; the counts are read in one job after the first paint
(the GUI thread reads nothing) and again whenever the store changes (the change feed's topics).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt, QTimer, Slot
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from lorekeeper.ui.panels.base import AppContext, Panel
from lorekeeper.ui.theme import color
from lorekeeper.ui.widgets import MessageBox, label
from lorekeeper.ui.workers import run_task

TOPICS = ("proposals", "facts", "fact_conflicts", "stories", "purge", "audit")


@dataclass(frozen=True)
class Waiting:
    """What the Start panel lists, read in one job."""

    proposals: int
    conflicts: int
    facts: int
    retention: int
    key_ok: bool
    key_text: str


def read_waiting(ws: Any) -> Waiting:
    """Runs in a worker: the counts of what waits, and the audit key's state."""
    proposals = int(ws.improve.proposals.counts().get("pending", 0))
    conflicts = len(ws.facts.conflicts(status="open"))
    facts = int(ws.facts.counts().get("candidate", 0))
    try:
        retention = len(ws.purge.due())
    except Exception:  # noqa: BLE001 - a retention that cannot be read is said as unknown
        retention = -1
    status = ws.audit.status()
    ok = status.state == "loaded" or (status.state == "not_loaded" and not status.code)
    where = f"{status.provider}" + (f" v{status.key_version}" if status.key_version else "")
    text = where if ok else f"{status.code or 'ERR_AUDIT_KEY_UNAVAILABLE'}: {status.message or status.title}"
    return Waiting(proposals, conflicts, facts, retention, ok, text)


@dataclass(frozen=True)
class Line:
    key: str
    panel: str
    text: Callable[[Waiting], str]
    urgent: Callable[[Waiting], bool]


class StartPanel(Panel):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.waiting: Waiting | None = None
        self.go: Callable[[str], object] = lambda _pid: None  # set by the window: select a panel
        self.lines: list[Line] = [
            Line(
                "1",
                "proposals",
                lambda w: self.tr(
                    "%n skill proposal(s) wait for a decision — approve, edit or reject", "", w.proposals
                ),
                lambda w: w.proposals > 0,
            ),
            Line(
                "2",
                "conflicts",
                lambda w: self.tr("%n conflict(s) between facts to arbitrate", "", w.conflicts),
                lambda w: w.conflicts > 0,
            ),
            Line(
                "3",
                "facts",
                lambda w: self.tr("%n candidate fact(s) to review", "", w.facts),
                lambda w: w.facts > 0,
            ),
            Line(
                "4",
                "purge",
                lambda w: (
                    self.tr("%n stor(ies) due for the retention purge", "", w.retention)
                    if w.retention >= 0
                    else self.tr("Retention: could not be read (open Purge runs)")
                ),
                lambda w: w.retention != 0,
            ),
            Line(
                "5",
                "audit",
                lambda w: (self.tr("Audit key: {0} — ok") if w.key_ok else self.tr("Audit key: {0} — fix it")).format(
                    w.key_text
                ),
                lambda w: not w.key_ok,
            ),
        ]
        self.buttons: list[QPushButton] = []
        grid = QGridLayout()
        grid.setHorizontalSpacing(12)
        for row, line in enumerate(self.lines):
            key = QLabel(line.key)
            key.setObjectName("startKey")
            key.setAlignment(Qt.AlignmentFlag.AlignCenter)
            key.setFixedWidth(28)
            key.setStyleSheet(f"border: 1px solid {color('muted').name()}; border-radius: 4px; font-weight: 600;")
            b = QPushButton("…")
            b.setObjectName(f"start-{line.panel}")
            b.setFlat(True)
            b.setStyleSheet("text-align: left; padding: 6px;")
            b.setToolTip(self.tr("Go there (key {0})").format(line.key))
            b.clicked.connect(lambda _=False, pid=line.panel: self.go(pid))
            grid.addWidget(key, row, 0)
            grid.addWidget(b, row, 1)
            self.buttons.append(b)
            sc = QShortcut(QKeySequence(line.key), self)
            sc.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            sc.setWhatsThis(self.tr("Start: go to line {0}").format(line.key))
            sc.activated.connect(lambda pid=line.panel: self.go(pid))
        grid.setColumnStretch(1, 1)
        box = QFrame()
        box.setObjectName("startBox")
        box.setLayout(grid)
        self.message = MessageBox()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 16, 20, 12)
        layout.addWidget(label(self.tr("Start"), "panelTitle"))
        layout.addWidget(
            label(
                self.tr(
                    "What waits for you in this workspace. Press the key of a line (or click it) to go there; "
                    "Ctrl+1 comes back here, F1 lists every shortcut."
                ),
                "panelSubtitle",
                wrap=True,
            )
        )
        layout.addWidget(box)
        layout.addWidget(self.message)
        layout.addStretch(1)
        ctx.bus.changed.connect(self._on_bus)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        QTimer.singleShot(0, self, self.refresh)  # after the first paint: the counts are read in a job

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        self.setFocus(Qt.FocusReason.OtherFocusReason)  # the digits work at once

    @Slot(str)
    def _on_bus(self, topic: str) -> None:
        if topic in TOPICS:
            self.refresh()

    @Slot()
    def refresh(self) -> None:
        run_task(
            read_waiting,
            self.ws,
            name="Reading what waits",
            key=(self, "waiting"),
            visible=False,
            on_result=self._show,
            on_error=self.message.show_error,
        )

    def _show(self, w: Waiting) -> None:
        self.waiting = w
        for line, b in zip(self.lines, self.buttons, strict=True):
            b.setText(line.text(w))
            urgent = line.urgent(w)
            b.setStyleSheet(
                "text-align: left; padding: 6px;"
                + (
                    f" color: {color('fail' if line.panel == 'audit' else 'info').name()}; font-weight: 600;"
                    if urgent
                    else ""
                )
            )

    def texts(self) -> list[str]:
        return [b.text() for b in self.buttons]
