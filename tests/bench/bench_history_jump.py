"""Jumping to the end of a 100k-row history (issue 17): what Ctrl+End reads from the store.

Run: `python -m pytest -s tests/bench/bench_history_jump.py` (makes a workspace with 100,000 eval
runs through the store's write path, a minute on a slow machine).

- new: the count, then the last page of the current order read as the first page of the reverse
  order (`PagedRowsModel._read`), what the history table does on Ctrl+End;
- OFFSET: the same page with `OFFSET total - 200` (SQLite walks the rows before it);
- baseline: the previous table's Ctrl+End, every row up to the last one in one query (it put
  100k rows into the model).

Each is timed for the default order (the created_at index) and a header click (rules_failed, no
index); the three read the same last rows (checked). No timed assertion: milliseconds and ratios.
"""

from __future__ import annotations

import time
from datetime import timedelta
from pathlib import Path

N = 100_000
PAGE = 200


def _best(fn, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times) * 1000


def test_ctrl_end_on_100k_runs(tmp_path: Path) -> None:
    from lorekeeper.store.models import EvalRun, utcnow
    from lorekeeper.workspace import Workspace

    ws = Workspace.init(tmp_path / "ws")
    try:
        now = utcnow()
        with ws.store.write() as s:
            s.add_all(
                EvalRun(
                    skill=f"s{i % 9}",
                    project="",
                    source="bench",
                    response=f"response {i} " + "x" * 200,
                    passed=i % 3 != 0,
                    rules_total=10,
                    rules_failed=(i * 7919) % 11,
                    created_at=now - timedelta(seconds=i),
                )
                for i in range(N)
            )
        ev = ws.evals
        print()
        for key in ("created_at", "rules_failed"):
            total = ev.count()

            def new(key: str = key, total: int = total) -> list[int]:
                rows = ev.history(limit=PAGE, offset=0, order_by=key, descending=False)
                rows.reverse()
                return [r.id for r in rows] if ev.count() == total else []

            def offset(key: str = key, total: int = total) -> list[int]:
                return [r.id for r in ev.history(limit=PAGE, offset=total - PAGE, order_by=key, descending=True)]

            def baseline(key: str = key, total: int = total) -> list[int]:
                return [r.id for r in ev.history(limit=total, offset=0, order_by=key, descending=True)][-PAGE:]

            assert new() == offset() == baseline()
            t_new, t_off, t_base = _best(new), _best(offset), _best(baseline, repeat=1)
            print(
                f"order by {key:<12} last page of {total:,}: new {t_new:7.1f} ms · OFFSET {t_off:7.1f} ms "
                f"({t_off / t_new:4.1f}x) · load every row {t_base:8.1f} ms ({t_base / t_new:5.0f}x)"
            )
        print("(best of 3 runs; the baseline once)")
    finally:
        ws.close()
