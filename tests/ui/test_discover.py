"""The Skills panel's Discover view: add a marketplace, search, read the note, install and fork."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import Qt

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "market"))
from market_fixture import make_marketplace


def click(qtbot, widget) -> None:
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)


def test_discover_add_search_install_and_fork(qtbot, window, ui_workspace, tmp_path) -> None:
    market = make_marketplace(tmp_path / "team-market")
    panel = window.select_panel("skills")
    panel.views.setCurrentWidget(panel.discover)
    view = panel.discover
    assert "No sources yet" in view.sources_label.text()

    qtbot.keyClicks(view.location, str(market / ".claude-plugin" / "marketplace.json"))
    click(qtbot, view.add_button)
    assert "Added team-market: 3 skill(s)" in view.message.text()
    assert "team-market (marketplace, 3)" in view.sources_label.text()
    assert view.table.rowCount() == 3

    qtbot.keyClicks(view.query, "fill a pdf form")
    qtbot.keyClick(view.query, Qt.Key.Key_Return)
    assert view.table.item(0, 0).text() == "pdf-forms"
    assert "Tools it asks for: Bash, Read" in view.note_view.toPlainText()
    assert "scripts/fill_form.py" in view.note_view.toPlainText()
    assert not view.fork_button.isEnabled()  # no project picked yet

    click(qtbot, view.install_button)
    assert ui_workspace.skills.exists("pdf-forms")
    assert "Installed pdf-forms globally" in view.message.text()
    qtbot.waitUntil(lambda: view.table.item(0, 3) is not None and view.table.item(0, 3).text() == "yes")

    view.query.clear()
    qtbot.keyClicks(view.query, "production outage")
    click(qtbot, view.search_button)
    assert view.table.item(0, 0).text() == "outage-runbook"
    project = ui_workspace.skills.projects()[0]
    view.project.setCurrentIndex(view.project.findData(project))
    assert view.fork_button.isEnabled()
    click(qtbot, view.fork_button)
    assert ui_workspace.skills.exists("outage-runbook", project)
    assert not ui_workspace.skills.exists("outage-runbook")
