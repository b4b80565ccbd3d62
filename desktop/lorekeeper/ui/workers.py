"""Run work off the GUI thread and get the outcome back on it (Picard's run_task, superqt's worker).

Every panel uses `run_task(fn, *args, on_result=..., on_error=..., on_progress=...)`:

- `fn` is a plain callable or a generator function. A generator yields progress as
  `(done, total, text)` tuples and returns its result; between two yields it may be cancelled
  (cooperatively: the worker stops iterating and reports `cancelled`).
- The outcome arrives through Qt signals whose emitter lives on the GUI thread, so the connected
  `@Slot` methods run on the GUI thread. Workers return plain dataclasses, never ORM objects; the
  services they call open their own DB sessions.
- `set_synchronous(True)` (tests, screenshot mode) runs the work inline and emits at once, so a
  click in a test has its full effect when `mouseClick` returns.
- `JobTracker` (one per app, `tracker()`) knows the running jobs and their progress; the status
  bar observes it.
"""

from __future__ import annotations

import inspect
import itertools
import logging
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal, Slot

log = logging.getLogger(__name__)

_synchronous = False


def set_synchronous(on: bool) -> None:
    """Run every task inline on the calling thread (deterministic tests, screenshots)."""
    global _synchronous
    _synchronous = bool(on)


def is_synchronous() -> bool:
    return _synchronous


class Cancelled(Exception):
    """Raised inside a generator worker's iteration when it was cancelled (for cleanup code)."""


class WorkerSignals(QObject):
    """Lives on the thread that created the worker (the GUI thread): its slots run there."""

    progress = Signal(int, int, str)
    result = Signal(object)
    error = Signal(object)  # the exception; its traceback text is in `exc.__traceback_text__`
    cancelled = Signal()
    finished = Signal()


class Worker(QRunnable):
    """One job. Create it with `run_task`; keep the returned object only to cancel it."""

    _ids = itertools.count(1)

    def __init__(self, fn: Callable[..., Any], *args: Any, name: str = "", **kwargs: Any) -> None:
        super().__init__()
        self.setAutoDelete(False)  # the tracker holds it until `finished`
        self.id = next(self._ids)
        self.fn = fn
        self.args = args
        self.kwargs = kwargs
        self.name = name or getattr(fn, "__name__", "task")
        self.signals = WorkerSignals()
        self._cancel = threading.Event()

    def cancel(self) -> None:
        """Ask the job to stop at its next yield; its result (if any) is then dropped."""
        self._cancel.set()

    @property
    def is_cancelled(self) -> bool:
        return self._cancel.is_set()

    def run(self) -> None:  # runs on a pool thread (or inline in synchronous mode)
        try:
            outcome = self.fn(*self.args, **self.kwargs)
            if inspect.isgenerator(outcome):
                outcome = self._drive(outcome)
            if self.is_cancelled:
                self.signals.cancelled.emit()
            else:
                self.signals.result.emit(outcome)
        except Cancelled:
            self.signals.cancelled.emit()
        except Exception as exc:  # noqa: BLE001 - every failure goes to the GUI as a signal
            exc.__traceback_text__ = traceback.format_exc()  # type: ignore[attr-defined]
            log.debug("task %s failed: %s", self.name, exc)
            self.signals.error.emit(exc)
        finally:
            self.signals.finished.emit()

    def _drive(self, gen: Any) -> Any:
        while True:
            if self.is_cancelled:
                gen.close()
                raise Cancelled
            try:
                step = next(gen)
            except StopIteration as stop:
                return stop.value
            if isinstance(step, tuple) and len(step) >= 2:
                done, total = int(step[0]), int(step[1])
                text = str(step[2]) if len(step) > 2 else ""
                self.signals.progress.emit(done, total, text)


