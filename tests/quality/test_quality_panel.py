"""The Quality dashboard: skills sorted by health, underperformers marked, charts per skill."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from PySide6.QtCore import Qt


def test_underperformers_come_first_and_are_marked(qtbot, window, demo_workspace):
    q = demo_workspace.quality
    now = datetime.now(UTC)
    for i in range(4):
        q.log_applied(["api-design"], "storefront", at=now - timedelta(days=i))
        q.log_eval("api-design", "storefront", False, at=now - timedelta(days=i))
    q.log_feedback(["api-design"], "storefront", False)
    panel = window.select_panel("quality")
    panel.reload()
    qtbot.waitUntil(lambda: panel.model.rowCount() > 0)
    top = panel.model.rows[0]
    assert top.skill == "api-design" and top.underperforming
    status = panel.model.data(panel.model.index(0, panel.model.COL_STATUS))
    assert status.startswith("Underperforming: low success rate (")
    assert (
        panel.model.data(panel.model.index(0, panel.model.COL_SUCCESS)) == "20%"
    )  # the passing demo sample + 4 failures
    assert "underperforming" in panel.summary.text()
    flags = [m.underperforming for m in panel.model.rows]
    assert flags == sorted(flags, reverse=True) and flags.count(True) >= 2  # all flagged skills first

    # selecting a skill draws its own series
    qtbot.mouseClick(
        panel.table.viewport(), Qt.MouseButton.LeftButton, pos=panel.table.visualRect(panel.model.index(0, 0)).center()
    )
    qtbot.waitUntil(lambda: panel.snapshot is not None and panel.snapshot.skill == "api-design")
    assert panel.chart_title.text().endswith("api-design")
    assert sum(p.evaluated for p in panel.snapshot.points) == 5

    # the window filter: last 7 days leaves the older demo samples out
    panel.window_combo.setCurrentIndex(0)
    qtbot.waitUntil(lambda: panel.snapshot.days == 7)
    assert all(m.applied_count <= 5 for m in panel.model.rows)


def test_project_filter(qtbot, window):
    panel = window.select_panel("quality")
    qtbot.waitUntil(lambda: panel.model.rowCount() > 0)
    panel.project.setCurrentIndex(panel.project.findData("storefront"))
    qtbot.waitUntil(lambda: {m.skill for m in panel.model.rows} == {"test-writer"})
