"""The Qt adapter over `lorekeeper.jobs`: run jobs off the GUI thread, get their outcome on it.

Every panel uses `run_task(fn, *args, on_result=..., on_error=..., on_progress=..., on_value=...)`:

- `fn` is a job (see `lorekeeper.jobs`): a plain callable or a generator function; it receives
  the job's `CancelToken` if it declares a `cancel` parameter. A generator yields progress
  (`Progress`, or `(done, total, text)` tuples) or any other value (streamed text chunks), which
  arrive through `on_value`; it returns its result.
- `key=` makes the latest answer win: a new job under the same key cancels the older one and the
  older one's progress, values and result never reach the callbacks. A panel keys its look-ups
  (`key=(self, "list")`) instead of counting request generations.
- The outcome arrives through Qt signals whose emitter lives on the GUI thread, so the connected
  callbacks run on the GUI thread. Jobs return plain dataclasses, never ORM objects; the services
  they call open their own DB sessions.
- A job policy (issue 28): each kind of job has its own sized thread pool, so a quick look-up
  never waits behind long jobs, nor the change feed's poll behind either. `kind=LOOKUP` (the
  default of `visible=False` jobs: lists, counts, routing, previews), `kind=POLL` (the change
  feed), `kind=LONG` (the default of visible jobs: imports, extractions, purges, benchmarks). A
  superseded look-up still queued never runs (its token is cancelled, `drive` checks it first); a
  running one stops at its next yield or token check, and its answer is dropped either way.
- `set_synchronous(True)` (tests, screenshot mode) runs the work inline and emits at once, so a
  click in a test has its full effect when `mouseClick` returns.
- `JobTracker` (one per app, `tracker()`) knows the running jobs and their progress; the status
  bar observes it, offers Cancel, and shows unexpected errors (not a `LorekeeperError`) in the
  error dialog.
- Holds: a job declares the items it works on (`run_task(..., holds=[("proposal", 7)])`, with a
  `hold_reason`); while it runs, `tracker().hold_reason(item)` says why the item's actions wait,
  and a `HoldGate` keeps the buttons bound to the item disabled with that reason (tooltip and a
  one-line label) until the job ends, fails or is cancelled.
"""

from __future__ import annotations

import itertools
import logging
import time
import traceback
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThread, QThreadPool, Signal, Slot
from PySide6.QtWidgets import QLabel, QWidget

from lorekeeper.errors import LorekeeperError
from lorekeeper.jobs import Cancelled, CancelToken, LatestWins, Progress, drive

log = logging.getLogger(__name__)

_synchronous = False
PROGRESS_INTERVAL = 0.05  # seconds: progress reaches the GUI thread at most 20 times a second...
PROGRESS_BURST = 5  # ...after a first burst of this many steps

Hold = tuple[str, Hashable]  # an item a job works on: ("proposal", 7), ("skill", ("code-review", ""))

LOOKUP, POLL, LONG = "lookup", "poll", "long"  # the job kinds, one thread pool each
#: threads per pool: two look-ups at once (latest wins per key), one poll, and as many long jobs
#: as the machine has cores (at least two), as the one shared pool allowed before
POOL_SIZES: dict[str, int] = {LOOKUP: 2, POLL: 1, LONG: max(2, QThread.idealThreadCount())}
_pools: dict[str, QThreadPool] = {}


def pool(kind: str) -> QThreadPool:
    """The thread pool of one job kind (created on first use)."""
    if kind not in POOL_SIZES:
        raise ValueError(f"unknown job kind {kind!r}: {', '.join(POOL_SIZES)}")
    p = _pools.get(kind)
    if p is None:
        p = _pools[kind] = QThreadPool()
        p.setMaxThreadCount(POOL_SIZES[kind])
    return p


__all__ = [
    "LONG",
    "LOOKUP",
    "POLL",
    "CancelToken",
    "Cancelled",
    "Hold",
    "HoldGate",
    "JobTracker",
    "Progress",
    "Worker",
    "cancel_key",
    "error_text",
    "is_synchronous",
    "is_unexpected",
    "pool",
    "run_task",
    "set_synchronous",
    "tracker",
]


