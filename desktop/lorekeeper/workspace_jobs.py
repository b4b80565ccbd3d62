"""Jobs that run a workspace service in a worker process (see `lorekeeper.jobs.process_steps`).

A nightly run or a benchmark spends most of its time in pure-Python work (metrics, scoring, the
model client's request and response handling) that holds the interpreter lock. In a GUI thread's
process that work competes with the GUI thread for the lock and stalls it; in a child process it
cannot. The child opens the workspace itself (the store is shared across processes; the write
path takes its lock in the store), runs the service method and sends back its progress and its
result, which must pickle (the services return plain dataclasses).
"""

from __future__ import annotations

import inspect
from collections.abc import Generator
from typing import Any

__all__ = ["in_workspace"]


def in_workspace(root: str, target: str, *args: Any, **kwargs: Any) -> Generator[Any, None, Any]:
    """Open the workspace at `root` and run `target` (a dotted path from the workspace, e.g.
    `"improve.bench.run_steps"`) with the arguments; a generator for `lorekeeper.jobs.drive`.

    A target that returns a generator is driven through: its progress and values are yielded on,
    its return value is the result."""
    from lorekeeper.workspace import Workspace

    ws = Workspace.open(root)
    try:
        fn: Any = ws
        for part in target.split("."):
            fn = getattr(fn, part)
        outcome = fn(*args, **kwargs)
        if inspect.isgenerator(outcome):
            outcome = yield from outcome
        return outcome
    finally:
        ws.close()