class _Relay(QObject):
    """Receives a worker's signals on the GUI thread and calls the Python callbacks there.

    Connecting the signals to this QObject's slots (rather than to lambdas) guarantees queued
    delivery to the thread that owns it, whatever PySide does with bare callables.
    """

    def __init__(self, worker: Worker, owner: JobTracker, callbacks: dict[str, Callable[..., Any] | None]) -> None:
        super().__init__(owner)
        self.worker = worker
        self.owner = owner
        self.callbacks = callbacks
        sig = worker.signals
        sig.progress.connect(self.on_progress)
        sig.result.connect(self.on_result)
        sig.error.connect(self.on_error)
        sig.cancelled.connect(self.on_cancelled)
        sig.finished.connect(self.on_finished)

    def _call(self, key: str, *args: Any) -> None:
        cb = self.callbacks.get(key)
        if cb is not None:
            cb(*args)

    @Slot(int, int, str)
    def on_progress(self, done: int, total: int, text: str) -> None:
        self.owner._on_progress(self.worker.id, done, total, text)
        self._call("progress", done, total, text)

    @Slot(object)
    def on_result(self, value: Any) -> None:
        if not self.worker.is_cancelled:
            self._call("result", value)

    @Slot(object)
    def on_error(self, exc: BaseException) -> None:
        if self.callbacks.get("error") is not None:
            self._call("error", exc)
        else:
            self.owner.failed.emit(self.worker.name, exc)

    @Slot()
    def on_cancelled(self) -> None:
        self._call("cancelled")

    @Slot()
    def on_finished(self) -> None:
        try:
            self._call("finished")
        finally:
            self.owner._on_finished(self.worker.id)
            self.callbacks = {}  # drop the closures now, not whenever Python collects the relay
            self.deleteLater()


@dataclass
class Job:
    id: int
    name: str
    done: int = 0
    total: int = 0
    text: str = ""


class JobTracker(QObject):
    """The running jobs and their progress, for the status bar."""

    changed = Signal()
    failed = Signal(str, object)  # job name, exception (for jobs without their own error handler)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._workers: dict[int, Worker] = {}
        self._jobs: dict[int, Job] = {}

    def jobs(self) -> list[Job]:
        return list(self._jobs.values())

    def running(self) -> int:
        return len(self._jobs)

    def progress(self) -> tuple[int, int]:
        """Sum of (done, total) of the jobs that report a total; (0, 0) when none does."""
        done = sum(j.done for j in self._jobs.values() if j.total)
        total = sum(j.total for j in self._jobs.values() if j.total)
        return done, total

    def add(self, worker: Worker, callbacks: dict[str, Callable[..., Any] | None], *, visible: bool = True) -> None:
        self._workers[worker.id] = worker
        _Relay(worker, self, callbacks)
        if visible:
            self._jobs[worker.id] = Job(worker.id, worker.name)
            self.changed.emit()

    def cancel_all(self) -> None:
        for w in list(self._workers.values()):
            w.cancel()

    def _on_progress(self, wid: int, done: int, total: int, text: str) -> None:
        job = self._jobs.get(wid)
        if job is not None:
            job.done, job.total, job.text = done, total, text
            self.changed.emit()

    def _on_finished(self, wid: int) -> None:
        self._workers.pop(wid, None)
        if self._jobs.pop(wid, None) is not None:
            self.changed.emit()


_tracker: JobTracker | None = None


def tracker() -> JobTracker:
    """The application's job tracker (created on first use, on the GUI thread)."""
    global _tracker
    if _tracker is None:
        _tracker = JobTracker()
    return _tracker


def run_task(
    fn: Callable[..., Any],
    *args: Any,
    on_result: Callable[[Any], None] | None = None,
    on_error: Callable[[BaseException], None] | None = None,
    on_progress: Callable[[int, int, str], None] | None = None,
    on_finished: Callable[[], None] | None = None,
    on_cancelled: Callable[[], None] | None = None,
    name: str = "",
    visible: bool = True,
    **kwargs: Any,
) -> Worker:
    """Run `fn(*args, **kwargs)` in the thread pool; the callbacks run on the GUI thread.

    `visible=False` keeps quick look-ups (routing a message) out of the status bar's job list.
    Without `on_error`, failures are reported through `tracker().failed` (the status bar shows them).
    """
    worker = Worker(fn, *args, name=name, **kwargs)
    callbacks = {
        "result": on_result,
        "error": on_error,
        "progress": on_progress,
        "finished": on_finished,
        "cancelled": on_cancelled,
    }
    tracker().add(worker, callbacks, visible=visible)
    if _synchronous:
        worker.run()
    else:
        QThreadPool.globalInstance().start(worker)
    return worker


def wait_for_all(timeout_ms: int = 30000) -> bool:
    """Block until the pool is idle (app shutdown)."""
    return QThreadPool.globalInstance().waitForDone(timeout_ms)


def error_text(exc: BaseException) -> str:
    """`CODE: message` for Lorekeeper errors, the exception text otherwise."""
    code = getattr(exc, "code", None)
    message = getattr(exc, "message", None) or str(exc) or type(exc).__name__
    return f"{code}: {message}" if code else f"{type(exc).__name__}: {message}"
