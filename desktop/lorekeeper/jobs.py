"""Jobs: long work that reports progress, streams values, can be cancelled, and whose latest answer wins.

Qt-free: the GUI's adapter (`lorekeeper.ui.workers`) runs jobs in its thread pool and turns the
callbacks below into signals; the CLI, a server or a test can run them with `JobRunner`.

A *job* is a callable. If it declares a parameter named `cancel`, it receives the job's
`CancelToken` there. If it returns a generator, the generator is driven: every yielded value is
either progress (a `Progress`, or the older `(done, total[, text])` tuple) or any other value (a
streamed text chunk, a partial result), and the generator's return value is the job's result.
Between two yields the runner checks the token; a cancelled generator is closed (its `finally`
blocks run), the runner raises `Cancelled` and no result is reported. A job may also stop by itself
with `cancel.raise_if_cancelled()` inside a long step.

"Latest answer wins": jobs submitted under the same `key` supersede each other. Submitting a new
one cancels the older token, and the older job's progress, values and result are dropped. Panels
key their look-ups ("skills-list", "route") instead of counting request generations by hand.

Heavy pure-Python work that would hold the interpreter lock (a big context pack) runs in a child
process with `process_steps`, which forwards the child's progress and terminates it on cancel.
"""

from __future__ import annotations

import contextlib
import inspect
import os
import pickle
import queue as queue_mod
import threading
import traceback
from collections.abc import Callable, Generator, Hashable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from lorekeeper.errors import LorekeeperError

__all__ = [
    "CancelToken",
    "Cancelled",
    "JobHandle",
    "JobRunner",
    "LatestWins",
    "Progress",
    "as_progress",
    "drive",
    "process_steps",
]


class Cancelled(LorekeeperError):
    """The job was cancelled (by the operator, or superseded by a newer job under its key)."""

    code = "ERR_CANCELLED"

    def __init__(self, message: str = "the job was cancelled") -> None:
        super().__init__(message)


@dataclass(frozen=True)
class Progress:
    """How far a job is: `done` of `total` steps (`total == 0`: unknown), and what it is doing."""

    done: int
    total: int
    text: str = ""


def as_progress(value: object) -> Progress | None:
    """`value` as progress: a `Progress`, or an old-style `(done, total[, text])` tuple of ints."""
    if isinstance(value, Progress):
        return value
    if (
        isinstance(value, tuple)
        and 2 <= len(value) <= 3
        and isinstance(value[0], int)
        and isinstance(value[1], int)
        and (len(value) == 2 or isinstance(value[2], str))
    ):
        return Progress(int(value[0]), int(value[1]), str(value[2]) if len(value) == 3 else "")
    return None


class CancelToken:
    """Cooperative cancellation, shared between whoever runs a job and the job itself.

    Calling the token (`token()`) answers "should I stop?", so it can be passed where a loop takes
    a `should_stop: Callable[[], bool]`.
    """

    def __init__(self) -> None:
        self._event = threading.Event()
        self._callbacks: list[Callable[[], None]] = []
        self._lock = threading.Lock()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def cancel(self) -> None:
        with self._lock:
            if self._event.is_set():
                return
            self._event.set()
            callbacks, self._callbacks = self._callbacks, []
        for cb in callbacks:
            cb()

    def on_cancel(self, callback: Callable[[], None]) -> None:
        """Call `callback` once when the token is cancelled (at once if it already is)."""
        with self._lock:
            if not self._event.is_set():
                self._callbacks.append(callback)
                return
        callback()

    def raise_if_cancelled(self) -> None:
        if self._event.is_set():
            raise Cancelled()

    def wait(self, timeout: float | None = None) -> bool:
        """Sleep up to `timeout` seconds, waking at once on cancel; True when cancelled."""
        return self._event.wait(timeout)

    def __call__(self) -> bool:
        return self._event.is_set()


def _wants_token(fn: Callable[..., Any]) -> bool:
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    p = params.get("cancel")
    return p is not None and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)