def set_synchronous(on: bool) -> None:
    """Run every task inline on the calling thread (deterministic tests, screenshots)."""
    global _synchronous
    _synchronous = bool(on)


def is_synchronous() -> bool:
    return _synchronous


_inline_depth = 0  # synchronous mode: how many jobs are running inline right now (nested jobs count)
_after_inline: list[Callable[[], None]] = []


def in_inline_job() -> bool:
    """Synchronous mode, inside a job run inline (its callbacks have not all run yet)."""
    return _inline_depth > 0


def after_inline_jobs(callback: Callable[[], None]) -> Callable[[], None]:
    """Call `callback` each time the outermost inline job has finished (its callbacks included):
    the change feed delivers a job's change sets after the job's own result, as it would with threads.
    Returns the function that removes it."""
    _after_inline.append(callback)

    def remove() -> None:
        if callback in _after_inline:
            _after_inline.remove(callback)

    return remove


def is_unexpected(exc: BaseException) -> bool:
    """An error without a Lorekeeper code: a bug or an environment failure (ERR_INTERNAL)."""
    return not isinstance(exc, LorekeeperError)


class WorkerSignals(QObject):
    """Lives on the thread that created the worker (the GUI thread): its slots run there."""

    progress = Signal(int, int, str)
    value = Signal(object)  # any other value the job yielded (a streamed chunk)
    result = Signal(object)
    error = Signal(object)  # the exception; its traceback text is in `exc.__traceback_text__`
    cancelled = Signal()
    finished = Signal()


class Worker(QRunnable):
    """One job. Create it with `run_task`; keep the returned object only to cancel it."""

    _ids = itertools.count(1)

    def __init__(
        self,
        fn: Callable[..., Any],
        *args: Any,
        name: str = "",
        key: Hashable | None = None,
        holds: Iterable[Hold] = (),
        hold_reason: str = "",
        **kwargs: Any,
    ) -> None:
        super().__init__()
        self.holds = tuple(holds)
        self.hold_reason = hold_reason
        self.setAutoDelete(False)  # the tracker holds it until `finished`
        self.id = next(self._ids)
        self.fn = fn
        self.args = args
        self.kwargs = kwargs
        self.key = key
        self.name = name or getattr(fn, "__name__", "task")
        self.signals = WorkerSignals()
        self.token = CancelToken()
        self._last_progress = time.monotonic()
        self._tokens = float(PROGRESS_BURST)
        self._pending: Progress | None = None

    def cancel(self) -> None:
        """Ask the job to stop (at its next yield, or when it checks its token); its result is dropped."""
        self.token.cancel()

    @property
    def is_cancelled(self) -> bool:
        return self.token.cancelled

    def _progress(self, p: Progress) -> None:
        """Coalesce progress: a token bucket lets a short burst through (`PROGRESS_BURST` steps)
        and then at most one signal per `PROGRESS_INTERVAL`; the steps in between are dropped
        here, on the worker's thread (the latest wins) and the last one is flushed before the
        result. The GUI thread never gets one slot call per item of a long loop."""
        now = time.monotonic()
        self._tokens = min(PROGRESS_BURST, self._tokens + (now - self._last_progress) / PROGRESS_INTERVAL)
        self._last_progress = now
        if _synchronous or self._tokens >= 1:
            self._tokens -= 1
            self._pending = None
            self.signals.progress.emit(p.done, p.total, p.text)
        else:
            self._pending = p

    def _flush_progress(self) -> None:
        p, self._pending = self._pending, None
        if p is not None:
            self.signals.progress.emit(p.done, p.total, p.text)

    def run(self) -> None:  # runs on a pool thread (or inline in synchronous mode)
        sig = self.signals
        try:
            outcome = drive(
                self.fn, self.args, self.kwargs, token=self.token, on_progress=self._progress, on_value=sig.value.emit
            )
            self._flush_progress()
            sig.result.emit(outcome)
        except Cancelled:
            sig.cancelled.emit()
        except Exception as exc:  # noqa: BLE001 - every failure goes to the GUI as a signal
            if self.token.cancelled:  # failed while stopping: it was cancelled
                sig.cancelled.emit()
            else:
                if not getattr(exc, "__traceback_text__", ""):  # a worker process sends the child's
                    exc.__traceback_text__ = traceback.format_exc()  # type: ignore[attr-defined]
                log.debug("task %s failed: %s", self.name, exc)
                sig.error.emit(exc)
        finally:
            sig.finished.emit()


