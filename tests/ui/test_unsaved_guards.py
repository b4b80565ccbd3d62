"""Unsaved-edit guards in the Skills panel: switching skill, switching panel or closing the window
with unsaved SKILL.md edits (or an open rule dialog with changes) asks Save / Discard / Cancel."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from lorekeeper.ui import widgets

REAL_ASK = widgets.ask_unsaved  # tests/ui/conftest.py replaces it in every test

SKILL = "code-review"
OTHER = "db-migrations"


@pytest.fixture
def answers(monkeypatch):
    """The guard's answers, in turn (a modal box would block the test); records what was asked."""
    queue: list[str] = []
    asked: list[str] = []

    def ask(_parent, title, text):
        asked.append(text)
        return queue.pop(0) if queue else widgets.DISCARD  # (the window's close at teardown)

    monkeypatch.setattr(widgets, "ask_unsaved", ask)
    return queue, asked


def click(qtbot, widget) -> None:
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)


def click_row(qtbot, panel, name: str) -> None:
    row = panel.model.index_of(name, "")
    assert row >= 0
    rect = panel.table.visualRect(panel.model.index(row, 0))
    qtbot.mouseClick(panel.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def click_sidebar(qtbot, window, panel_id: str) -> None:
    item = window.sidebar.item(window.panel_ids.index(panel_id))
    qtbot.mouseClick(
        window.sidebar.viewport(), Qt.MouseButton.LeftButton, pos=window.sidebar.visualItemRect(item).center()
    )


def start_editing(qtbot, window):
    panel = window.select_panel("skills")
    assert panel.select_skill(SKILL)
    tab = panel.content_tab
    click(qtbot, tab.edit_button)
    tab.editor.moveCursor(tab.editor.textCursor().MoveOperation.End)
    qtbot.keyClicks(tab.editor, "Unsaved line.")
    assert tab.has_unsaved()
    return panel, tab


def test_switching_skill_asks_cancel_keeps_the_edit_discard_moves_on(qtbot, window, ui_workspace, answers):
    queue, asked = answers
    panel, tab = start_editing(qtbot, window)
    before = len(ui_workspace.skills.versions(SKILL))

    queue.append("cancel")
    click_row(qtbot, panel, OTHER)
    assert len(asked) == 1 and SKILL in asked[0]
    assert panel.detail.info.name == SKILL and panel.selected.name == SKILL
    assert panel.model.row(panel.table.currentIndex().row()).name == SKILL  # the selection stays
    assert tab.editor.toPlainText().endswith("Unsaved line.") and tab.stack.currentIndex() == 1

    queue.append("discard")
    click_row(qtbot, panel, OTHER)
    qtbot.waitUntil(lambda: panel.detail is not None and panel.detail.info.name == OTHER)
    assert len(asked) == 2 and not tab.has_unsaved() and tab.stack.currentIndex() == 0
    assert len(ui_workspace.skills.versions(SKILL)) == before  # nothing written
    click_row(qtbot, panel, SKILL)  # nothing to ask any more
    qtbot.waitUntil(lambda: panel.detail is not None and panel.detail.info.name == SKILL)
    assert len(asked) == 2


def test_switching_skill_save_saves_then_moves_on(qtbot, window, ui_workspace, answers):
    queue, _asked = answers
    panel, _tab = start_editing(qtbot, window)
    before = len(ui_workspace.skills.versions(SKILL))
    queue.append("save")
    click_row(qtbot, panel, OTHER)
    qtbot.waitUntil(lambda: panel.detail is not None and panel.detail.info.name == OTHER)
    versions = ui_workspace.skills.versions(SKILL)
    assert len(versions) == before + 1 and versions[0].content.endswith("Unsaved line.")
    panel.refresh()  # the change feed's reload must not bring the saved skill back
    assert panel.detail.info.name == OTHER


def test_switching_panel_asks_and_cancel_stays(qtbot, window, ui_workspace, answers):
    queue, asked = answers
    panel, tab = start_editing(qtbot, window)
    queue.append("cancel")
    click_sidebar(qtbot, window, "audit")
    assert len(asked) == 1
    assert window.current_panel() is panel and window.sidebar.currentRow() == window.panel_ids.index("skills")
    assert tab.has_unsaved()

    before = len(ui_workspace.skills.versions(SKILL))
    queue.append("save")
    click_sidebar(qtbot, window, "audit")
    qtbot.waitUntil(lambda: window.current_panel() is window.panels["audit"])
    assert len(ui_workspace.skills.versions(SKILL)) == before + 1 and not tab.has_unsaved()


def test_closing_the_window_asks_cancel_keeps_it_open(qtbot, window, answers):
    queue, asked = answers
    _panel, tab = start_editing(qtbot, window)
    queue.append("cancel")
    qtbot.keyClick(window, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)  # Ctrl+Q closes the window
    assert len(asked) == 1 and window.isVisible() and tab.has_unsaved()
    queue.append("discard")
    window.close()
    assert len(asked) == 2 and not window.isVisible()


def test_closing_with_a_changed_rule_dialog_open_asks(qtbot, window, ui_workspace, answers):
    queue, asked = answers
    panel = window.select_panel("skills")
    assert panel.select_skill(SKILL)
    panel.tabs.setCurrentWidget(panel.rules_tab)
    tab = panel.rules_tab
    click(qtbot, tab.add_button)
    dialog = tab.dialog
    assert dialog is not None and not dialog.has_changes()
    qtbot.keyClicks(dialog.id_edit, "guard-1")
    qtbot.keyClicks(dialog.value_edit, "rollback")
    queue.append("cancel")
    window.close()
    assert len(asked) == 1 and window.isVisible() and dialog.isVisible()
    queue.append("save")  # OK of the dialog: a new version, then the window closes
    window.close()
    qtbot.waitUntil(lambda: not window.isVisible())
    assert "guard-1" in [r.id for r in ui_workspace.skills.rules(SKILL).rules]


def test_the_question_has_save_discard_and_cancel(qtbot):
    for button, expected in (
        (QMessageBox.StandardButton.Save, widgets.SAVE),
        (QMessageBox.StandardButton.Discard, widgets.DISCARD),
        (QMessageBox.StandardButton.Cancel, widgets.CANCEL),
    ):

        def answer(button=button) -> None:
            box = QApplication.activeModalWidget()
            assert isinstance(box, QMessageBox)
            box.button(button).click()

        QTimer.singleShot(0, answer)
        assert REAL_ASK(None, "Unsaved changes", "Save?") == expected