def drive(
    fn: Callable[..., Any],
    args: tuple[Any, ...] = (),
    kwargs: dict[str, Any] | None = None,
    *,
    token: CancelToken | None = None,
    on_progress: Callable[[Progress], None] | None = None,
    on_value: Callable[[Any], None] | None = None,
) -> Any:
    """Run one job to its end on the calling thread and return its result.

    Raises `Cancelled` when the token was cancelled (before, between two yields, or by the job
    itself); any other exception of the job propagates unchanged.
    """
    token = token or CancelToken()
    kwargs = dict(kwargs or {})
    if _wants_token(fn) and "cancel" not in kwargs:
        kwargs["cancel"] = token
    token.raise_if_cancelled()
    outcome = fn(*args, **kwargs)
    if inspect.isgenerator(outcome):
        outcome = _drive_generator(outcome, token, on_progress, on_value)
    token.raise_if_cancelled()  # a plain callable that finished after a cancel: its result is dropped
    return outcome


def _drive_generator(
    gen: Generator[Any, Any, Any],
    token: CancelToken,
    on_progress: Callable[[Progress], None] | None,
    on_value: Callable[[Any], None] | None,
) -> Any:
    try:
        while True:
            if token.cancelled:
                raise Cancelled()  # the `finally` below closes the generator: its cleanup runs
            try:
                step = next(gen)
            except StopIteration as stop:
                return stop.value
            progress = as_progress(step)
            if progress is not None:
                if on_progress is not None:
                    on_progress(progress)
            elif on_value is not None:
                on_value(step)
    finally:
        gen.close()


class LatestWins:
    """One current token per key: `begin(key)` cancels the previous job under that key."""

    def __init__(self) -> None:
        self._current: dict[Hashable, CancelToken] = {}
        self._lock = threading.Lock()

    def begin(self, key: Hashable, token: CancelToken | None = None) -> CancelToken:
        token = token or CancelToken()
        with self._lock:
            old = self._current.get(key)
            self._current[key] = token
        if old is not None:
            old.cancel()
        return token

    def is_current(self, key: Hashable, token: CancelToken) -> bool:
        with self._lock:
            return self._current.get(key) is token

    def end(self, key: Hashable, token: CancelToken) -> None:
        with self._lock:
            if self._current.get(key) is token:
                del self._current[key]

    def cancel(self, key: Hashable) -> None:
        with self._lock:
            token = self._current.pop(key, None)
        if token is not None:
            token.cancel()


@dataclass
class JobHandle:
    """A submitted job: cancel it, or wait for its result (raises `Cancelled` if it was)."""

    name: str
    key: Hashable | None
    token: CancelToken
    future: Future[Any]

    def cancel(self) -> None:
        self.token.cancel()

    @property
    def cancelled(self) -> bool:
        return self.token.cancelled

    def result(self, timeout: float | None = None) -> Any:
        return self.future.result(timeout)

    def done(self) -> bool:
        return self.future.done()


class JobRunner:
    """Runs jobs on a small thread pool (for code without a Qt event loop: CLI, server, tests).

    Callbacks run on the job's thread. A job superseded under its key has its callbacks silenced
    and its `result()` raises `Cancelled`.
    """

    def __init__(self, max_workers: int = 2) -> None:
        self._pool = ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="lorekeeper-job")
        self.latest = LatestWins()

    def submit(
        self,
        fn: Callable[..., Any],
        *args: Any,
        key: Hashable | None = None,
        name: str = "",
        on_progress: Callable[[Progress], None] | None = None,
        on_value: Callable[[Any], None] | None = None,
        **kwargs: Any,
    ) -> JobHandle:
        token = CancelToken()
        if key is not None:
            self.latest.begin(key, token)

        def live(cb: Callable[[Any], None] | None) -> Callable[[Any], None] | None:
            if cb is None:
                return None

            def call(value: Any) -> None:
                if not token.cancelled:
                    cb(value)

            return call

        def run() -> Any:
            try:
                return drive(fn, args, kwargs, token=token, on_progress=live(on_progress), on_value=live(on_value))
            finally:
                if key is not None:
                    self.latest.end(key, token)

        future = self._pool.submit(run)
        return JobHandle(name or getattr(fn, "__name__", "job"), key, token, future)

    def shutdown(self, cancel: bool = True) -> None:
        self._pool.shutdown(wait=True, cancel_futures=cancel)


