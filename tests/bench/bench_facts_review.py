"""Facts review throughput: keys per decision for a keyboard user, and the panel's latency per
decision with 10k facts in the store, against fair baselines.

Run: `make bench` (or `QT_QPA_PLATFORM=offscreen python -m pytest -s tests/bench/bench_facts_review.py`).

- Keys: a review of 40 facts (every 5th rejected with a 24-character reason) driven through the real
  panel by key clicks; we count the keys sent. Baseline: the same decisions typed as CLI commands
  (`lorekeeper facts approve ID` / `facts reject ID --reason "..."`, each with its Enter), the only
  other way to decide without the mouse.
- Latency: from the key press (A) to the next fact on screen, with real worker threads: the signed
  decision runs in a job, then the panel shows the next fact.
  Baselines: the service call alone (`ws.facts.approve`, the floor), and the same reload done the
  naive way (every one of the 10k rows handed to the view after each decision).
  The panel drops the decided fact from its list when the decision returns, so the next fact is on
  screen without waiting for the reload (one `ws.facts.list`, ~0.5 ms a row in the service), which
  follows in a worker.

No timed assertion (machines are noisy): milliseconds and ratios are printed.
"""

from __future__ import annotations

import statistics
import time

import pytest
from factsui_support import open_window
from PySide6.QtCore import Qt

from lorekeeper.audit.rows import sign_row
from lorekeeper.facts.model import Provenance, dumps, fact_id
from lorekeeper.store.models import Fact, utcnow
from lorekeeper.ui.models.base import RowsModel

N = 10_000
REASON = "general framework advice"  # 24 characters


def _fill(ws, tmp_path, n: int) -> None:
    doc = tmp_path / "docs" / "big.md"
    doc.parent.mkdir(parents=True, exist_ok=True)
    doc.write_text("\n".join(f"Rule {i}: do thing number {i} the house way." for i in range(n)) + "\n")
    ws.facts.ingest(doc.parent, project="bench")
    did = ws.facts.documents("bench")[0].id
    signer = ws.audit.log.signer
    now = utcnow()
    seen: set[str] = set()
    with ws.store.write() as s:
        for i in range(n):
            statement = f"Do thing number {i} the house way in module {i % 97}."
            fid, salt = fact_id("bench", "convention", statement), 0
            while fid in seen:
                salt += 1
                fid = fact_id("bench", "convention", statement, salt)
            seen.add(fid)
            row = Fact(
                id=fid,
                project="bench",
                type="convention",
                statement=statement,
                detail="",
                scope=dumps([f"src/m{i % 97}/**"] if i % 3 else []),
                tags="[]",
                confidence=0.9 if i % 2 else 0.7,
                status="candidate",
                provenance=dumps(
                    [Provenance(did, "big.md", f"Rule {i}: do thing number {i} the house way.").to_dict()]
                ),
                merged_into="",
                flag="",
                ordinal=i + 1,
                source="bench",
                created_at=now,
            )
            sign_row(signer, row)
            s.add(row)


class _Naive(RowsModel):
    HEADERS = ("Type", "Statement", "Conf.", "Docs", "Scope", "Status")

    def cell(self, item, column, role):
        if role == Qt.ItemDataRole.DisplayRole:
            return (item.type, item.statement, f"{item.confidence:.2f}", "1", ",".join(item.scope), item.status)[column]
        return None


@pytest.fixture
def big(demo_workspace, tmp_path):
    demo_workspace.audit.require_key()
    _fill(demo_workspace, tmp_path, N)
    return demo_workspace


