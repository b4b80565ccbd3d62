"""The change hook: a tiny signal bus so panels refresh only what changed (Anki's op changes).

One place emits the store topics: `lorekeeper.ui.changefeed.ChangeFeedBridge` turns the store's
change sets (this process's commits and, polled, other processes') into topics named after the
change kinds ("skills", "proposals", "learnings", "evals", "quality", "benchmarks", "audit",
"projects"). Panels only connect; they never emit a store topic by hand. The one hand-emitted
topic is "llm" (the model settings live in lorekeeper.toml, not in the store). A later feature
with a new kind adds it to `lorekeeper.store.feed.TABLE_KINDS` (and a signal here if it wants one).
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
