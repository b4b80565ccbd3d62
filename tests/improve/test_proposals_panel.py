"""The Proposals panel, driven by the keyboard: approve, reject with a reason, next, previous, ?, undo."""

from __future__ import annotations

import pytest
from improve_support import open_window, record
from PySide6.QtCore import Qt


@pytest.fixture
def three(weak_ws):
    """Three pending proposals: code-review (oldest), git-manager, test-writer."""
    record(weak_ws, "git-manager", None, passed=[True, True, True], down=2)
    record(weak_ws, "test-writer", None, passed=[False, True, True])
    weak_ws.improve.run_nightly()
    return weak_ws


@pytest.fixture
def panel(qtbot, three, sync_workers):
    win = open_window(qtbot, three)
    p = win.select_panel("proposals")
    p.table.setFocus()
    qtbot.waitUntil(lambda: p.model.rowCount() == 3)
    yield p
    win.close()


def key(qtbot, panel, k, text: str = "") -> None:
    target = panel.focusWidget() or panel.table
    qtbot.keyClick(target, k)


def skills(panel) -> list[str]:
    return [p.skill for p in panel.model.rows]


def test_review_queue_by_keyboard(qtbot, panel, three):
    ws = three
    assert panel.table.hasFocus()
    order = skills(panel)
    assert set(order) == {"code-review", "git-manager", "test-writer"}
    assert [p.id for p in panel.model.rows] == sorted(p.id for p in panel.model.rows)  # oldest first
    assert panel.current().skill == order[0]

    key(qtbot, panel, Qt.Key.Key_Question)
    assert panel.cheatsheet.isVisible() and "Reject" in panel.cheatsheet_text.text()
    key(qtbot, panel, Qt.Key.Key_Escape)
    assert not panel.cheatsheet.isVisible()

    key(qtbot, panel, Qt.Key.Key_J)
    assert panel.current().skill == order[1]
    key(qtbot, panel, Qt.Key.Key_J)
    assert panel.current().skill == order[2]
    key(qtbot, panel, Qt.Key.Key_K)
    key(qtbot, panel, Qt.Key.Key_K)
    assert panel.current().skill == order[0]

    proposed = panel.current().proposed_content
    key(qtbot, panel, Qt.Key.Key_A)  # approve
    assert ws.skills.get(order[0]).content == proposed
    assert skills(panel) == order[1:]  # it left the pending queue; the next one is selected
    assert panel.current().skill == order[1]
    assert "Approved #" in panel.message.text()

    key(qtbot, panel, Qt.Key.Key_R)  # reject: the reason box takes the keyboard
    assert panel.reject_bar.isVisible() and panel.reason_edit.hasFocus()
    qtbot.keyClicks(panel.reason_edit, "too vague to help")
    assert panel.reject_bar.isVisible()  # typed letters did not trigger the shortcuts
    qtbot.keyClick(panel.reason_edit, Qt.Key.Key_Return)
    assert not panel.reject_bar.isVisible()
    rejected = ws.improve.proposals.list("rejected")
    assert [(p.skill, p.decision_reason) for p in rejected] == [(order[1], "too vague to help")]
    assert skills(panel) == [order[2]]
    assert panel.counts_label.text() == "1 pending · 1 approved · 1 rejected"

    types = [e.type for e in ws.audit.log.events()]
    assert "proposal_approved" in types and "proposal_rejected" in types


def test_reject_needs_a_reason_and_escape_cancels(qtbot, panel, three):
    key(qtbot, panel, Qt.Key.Key_R)
    qtbot.keyClick(panel.reason_edit, Qt.Key.Key_Return)
    assert "needs a reason" in panel.message.text()
    assert panel.reject_bar.isVisible()
    qtbot.keyClick(panel.reason_edit, Qt.Key.Key_Escape)
    assert not panel.reject_bar.isVisible()
    assert three.improve.proposals.counts()["pending"] == 3


def test_card_diff_and_badge(qtbot, panel):
    p = panel.current()
    text = panel.card.text()
    assert "Improvement proposal #" in text and "code-review" in text
    assert "low success rate (50%)" in text and "applied 4" in text and "0 up / 0 down" in text
    assert "Never force-push a shared branch" in text  # related learning
    assert "No force push (2/4)" in text
    assert panel.diff.left_text().rstrip("\n") == p.current_content.rstrip("\n")
    assert panel.diff.right_text() == p.proposed_content
    rows = panel.diff.diff.rows  # one row faces both sides: an added line faces a filler
    assert all(r.left is None for r in rows if r.kind == "insert")
    assert any(r.kind in ("insert", "change") for r in rows)  # the added lines are marked
    assert "+" in panel.diff_summary.text() and "change" in panel.diff_summary.text()
    assert panel.badge.text() == "Benchmark: not run (press B)"


def test_undo_an_approval_from_the_queue(qtbot, panel, three):
    original = three.skills.get("code-review").content
    key(qtbot, panel, Qt.Key.Key_A)
    panel.status_combo.setCurrentIndex(panel.status_combo.findData("approved"))
    qtbot.waitUntil(lambda: panel.model.rowCount() == 1)
    panel.table.setFocus()
    assert panel.current().status == "approved"
    key(qtbot, panel, Qt.Key.Key_U)
    assert three.skills.get("code-review").content == original
    assert three.improve.proposals.counts() == {"pending": 3, "approved": 0, "rejected": 0}


