"""A look-up's latency while two long jobs run, against the same look-up alone (issue 28 d4).

Run: `python -m pytest -s -p no:cacheprovider -o norecursedirs= tests/bench/bench_lookup_latency.py`.
The look-up is an invisible `run_task` job (a panel's list or count: here a 20 ms read); the long
jobs are two visible jobs of 3 s each (an extraction, an import). Before issue 28 every job shared
Qt's global pool (2 threads on this machine): the look-up queued behind the long jobs and answered
after they ended (3.0 s). With a pool per job kind it answers as fast as alone. Timed from
`run_task` to its `on_result` on the GUI thread; medians of a few runs, printed with the ratio; no
timed assertion (machines are noisy).
"""

from __future__ import annotations

import statistics
import threading
import time

from PySide6.QtCore import QRunnable, QThreadPool

from lorekeeper.ui import workers

LONG_S = 3.0
LOOKUP_S = 0.02
RUNS = 5


def _lookup_ms(qtbot, *, pool: QThreadPool | None = None) -> float:
    out: list[float] = []
    t0 = time.perf_counter()

    def look_up() -> str:
        time.sleep(LOOKUP_S)
        return "rows"

    if pool is None:
        workers.run_task(look_up, name="look-up", visible=False, on_result=lambda _r: out.append(time.perf_counter()))
    else:  # the old policy: the one shared pool, behind whatever runs there
        done = threading.Event()

        class Job(QRunnable):
            def run(self) -> None:
                look_up()
                out.append(time.perf_counter())
                done.set()

        pool.start(Job())
    qtbot.waitUntil(lambda: bool(out), timeout=int(LONG_S * 4000))
    return (out[0] - t0) * 1000


def _with_long_jobs(qtbot, measure, *, shared: QThreadPool | None) -> float:
    release = threading.Event()
    started: list[int] = []

    def long_job(n: int) -> int:
        started.append(n)
        release.wait(LONG_S)
        return n

    for n in range(2):
        if shared is None:
            workers.run_task(long_job, n, name=f"long {n}")
        else:

            class Long(QRunnable):
                def __init__(self, n: int) -> None:
                    super().__init__()
                    self.n = n

                def run(self) -> None:
                    long_job(self.n)

            shared.start(Long(n))
    qtbot.waitUntil(lambda: len(started) == 2)
    try:
        return float(measure())
    finally:
        release.set()
        qtbot.waitUntil(
            lambda: workers.tracker().running() == 0 and (shared is None or shared.activeThreadCount() == 0)
        )


def test_bench_lookup_latency_beside_two_long_jobs(qtbot) -> None:
    shared = QThreadPool()
    shared.setMaxThreadCount(2)  # Qt's global pool on this 2-core machine (idealThreadCount)
    alone = statistics.median(_lookup_ms(qtbot) for _ in range(RUNS))
    beside = statistics.median(_with_long_jobs(qtbot, lambda: _lookup_ms(qtbot), shared=None) for _ in range(RUNS))
    old = _with_long_jobs(qtbot, lambda: _lookup_ms(qtbot, pool=shared), shared=shared)
    print(
        f"\nlook-up latency (median of {RUNS}, ms): alone {alone:.1f}; beside two long jobs "
        f"{beside:.1f} ({beside / alone:.2f}x alone); one shared 2-thread pool (before issue 28) {old:.1f} "
        f"({old / alone:.0f}x alone)"
    )
