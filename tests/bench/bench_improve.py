"""Nightly analysis cost at 5k and 50k quality events, side by side with its floor.

Run: `python -m pytest -s tests/bench/bench_improve.py`. The baseline is what any nightly run must
do at least: compute the per-skill metrics of every project scope (`ws.quality.metrics`). The
nightly run adds the failing-rule scan of the eval history, related learnings, the templates and
the writes; we print both times and the ratio. No timed assertion: machines are noisy.
"""

from __future__ import annotations

import json
import random
import time
from datetime import timedelta

from lorekeeper.store.models import EvalRun, QualityEvent, utcnow
from lorekeeper.workspace import Workspace

PROJECTS = ["", "citadel-v2", "storefront"]


def fill(ws: Workspace, n_events: int, seed: int = 11) -> None:
    rnd = random.Random(seed)
    skills = [i.name for i in ws.skills.list(include_forks=False)]
    now = utcnow()
    rows, runs = [], []
    for i in range(n_events // 2):
        skill, project = rnd.choice(skills), rnd.choice(PROJECTS)
        at = now - timedelta(days=rnd.random() * 29)
        ok = rnd.random() < (0.6 if skill in skills[:3] else 0.95)
        rows.append(QualityEvent(kind="applied", skill=skill, project=project, created_at=at))
        rows.append(
            QualityEvent(kind="eval", skill=skill, project=project, passed=ok, created_at=at, eval_run_id=i + 1)
        )
        runs.append(
            EvalRun(
                id=i + 1,
                skill=skill,
                project=project,
                source="bench",
                response="x",
                passed=ok,
                rules_total=1,
                rules_failed=0 if ok else 1,
                created_at=at,
                results=json.dumps(
                    [{"id": "r1", "name": "Rule one", "type": "string_contains", "severity": "warning", "passed": ok}]
                ),
            )
        )
    with ws.store.write() as s:
        s.add_all(runs)
        s.add_all(rows)


def timed(fn, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def test_nightly_vs_metrics_floor(tmp_path):
    print()
    print(f"{'events':>8} {'metrics floor (s)':>18} {'nightly (s)':>12} {'ratio':>7} {'created':>8}")
    for n in (5_000, 50_000):
        ws = Workspace.init(tmp_path / f"ws{n}")
        for p in PROJECTS[1:]:
            ws.skills.add_project(p)
        fill(ws, n)
        floor = timed(lambda ws=ws: [ws.quality.metrics(project=p, by_project=True) for p in PROJECTS])
        created: list[int] = []

        def nightly(ws=ws) -> None:
            for p in ws.improve.proposals.list("pending"):  # start each repeat from an empty queue
                with ws.store.write() as s:
                    from lorekeeper.store.models import Proposal

                    s.delete(s.get(Proposal, p.id))
            created.append(len(ws.improve.run_nightly().created))  # noqa: B023 - appended to on purpose

        took = timed(nightly)
        print(f"{n:>8} {floor:>18.3f} {took:>12.3f} {took / floor:>7.2f} {created[-1]:>8}")
        ws.close()
