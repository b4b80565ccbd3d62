"""While a run holds an item its actions are disabled and say why; they come back when it ends or is
cancelled. Sage runs on one skill from the Skills panel and its proposal opens in Proposals."""

from __future__ import annotations

import pytest
from improve_support import new_skill_text, open_window
from PySide6.QtCore import Qt
from test_sage import sage_answer

from lorekeeper.ui import workers


def _during(hold, check):
    """Call `check()` at the first progress of the job holding `hold` (jobs run inline here)."""
    seen: list[object] = []

    def on_change() -> None:
        if not seen and workers.tracker().hold_reason(hold):
            seen.append(None)  # before the check: what it does may change the jobs again
            seen[0] = check()

    workers.tracker().changed.connect(on_change)
    return seen, lambda: workers.tracker().changed.disconnect(on_change)


@pytest.fixture
def proposals(qtbot, model_ws, sage_proposal, sync_workers):
    win = open_window(qtbot, model_ws)
    panel = win.select_panel("proposals")
    panel.table.setFocus()
    qtbot.waitUntil(lambda: panel.current() is not None)
    yield win, panel
    win.close()


def test_a_benchmark_holds_its_proposal_with_a_reason(qtbot, proposals, model_ws, sage_proposal):
    win, panel = proposals
    hold = ("proposal", sage_proposal.id)

    # Esc on the held proposal cancels its run: nothing stored, the actions are back
    seen, stop = _during(hold, lambda: qtbot.keyClick(panel.table, Qt.Key.Key_Escape))
    qtbot.mouseClick(panel.bench_button, Qt.MouseButton.LeftButton)
    stop()
    assert seen and "Benchmark cancelled" in panel.message.text()
    assert not model_ws.improve.bench.list(proposal_id=sage_proposal.id)
    assert panel.approve_button.isEnabled() and not panel.queue.hold_label.isVisible()

    def state():
        qtbot.keyClick(panel.table, Qt.Key.Key_A)  # the shortcut on the held item: said, not ignored
        return (
            panel.approve_button.isEnabled(),
            panel.reject_button.isEnabled(),
            panel.bench_button.isEnabled(),
            panel.approve_button.toolTip(),
            panel.queue.hold_label.isVisible(),
            win.statusBar().currentMessage(),
            win.full_message,
        )

    seen, stop = _during(hold, state)
    qtbot.mouseClick(panel.bench_button, Qt.MouseButton.LeftButton)
    stop()
    [(approve, reject, bench, tip, reason_shown, shown, status)] = seen
    assert (approve, reject, bench) == (False, False, False)
    assert tip.startswith(f"Benchmark running on proposal #{sage_proposal.id}") and "cancel it (Esc)" in tip
    assert reason_shown and status == tip  # said in the status bar (cut with … to its room, whole in its tooltip)
    assert shown == tip or (shown.endswith("…") and tip.startswith(shown[:-1]))
    assert model_ws.improve.proposals.get(sage_proposal.id).status == "pending"  # A did nothing, and said why
    # the run ended: the actions are back, the reason gone, the benchmark stored
    assert panel.approve_button.isEnabled() and panel.bench_button.isEnabled()
    assert not panel.queue.hold_label.isVisible() and panel.approve_button.toolTip() == ""
    assert model_ws.improve.bench.list(proposal_id=sage_proposal.id)


@pytest.fixture
def skills(qtbot, model_ws, sync_workers):
    win = open_window(qtbot, model_ws)
    panel = win.select_panel("skills")
    assert panel.select_skill("code-review")
    yield win, panel
    win.close()


def test_sage_from_the_skills_panel_holds_the_skill_and_opens_its_proposal(qtbot, skills, model_ws):
    win, panel = skills
    model_ws.script.sage["code-review"] = sage_answer(new_skill_text(model_ws))
    tabs = panel.content_tab, panel.rules_tab, panel.versions_tab

    def state():
        return (
            [b.isEnabled() for b in (tabs[0].edit_button, tabs[0].save_button, tabs[1].add_button, panel.sage_button)],
            tabs[0].edit_button.toolTip(),
            panel.hold_label.isVisible(),
        )

    seen, stop = _during(("skill", ("code-review", "")), state)
    qtbot.mouseClick(panel.sage_button, Qt.MouseButton.LeftButton)
    stop()
    [(enabled, tip, reason_shown)] = seen
    assert enabled == [False, False, False, False]
    assert tip.startswith("Sage is working on code-review") and reason_shown
    # done: the skill is free again, the proposal is reachable
    assert tabs[0].edit_button.isEnabled() and panel.sage_button.isEnabled() and not panel.hold_label.isVisible()
    [p] = model_ws.improve.proposals.list("pending")
    assert f"Sage proposed #{p.id} for code-review" in panel.sage_message.text()
    assert panel.open_proposal_button.isVisible()
    qtbot.mouseClick(panel.open_proposal_button, Qt.MouseButton.LeftButton)
    assert win.current_panel().panel_id == "proposals"
    assert win.current_panel().current().id == p.id


def test_sage_that_proposes_nothing_or_is_cancelled_says_why(qtbot, skills, model_ws):
    _win, panel = skills
    qtbot.mouseClick(panel.sage_button, Qt.MouseButton.LeftButton)  # the scripted model answers NO_CHANGE
    assert "Sage proposes nothing for code-review: Sage found nothing to improve" in panel.sage_message.text()
    assert not panel.open_proposal_button.isVisible()
    assert model_ws.improve.proposals.list("all") == []

    # cancelled (the status bar's Cancel) before the model call: the skill is free, nothing proposed
    model_ws.script.sage["code-review"] = sage_answer(new_skill_text(model_ws))
    hold = ("skill", ("code-review", ""))
    seen, stop = _during(hold, lambda: workers.tracker().cancel_holders(hold))
    qtbot.mouseClick(panel.sage_button, Qt.MouseButton.LeftButton)
    stop()
    assert seen and "Sage on code-review cancelled: nothing was proposed." in panel.sage_message.text()
    assert model_ws.script.calls["sage"] == 1 and model_ws.improve.proposals.list("all") == []
    assert panel.sage_button.isEnabled() and panel.content_tab.edit_button.isEnabled()


def test_sage_without_a_model_is_a_clear_error(qtbot, weak_ws, sync_workers):
    win = open_window(qtbot, weak_ws)
    panel = win.select_panel("skills")
    assert panel.select_skill("code-review")
    qtbot.mouseClick(panel.sage_button, Qt.MouseButton.LeftButton)
    assert "ERR_LLM_UNAVAILABLE" in panel.sage_message.text() and "Sage needs a model" in panel.sage_message.text()
    assert win.error_dialog is None  # no traceback dialog
    assert panel.sage_button.isEnabled()
    win.close()