class _Relay(QObject):
    """Receives a worker's signals on the GUI thread and calls the Python callbacks there.

    Connecting the signals to this QObject's slots (rather than to lambdas) guarantees queued
    delivery to the thread that owns it, whatever PySide does with bare callables. A cancelled or
    superseded job's progress, values and result are dropped here, on the GUI thread, so a panel
    never sees an answer older than the last one it asked for.
    """

    def __init__(self, worker: Worker, owner: JobTracker, callbacks: dict[str, Callable[..., Any] | None]) -> None:
        super().__init__(owner)
        self.worker = worker
        self.owner = owner
        self.callbacks = callbacks
        sig = worker.signals
        sig.progress.connect(self.on_progress)
        sig.value.connect(self.on_value)
        sig.result.connect(self.on_result)
        sig.error.connect(self.on_error)
        sig.cancelled.connect(self.on_cancelled)
        sig.finished.connect(self.on_finished)

    def _call(self, key: str, *args: Any) -> None:
        cb = self.callbacks.get(key)
        if cb is None:
            return
        try:
            cb(*args)
        except RuntimeError as exc:
            # the answer of a job whose panel (or window) was closed meanwhile: its widgets are
            # gone, there is nobody to show it to. Any other RuntimeError is a bug: re-raised.
            if "already deleted" not in str(exc):
                raise
            log.debug("%s: dropped the %s of %r, its widgets were closed", self.worker.name, key, exc)

    @Slot(int, int, str)
    def on_progress(self, done: int, total: int, text: str) -> None:
        if self.worker.is_cancelled:
            return
        self.owner._on_progress(self.worker.id, done, total, text)
        self._call("progress", done, total, text)

    @Slot(object)
    def on_value(self, value: Any) -> None:
        if not self.worker.is_cancelled:
            self._call("value", value)

    @Slot(object)
    def on_result(self, value: Any) -> None:
        if not self.worker.is_cancelled:
            self._call("result", value)

    @Slot(object)
    def on_error(self, exc: BaseException) -> None:
        if self.worker.is_cancelled:
            return
        if is_unexpected(exc):
            self.owner.unexpected.emit(self.worker.name, exc)
        if self.callbacks.get("error") is not None:
            self._call("error", exc)
        elif not is_unexpected(exc):
            self.owner.failed.emit(self.worker.name, exc)

    @Slot()
    def on_cancelled(self) -> None:
        self._call("cancelled")

    @Slot()
    def on_finished(self) -> None:
        try:
            self._call("finished")
        finally:
            self.owner._on_finished(self.worker)
            self.callbacks = {}  # drop the closures now, not whenever Python collects the relay
            self.deleteLater()


@dataclass
class Job:
    id: int
    name: str
    done: int = 0
    total: int = 0
    text: str = ""
    worker: Worker | None = None

    def cancel(self) -> None:
        if self.worker is not None:
            self.worker.cancel()


