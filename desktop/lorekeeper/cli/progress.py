"""Progress on stderr for the commands that can run long (issue 26 d3: "progress shown on every
command that runs longer than a second"), one helper for all of them.

`@progress_option("memory collect")` (under the command's other options) adds `--progress /
--no-progress` and runs the command inside a `ProgressLine`: shown when stderr is a terminal,
or always with `--progress`, never with `--no-progress`. It writes to stderr only, so stdout
(and `--json` on it) is never touched. Inside the command, `current()` is that line:

- `step(done, total, text)` / `job(jobs.Progress)` / `phases(phase, done, total)`: the steps the
  work reports (the call sites pass these as the callbacks the services already take);
- when the work reports nothing, an elapsed-time line (`label: 3 s`) appears once it has run a
  second, and a final `label: done in 4.2 s`, so a long step without callbacks is not silent.

On a terminal the line is redrawn in place (`\\r`, at most ten times a second) and ended with a
newline; elsewhere (`--progress` into a file or a pipe) each update is its own line: the first
and last step of each phase always, the others at most one a second.
"""

from __future__ import annotations

import functools
import sys
import threading
import time
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any, Self, TypeVar

import click

if TYPE_CHECKING:  # not imported at run time: `ctx read` and the hooks' commands stay light
    from lorekeeper.jobs import Progress

F = TypeVar("F", bound=Callable[..., Any])
PROGRESS_META = "lorekeeper.progress"
TTY_INTERVAL = 0.1  # seconds between two redraws on a terminal
LINE_INTERVAL = 1.0  # seconds between two lines elsewhere (first and last step always shown)
QUIET_FOR = 1.0  # nothing is shown before the command has run this long without a step
TICK = 0.25  # how often the elapsed-time line is checked


class ProgressLine:
    """One command's progress on stderr (see the module)."""

    def __init__(self, label: str, *, enabled: bool, stream: IO[str] | None = None, tty: bool | None = None) -> None:
        self.label = label
        self.enabled = enabled
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(tty if tty is not None else _isatty(self.stream))
        self._lock = threading.Lock()
        self._start = time.monotonic()
        self._last_draw = 0.0
        self._state = ""  # the last step, as text ("reading 120/20000")
        self._stepped = False
        self._phase = ""  # the text of the last step (a phase name)
        self._drawn = False  # something is on the terminal line (a newline is owed)
        self._width = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ the callbacks
    def step(self, done: int, total: int, text: str = "") -> None:
        if not self.enabled:
            return
        count = f"{done}/{total}" if total else str(done)
        state = f"{text} {count}" if text else count
        last = bool(total) and done >= total
        with self._lock:
            first = not self._stepped or text != self._phase  # a phase's first step is always shown
            self._stepped = True
            self._phase = text
            self._state = state
            now = time.monotonic()
            if first or last or now - self._last_draw >= (TTY_INTERVAL if self.tty else LINE_INTERVAL):
                self._draw(state, now)

    def job(self, p: Progress) -> None:
        """For services that report `lorekeeper.jobs.Progress`."""
        self.step(p.done, p.total, p.text)

    def phases(self, phase: str, done: int, total: int) -> None:
        """For services that report `(phase, done, total)`."""
        self.step(done, total, phase)

    def phase(self, phase: str) -> Callable[[int, int], None]:
        """A `(done, total)` callback for one named phase."""
        return lambda done, total: self.step(done, total, phase)

    # ------------------------------------------------------------------ drawing
    def _draw(self, state: str, now: float) -> None:
        text = f"{self.label}: {state}"
        if self.tty:
            pad = " " * max(0, self._width - len(text))
            self.stream.write(f"\r{text}{pad}")
            self._width = len(text)
            self._drawn = True
        else:
            self.stream.write(text + "\n")
        self.stream.flush()
        self._last_draw = now

    def _tick(self) -> None:
        while not self._stop.wait(TICK):
            with self._lock:
                now = time.monotonic()
                elapsed = now - self._start
                if elapsed < QUIET_FOR or now - self._last_draw < (QUIET_FOR if self.tty else 5 * LINE_INTERVAL):
                    continue
                state = f"{self._state} ({elapsed:.0f} s)" if self._state else f"{elapsed:.0f} s"
                self._draw(state, now)

    # ------------------------------------------------------------------ lifetime
    def __enter__(self) -> Self:
        if self.enabled:
            self._start = time.monotonic()
            self._thread = threading.Thread(target=self._tick, name="lorekeeper-progress", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
            self._thread = None
        if not self.enabled:
            return
        with self._lock:
            elapsed = time.monotonic() - self._start
            shown = self._drawn or self._last_draw > 0
            if shown and not self._stepped:
                self._draw(f"done in {elapsed:.1f} s", time.monotonic())
            if self._drawn:
                self.stream.write("\n")
                self.stream.flush()
                self._drawn = False


def _isatty(stream: IO[str]) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # a closed or odd stream
        return False


def wanted(flag: bool | None, stream: IO[str] | None = None) -> bool:
    """Shown or not: the flag when given, else whether stderr is a terminal."""
    return flag if flag is not None else _isatty(stream if stream is not None else sys.stderr)


def current() -> ProgressLine:
    """The running command's progress line (a disabled one outside `progress_option`)."""
    ctx = click.get_current_context(silent=True)
    line = ctx.meta.get(PROGRESS_META) if ctx is not None else None
    return line if isinstance(line, ProgressLine) else ProgressLine("", enabled=False)


def progress_option(label: str) -> Callable[[F], F]:
    """`--progress/--no-progress` and the command run inside its `ProgressLine` (see the module)."""

    def decorate(f: F) -> F:
        @functools.wraps(f)
        def wrapper(*args: Any, show_progress: bool | None = None, **kwargs: Any) -> Any:
            line = ProgressLine(label, enabled=wanted(show_progress))
            ctx = click.get_current_context(silent=True)
            if ctx is not None:
                ctx.meta[PROGRESS_META] = line
            with line:
                return f(*args, **kwargs)

        option = click.option(
            "--progress/--no-progress",
            "show_progress",
            default=None,
            help="Progress on stderr (default: when stderr is a terminal). stdout and --json are never touched.",
        )
        return option(wrapper)  # type: ignore[return-value]

    return decorate
