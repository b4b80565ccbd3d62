"""The Ask panel: typing a question and pressing Enter (or clicking Ask) shows the ranked passages
with their documents and line ranges, or the model's cited answer."""

from __future__ import annotations

from PySide6.QtCore import Qt


def test_asking_without_a_model_lists_the_passages_with_line_ranges(qtbot, window, ui_workspace):
    panel = window.select_panel("ask")
    assert panel.results.is_empty
    qtbot.keyClicks(panel.question, "how do we deploy citadel")
    qtbot.keyClick(panel.question, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: panel.last_result is not None)

    expected = ui_workspace.ask.ask("how do we deploy citadel", None)
    first = expected.passages[0].passage
    shown = panel.passages.toPlainText()
    assert f"[1] {first.document} lines {first.start}–{first.end}" in shown
    assert "No model answer." in panel.answer.toPlainText()
    assert "no model is ready" in panel.answer.toPlainText()
    assert panel.summary.text() == f"{len(expected.passages)} passages"


def test_a_question_with_no_match_says_so(qtbot, window):
    panel = window.select_panel("ask")
    panel.question.setText("What is the capital of France?")
    qtbot.mouseClick(panel.ask_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.last_result is not None)
    assert "no answer in the knowledge" in panel.answer.toPlainText()
    assert "No passage of the knowledge matches" in panel.passages.toPlainText()


def test_an_empty_question_asks_for_one(qtbot, window):
    panel = window.select_panel("ask")
    qtbot.mouseClick(panel.ask_button, Qt.MouseButton.LeftButton)
    assert panel.last_result is None
    assert "Type a question" in panel.message.text()