class JobTracker(QObject):
    """The running jobs and their progress, for the status bar."""

    changed = Signal()
    failed = Signal(str, object)  # job name, exception (for jobs without their own error handler)
    unexpected = Signal(str, object)  # job name, exception without a Lorekeeper code (the error dialog)
    holds_changed = Signal()  # a job holding items started or ended

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._workers: dict[int, Worker] = {}
        self._jobs: dict[int, Job] = {}
        self._holds: dict[Hold, list[Worker]] = {}
        self.latest = LatestWins()

    # ------------------------------------------------------------------ holds
    def hold_reason(self, item: Hold | None) -> str:
        """Why `item`'s actions wait ("" when no running job holds it): the oldest holder's reason."""
        holders = self._holds.get(item) if item is not None else None
        if not holders:
            return ""
        w = holders[0]
        if w.hold_reason:
            return w.hold_reason
        kind = str(item[0]) if item is not None else "item"
        return self.tr(
            "{name} is running on this {kind} — wait for it to finish or cancel it (Cancel in the status bar)"
        ).format(name=w.name, kind=kind)

    def holding(self, item: Hold) -> list[Job]:
        """The visible jobs that hold `item` (the status bar's entries, to cancel them)."""
        return [self._jobs[w.id] for w in self._holds.get(item, []) if w.id in self._jobs]

    def cancel_holders(self, item: Hold | None) -> bool:
        """Cancel every job that holds `item` (Esc on a held item); True if there was one."""
        holders = list(self._holds.get(item, [])) if item is not None else []
        for w in holders:
            self.cancel(w.id)
        return bool(holders)

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
        if worker.key is not None:
            self.latest.begin(worker.key, worker.token)  # the older job under this key is cancelled
        _Relay(worker, self, callbacks)
        for item in worker.holds:
            self._holds.setdefault(item, []).append(worker)
        if worker.holds:
            self.holds_changed.emit()
        if visible:
            self._jobs[worker.id] = Job(worker.id, worker.name, worker=worker)
            self.changed.emit()

    def cancel(self, job_id: int) -> None:
        w = self._workers.get(job_id)
        if w is not None:
            w.cancel()
            job = self._jobs.get(job_id)
            if job is not None:
                job.text = self.tr("cancelling {name}…").format(name=job.name)
                self.changed.emit()

    def cancel_visible(self) -> None:
        """The status bar's Cancel: stop every job the operator can see."""
        for job_id in list(self._jobs):
            self.cancel(job_id)

    def cancel_all(self) -> None:
        for w in list(self._workers.values()):
            w.cancel()

    def _on_progress(self, wid: int, done: int, total: int, text: str) -> None:
        job = self._jobs.get(wid)
        if job is not None:
            job.done, job.total, job.text = done, total, text
            self.changed.emit()

    def _on_finished(self, worker: Worker) -> None:
        self._workers.pop(worker.id, None)
        if worker.key is not None:
            self.latest.end(worker.key, worker.token)
        for item in worker.holds:
            holders = [w for w in self._holds.get(item, []) if w is not worker]
            if holders:
                self._holds[item] = holders
            else:
                self._holds.pop(item, None)
        if self._jobs.pop(worker.id, None) is not None:
            self.changed.emit()
        if worker.holds:
            self.holds_changed.emit()


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
    on_value: Callable[[Any], None] | None = None,
    on_finished: Callable[[], None] | None = None,
    on_cancelled: Callable[[], None] | None = None,
    name: str = "",
    key: Hashable | None = None,
    visible: bool = True,
    holds: Iterable[Hold] = (),
    hold_reason: str = "",
    kind: str | None = None,
    **kwargs: Any,
) -> Worker:
    """Run the job `fn(*args, **kwargs)` in its kind's thread pool; the callbacks run on the GUI thread.

    `key`: latest answer wins among the jobs with this key. `visible=False` keeps quick look-ups
    (routing a message) out of the status bar's job list. `kind`: LOOKUP, POLL or LONG (default:
    LOOKUP for an invisible job, LONG for a visible one): the pool it runs in. Without `on_error`, failures with a code
    are reported through `tracker().failed` (the status bar shows them); unexpected errors always
    go to `tracker().unexpected` (the error dialog) as well. `holds`: the items the job works on
    (their `HoldGate`s disable the actions on them, saying `hold_reason`, until it ends).
    """
    target = pool(kind or (LONG if visible else LOOKUP))  # an unknown kind fails before anything runs
    worker = Worker(fn, *args, name=name, key=key, holds=holds, hold_reason=hold_reason, **kwargs)
    callbacks = {
        "result": on_result,
        "error": on_error,
        "progress": on_progress,
        "value": on_value,
        "finished": on_finished,
        "cancelled": on_cancelled,
    }
    tracker().add(worker, callbacks, visible=visible)
    if _synchronous:
        global _inline_depth
        _inline_depth += 1
        try:
            worker.run()
        finally:
            _inline_depth -= 1
            if _inline_depth == 0:
                for cb in list(_after_inline):
                    try:
                        cb()
                    except Exception:  # a listener's bug must not fail the job that finished
                        log.exception("after-inline-job callback failed")
    else:
        target.start(worker)
    return worker


