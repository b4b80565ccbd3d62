"""The change hook: a tiny signal bus so panels refresh only what changed (Anki's op changes).

A panel that changes data emits the topic after its worker succeeded; panels that show that data
connect to it. Later features add a signal here (one line) and emit it from their panels.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal


class ChangeBus(QObject):
    skills_changed = Signal()  # a skill, fork, project or rules set changed
    evals_changed = Signal()  # an eval run was recorded
    changed = Signal(str)  # every topic, by name, for generic listeners

    def emit(self, topic: str) -> None:  # type: ignore[override]  # shadows QObject.emit (old-style signals, unused here)
        """Emit `<topic>_changed` and the generic `changed(topic)`."""
        sig = getattr(self, f"{topic}_changed", None)
        if sig is not None:
            sig.emit()
        self.changed.emit(topic)
