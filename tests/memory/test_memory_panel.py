"""The Memory panel: corpora health and Rebuild, search with filters, the story's injection preview,
the clarification capture with its validation step (keyboard: Ctrl+Return validates, Esc rejects)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt


@pytest.fixture
def panel(qtbot, demo_workspace, sync_workers):
    from lorekeeper.ui.main_window import MainWindow

    win = MainWindow(demo_workspace)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    yield win.select_panel("memory")
    win.close()


def test_corpora_search_and_preview(qtbot, panel):
    assert [r["corpus"] for r in panel.corpora.rows] == ["notes", "clarifications", "learnings"]
    assert not any(r["stale"] for r in panel.corpora.rows)
    qtbot.mouseClick(panel.rebuild_btn, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.rebuild_btn.isEnabled())
    panel.tabs.setCurrentIndex(0)
    qtbot.keyClicks(panel.query, "concurrent index postgres")
    panel.verdict.setCurrentIndex(panel.verdict.findData("signal"))
    qtbot.keyClick(panel.query, Qt.Key.Key_Return)
    assert panel.results.rows[0]["id"] == "research/2026-11-postgres-concurrent-indexes.md"
    assert all(r["verdict"] == "signal" for r in panel.results.rows)
    panel.tabs.setCurrentIndex(1)
    assert panel.story.currentData() == "PD-250"
    assert "### Past clarifications" in panel.preview_text.toPlainText()


def test_clarify_then_validate_and_reject(qtbot, panel):
    panel.tabs.setCurrentIndex(2)
    panel.c_story.setText("PD-300")
    panel.c_domain.setText("erp")
    panel.c_project.setText("citadel-v2")
    for key, box in panel.answers.items():
        box.setPlainText(f"The {key} of the nightly invoice export.")
    qtbot.mouseClick(panel.summarise_btn, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.validate_btn.isEnabled(), timeout=20000)
    assert all(not box.toPlainText() for box in panel.answers.values())  # the verbatim left the window
    assert "Key terms:" in panel.summary_text.toPlainText()
    qtbot.keyClick(panel.validate_btn, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert (Path(panel.ws.root) / "clarifications" / "PD-300-clarifications.md").is_file()
    assert not panel.validate_btn.isEnabled()
    # a second one, rejected with Esc: nothing is kept
    panel.c_story.setText("PD-301")
    for key, box in panel.answers.items():
        box.setPlainText(f"Another {key}.")
    qtbot.mouseClick(panel.summarise_btn, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.reject_btn.isEnabled(), timeout=20000)
    qtbot.keyClick(panel.reject_btn, Qt.Key.Key_Escape)
    assert not (Path(panel.ws.root) / "clarifications" / "PD-301-clarifications.md").exists()
    assert panel.summary_text.toPlainText() == ""
