"""Facts review and Conflicts panels driven by the keyboard end to end, on a demo-like workspace
(the storefront conventions ingested, a recorded extraction, one real contradiction)."""

from __future__ import annotations

import pytest
from factsui_support import open_window, seed_facts
from PySide6.QtCore import Qt

NOMOD = Qt.KeyboardModifier.NoModifier


@pytest.fixture
def facts_ws(demo_workspace, tmp_path):
    seed_facts(demo_workspace, tmp_path)
    return demo_workspace


@pytest.fixture
def win(qtbot, facts_ws, sync_workers, confirm_yes):
    w = open_window(qtbot, facts_ws)
    yield w
    w.close()


def facts_panel(win):
    """The Facts review panel on the seeded project (the demo's own facts live in other projects)."""
    panel = win.select_panel("facts")
    panel.project_combo.setCurrentIndex(panel.project_combo.findData("shop"))
    panel.table.setFocus()
    return panel


def press(qtbot, panel, k, mod=NOMOD) -> None:
    qtbot.keyClick(panel.focusWidget() or panel.table, k, mod)


def type_text(qtbot, panel, text: str) -> None:
    qtbot.keyClicks(panel.focusWidget(), text)


def test_review_a_queue_by_keyboard(qtbot, win, facts_ws):
    ws = facts_ws
    panel = facts_panel(win)
    q = panel.queue
    assert panel.model.rowCount() == 7 and q.progress_label.text() == "0 of 7 reviewed"
    first = panel.current()
    assert first.statement in panel.card.text() and "storefront-coding-conventions.md" in panel.card.text()

    press(qtbot, panel, Qt.Key.Key_O)  # the quote, highlighted in its document
    view = panel.doc_view
    assert view.isVisible() and view.selected_text() == first.provenance[0].quote
    assert view.text.extraSelections()
    press(qtbot, panel, Qt.Key.Key_Escape)
    assert not view.isVisible()

    press(qtbot, panel, Qt.Key.Key_A)  # approve
    assert ws.facts.show(first.id).status == "approved"
    assert q.progress_label.text() == "1 of 7 reviewed" and panel.current().id != first.id

    second = panel.current()
    press(qtbot, panel, Qt.Key.Key_R)  # reject needs a reason
    qtbot.keyClick(q.reason_edit, Qt.Key.Key_Return)
    assert "needs a reason" in panel.message.text()
    type_text(qtbot, panel, "general React knowledge")
    qtbot.keyClick(q.reason_edit, Qt.Key.Key_Return)
    got = ws.facts.show(second.id)
    assert (got.status, got.decision_reason) == ("rejected", "general React knowledge")

    press(qtbot, panel, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # undo in place
    assert ws.facts.show(second.id).status == "candidate"
    assert panel.current().id == second.id and q.progress_label.text() == "1 of 7 reviewed"

    press(qtbot, panel, Qt.Key.Key_J)
    third = panel.current()
    press(qtbot, panel, Qt.Key.Key_E)  # edit: statement, scope, confidence
    ed = panel.editor
    assert ed.isVisible() and ed.statement.hasFocus()
    ed.statement.selectAll()
    type_text(qtbot, panel, "Use Vitest (never Jest) for every storefront test.")
    ed.scope.setText("**/*.test.ts, **/*.test.tsx")
    ed.confidence.setValue(0.8)
    qtbot.keyClick(ed.statement, Qt.Key.Key_Return)
    assert not ed.isVisible()
    edited = ws.facts.show(third.id)
    assert edited.statement == "Use Vitest (never Jest) for every storefront test."
    assert edited.scope == ("**/*.test.ts", "**/*.test.tsx") and edited.confidence == 0.8
    assert panel.current().id == third.id

    press(qtbot, panel, Qt.Key.Key_A, Qt.KeyboardModifier.ShiftModifier)  # bulk approve by filter
    assert ws.facts.counts("shop")["candidate"] == 0
    assert panel.model.rowCount() == 0 and q.empty.is_empty
    press(qtbot, panel, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # the whole bulk comes back
    assert ws.facts.counts("shop")["candidate"] == 6

    types = [e.type for e in ws.audit.log.events()]
    assert any("approved" in t for t in types) and any("rejected" in t for t in types)


def test_filters_cheat_sheet_and_add_a_fact(qtbot, win, facts_ws, tmp_path):
    panel = facts_panel(win)
    press(qtbot, panel, Qt.Key.Key_Question)
    assert panel.queue.cheatsheet.isVisible()
    sheet = panel.queue.cheatsheet_text.text()
    for key in ("A", "R", "E", "O", "Ctrl+Z", "Shift+A", "Ctrl+N", "?"):
        assert f"<b>{key}</b>" in sheet
    press(qtbot, panel, Qt.Key.Key_Escape)

    panel.type_combo.setCurrentIndex(panel.type_combo.findData("stack"))
    assert [f.type for f in panel.model.rows] == ["stack"]
    panel.type_combo.setCurrentIndex(0)
    panel.band_combo.setCurrentIndex(1)  # 0.9+ stated
    assert panel.model.rowCount() == 4 and all(f.confidence >= 0.9 for f in panel.model.rows)
    panel.band_combo.setCurrentIndex(0)
    panel.scope_combo.setCurrentIndex(panel.scope_combo.findData("**/*.test.ts"))
    assert panel.model.rowCount() == 2
    panel.scope_combo.setCurrentIndex(0)

    panel.table.setFocus()
    press(qtbot, panel, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    form = panel.add_form
    assert form.isVisible() and form.statement.hasFocus()
    type_text(qtbot, panel, "Write user-visible text through t() with French as the source language.")
    form.project.setEditText("shop")
    form.document.setEditText("shop: storefront-coding-conventions.md")
    form.quote.setPlainText("French is the source language")
    qtbot.keyClick(form.statement, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert not form.isVisible(), panel.message.text()
    assert "Added shop:convention:" in panel.message.text()
    assert panel.current().statement.startswith("Write user-visible text")

    press(qtbot, panel, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    form.statement.setText("Invented fact.")
    form.quote.setPlainText("this sentence is not in the document")
    qtbot.keyClick(form.statement, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert "ERR_INVALID_SPEC" in panel.message.text() and form.isVisible()


def test_extract_without_a_model_says_why(qtbot, win):
    panel = win.select_panel("facts")
    qtbot.mouseClick(panel.extract_button, Qt.MouseButton.LeftButton)
    assert "ERR_LLM_UNAVAILABLE" in panel.message.text() and "extraction needs a model" in panel.message.text()
    assert panel.extract_button.isEnabled()


def test_arbitrate_a_conflict_by_keyboard(qtbot, win, facts_ws):
    ws = facts_ws
    panel = win.select_panel("conflicts")
    panel.table.setFocus()
    shown = panel.model.rowCount()  # the demo's own conflict and ours
    ours = next(i for i, r in enumerate(panel.model.rows) if r.info.project == "shop")
    panel.queue.select_row(ours)
    row = panel.current()
    a, b = row.facts
    assert a.statement in panel.side_widgets[0].text.text() and b.statement in panel.side_widgets[1].text.text()
    assert a.provenance[0].quote in panel.side_widgets[0].text.text()

    press(qtbot, panel, Qt.Key.Key_2)  # keep B: a reason first
    q = panel.queue
    assert q.reject_bar.isVisible() and q.reason_edit.hasFocus()
    qtbot.keyClick(q.reason_edit, Qt.Key.Key_Return)
    assert "needs a reason" in panel.message.text()
    qtbot.keyClick(q.reason_edit, Qt.Key.Key_Escape)
    assert not q.reject_bar.isVisible() and ws.facts.conflicts()  # still open

    press(qtbot, panel, Qt.Key.Key_M)  # merge into a new statement, then the reason
    assert panel.merge_edit.hasFocus()
    panel.merge_edit.selectAll()
    type_text(qtbot, panel, "Keep pull requests under about 400 changed lines; put larger work behind a flag.")
    qtbot.keyClick(panel.merge_edit, Qt.Key.Key_Return)
    assert q.reason_edit.hasFocus()
    type_text(qtbot, panel, "the document says both: small PRs, flags for the rest")
    qtbot.keyClick(q.reason_edit, Qt.Key.Key_Return)

    assert [c.id for c in ws.facts.conflicts()] == [r.id for r in panel.model.rows]  # ours is resolved
    c = ws.facts.conflict(row.id)
    assert c.resolution == "merge" and c.resolution_reason == "the document says both: small PRs, flags for the rest"
    merged = ws.facts.show(c.result)
    assert merged.status == "approved" and merged.statement.startswith("Keep pull requests under about 400")
    assert {ws.facts.show(a.id).status, ws.facts.show(b.id).status} == {"rejected"}  # the losers keep their rows
    assert "resolved: Merged" in panel.message.text()
    assert panel.model.rowCount() == shown - 1

    panel.status_combo.setCurrentIndex(panel.status_combo.findData("resolved"))
    assert panel.model.rowCount() == 1 and "Resolved (merge)" in panel.resolution.text()