def test_undo_from_the_skill_versions_tab(qtbot, panel, three, confirm_yes):
    original = three.skills.get("code-review")
    key(qtbot, panel, Qt.Key.Key_A)
    win = panel.window()
    skills_panel = win.select_panel("skills")
    skills_panel.refresh()
    assert skills_panel.select_skill("code-review")
    vt = skills_panel.versions_tab
    skills_panel.tabs.setCurrentWidget(vt)
    assert "approved" in vt.model.rows[0].message
    vt.table.selectRow([v.version for v in vt.model.rows].index(original.version))
    qtbot.mouseClick(vt.restore_button, Qt.MouseButton.LeftButton)
    assert three.skills.get("code-review").content == original.content


def test_run_nightly_button(qtbot, weak_ws, sync_workers):
    win = open_window(qtbot, weak_ws)
    panel = win.select_panel("proposals")
    assert panel.empty.is_empty and "Run the nightly analysis" in panel.empty.message.text()
    qtbot.mouseClick(panel.nightly_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.model.rowCount() == 1)
    assert panel.current().skill == "code-review"
    assert "1 proposal(s) created" in panel.message.text()
    assert panel.run_label.text().startswith("Last nightly run #")
    qtbot.mouseClick(panel.nightly_button, Qt.MouseButton.LeftButton)
    assert panel.model.rowCount() == 1 and "0 proposal(s) created" in panel.message.text()
    win.close()


def test_sage_and_benchmark_need_a_model(qtbot, panel):
    qtbot.mouseClick(panel.sage_button, Qt.MouseButton.LeftButton)
    assert "ERR_LLM_UNAVAILABLE: Sage needs a model" in panel.message.text()
    key(qtbot, panel, Qt.Key.Key_B)
    assert "ERR_LLM_UNAVAILABLE: a benchmark runs both versions" in panel.message.text()


def test_aligned_diff_pads_the_shorter_side():
    from lorekeeper.ui.panels.proposals import aligned_diff

    left, right, ml, mr, stats = aligned_diff("a\nb\nc\n", "a\nB\nc\nd\ne\n")
    assert left.splitlines() == ["a", "b", "c", "", ""]
    assert right.splitlines() == ["a", "B", "c", "d", "e"]
    assert (ml, mr) == ({1: "chg"}, {1: "chg", 3: "add", 4: "add"})
    assert stats == {"chg": 1, "add": 2, "del": 0}


def test_edit_then_approve_signs_the_operators_edit(qtbot, panel, three):
    """E opens the proposed SKILL.md in an editor; Ctrl+Enter approves the edited text, which
    becomes the skill's new version and is named in the signed decision; Ctrl+Z undoes it."""
    cur = panel.current()
    key(qtbot, panel, Qt.Key.Key_E)
    dlg = panel.edit_dialog
    qtbot.waitUntil(dlg.isVisible)
    assert dlg.editor.toPlainText() == cur.proposed_content
    dlg.editor.setPlainText("")  # an empty edit is refused in place, the dialog stays open
    qtbot.keyClick(dlg.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert dlg.isVisible() and dlg.error.isVisible() and "empty" in dlg.error.text()
    dlg.editor.setPlainText(cur.proposed_content + "\n- Operator's note: keep it short.\n")
    qtbot.keyClick(dlg.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert not dlg.isVisible()
    qtbot.waitUntil(lambda: "Approved with your edits" in panel.message.text(), timeout=10_000)
    info = three.improve.proposals.get(cur.id)
    assert info.status == "approved" and info.decision_reason.startswith("accepted with edits")
    skill = three.skills.get(cur.skill)
    assert "Operator's note: keep it short." in skill.content
    events = [e.data for e in three.audit.log.events() if e.type == "proposal_approved" and e.status == "valid"]
    assert events and events[-1]["edited"]["content_sha256"]
    key(qtbot, panel, Qt.Key.Key_U)  # undo in place: back to pending, the old version current
    qtbot.waitUntil(lambda: three.improve.proposals.get(cur.id).status == "pending", timeout=10_000)
    assert "Operator's note" not in three.skills.get(cur.skill).content


def test_by_filter_keeps_the_proposals_one_operator_decided(qtbot, panel, three):
    """Issue 25 d2: under "All", the By filter lists who decided and keeps that operator's proposals."""
    ws = three
    first, second, third = (p.id for p in panel.model.rows)
    ws.improve.proposals.approve(first, by="alice")
    ws.improve.proposals.reject(second, why="not now", by="bob")
    panel.status_combo.setCurrentIndex(panel.status_combo.findData("all"))
    qtbot.waitUntil(lambda: panel.model.rowCount() == 3)
    assert [panel.by_combo.itemText(i) for i in range(panel.by_combo.count())] == ["Anyone", "alice", "bob"]

    panel.by_combo.setCurrentIndex(panel.by_combo.findData("bob"))

    assert [p.id for p in panel.model.rows] == [second] and panel.model.rows[0].decided_by == "bob"
    panel.by_combo.setCurrentIndex(0)
    assert sorted(p.id for p in panel.model.rows) == sorted([first, second, third])
