"""The first-run view (issue 30 d1): the window opens on Start, which lists what waits in the demo
(a proposal, a conflict, candidate facts, due retention, the key) with one key to each."""

from __future__ import annotations

from PySide6.QtCore import Qt


def test_the_window_opens_on_what_waits_and_each_key_goes_there(qtbot, window, ui_workspace):
    start = window.current_panel()
    assert start is window.panels["start"] and window.sidebar.currentRow() == 0
    qtbot.waitUntil(lambda: start.waiting is not None)
    pending = ui_workspace.improve.proposals.counts()["pending"]
    candidates = ui_workspace.facts.counts()["candidate"]
    texts = start.texts()

    def noun(n: int, one: str, many: str) -> str:  # English plural forms, from lorekeeper_en.ts
        return f"{n} {one if n == 1 else many}"

    conflicts = len(ui_workspace.facts.conflicts())
    assert texts[0].startswith(noun(pending, "skill proposal waits", "skill proposals wait") + " for a decision")
    assert texts[1].startswith(noun(conflicts, "conflict", "conflicts") + " between facts")
    assert texts[2].startswith(noun(candidates, "candidate fact", "candidate facts") + " to review")
    assert "retention purge" in texts[3]
    assert texts[4] == "Audit key: keyring v1 — ok"
    assert pending and candidates  # the demo has work waiting

    for key, panel_id in ((Qt.Key.Key_1, "proposals"), (Qt.Key.Key_2, "conflicts"), (Qt.Key.Key_3, "facts"),
                          (Qt.Key.Key_4, "purge"), (Qt.Key.Key_5, "audit")):  # fmt: skip
        qtbot.keyClick(window.focusWidget() or start, key)
        assert window.current_panel() is window.panels[panel_id], panel_id
        qtbot.keyClick(window, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)  # back to Start
        assert window.current_panel() is start and start.hasFocus()

    qtbot.mouseClick(start.buttons[0], Qt.MouseButton.LeftButton)  # a click goes there too
    assert window.current_panel() is window.panels["proposals"]


def test_f5_reads_the_counts_again(qtbot, window, ui_workspace):
    start = window.panels["start"]
    qtbot.waitUntil(lambda: start.waiting is not None)
    before = start.waiting.proposals
    pid = ui_workspace.improve.proposals.list("pending")[0].id
    ui_workspace.improve.proposals.reject(pid, why="not now")  # decided behind the window's back
    qtbot.keyClick(window, Qt.Key.Key_F5)
    assert start.waiting.proposals == before - 1


def test_the_audit_panel_takes_the_keyboard_on_verify_chain_at_each_visit(qtbot, window):
    """From Start, 5 lands on Verify chain and Tab on Rotate key…, the second time too (under X the
    second visit kept the keyboard on Rotate key…, where the first had left it)."""
    window.windowHandle().requestActivate()
    qtbot.waitUntil(window.isActiveWindow)
    start = window.panels["start"]
    for _visit in range(2):
        qtbot.keyClick(window, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
        qtbot.keyClick(window.focusWidget() or start, Qt.Key.Key_5)
        audit = window.panels["audit"]
        assert window.current_panel() is audit
        assert window.focusWidget() is audit.verify_button
        qtbot.keyClick(audit.verify_button, Qt.Key.Key_Tab)
        assert window.focusWidget() is audit.rotate_button
