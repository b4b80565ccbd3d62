"""The Purge runs panel: type a story, press Purge, confirm (the confirmation names every artefact
with its count), the run appears verified in the history; retention preview and re-verification."""

from __future__ import annotations

import pytest
from purge_helpers import build_index, files_holding, seed
from PySide6.QtCore import Qt

from lorekeeper.workspace import Workspace


@pytest.fixture
def purge_panel(qtbot, workspace: Workspace, sync_workers, monkeypatch):
    from lorekeeper.ui.bus import ChangeBus
    from lorekeeper.ui.panels.base import AppContext
    from lorekeeper.ui.panels.purge import PurgePanel

    seed(workspace, "PD-1", until="2020-01-01")
    seed(workspace, "PD-2")
    build_index(workspace, ["PD-1", "PD-2"])
    panel = PurgePanel(AppContext(workspace, ChangeBus()))
    qtbot.addWidget(panel)
    return panel


def test_pressing_purge_and_confirming_erases_the_story(purge_panel, qtbot, monkeypatch) -> None:
    from lorekeeper.ui import widgets

    asked: list[tuple[str, str]] = []
    monkeypatch.setattr(widgets, "confirm", lambda _p, title, text: asked.append((title, text)) or True)
    assert "PD-1" in purge_panel.due_list.item(0).text()  # the retention preview: PD-1 expired
    qtbot.keyClicks(purge_panel.story, "PD-1")
    purge_panel.story_debounce.flush()  # the plan runs once typing pauses
    assert purge_panel.purge_button.isEnabled() and "PD-1" in purge_panel.purge_button.text()
    assert "FAISS vectors 1" in purge_panel.plan_label.text()
    qtbot.mouseClick(purge_panel.purge_button, Qt.MouseButton.LeftButton)

    title, text = asked[0]
    assert title == "Purge PD-1?"
    for line in (
        "store rows: 3",
        "FAISS vectors: 1",
        "embedding rows (.npy): 1",
        "index cache entries: 1",
        "session-log events (signed tombstones): 1",
        "clarification summary files: 1",
    ):
        assert line in text
    assert purge_panel.last_result is not None and purge_panel.last_result.verified
    assert purge_panel.model.rowCount() == 1 and purge_panel.model.row(0).stories == ["PD-1"]
    assert purge_panel.model.data(purge_panel.model.index(0, 10)) == "verified"
    assert files_holding(purge_panel.ws.root, "zanzibar-quokka") == []
    assert purge_panel.due_list.count() == 1 and "PD-2" in purge_panel.due_list.item(0).text()

    purge_panel.table.selectRow(0)
    qtbot.mouseClick(purge_panel.verify_button, Qt.MouseButton.LeftButton)
    assert "verified again" in purge_panel.message.text()


def test_declining_the_confirmation_erases_nothing(purge_panel, qtbot, monkeypatch) -> None:
    from lorekeeper.ui import widgets

    monkeypatch.setattr(widgets, "confirm", lambda *_a: False)
    qtbot.keyClicks(purge_panel.story, "PD-1")
    purge_panel.story_debounce.flush()  # the plan runs once typing pauses
    qtbot.mouseClick(purge_panel.purge_button, Qt.MouseButton.LeftButton)
    assert purge_panel.model.rowCount() == 0
    assert files_holding(purge_panel.ws.root, "zanzibar-quokka")


def test_enter_in_the_story_field_asks_to_purge_it(purge_panel, qtbot, monkeypatch) -> None:
    from lorekeeper.ui import widgets

    asked: list[str] = []
    monkeypatch.setattr(widgets, "confirm", lambda _p, title, _text: asked.append(title) or False)
    qtbot.keyClicks(purge_panel.story, "PD-1")
    qtbot.keyClick(purge_panel.story, Qt.Key.Key_Return)  # at once: Enter plans what is typed first
    assert asked == ["Purge PD-1?"]


