"""The Playground end to end against the local Anthropic-API server: send, footnote, Fix It, next prompt."""

from __future__ import annotations

import re

from PySide6.QtCore import Qt

from lorekeeper.learnings.block import HEADER


def pick_project(panel, name):
    idx = panel.project.findData(name)
    assert idx >= 0, f"{name} not offered"
    panel.project.setCurrentIndex(idx)


def learning_count(panel) -> int:
    """The number of learnings the prompt preview's size label announces ("1,200 characters · 10 learnings")."""
    m = re.search(r"(\d+) learnings?", panel.preview_size.text())
    return int(m.group(1)) if m else 0


def test_send_footnote_fix_it_and_the_next_prompt_carries_the_learning(qtbot, window, model_ws, anthropic_server):
    panel = window.select_panel("playground")
    assert panel.status_label.text().startswith("Model: anthropic")
    pick_project(panel, "citadel-v2")
    anthropic_server.behaviour.reply = lambda body: "Rebase, then run git push --force origin feature."
    qtbot.keyClicks(panel.message, "please review this pull request")
    panel.debounce.flush()
    assert "code-review" in panel.skills_label.text()
    demo_learnings = learning_count(panel)  # the demo's rules for citadel-v2 and the global ones

    # the assembled prompt is collapsible
    assert not panel.preview.isVisible()
    qtbot.mouseClick(panel.preview_toggle, Qt.MouseButton.LeftButton)
    assert panel.preview.isVisible()
    assert panel.preview.toPlainText().startswith("SKILLS_HINT (focus on these):")

    qtbot.mouseClick(panel.send_button, Qt.MouseButton.LeftButton)
    assert panel.answer_view.toPlainText() == "Rebase, then run git push --force origin feature."
    assert panel.footnote.isVisible()
    assert panel.footnote.text() == "Eval: \u26a0\ufe0f No force push"
    sent = anthropic_server.prompts()[-1]
    assert sent == panel.preview.toPlainText()  # what the preview showed is what went out

    # Fix It: the dialog starts from the answer; the operator writes the correction
    assert panel.fix_button.isEnabled()
    qtbot.mouseClick(panel.fix_button, Qt.MouseButton.LeftButton)
    dlg = panel.fix_dialog
    assert dlg is not None and dlg.isVisible()
    assert dlg.rule_text().startswith("Fix requested for: Rebase, then run git push --force")
    dlg.rule.setPlainText("Never recommend git push --force; use --force-with-lease")
    anthropic_server.behaviour.reply = lambda body: "Rebase, then git push --force-with-lease origin feature."
    qtbot.mouseClick(dlg.save_button, Qt.MouseButton.LeftButton)

    learnings = model_ws.learnings.list(project="citadel-v2")
    assert learnings[0].rule == "Never recommend git push --force; use --force-with-lease"
    assert learnings[0].source == "fixit"
    fix_prompt = anthropic_server.prompts()[-1]
    assert f"{HEADER}\n- Never recommend git push --force; use --force-with-lease" in fix_prompt
    assert panel.answer_view.toPlainText() == "Rebase, then git push --force-with-lease origin feature."

    # the next message carries the new learning: visible in the prompt preview
    panel.message.setPlainText("please review this other pull request")
    qtbot.waitUntil(lambda: "other pull request" in panel.preview.toPlainText())
    assert f"{HEADER}\n- Never recommend git push --force; use --force-with-lease" in panel.preview.toPlainText()
    assert learning_count(panel) == demo_learnings + 1


