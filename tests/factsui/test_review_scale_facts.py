"""Review at scale in the Facts review and Conflicts panels (issue 30 d3): a multi-selection
rejected with one reason in one signed event and undone at once, several conflicts resolved with
one reason, a comment and the "mine" view."""

from __future__ import annotations

import pytest
from factsui_support import open_window, seed_facts
from PySide6.QtCore import Qt

SHIFT = Qt.KeyboardModifier.ShiftModifier
CTRL = Qt.KeyboardModifier.ControlModifier


@pytest.fixture
def win(qtbot, demo_workspace, tmp_path, sync_workers, confirm_yes):
    seed_facts(demo_workspace, tmp_path)
    w = open_window(qtbot, demo_workspace)
    yield w
    w.close()


def press(qtbot, panel, k, mod=Qt.KeyboardModifier.NoModifier) -> None:
    qtbot.keyClick(panel.focusWidget() or panel.table, k, mod)


def test_facts_reject_a_selection_with_one_reason_then_undo_it(qtbot, win, demo_workspace):
    ws = demo_workspace
    panel = win.select_panel("facts")
    panel.project_combo.setCurrentIndex(panel.project_combo.findData("shop"))
    panel.table.setFocus()
    q = panel.queue
    press(qtbot, panel, Qt.Key.Key_Down, SHIFT)
    press(qtbot, panel, Qt.Key.Key_Down, SHIFT)
    chosen = [f.id for f in q.selected_items()]
    assert len(chosen) == 3 and panel.queue.reject_button.text() == "Reject 3 (R)"
    press(qtbot, panel, Qt.Key.Key_R)
    qtbot.keyClicks(q.reason_edit, "general React knowledge")
    qtbot.keyClick(q.reason_edit, Qt.Key.Key_Return)
    assert {ws.facts.show(i).status for i in chosen} == {"rejected"}
    assert {ws.facts.show(i).decision_reason for i in chosen} == {"general React knowledge"}
    events = [e for e in ws.audit.log.events() if e.type == "fact_rejected"]
    assert len(events) == 1 and sorted(events[0].data["facts"]) == sorted(chosen)  # one signed event
    assert "Rejected 3 facts" in panel.message.text() and q.progress_label.text() == "3 of 7 reviewed"

    press(qtbot, panel, Qt.Key.Key_Z, CTRL)
    assert {ws.facts.show(i).status for i in chosen} == {"candidate"}
    assert "Back in the queue: 3 facts" in panel.message.text()

    press(qtbot, panel, Qt.Key.Key_C)  # a comment on the current fact
    cur = panel.current()
    qtbot.keyClicks(q.reason_edit, "quote is from an old revision")
    qtbot.keyClick(q.reason_edit, Qt.Key.Key_Return)
    assert [c.text for c in ws.review.comments("fact", cur.id)] == ["quote is from an old revision"]
    press(qtbot, panel, Qt.Key.Key_M, CTRL)  # mine only: nothing assigned yet
    assert panel.model.rowCount() == 0
    press(qtbot, panel, Qt.Key.Key_M, CTRL)
    assert panel.model.rowCount() == 7


def test_conflicts_resolve_a_selection_with_one_reason(qtbot, win, demo_workspace):
    ws = demo_workspace
    panel = win.select_panel("conflicts")
    panel.table.setFocus()
    n = panel.model.rowCount()
    assert n >= 2
    panel.table.selectAll()
    assert panel.reject_all_button.isEnabled()
    press(qtbot, panel, Qt.Key.Key_X)
    q = panel.queue
    assert f"{n} selected" in q.reason_edit.placeholderText()
    qtbot.keyClicks(q.reason_edit, "both rules are obsolete")
    qtbot.keyClick(q.reason_edit, Qt.Key.Key_Return)
    assert ws.facts.conflicts() == []
    resolved = ws.facts.conflicts(status="resolved")
    assert len(resolved) == n and {c.resolution_reason for c in resolved} == {"both rules are obsolete"}
    assert f"{n} conflicts resolved" in panel.message.text()


def test_a_saved_view_puts_the_filters_back(qtbot, win):
    panel = win.select_panel("facts")
    panel.table.setFocus()
    qtbot.waitUntil(lambda: panel.project_combo.findData("shop") >= 0)
    panel.project_combo.setCurrentIndex(panel.project_combo.findData("shop"))
    panel.status_combo.setCurrentIndex(panel.status_combo.findData("approved"))
    views = panel.views
    press(qtbot, panel, Qt.Key.Key_S, CTRL | SHIFT)  # one field: the name, Enter saves
    assert views.name_edit.isVisible() and views.name_edit.hasFocus()
    qtbot.keyClicks(views.name_edit, "shop approved")
    qtbot.keyClick(views.name_edit, Qt.Key.Key_Return)
    assert not views.name_edit.isVisible() and "shop approved" in views.views()

    panel.project_combo.setCurrentIndex(0)
    panel.status_combo.setCurrentIndex(panel.status_combo.findData("candidate"))
    views.choice.setCurrentIndex(views.choice.findData("shop approved"))
    views.choice.activated.emit(views.choice.currentIndex())  # chosen in the list
    assert panel.project_combo.currentData() == "shop" and panel.status_combo.currentData() == "approved"
    assert panel.query().project == "shop" and panel.query().status == "approved"

    # a new window (the next start) still has it
    again = type(views)("facts", panel.filters, [panel.notes.mine_box])
    assert "shop approved" in again.views()
    again.deleteLater()
    views.forget()
    assert views.views() == {}
