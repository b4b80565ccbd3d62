"""The garbage collector's policy for an interactive process (the desktop app).

CPython's cyclic collector now and then runs a full (generation 2) collection that walks every
tracked object of the process. In the desktop app that is some 170,000 objects after start-up
(SQLAlchemy, Qt wrappers, the services, the window): measured 58-120 ms per full collection on a
2-core machine, with the interpreter lock held, whichever thread triggered it. Those pauses were
the GUI thread's largest stalls, above the 50 ms bound.

`settle()` freezes the long-lived heap once the window is up: the objects alive then move to the
permanent generation, which the collector never walks again, so a later full collection only
walks what was made since (a few milliseconds). Reference counting still frees every frozen object
that stops being used; only reference cycles among the frozen objects stay until `release()`.
`release()` (the window closed) puts them back under the collector's care, so a process that opens
and closes windows one after another (the tests) does not keep what each window held.
"""

from __future__ import annotations

import gc
import sys
import threading

_lock = threading.Lock()
_holders = 0
_interval: float | None = None

#: The interpreter lock's hand-over interval while a window is up (CPython's default: 5 ms). The GUI
#: thread gives the lock up at every call into Qt and needs it back for every call from Qt into
#: Python (a timer slot, a model's data() for each painted cell); while a worker thread computes,
#: each of those waits up to one interval, so one repaint could add up to tens of milliseconds.
SWITCH_INTERVAL = 0.001


def settle() -> None:
    """Freeze what is alive now (idempotent per holder).

    Returns nothing: `gc.get_freeze_count()` walks the whole permanent generation to count it, which
    costs more than the freeze itself (O(1)); `frozen()` counts when someone needs the number."""
    global _holders, _interval
    with _lock:
        _holders += 1
        if _holders == 1:
            _interval = sys.getswitchinterval()
            sys.setswitchinterval(min(_interval, SWITCH_INTERVAL))
        gc.freeze()


def release() -> None:
    """The last holder gone: the frozen objects are collectable again."""
    global _holders
    with _lock:
        if _holders == 0:
            return
        _holders -= 1
        if _holders == 0:
            gc.unfreeze()
            if _interval is not None:
                sys.setswitchinterval(_interval)


def frozen() -> int:
    return gc.get_freeze_count()