def cancel_key(key: Hashable) -> None:
    """Cancel the running job under `key`, if any (its answer is dropped): for a panel that shows
    something computed on the GUI thread instead of asking a newer job."""
    tracker().latest.cancel(key)


def wait_for_all(timeout_ms: int = 30000) -> bool:
    """Block until every pool is idle (app shutdown), within `timeout_ms` in all."""
    deadline = time.monotonic() + timeout_ms / 1000
    idle = True
    for p in list(_pools.values()):
        left = max(0, int((deadline - time.monotonic()) * 1000))
        idle = p.waitForDone(left) and idle
    return idle


def error_text(exc: BaseException) -> str:
    """`CODE: message` for Lorekeeper errors, the exception text otherwise."""
    code = getattr(exc, "code", None)
    message = getattr(exc, "message", None) or str(exc) or type(exc).__name__
    return f"{code}: {message}" if code else f"{type(exc).__name__}: {message}"


HOLD_TIP = "_lorekeeper_tooltip"  # a widget's own tooltip, kept while the hold's reason replaces it


class HoldGate(QObject):
    """Binds a panel's actions to the item it shows: while a job holds that item, the actions are
    disabled and say why (their tooltip, and `label`, a one-line reason near the buttons).

    `item()` names the shown item(s) (a `Hold`, several, or None). The panel sets its actions'
    state through `enable(widget, on)` (its own rule, and not held) wherever it already did, and
    passes its update function as `refresh`: the gate calls it whenever a hold starts or ends."""

    def __init__(
        self,
        parent: QObject,
        item: Callable[[], Hold | Sequence[Hold] | None],
        refresh: Callable[[], None],
        label: QLabel | None = None,
    ) -> None:
        super().__init__(parent)
        self.item = item
        self.refresh = refresh
        self.label = label
        if label is not None:
            label.setObjectName("holdReason")
            label.setWordWrap(True)
            label.hide()
        tracker().holds_changed.connect(self._holds_changed)

    def items(self) -> list[Hold]:
        it = self.item()
        if it is None:
            return []
        if isinstance(it, tuple) and len(it) == 2 and isinstance(it[0], str):
            return [it]
        return [i for i in it if i is not None]

    def reason(self) -> str:
        """Why the shown item's actions wait ("" when they need not)."""
        for it in self.items():
            reason = tracker().hold_reason(it)
            if reason:
                return reason
        return ""

    def enable(self, widget: QWidget, on: bool) -> None:
        """`widget` enabled when the panel says `on` and no job holds the item; its tooltip says why not."""
        reason = self.reason()
        widget.setEnabled(on and not reason)
        own = widget.property(HOLD_TIP)
        if own is None:
            own = widget.toolTip()
            widget.setProperty(HOLD_TIP, own)
        widget.setToolTip(reason if reason else str(own))
        self.show_reason(reason)

    def show_reason(self, reason: str | None = None) -> None:
        label = self.label
        if label is None:
            return
        reason = self.reason() if reason is None else reason
        label.setText(reason)
        if label.parentWidget() is not None:  # a parentless label would open a window of its own
            label.setVisible(bool(reason))

    @Slot()
    def _holds_changed(self) -> None:
        self.refresh()
        self.show_reason()
