"""LEARNINGS block and quality metrics at 100, 10k and 100k rows, side by side with naive baselines.

Run: `make bench` (or `python -m pytest -s tests/bench/bench_learnings.py`).

- Block: Lorekeeper reads only the newest rows that can fit in 2,000 characters (budget // 4 + 1)
  plus one COUNT; the baseline reads every active rule of the project, newest first, and builds
  the block from all of them (what the seed's formatForPrompt does with the whole file).
- Metrics: Lorekeeper counts in the database (one GROUP BY); the baseline loads every event of
  the window and counts in Python.

Both sides must give the same result; we print milliseconds per call and the ratio. No timed
assertion: machines are noisy.
"""

from __future__ import annotations

import random
import tempfile
import time
from datetime import timedelta
from pathlib import Path

from lorekeeper.learnings.block import learnings_block
from lorekeeper.learnings.service import LearningService
from lorekeeper.quality.metrics import compute
from lorekeeper.quality.tracker import QualityTracker
from lorekeeper.store.engine import Store
from lorekeeper.store.models import Learning, QualityEvent, utcnow


def _timed(fn, repeat: int = 5) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best * 1000, out


def _fill(store: Store, n: int) -> None:
    rnd = random.Random(n)
    now = utcnow()
    with store.write() as s:
        s.add_all(
            Learning(
                project="p",
                rule=f"rule {i} " + "w" * rnd.randint(10, 120),
                source="fixit",
                created_at=now - timedelta(seconds=n - i),
                updated_at=now,
            )
            for i in range(n)
        )
        skills = [f"skill-{k}" for k in range(25)]
        s.add_all(
            QualityEvent(
                kind=rnd.choice(["applied", "eval", "feedback"]),
                skill=rnd.choice(skills),
                project="p",
                passed=rnd.random() < 0.8,
                positive=rnd.random() < 0.6,
                created_at=now - timedelta(hours=rnd.randint(0, 24 * 29)),
            )
            for _ in range(n)
        )


def test_bench_learnings_block_and_metrics() -> None:
    print()
    print(f"{'rows':>8} {'block ms':>9} {'naive ms':>9} {'ratio':>6}   {'metrics ms':>10} {'naive ms':>9} {'ratio':>6}")
    for n in (100, 10_000, 100_000):
        with tempfile.TemporaryDirectory() as d:
            store = Store(f"sqlite:///{Path(d) / 'b.db'}")
            _fill(store, n)
            svc, q = LearningService(store), QualityTracker(store)
            t_block, block = _timed(lambda svc=svc: svc.block("p"))
            t_naive, naive = _timed(lambda svc=svc: learnings_block((i.id, i.rule) for i in svc.for_prompt("p")))
            assert block.text == naive.text and block.dropped == naive.dropped  # type: ignore[union-attr]
            t_m, m = _timed(lambda q=q: q.metrics(days=30))
            t_mn, mn = _timed(lambda q=q: compute(q.events(days=30)))
            assert m == mn
            print(
                f"{n:>8} {t_block:>9.2f} {t_naive:>9.2f} {t_naive / t_block:>5.1f}x   {t_m:>10.2f} {t_mn:>9.2f} {t_mn / t_m:>5.1f}x"
            )
            store.close()
