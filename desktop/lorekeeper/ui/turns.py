"""Show a big result in event-loop-sized pieces.

A panel that receives a large result (a 300-file pack, a proposal's diff) would hold the GUI thread
for tens of milliseconds if it filled every widget in one slot and Qt then painted all of them.
`in_turns` drives a generator instead: the code between two `yield`s runs in one event-loop turn,
and each next piece is started by a short timer, so the pending paints of the previous piece and
every other timer (the heartbeat of the stall test, the status bar) run in between.
"""

from __future__ import annotations

from collections.abc import Callable, Generator

from PySide6.QtCore import QObject, QTimer

from lorekeeper.ui.workers import is_synchronous

# A timer, not a 0 ms single shot: a 0 ms single shot is a posted event and is handled before the
# low-priority paint events in the same pass, so the pieces and their paints would add up.
TURN_MS = 1


def in_turns(owner: QObject, steps: Generator[None, None, None], wanted: Callable[[], bool] = lambda: True) -> None:
    """Run `steps` one piece per event-loop turn while `wanted()` holds (a newer result stops an
    older one). Synchronous mode (tests, screenshots) runs every piece at once."""
    if is_synchronous():
        for _ in steps:
            pass
        return

    def step() -> None:
        if not wanted():
            steps.close()
            return
        try:
            next(steps)
        except StopIteration:
            return
        QTimer.singleShot(TURN_MS, owner, step)

    step()
