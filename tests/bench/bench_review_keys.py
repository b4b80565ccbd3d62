"""Review at scale (issue 30 d3): keys and seconds per decision for 100 decisions, the bulk way
(a multi-selection decided at once, one reason for all) against today's one-by-one.

Run: `make bench` (or `QT_QPA_PLATFORM=offscreen python -m pytest -s tests/bench/bench_review_keys.py`).

The material: 100 candidate facts in each of two projects of one workspace (the same statements),
reviewed side by side through the real Facts review panel by key clicks; every 5th fact is rejected
with the same 24-character reason (20 rejections, 80 approvals).

- One by one (today's desk): A for an approval (the next fact comes by itself); R, the reason,
  Enter for a rejection. Each decision is its own job and its own signed event.
- Bulk: walk the list with Ctrl+Down (the current row moves, the selection stays), Ctrl+Space
  marks each fact to reject; R, the reason once, Enter rejects the 20; Ctrl+A, A approves the 80.
  Two signed events.

Seconds are wall time from the first key to the last decision stored, per decision, with the
decisions run on the GUI thread (synchronous workers: the same for both). No timed assertion
(machines are noisy): keys, milliseconds and ratios are printed.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from PySide6.QtCore import Qt

from lorekeeper.audit.rows import sign_row
from lorekeeper.facts.model import Provenance, dumps, fact_id
from lorekeeper.store.models import Fact, utcnow

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "factsui"))  # run alone, too
from factsui_support import open_window

N = 100
REASON = "general framework advice"  # 24 characters
CTRL = Qt.KeyboardModifier.ControlModifier


def _fill(ws, tmp_path, project: str, n: int) -> None:
    doc = tmp_path / project / "rules.md"
    doc.parent.mkdir(parents=True, exist_ok=True)
    doc.write_text("\n".join(f"Rule {i}: do thing number {i} the house way." for i in range(n)) + "\n")
    ws.facts.ingest(doc.parent, project=project)
    did = ws.facts.documents(project)[0].id
    signer = ws.audit.log.signer
    now = utcnow()
    with ws.store.write() as s:
        for i in range(n):
            statement = f"Do thing number {i} the house way in module {i % 97}."
            row = Fact(
                id=fact_id(project, "convention", statement),
                project=project,
                type="convention",
                statement=statement,
                detail="",
                scope=dumps([]),
                tags="[]",
                confidence=0.9,
                status="candidate",
                provenance=dumps(
                    [Provenance(did, "rules.md", f"Rule {i}: do thing number {i} the house way.").to_dict()]
                ),
                merged_into="",
                flag="",
                ordinal=i + 1,
                source="bench",
                created_at=now,
            )
            sign_row(signer, row)
            s.add(row)


def _panel(qtbot, win, project: str):
    panel = win.select_panel("facts")
    qtbot.waitUntil(lambda: panel.project_combo.findData(project) >= 0)
    panel.project_combo.setCurrentIndex(panel.project_combo.findData(project))
    qtbot.waitUntil(lambda: panel.queue.total() == N)
    panel.table.setFocus()
    return panel


def _one_by_one(qtbot, panel) -> int:
    keys = 0
    for i in range(N):
        if i % 5 == 4:
            qtbot.keyClick(panel.table, Qt.Key.Key_R)
            qtbot.keyClicks(panel.queue.reason_edit, REASON)
            qtbot.keyClick(panel.queue.reason_edit, Qt.Key.Key_Return)
            keys += 2 + len(REASON)
        else:
            qtbot.keyClick(panel.focusWidget() or panel.table, Qt.Key.Key_A)
            keys += 1
    return keys


def _bulk(qtbot, panel) -> int:
    table, q = panel.table, panel.queue
    keys = 0
    table.clearSelection()
    for i in range(N):
        if i % 5 == 4:
            qtbot.keyClick(table, Qt.Key.Key_Space, CTRL)  # mark it
            keys += 1
        if i < N - 1:
            qtbot.keyClick(table, Qt.Key.Key_Down, CTRL)  # on to the next, the marks stay
            keys += 1
    assert len(q.selected_items()) == N // 5, len(q.selected_items())
    qtbot.keyClick(table, Qt.Key.Key_R)
    qtbot.keyClicks(q.reason_edit, REASON)
    qtbot.keyClick(q.reason_edit, Qt.Key.Key_Return)
    keys += 2 + len(REASON)
    qtbot.keyClick(table, Qt.Key.Key_A, CTRL)
    qtbot.keyClick(table, Qt.Key.Key_A)
    keys += 2
    return keys


def test_keys_and_seconds_per_decision(qtbot, demo_workspace, tmp_path, sync_workers, capsys):
    ws = demo_workspace
    ws.audit.require_key()
    _fill(ws, tmp_path, "onebyone", N)
    _fill(ws, tmp_path, "bulk", N)
    win = open_window(qtbot, ws)

    panel = _panel(qtbot, win, "onebyone")
    t0 = time.perf_counter()
    one_keys = _one_by_one(qtbot, panel)
    one_s = time.perf_counter() - t0
    panel = _panel(qtbot, win, "bulk")
    t0 = time.perf_counter()
    bulk_keys = _bulk(qtbot, panel)
    bulk_s = time.perf_counter() - t0
    for project in ("onebyone", "bulk"):
        counts = ws.facts.counts(project)
        assert (counts["approved"], counts["rejected"], counts["candidate"]) == (80, 20, 0), (project, counts)
    events = [e for e in ws.audit.log.events() if e.type in ("fact_approved", "fact_rejected")]
    win.close()
    with capsys.disabled():
        print(
            f"\nreview of {N} facts (20 rejections with one {len(REASON)}-char reason, 80 approvals), "
            f"side by side in the Facts review panel: one by one {one_keys} keys ({one_keys / N:.2f} per decision), "
            f"{one_s / N * 1000:.1f} ms per decision; bulk {bulk_keys} keys ({bulk_keys / N:.2f} per decision), "
            f"{bulk_s / N * 1000:.1f} ms per decision: {one_keys / bulk_keys:.1f}x fewer keys, "
            f"{one_s / bulk_s:.1f}x less time; {len(events)} signed decision events in all ({N} + 2 expected)"
        )
