"""Bounded nesting of fail-closed handling (seed 004 §3.12.4).

Each thread counts how many fail-closed handlers are active in it (`threading.local`, never
persisted, never shared). Entering a fourth one means a failure handler keeps failing into
another: that is ERR_FAIL_CLOSED_RECURSION, raised instead of looping.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from lorekeeper.audit.errors import FailClosedRecursionError

MAX_DEPTH = 3

_state = threading.local()


def depth() -> int:
    return int(getattr(_state, "depth", 0))


def reset() -> None:
    """Start of a top-level operation (a story start, a CLI command): depth back to 0."""
    _state.depth = 0


@contextmanager
def fail_closed(what: str = "") -> Iterator[int]:
    """Enter one level of fail-closed handling; yields the new depth (1..3)."""
    current = depth()
    if current >= MAX_DEPTH:
        raise FailClosedRecursionError(
            f"fail-closed handling nested deeper than {MAX_DEPTH} levels"
            + (f" (while handling {what})" if what else "")
            + ": stopping instead of looping. Check the errors logged before this one."
        )
    _state.depth = current + 1
    try:
        yield current + 1
    finally:
        _state.depth = current