# ------------------------------------------------------------------------------ worker processes


CHILD_NICENESS = 5  # a job's process yields the CPU to the GUI (and the operator's other work)


def _background() -> None:
    """Make this (child) process background work for the scheduler.

    A session of its own: Linux's autogroup scheduler shares the CPU between sessions first, so a
    busy child in the GUI's session takes the GUI's share, and the GUI thread's timer wake-ups wait
    behind it (measured on a loaded 2-core machine: a 10 ms ticker's 99th percentile went from 14 to
    28 ms beside two busy same-session children; with `setsid` it stayed at 14). Then a lower
    priority. Both are best effort (other systems: nothing to do, or not allowed)."""
    if hasattr(os, "setsid"):
        with contextlib.suppress(OSError):  # already a session leader
            os.setsid()
    if hasattr(os, "nice"):
        with contextlib.suppress(OSError):  # not allowed here: run at normal priority
            os.nice(CHILD_NICENESS)


def _child(payload: bytes, out: Any) -> None:
    """Entry point of a job's child process: forward progress and values, then the outcome.

    The job comes pickled, so that the child leaves the GUI's session before it imports the job's
    modules (the start of a job is its busiest moment)."""
    _background()
    fn, args, kwargs = pickle.loads(payload)

    def send_progress(p: Progress) -> None:
        out.put(("progress", p.done, p.total, p.text))

    def send_value(v: Any) -> None:
        out.put(("value", v))

    try:
        result = drive(fn, args, kwargs, on_progress=send_progress, on_value=send_value)
        out.put(("result", result))
    except BaseException as exc:  # noqa: BLE001 - everything goes back to the parent
        text = traceback.format_exc()
        try:  # the queue pickles later, on its feeder thread: find out now whether it can
            pickle.loads(pickle.dumps(exc))
        except Exception:  # noqa: BLE001 - an exception that does not pickle (or unpickle)
            exc = RuntimeError(f"{type(exc).__name__}: {exc}")
        out.put(("error", exc, text))


def process_steps(
    fn: Callable[..., Any],
    *args: Any,
    cancel: CancelToken | None = None,
    poll: float = 0.05,
    **kwargs: Any,
) -> Generator[Any, None, Any]:
    """Run the job `fn(*args, **kwargs)` in a fresh (spawned) process; a generator for `drive`.

    Yields the child's progress and values as they come and returns its result. `fn`, its
    arguments and its result must pickle (a module-level function and plain data). On cancel the
    child is terminated at once. The calling thread only waits on a queue, so it does not hold the
    interpreter lock while the child computes.
    """
    import multiprocessing  # here, not at import: ~50 ms of the app's first paint (issue 30 d1)

    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    payload = pickle.dumps((fn, args, kwargs))
    proc = ctx.Process(target=_child, args=(payload, out), daemon=True, name="lorekeeper-job")
    proc.start()
    try:
        while True:
            if cancel is not None and cancel.cancelled:
                raise Cancelled()
            try:
                msg = out.get(timeout=poll)
            except queue_mod.Empty:
                if not proc.is_alive() and out.empty():
                    raise LorekeeperError(
                        f"the worker process stopped without an answer (exit code {proc.exitcode})"
                    ) from None
                continue
            kind = msg[0]
            if kind == "progress":
                yield Progress(msg[1], msg[2], msg[3])
            elif kind == "value":
                yield msg[1]
            elif kind == "result":
                return msg[1]
            else:
                exc = msg[1]
                exc.__traceback_text__ = msg[2]
                raise exc
    finally:
        if proc.is_alive():
            proc.terminate()
        proc.join(5)
        out.close()
        out.join_thread()