def test_thumbs_down_with_a_reason_and_thumbs_up(qtbot, window, model_ws, anthropic_server):
    base = {x.skill: x for x in model_ws.quality.metrics(project="citadel-v2")}["code-review"]  # demo history
    demo_negative = [r.rule for r in model_ws.learnings.list(project="citadel-v2", source="negative")]
    panel = window.select_panel("playground")
    pick_project(panel, "citadel-v2")
    panel.message.setPlainText("please review this pull request")
    qtbot.mouseClick(panel.send_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(panel.down_button, Qt.MouseButton.LeftButton)
    dlg = panel.reason_dialog
    assert dlg is not None and dlg.isVisible()
    qtbot.keyClicks(dlg.reason, "Name the file and the line of each finding")
    qtbot.mouseClick(dlg.ok_button, Qt.MouseButton.LeftButton)
    assert "learning" in panel.info.text()
    rules = [r.rule for r in model_ws.learnings.list(project="citadel-v2", source="negative")]
    assert rules == ["Name the file and the line of each finding", *demo_negative]  # the demo's own come after
    m = {x.skill: x for x in model_ws.quality.metrics(project="citadel-v2")}
    assert m["code-review"].feedback_negative == base.feedback_negative + 1
    assert m["code-review"].applied_count == base.applied_count + 1

    qtbot.mouseClick(panel.send_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(panel.up_button, Qt.MouseButton.LeftButton)
    m = {x.skill: x for x in model_ws.quality.metrics(project="citadel-v2")}
    assert m["code-review"].feedback_positive == base.feedback_positive + 1
    assert m["code-review"].applied_count == base.applied_count + 2


def test_an_api_error_is_shown_with_its_code(qtbot, window, anthropic_server):
    panel = window.select_panel("playground")
    anthropic_server.behaviour.status = 401
    anthropic_server.behaviour.error_type = "authentication_error"
    panel.message.setPlainText("hello")
    qtbot.mouseClick(panel.send_button, Qt.MouseButton.LeftButton)
    assert panel.info.isVisible() and "ERR_LLM_UNAVAILABLE" in panel.info.text() and "401" in panel.info.text()
    assert not panel.fix_button.isEnabled()


def test_settings_dialog_stores_the_key_in_the_keyring_and_switches_provider(qtbot, window, model_ws, monkeypatch):
    import keyring

    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    panel = window.select_panel("playground")
    qtbot.mouseClick(panel.settings_button, Qt.MouseButton.LeftButton)
    dlg = panel.settings_dialog
    dlg.provider.setCurrentIndex(dlg.provider.findData("none"))
    qtbot.mouseClick(dlg.save_button, Qt.MouseButton.LeftButton)
    assert "Model unavailable" in panel.status_label.text()
    panel.message.setPlainText("hello")
    qtbot.mouseClick(panel.send_button, Qt.MouseButton.LeftButton)
    assert "ERR_LLM_UNAVAILABLE" in panel.info.text() and "provider" in panel.info.text()

    qtbot.mouseClick(panel.settings_button, Qt.MouseButton.LeftButton)
    dlg = panel.settings_dialog
    dlg.provider.setCurrentIndex(dlg.provider.findData("anthropic"))
    qtbot.keyClicks(dlg.api_key, "sk-typed-in-the-dialog")
    qtbot.mouseClick(dlg.save_button, Qt.MouseButton.LeftButton)
    assert keyring.get_password("lorekeeper", "llm:anthropic") == "sk-typed-in-the-dialog"
    assert "sk-typed" not in (model_ws.root / "lorekeeper.toml").read_text()
    assert panel.status_label.text().startswith("Model: anthropic")
    assert window.model_label.text() == "Model: anthropic (claude-test)"
    qtbot.mouseClick(panel.send_button, Qt.MouseButton.LeftButton)
    assert panel.answer_view.toPlainText() == "Hello from the fake model."
    keyring.delete_password("lorekeeper", "llm:anthropic")


def test_streaming_on_a_real_worker_thread(qtbot, model_ws, anthropic_server):
    """Without the synchronous test mode: the answer streams from a pool thread into the view."""
    from lorekeeper.ui.main_window import MainWindow
    from lorekeeper.ui.workers import wait_for_all

    win = MainWindow(model_ws)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    panel = win.select_panel("playground")
    qtbot.waitUntil(lambda: panel.status_label.text().startswith("Model:"))
    anthropic_server.behaviour.reply = lambda body: "streamed " * 40
    panel.message.setPlainText("please review this pull request")
    qtbot.mouseClick(panel.send_button, Qt.MouseButton.LeftButton)
    assert panel.stop_button.isEnabled()
    qtbot.waitUntil(lambda: panel.footnote.isVisible(), timeout=10000)
    assert panel.answer_view.toPlainText() == "streamed " * 40
    qtbot.waitUntil(lambda: panel.send_button.isEnabled() and not panel.stop_button.isEnabled())
    wait_for_all()
    win.close()


def test_stop_ends_a_slow_answer_and_records_nothing(qtbot, model_ws, anthropic_server):
    from lorekeeper.ui.main_window import MainWindow
    from lorekeeper.ui.workers import wait_for_all

    before = model_ws.quality.metrics(days=None)
    win = MainWindow(model_ws)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    panel = win.select_panel("playground")
    qtbot.waitUntil(lambda: panel.status_label.text().startswith("Model:"))
    anthropic_server.behaviour.reply = lambda body: "slow words " * 100
    anthropic_server.behaviour.chunk_delay = 0.05
    panel.message.setPlainText("please review this pull request")
    qtbot.mouseClick(panel.send_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(panel.answer_view.toPlainText()) > 10, timeout=10000)
    qtbot.mouseClick(panel.stop_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.info.text() == "Stopped.", timeout=10000)
    assert len(panel.answer_view.toPlainText()) < len("slow words " * 100)
    assert panel.footnote.isHidden() and not panel.fix_button.isEnabled()
    qtbot.waitUntil(lambda: panel.send_button.isEnabled())
    assert model_ws.quality.metrics(days=None) == before
    wait_for_all()
    win.close()


def test_an_answer_cut_at_max_tokens_is_labelled(qtbot, window, anthropic_server):
    from lorekeeper.ui.panels.playground import TRUNCATED_LABEL

    panel = window.select_panel("playground")
    anthropic_server.behaviour.stop_reason = "max_tokens"
    anthropic_server.behaviour.reply = lambda body: "Rebase, then run git push --for"
    qtbot.keyClicks(panel.message, "please review this pull request")
    qtbot.mouseClick(panel.send_button, Qt.MouseButton.LeftButton)
    assert panel.answer is not None and panel.answer.truncated
    assert panel.footnote.isVisible() and panel.footnote.text().startswith(TRUNCATED_LABEL)