def test_typing_a_story_plans_once_when_typing_pauses(purge_panel, qtbot, monkeypatch) -> None:
    """Issue 28: a plan reads every purgeable; it used to run on every keystroke of the story box."""
    planned: list[str] = []
    real = purge_panel.ws.purge.plan
    monkeypatch.setattr(purge_panel.ws.purge, "plan", lambda story, *a: planned.append(story) or real(story, *a))
    qtbot.keyClicks(purge_panel.story, "PD-2")  # not due: the retention preview does not plan it
    assert planned == [] and not purge_panel.purge_button.isEnabled()  # typing: nothing read yet
    purge_panel.story_debounce.flush()  # typing paused
    assert [p for p in planned if p != "PD-1"] == ["PD-2"]  # not "P", "PD", "PD-" (PD-1: the due preview)
    assert purge_panel.purge_button.isEnabled() and "FAISS vectors 1" in purge_panel.plan_label.text()


def test_purge_is_disabled_with_a_reason_when_the_story_has_nothing_left(purge_panel, qtbot, monkeypatch) -> None:
    from lorekeeper.ui import widgets

    asked: list[str] = []
    monkeypatch.setattr(widgets, "confirm", lambda _p, title, _text: asked.append(title) or False)
    qtbot.keyClicks(purge_panel.story, "PD-404")
    purge_panel.story_debounce.flush()  # the plan runs once typing pauses
    assert "nothing is stored" in purge_panel.plan_label.text()
    assert not purge_panel.purge_button.isEnabled()
    assert "nothing to purge" in purge_panel.purge_button.toolTip()
    qtbot.keyClick(purge_panel.story, Qt.Key.Key_Return)
    assert asked == []


def test_the_history_shows_and_filters_who_ran_each_purge(purge_panel, qtbot, monkeypatch) -> None:
    """Issue 25 d2: the By column names the run's operator; the By field keeps that operator's runs."""
    from lorekeeper.ui import widgets

    monkeypatch.setattr(widgets, "confirm", lambda *_a: True)
    ws = purge_panel.ws
    ws.audit._operator = "token-alice"  # what AuditService.operator() asks Vault for once
    qtbot.keyClicks(purge_panel.story, "PD-1")
    purge_panel.story_debounce.flush()  # the plan runs once typing pauses; Purge waits for it
    qtbot.waitUntil(purge_panel.purge_button.isEnabled)
    qtbot.mouseClick(purge_panel.purge_button, Qt.MouseButton.LeftButton)
    ws.audit._operator = "token-bob"
    purge_panel.story.clear()
    qtbot.keyClicks(purge_panel.story, "PD-2")
    purge_panel.story_debounce.flush()
    qtbot.waitUntil(purge_panel.purge_button.isEnabled)
    qtbot.mouseClick(purge_panel.purge_button, Qt.MouseButton.LeftButton)
    purge_panel.story.clear()
    purge_panel.story_debounce.flush()
    by_col = purge_panel.model.HEADERS.index("By")
    qtbot.waitUntil(lambda: purge_panel.model.rowCount() == 2)
    assert {purge_panel.model.data(purge_panel.model.index(r, by_col)) for r in range(2)} == {
        "token-alice",
        "token-bob",
    }

    qtbot.keyClicks(purge_panel.by_filter, "TOKEN-BOB")
    purge_panel.story_debounce.flush()  # the By field is debounced like the story box

    qtbot.waitUntil(lambda: purge_panel.model.rowCount() == 1)
    assert purge_panel.model.row(0).stories == ["PD-2"] and purge_panel.model.row(0).by == "token-bob"
    purge_panel.by_filter.clear()
    qtbot.keyClicks(purge_panel.by_filter, "carol")
    purge_panel.story_debounce.flush()
    qtbot.waitUntil(lambda: purge_panel.model.rowCount() == 0)
    assert purge_panel.empty.is_empty and "by 'carol'" in purge_panel.empty.message.text()
