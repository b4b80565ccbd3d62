"""Conflicts panel: an arbitration is undone by the keyboard (U, Ctrl+Z, the H history), like a
proposal or a fact: the conflict comes back open, selected, its facts back in conflict (issue 30 d3)."""

from __future__ import annotations

from PySide6.QtCore import Qt

NOMOD = Qt.KeyboardModifier.NoModifier


def _panel(qtbot, window):
    window.windowHandle().requestActivate()  # the review shortcuts need this window to have the keyboard
    qtbot.waitUntil(window.isActiveWindow)
    panel = window.select_panel("conflicts")
    panel.queue.select_row(0)
    panel.table.setFocus()
    return panel


def _resolve(qtbot, panel, key, reason: str) -> None:
    qtbot.keyClick(panel.table, key, NOMOD)
    q = panel.queue
    assert q.reason_edit.hasFocus()
    qtbot.keyClicks(q.reason_edit, reason)
    qtbot.keyClick(q.reason_edit, Qt.Key.Key_Return)


def test_undo_an_arbitration_by_u_and_from_the_history(qtbot, window, ui_workspace):
    facts = ui_workspace.facts
    panel = _panel(qtbot, window)
    (open_,) = facts.conflicts(status="open")  # the demo's one conflict
    assert panel.current().id == open_.id

    _resolve(qtbot, panel, Qt.Key.Key_1, "the runbook is the current rule")
    assert not facts.conflicts(status="open") and panel.model.rowCount() == 0
    assert panel.queue.undo_button.isEnabled()

    qtbot.keyClick(panel.table, Qt.Key.Key_U, NOMOD)  # U: the conflict comes back, selected
    assert [c.id for c in facts.conflicts(status="open")] == [open_.id]
    assert panel.current() is not None and panel.current().id == open_.id
    assert {facts.show(i).status for i in open_.facts} == {"conflicting"}
    assert "is open again" in panel.message.text()
    assert panel.keep_buttons[0].isEnabled()  # decidable again

    _resolve(qtbot, panel, Qt.Key.Key_X, "neither is true any more")
    assert facts.conflict(open_.id).resolution == "reject_all"
    qtbot.keyClick(panel.table, Qt.Key.Key_H, NOMOD)  # H: the session's decisions, newest first
    q = panel.queue
    assert q.history_frame.isVisible() and q.history_list.hasFocus()
    assert q.history_list.item(0).text() == f"Undo: conflict #{open_.id} resolved by rejecting every fact"
    qtbot.keyClick(q.history_list, Qt.Key.Key_Return)
    assert facts.conflict(open_.id).status == "open" and not q.history_frame.isVisible()
    kinds = [e.type for e in ui_workspace.audit.log.events() if e.type.startswith("fact_conflict")]
    assert kinds == ["fact_conflict_resolved", "fact_conflict_reopened"] * 2  # each one signed


def test_undo_a_conflict_resolved_before_this_session(qtbot, window, ui_workspace):
    facts = ui_workspace.facts
    (c,) = facts.conflicts(status="open")
    facts.resolve(c.id, keep=c.facts[1], why="decided yesterday")  # not in the queue's history
    panel = _panel(qtbot, window)
    panel.status_combo.setCurrentIndex(panel.status_combo.findData("resolved"))
    panel.queue.select_row(0)
    panel.table.setFocus()
    assert panel.current().id == c.id and "U undoes it" in panel.resolution.text()
    qtbot.keyClick(panel.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert facts.conflict(c.id).status == "open"
