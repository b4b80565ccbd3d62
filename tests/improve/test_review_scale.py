"""Review at scale in the Proposals panel (issue 30 d3): a multi-selection decided with one key
(A, or R with one reason for all), the decision history (H) undoing an older decision and not only
the last, and Ctrl+F searching inside the diff (count, next / previous, folded lines opened)."""

from __future__ import annotations

import pytest
from improve_support import open_window, record
from PySide6.QtCore import Qt

SHIFT = Qt.KeyboardModifier.ShiftModifier
CTRL = Qt.KeyboardModifier.ControlModifier


@pytest.fixture
def win(qtbot, weak_ws, sync_workers):
    record(weak_ws, "git-manager", None, passed=[True, True, True], down=2)
    record(weak_ws, "test-writer", None, passed=[False, True, True])
    weak_ws.improve.run_nightly()
    w = open_window(qtbot, weak_ws)
    yield w
    w.close()


@pytest.fixture
def panel(qtbot, win):
    p = win.select_panel("proposals")
    p.table.setFocus()
    qtbot.waitUntil(lambda: p.model.rowCount() == 3)
    return p


def press(qtbot, panel, k, mod=Qt.KeyboardModifier.NoModifier) -> None:
    qtbot.keyClick(panel.focusWidget() or panel.table, k, mod)


def test_shift_down_then_a_approves_the_selection(qtbot, panel, weak_ws):
    proposals = weak_ws.improve.proposals
    press(qtbot, panel, Qt.Key.Key_Down, SHIFT)  # rows 1 and 2 selected
    chosen = [p.id for p in panel.queue.selected_items()]
    assert len(chosen) == 2 and panel.approve_button.text() == "Approve 2 (A)"
    press(qtbot, panel, Qt.Key.Key_A)
    assert {proposals.get(i).status for i in chosen} == {"approved"}
    assert proposals.counts()["pending"] == 1 and panel.model.rowCount() == 1
    assert "Approved 2 proposals" in panel.message.text()
    assert panel.queue.progress_label.text() == "2 of 3 reviewed"

    press(qtbot, panel, Qt.Key.Key_Z, CTRL)  # one undo takes the whole selection back
    assert {proposals.get(i).status for i in chosen} == {"pending"}
    assert panel.model.rowCount() == 3 and "Undid 2 decisions" in panel.message.text()


def test_r_rejects_the_selection_with_one_reason(qtbot, panel, weak_ws):
    proposals = weak_ws.improve.proposals
    panel.table.selectAll()  # Ctrl+A in the list
    assert panel.reject_button.text() == "Reject 3 (R)"
    press(qtbot, panel, Qt.Key.Key_R)
    q = panel.queue
    assert q.reject_bar.isVisible() and "3 selected" in q.reason_edit.placeholderText()
    qtbot.keyClicks(q.reason_edit, "templates only, wait for Sage")
    qtbot.keyClick(q.reason_edit, Qt.Key.Key_Return)
    assert proposals.counts() == {"pending": 0, "approved": 0, "rejected": 3}
    assert {p.decision_reason for p in proposals.list("rejected")} == {"templates only, wait for Sage"}


def test_history_undoes_an_older_decision(qtbot, panel, weak_ws):
    proposals = weak_ws.improve.proposals
    first = panel.current()
    press(qtbot, panel, Qt.Key.Key_A)
    second = panel.current()
    assert second.id != first.id
    press(qtbot, panel, Qt.Key.Key_A)
    press(qtbot, panel, Qt.Key.Key_H)
    q = panel.queue
    listed = q.history_list
    assert q.history_frame.isVisible() and listed.hasFocus()
    texts = [listed.item(i).text() for i in range(listed.count())]
    assert texts == [f"Undo: Approved proposal #{second.id}", f"Undo: Approved proposal #{first.id}"]
    qtbot.keyClick(listed, Qt.Key.Key_Down)  # the older one: Ctrl+Z could only reach it after the newer
    qtbot.keyClick(listed, Qt.Key.Key_Return)
    assert proposals.get(first.id).status == "pending" and proposals.get(second.id).status == "approved"
    assert not q.history_frame.isVisible() and panel.current().id == first.id
    press(qtbot, panel, Qt.Key.Key_H)
    assert [listed.item(i).text() for i in range(listed.count())] == [f"Undo: Approved proposal #{second.id}"]
    press(qtbot, panel, Qt.Key.Key_Escape)
    assert not q.history_frame.isVisible()


