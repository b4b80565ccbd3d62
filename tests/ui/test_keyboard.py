"""Keyboard everywhere: F1 lists the current panel's shortcuts and the global ones, every panel
has a shortcut (Ctrl+0 is the tenth), Ctrl+Q quits, Tab leaves a table."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QApplication

from lorekeeper.ui.main_window import panel_keys


def test_f1_lists_the_current_panels_shortcuts_and_the_global_ones(qtbot, window):
    window.select_panel("proposals")
    qtbot.keyClick(window, Qt.Key.Key_F1)
    sheet = window.cheatsheet
    assert sheet is not None and sheet.isVisible()
    text = sheet.text()
    assert "Proposals" in text and "Approve the selected proposal" in text  # this panel's keys
    assert "Ctrl+Q" in text and "Quit Lorekeeper" in text and "Everywhere" in text
    assert "Go to Compression ledger" in text  # every panel's key is listed
    sheet.close()
    window.select_panel("playground")
    qtbot.keyClick(window, Qt.Key.Key_F1)
    assert "Send the message" in window.cheatsheet.text()  # a QShortcut with its whatsThis
    assert "Approve the selected proposal" not in window.cheatsheet.text()


def test_every_panel_has_a_shortcut_and_ctrl_0_is_the_tenth(qtbot, window):
    assert all(panel_keys(i) for i in range(len(window.panel_ids)))
    assert panel_keys(9) == "Ctrl+0" and panel_keys(10) == "Alt+1"
    if len(window.panel_ids) >= 10:
        qtbot.keyClick(window, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
        assert window.current_panel() is window.panels[window.panel_ids[9]]
        assert "Ctrl+0" in window.sidebar.item(9).toolTip()


def test_tab_leaves_a_table(qtbot, window):
    panel = window.select_panel("skills")
    views = list(panel.findChildren(QAbstractItemView))
    assert views and not any(v.tabKeyNavigation() for v in views)
    panel.table.setFocus()
    qtbot.waitUntil(panel.table.hasFocus)
    qtbot.keyClick(panel.table, Qt.Key.Key_Tab)
    assert not panel.table.hasFocus()
    assert QApplication.focusWidget() is not None


def test_ctrl_q_closes_the_window(qtbot, window):
    assert window.isVisible()
    qtbot.keyClick(window, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    assert not window.isVisible()


def test_ctrl_end_reaches_the_last_row_of_a_paged_history(qtbot, window):
    panel = window.select_panel("evals")
    model = panel.history_model
    model.PAGE_SIZE = 5  # the demo's runs span several pages
    model.reload()
    total = model.total
    # the count is known at once (issue 17): the table has every row, only the first page read
    assert total is not None and total > 10 and model.rowCount() == total
    table = panel.history_table
    table.setFocus()
    qtbot.keyClick(table, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: table.currentIndex().row() == total - 1)
    oldest = window.ws.evals.history(limit=1, order_by="created_at", descending=False)[0]
    assert model.row(total - 1).id == oldest.id  # the last row in the table's order, read as one page
    assert not model.is_loaded(total // 2)  # the rows between were not read
    loaded = [r.id for r in model.rows if r is not None]
    assert len(loaded) == len(set(loaded))  # none twice
