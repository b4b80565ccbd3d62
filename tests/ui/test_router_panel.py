from __future__ import annotations

from PySide6.QtGui import QGuiApplication

from lorekeeper.skills.router import HINT_HEADER


def test_typing_a_message_ranks_skills_and_shows_the_hint(qtbot, window, ui_workspace):
    panel = window.select_panel("router")
    assert panel.results.is_empty
    assert "Type a message" in panel.results.message.text()
    message = "please review this pull request"
    qtbot.keyClicks(panel.message, message)
    qtbot.waitUntil(lambda: panel.model.rowCount() > 0)

    expected = ui_workspace.router(None).route(message, top=panel.top.value())
    assert [m.name for m in panel.model.rows] == [m.name for m in expected.skills]
    assert panel.model.rows[0].name == "code-review"
    assert panel.model.data(panel.model.index(0, panel.model.COL_SCORE)) == expected.skills[0].score
    assert panel.hint.toPlainText() == expected.hint
    assert panel.hint.toPlainText().startswith(HINT_HEADER)
    assert "background" in panel.highlighted.toHtml()  # matched words highlighted

    panel.copy_button.click()
    assert QGuiApplication.clipboard().text() == expected.hint


def test_top_n_limits_the_ranking(qtbot, window):
    panel = window.select_panel("router")
    panel.message.setPlainText("review the diff, write tests, deploy the migration and write release notes")
    qtbot.waitUntil(lambda: panel.model.rowCount() >= 2)
    panel.top.setValue(1)
    qtbot.waitUntil(lambda: panel.model.rowCount() == 1)
    lines = panel.hint.toPlainText().splitlines()
    assert len(lines) == 2 and lines[1].startswith(f"- {panel.model.rows[0].name}:")


def test_a_message_that_matches_nothing_says_so(qtbot, window):
    panel = window.select_panel("router")
    qtbot.keyClicks(panel.message, "qwerty zxcvb")
    qtbot.waitUntil(
        lambda: (
            panel.last_result is not None
            and panel.results.is_empty
            and "No skill matches" in panel.results.message.text()
        )
    )
    assert panel.hint.toPlainText() == ""
    assert not panel.copy_button.isEnabled()