def test_ctrl_f_searches_inside_the_diff(qtbot, win, panel):
    p = panel.current()
    diff = panel.diff
    qtbot.waitUntil(lambda: diff.diff is not None)
    word = "the"
    expected = sum(
        c.text.casefold().count(word)
        for row in diff.diff.rows
        for c in ((row.left, row.right) if diff.mode == "split" else (row.right or row.left,))
        if c is not None
    )
    assert expected > 2, p.proposed_content
    qtbot.keyClick(panel.table, Qt.Key.Key_F, CTRL)  # the window's Ctrl+F: the panel's search box
    assert diff.find_bar.isVisible() and diff.find_edit.hasFocus()
    qtbot.keyClicks(diff.find_edit, "THE")
    assert diff.find_count.text() == f"1 of {expected}"
    qtbot.keyClick(diff.find_edit, Qt.Key.Key_Return)
    assert diff.find_count.text() == f"2 of {expected}"
    qtbot.keyClick(diff.find_edit, Qt.Key.Key_Return, SHIFT)
    qtbot.keyClick(diff.find_edit, Qt.Key.Key_Return, SHIFT)
    assert diff.find_count.text() == f"{expected} of {expected}"  # wraps around
    row, text = diff.current_match()
    assert word in text.casefold()
    # the current match's line is on screen (its fold opened if it was folded)
    index = diff.canvas.items.index(diff.diff.rows[row])
    top = diff.canvas.item_top(index) - diff.canvas.verticalScrollBar().value()
    assert 0 <= top <= diff.canvas.viewport().height()
    qtbot.keyClicks(diff.find_edit, "zzz-nowhere")
    assert diff.find_count.text() == "no match"
    qtbot.keyClick(diff.find_edit, Qt.Key.Key_Escape)
    assert not diff.find_bar.isVisible() and panel.table.hasFocus()


def test_comment_assign_and_the_mine_view(qtbot, panel, weak_ws):
    from lorekeeper.review import reviewer_name

    q = panel.queue
    first = panel.current()
    press(qtbot, panel, Qt.Key.Key_C)  # a comment: one line, Enter
    assert q.reject_bar.isVisible() and q.reason_edit.hasFocus()
    qtbot.keyClicks(q.reason_edit, "the nightly template is too vague")
    qtbot.keyClick(q.reason_edit, Qt.Key.Key_Return)
    assert [c.text for c in weak_ws.review.comments("proposal", first.id)] == ["the nightly template is too vague"]
    notes = panel.notes.history_label.text()
    assert "the nightly template is too vague" in notes and reviewer_name() in notes  # the item's history

    press(qtbot, panel, Qt.Key.Key_G)  # assign: the field starts with my name, Enter
    assert q.reason_edit.text() == reviewer_name()
    qtbot.keyClick(q.reason_edit, Qt.Key.Key_Return)
    press(qtbot, panel, Qt.Key.Key_J)
    other = panel.current()
    press(qtbot, panel, Qt.Key.Key_G)
    qtbot.keyClicks(q.reason_edit, "camille")  # replaces the selected name
    qtbot.keyClick(q.reason_edit, Qt.Key.Key_Return)
    assert weak_ws.review.assignments("proposal")[str(other.id)].assignee == "camille"
    assert "Assigned to</b> camille" in panel.notes.history_label.text()

    press(qtbot, panel, Qt.Key.Key_M, CTRL)  # mine only
    assert panel.notes.mine_box.isChecked()
    assert [p.id for p in panel.model.rows] == [first.id]
    press(qtbot, panel, Qt.Key.Key_M, CTRL)
    assert panel.model.rowCount() == 3


def test_an_undo_says_which_version_it_restores(qtbot, win, panel, weak_ws):
    """Issue 30 d5: approve then undo writes two versions and no net change; both say so."""
    p = panel.current()
    base = p.base_version
    press(qtbot, panel, Qt.Key.Key_A)
    approved = weak_ws.improve.proposals.get(p.id).applied_version
    press(qtbot, panel, Qt.Key.Key_Z, CTRL)
    restored = weak_ws.improve.proposals.get(p.id).base_version
    assert restored == approved + 1
    assert f"v{restored} restores v{base}, no net change since v{base}" in panel.message.text()
    assert panel.current().id == p.id
    assert panel.diff.canvas.titles[0] == f"Current (v{restored}, restores v{base})"

    skills = win.select_panel("skills")
    assert skills.select_skill(p.skill)
    vt = skills.versions_tab
    qtbot.waitUntil(lambda: vt.model.rowCount() >= 3)
    newest = vt.model.rows[0]
    assert newest.version == restored
    version_cell = vt.model.data(vt.model.index(0, vt.model.COL_VERSION))
    message_cell = vt.model.data(vt.model.index(0, vt.model.COL_MESSAGE))
    assert f"v{restored} \u21ba v{base}" in version_cell
    assert message_cell.startswith(f"[restores v{base} · no net change since v{base}]")
    assert vt.model.data(vt.model.index(1, vt.model.COL_VERSION)).startswith(f"v{approved}")  # the approval: no mark
    assert "\u21ba" not in vt.model.data(vt.model.index(1, vt.model.COL_VERSION))
    vt.left_combo.setCurrentIndex(vt.left_combo.findData(base))  # v_base against the restore: nothing changed
    vt.right_combo.setCurrentIndex(vt.right_combo.findData(restored))
    qtbot.waitUntil(lambda: vt.summary.text() != "")
    assert vt.summary.text() == f"No net change: v{restored} restores v{base}."
    assert vt.diff.canvas.titles == (f"v{base}", f"v{restored} (restores v{base})")
