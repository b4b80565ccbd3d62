from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from lorekeeper.skills.router import HINT_HEADER


def test_typing_a_message_ranks_skills_and_shows_the_hint(qtbot, window, ui_workspace):
    panel = window.select_panel("router")
    assert panel.results.is_empty
    assert "Type a message" in panel.results.message.text()
    message = "please review this pull request"
    qtbot.keyClicks(panel.message, message)
    qtbot.waitUntil(lambda: panel.model.rowCount() > 0)

    expected = ui_workspace.routers.get(None).route(message, top=panel.top.value())
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


def test_trigger_evals_tab_scores_the_skills_and_shows_confusions(qtbot, window, ui_workspace):
    from lorekeeper.skills.triggers import TriggerCase

    ui_workspace.skills.set_trigger_cases(
        "code-review",
        None,
        [
            TriggerCase("please review this pull request", True),
            TriggerCase("summarise the meeting notes for me", True),  # no router word: missed
            TriggerCase("write a migration to add a column", False),
        ],
    )
    panel = window.select_panel("router")
    panel.tabs.setCurrentIndex(1)
    assert panel.trigger_results.is_empty and "triggers.json" in panel.trigger_results.message.text()
    qtbot.mouseClick(panel.run_triggers, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.trigger_model.rowCount() == 1, timeout=10000)
    row = panel.trigger_model.rows[0]
    assert row.name == "code-review" and (row.tp, row.fn, row.tn) == (1, 1, 1)
    assert (
        panel.trigger_model.data(panel.trigger_model.index(0, panel.trigger_model.COL_RECALL)) == "50%"
    )  # the one rule: as `quality` shows "25%"
    assert panel.trigger_model.data(panel.trigger_model.index(0, panel.trigger_model.COL_PRECISION)) == "100%"
    assert "missed “summarise the meeting notes for me”" in panel.confusions.toPlainText().replace('"', "“")
    assert "1 skills, 3 cases, 1 confusions" in panel.trigger_summary.text()
    assert panel.run_triggers.isEnabled()


def test_optimise_selected_queues_a_proposal_from_the_trigger_evals_tab(
    qtbot, window, ui_workspace, tmp_path, anthropic_server, monkeypatch
):
    import json

    from lorekeeper.llm.base import LLMSettings
    from lorekeeper.skills.triggers import TriggerCase

    folder = tmp_path / "src" / "minutes-helper"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text("---\nname: minutes-helper\ndescription: Helps with things.\n---\nBody\n")
    ui_workspace.skills.import_path(folder.parent)
    ui_workspace.skills.set_trigger_cases(
        "minutes-helper",
        None,
        [
            TriggerCase("summarise the meeting notes for me", True),
            TriggerCase("turn these meeting notes into action items", True),
            TriggerCase("clean up the notes from the standup", True),
            TriggerCase("write a migration to add a column", False),
        ],
    )
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-env")
    ui_workspace.llm.configure(
        LLMSettings(provider="anthropic", base_url=anthropic_server.url, model="claude-test", max_retries=0, timeout=10)
    )
    anthropic_server.behaviour.reply = lambda body: json.dumps(
        {
            "candidates": [
                {
                    "description": "Summarise meeting and standup notes into decisions and action items.",
                    "triggers": ["meeting notes", "standup"],
                    "keywords": ["minutes"],
                }
            ]
        }
    )
    panel = window.select_panel("router")
    panel.tabs.setCurrentIndex(1)
    assert not panel.optimise_button.isEnabled()  # nothing selected yet
    qtbot.mouseClick(panel.run_triggers, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.trigger_model.rowCount() == 1, timeout=10000)
    assert panel.optimise_button.isEnabled()
    qtbot.mouseClick(panel.optimise_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "queued" in panel.trigger_summary.text(), timeout=30000)
    assert "recall 0% → precision 100%, recall 100%" in panel.trigger_summary.text()
    (p,) = ui_workspace.improve.proposals.list("pending", skill="minutes-helper")
    assert p.source == "optimiser" and p.metrics["optimiser"]["held_out"]["after"]["recall"] == 1.0