def test_keys_per_decision(qtbot, demo_workspace, tmp_path, sync_workers, capsys):
    ws = demo_workspace
    ws.audit.require_key()
    _fill(ws, tmp_path, 40)
    win = open_window(qtbot, ws)
    panel = win.select_panel("facts")
    panel.table.setFocus()
    keys = 0
    ids: list[str] = []
    for i in range(40):
        cur = panel.current()
        ids.append(cur.id)
        if i % 5 == 4:
            qtbot.keyClick(panel.table, Qt.Key.Key_R)
            qtbot.keyClicks(panel.queue.reason_edit, REASON)
            qtbot.keyClick(panel.queue.reason_edit, Qt.Key.Key_Return)
            keys += 2 + len(REASON)
        else:
            qtbot.keyClick(panel.focusWidget() or panel.table, Qt.Key.Key_A)
            keys += 1
    counts = ws.facts.counts("bench")
    assert counts["approved"] == 32 and counts["rejected"] == 8 and counts["candidate"] == 0
    cli = sum(
        len(f"lorekeeper facts reject {fid} --reason '{REASON}'") + 1
        if i % 5 == 4
        else len(f"lorekeeper facts approve {fid}") + 1
        for i, fid in enumerate(ids)
    )
    win.close()
    with capsys.disabled():
        print(
            f"\nfacts review, 40 decisions (8 rejections with a {len(REASON)}-char reason): panel {keys} keys "
            f"({keys / 40:.1f} per decision; 1 per approval, the next fact comes by itself) vs CLI {cli} keys "
            f"({cli / 40:.1f} per decision): {cli / keys:.1f}x fewer keys"
        )


def test_latency_per_decision_at_10k(qtbot, big, capsys):
    from lorekeeper.ui import workers

    ws = big
    win = open_window(qtbot, ws)  # real worker threads here: the GUI thread only shows
    panel = win.select_panel("facts")
    qtbot.waitUntil(lambda: panel.project_combo.findData("bench") >= 0, timeout=60000)
    panel.project_combo.setCurrentIndex(panel.project_combo.findData("bench"))
    qtbot.waitUntil(lambda: panel.queue.total() == N and not panel.model.is_loading, timeout=60000)
    win.windowHandle().requestActivate()
    qtbot.waitUntil(win.isActiveWindow)
    panel.table.setFocus()
    assert panel.model.rowCount() == panel.model.PAGE_SIZE  # paged: one page in the view

    panel_ms: list[float] = []
    for _ in range(8):
        # the previous decision's reload has finished (it runs in a worker): the panel is idle
        qtbot.waitUntil(
            lambda: workers.tracker().running() == 0 and not panel.queue.busy and not panel.model.is_loading,
            timeout=60000,
        )
        before = panel.current().id
        t0 = time.perf_counter()
        qtbot.keyClick(panel.focusWidget() or panel.table, Qt.Key.Key_A)
        qtbot.waitUntil(lambda b=before: panel.current() is not None and panel.current().id != b, timeout=60000)
        panel_ms.append((time.perf_counter() - t0) * 1000)
    qtbot.waitUntil(lambda: workers.tracker().running() == 0, timeout=60000)
    assert ws.facts.counts("bench")["approved"] == 8

    service_ms: list[float] = []
    naive_ms: list[float] = []
    from PySide6.QtWidgets import QTableView

    view = QTableView()
    naive = _Naive()
    view.setModel(naive)
    view.resize(600, 400)
    view.show()
    for f in ws.facts.list("bench", status="candidate")[:8]:
        t0 = time.perf_counter()
        ws.facts.approve(f.id)
        service_ms.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        rows = ws.facts.list("bench", status="candidate")
        naive.set_rows(rows)
        view.resizeColumnsToContents()  # what a view that shows every row does to fit them
        qtbot.wait(0)
        naive_ms.append((time.perf_counter() - t0) * 1000 + service_ms[-1])
    qtbot.wait(500)  # the panel's debounced count refresh starts...
    workers.wait_for_all()  # ...and every job ends before the window goes
    view.close()
    win.close()
    p, s, n = statistics.median(panel_ms), statistics.median(service_ms), statistics.median(naive_ms)
    with capsys.disabled():
        print(
            f"\nfacts review at {N} facts, median of 8 approvals: panel {p:.1f} ms per decision (key press to the "
            f"next fact shown; the reload follows in a worker) vs the service call alone {s:.1f} ms ({p / s:.1f}x) and a "
            f"naive panel that waits for the reload and shows all rows {n:.1f} ms ({n / p:.1f}x slower)"
        )
