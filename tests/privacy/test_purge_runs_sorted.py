"""The purge history is paged and sorted in the store (issue 17): every run counts, not the last
200; the story search runs in SQL; `purge runs --sort COL [--desc]` and the panel's headers agree."""

from __future__ import annotations

import json
from datetime import timedelta

from PySide6.QtCore import QPoint, Qt
from tests.helpers.cli import run_lorekeeper

RUNS = 600


def _bulk_runs(ws) -> None:
    from lorekeeper.store.models import PurgeRun, utcnow

    now = utcnow()
    with ws.store.write() as s:
        s.add_all(
            PurgeRun(
                mode="story",
                stories=json.dumps([f"PD-{i}"]),
                status="done",
                counts="{}",
                verified=i % 4 != 0,
                started_at=now - timedelta(hours=i),
            )
            for i in range(RUNS)
        )


def test_runs_are_counted_searched_and_sorted_in_the_store(workspace):
    _bulk_runs(workspace)
    purge = workspace.purge
    assert purge.count_runs() == RUNS  # more than the 200 the panel used to read
    expected = {i for i in range(RUNS) if "pd-1" in f"pd-{i}"}
    assert purge.count_runs("pd-1") == len(expected)
    found = purge.runs(1000, story="Pd-1")
    assert {int(r.stories[0][3:]) for r in found} == expected
    oldest_first = purge.runs(3, order_by="started_at", descending=False)
    assert [r.stories for r in oldest_first] == [[f"PD-{RUNS - 1}"], [f"PD-{RUNS - 2}"], [f"PD-{RUNS - 3}"]]
    page = purge.runs(5, offset=RUNS - 5)
    assert [r.id for r in page] == [r.id for r in purge.runs(5, order_by="id", descending=False)][::-1]

    out = run_lorekeeper(
        "--workspace", str(workspace.root), "purge", "runs", "--sort", "stories", "--limit", "2", "--json"
    )
    assert out.returncode == 0, out.stderr
    assert [r["stories"] for r in json.loads(out.stdout)["runs"]] == [["PD-0"], ["PD-1"]]
    bad = run_lorekeeper("--workspace", str(workspace.root), "purge", "runs", "--sort", "counts")
    assert bad.returncode == 2 and "counts" in bad.stderr


def test_the_learn_list_sort_option(workspace):
    for rule in ("beta rule", "alpha rule", "gamma rule"):
        workspace.learnings.add(rule, project="p")
    out = run_lorekeeper("--workspace", str(workspace.root), "learn", "list", "--sort", "rule", "--desc", "--json")
    assert out.returncode == 0, out.stderr
    assert [r["rule"] for r in json.loads(out.stdout)] == ["gamma rule", "beta rule", "alpha rule"]


def test_the_panel_sorts_every_run_and_reaches_the_last(qtbot, workspace, sync_workers):
    from lorekeeper.ui.bus import ChangeBus
    from lorekeeper.ui.models.paged import JumpToEnd
    from lorekeeper.ui.panels.base import AppContext
    from lorekeeper.ui.panels.purge import PurgePanel

    _bulk_runs(workspace)
    panel = PurgePanel(AppContext(workspace, ChangeBus()))
    qtbot.addWidget(panel)
    panel.resize(1000, 600)
    panel.show()
    jump = JumpToEnd(panel)
    panel.table.installEventFilter(jump)
    assert panel.model.rowCount() == RUNS and panel.count_label.text() == "600 runs"
    header = panel.table.horizontalHeader()
    x = header.sectionViewportPosition(3) + header.sectionSize(3) // 2
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, header.height() // 2))
    ascending = header.sortIndicatorOrder() == Qt.SortOrder.AscendingOrder
    first, last = ("PD-0", "PD-99") if ascending else ("PD-99", "PD-0")  # as text: "PD-99" > "PD-599"
    assert header.sortIndicatorSection() == 3 and panel.model.row(0).stories == [first]
    panel.table.setFocus()
    qtbot.keyClick(panel.table, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: panel.table.currentIndex().row() == RUNS - 1)
    assert panel.model.row(RUNS - 1).stories == [last]
    assert panel.verify_button.isEnabled()  # the selected run is loaded
