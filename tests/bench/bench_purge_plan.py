"""A purge plan at 20 and at 2,020 session-log events (issue 28 d3), side by side in one run.

Run: `python -m pytest -s -p no:cacheprovider -o norecursedirs= tests/bench/bench_purge_plan.py`.
The plan of one story (every purgeable: store rows, three memory indexes, the session log, hook
snapshots, summary files) is timed on the same workspace with 20 events, then with 2,000 more
events of other stories. "cold" is the first plan of a process (every day file parsed and indexed
once, as the plan always did before issue 28); "warm" is every later plan while the log is unchanged
(the GUI's story box, `purge --story` after its own plan): its cost should not grow with the log.
Prints the medians and the ratios; no timed assertion (machines are noisy).
"""

from __future__ import annotations

import statistics
import time

from lorekeeper.privacy.purgeables import SessionEvents
from lorekeeper.workspace import Workspace

REPEAT = 15


def _median_ms(fn: object, repeat: int = REPEAT) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def _measure(ws: Workspace) -> tuple[float, float]:
    """(cold ms: a fresh session-log index, warm ms: the workspace's own, already built)."""
    sessions = next(p for p in ws.purge.purgeables if isinstance(p, SessionEvents))
    ws.purge.plan("PD-1")  # warm the index once

    def cold() -> None:
        sessions._indexes.clear()  # as a new process: every day file parsed again
        ws.purge.plan("PD-1")

    return _median_ms(cold, 5), _median_ms(lambda: ws.purge.plan("PD-1"))


def test_bench_purge_plan_cost_follows_the_story_not_the_log(workspace: Workspace) -> None:
    log = workspace.audit.log
    for n in range(19):
        log.append("note", {"text": f"other story event {n}"}, story=f"PD-{100 + n}")
    log.append("clarification_validated", {"summary": "the story being planned"}, story="PD-1")
    assert len(log.events()) == 20
    cold_20, warm_20 = _measure(workspace)
    for n in range(2000):
        log.append("note", {"text": f"other story event {n}", "learnings": [f"L{n % 7}"]}, story=f"PD-{200 + n % 400}")
    assert len(log.events()) == 2020
    cold_2020, warm_2020 = _measure(workspace)
    assert workspace.purge.plan("PD-1")["sessions"] == 1
    print(
        f"\npurge plan of one story (median ms): 20 events cold {cold_20:.1f}, warm {warm_20:.1f}; "
        f"2,020 events cold {cold_2020:.1f}, warm {warm_2020:.1f}\n"
        f"ratio 2,020/20 events: cold {cold_2020 / cold_20:.2f}x, warm {warm_2020 / warm_20:.2f}x; "
        f"at 2,020 events warm is {cold_2020 / warm_2020:.1f}x faster than cold"
    )
