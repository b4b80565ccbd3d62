"""The one place that feeds the GUI's change bus: store change sets become bus topics.

- This process's commits: `store.feed` calls us on the committing thread (a worker, usually); a
  queued signal brings the change set to the GUI thread. In synchronous mode (tests) a job's
  change sets are emitted as soon as the inline job (result callback included) is done, so a
  click has its whole effect when it returns; a write made on the GUI thread outside a job is
  emitted at the next event-loop turn.
- Other processes' commits: every `POLL_INTERVAL` a background job (never on the GUI thread,
  invisible in the status bar, latest wins) asks `store.feed.poll()` what changed since the last
  revision it saw.

Change sets arriving together are merged and emitted once per event-loop turn, one topic per kind
(`projects` also emits `skills`: the skill lists show projects and forks). Panels connect to the
topics and never emit store topics by hand; the only hand-emitted topic left is `llm` (the model
settings live in lorekeeper.toml, not in the store).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from lorekeeper.changes import ChangeSet
from lorekeeper.ui import workers
from lorekeeper.ui.bus import ChangeBus
from lorekeeper.workspace import Workspace

POLL_INTERVAL_MS = 1000  # how often the revision is compared (another process's change shows within ~1 s)

#: change kind -> bus topics
TOPICS: dict[str, tuple[str, ...]] = {"projects": ("skills", "projects")}


def topics_for(changes: ChangeSet) -> list[str]:
    out: list[str] = []
    for kind in sorted(changes.names):
        for topic in TOPICS.get(kind, (kind,)):
            if topic not in out:
                out.append(topic)
    return out


class ChangeFeedBridge(QObject):
    """Subscribes to the workspace's change feed and polls it; emits bus topics on the GUI thread."""

    arrived = Signal(object)  # a ChangeSet, from any thread (queued to ours)

    def __init__(self, ws: Workspace, bus: ChangeBus, parent: QObject | None = None, *, poll: bool = True) -> None:
        super().__init__(parent)
        self.ws = ws
        self.bus = bus
        self.delivered: list[ChangeSet] = []  # every merged change set emitted (for tests and the curious)
        self._pending = ChangeSet()
        self._flush_timer = QTimer(self)
        self._flush_timer.setSingleShot(True)
        self._flush_timer.setInterval(0)
        self._flush_timer.timeout.connect(self._flush)
        self.arrived.connect(self._on_arrived)
        unsubscribe_store = ws.store.feed.subscribe(self._from_store)
        remove_hook = workers.after_inline_jobs(self._flush)

        def unsubscribe() -> None:
            unsubscribe_store()
            remove_hook()

        self._unsubscribe = unsubscribe
        # a job that wrote in a worker process (nightly, benchmark): look at once, not at the next tick
        self._jobs_running = 0
        workers.tracker().changed.connect(self._on_jobs_changed)
        self._poll_timer = QTimer(self)
        self._poll_timer.setInterval(POLL_INTERVAL_MS)
        self._poll_timer.timeout.connect(self.poll)
        self._polling = False
        if poll:
            # the first poll (in a job, like every poll) only notes the current revision: what
            # follows is news
            self.poll()
            self._poll_timer.start()
        self.destroyed.connect(lambda *_: unsubscribe())

    def stop(self) -> None:
        self._poll_timer.stop()
        self._unsubscribe()

    # ------------------------------------------------------------------ this process
    def _from_store(self, changes: ChangeSet) -> None:  # any thread
        self.arrived.emit(changes)

    @Slot(object)
    def _on_arrived(self, changes: ChangeSet) -> None:
        self._pending = self._pending | changes
        if workers.is_synchronous() and workers.in_inline_job():
            return  # synchronous mode: flushed as soon as the job (and its result callback) is done
        # next event-loop turn: merges what arrives together, and never runs the panels' reloads
        # inside the writer's call (an audit append commits its checkpoint under the log's lock)
        self._flush_timer.start()

    @Slot()
    def _flush(self) -> None:
        changes, self._pending = self._pending, ChangeSet()
        if not changes:
            return
        self.delivered.append(changes)
        for topic in topics_for(changes):
            self.bus.emit(topic)

    # ------------------------------------------------------------------ other processes
    @Slot()
    def _on_jobs_changed(self) -> None:
        running = workers.tracker().running()
        if running < self._jobs_running and self._poll_timer.isActive():
            QTimer.singleShot(0, self.poll)
        self._jobs_running = running

    @Slot()
    def poll(self) -> None:
        """Ask, in a background job, what other processes committed since the last poll."""
        if self._polling:
            return  # the previous poll still runs (a slow or busy store): never pile up
        self._polling = True
        workers.run_task(
            self.ws.store.feed.poll,
            name=self.tr("Watching the store"),
            key=(self, "poll"),
            visible=False,
            kind=workers.POLL,  # its own pool: never queued behind a look-up or a long job
            on_result=self._on_polled,
            on_error=lambda _exc: None,  # an unreadable store now is retried at the next tick
            on_finished=self._poll_done,
        )

    def _poll_done(self) -> None:
        self._polling = False

    def _on_polled(self, changes: ChangeSet) -> None:
        if changes:
            self._on_arrived(changes)
