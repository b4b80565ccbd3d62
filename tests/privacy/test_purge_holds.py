"""While a purge run works, Purge and Run retention are disabled and say why; they come back when it ends."""

from __future__ import annotations

import pytest
from purge_helpers import seed
from PySide6.QtCore import Qt

from lorekeeper.ui import workers


@pytest.fixture
def purge_panel(qtbot, workspace, sync_workers):
    from lorekeeper.ui.bus import ChangeBus
    from lorekeeper.ui.panels.base import AppContext
    from lorekeeper.ui.panels.purge import PurgePanel

    seed(workspace, "PD-1", until="2020-01-01")
    seed(workspace, "PD-2", until="2020-01-01")
    messages: list[str] = []
    panel = PurgePanel(AppContext(workspace, ChangeBus(), messages.append))
    qtbot.addWidget(panel)
    panel.show()
    panel.messages = messages
    return panel


def test_a_running_purge_holds_the_purge_buttons_with_a_reason(purge_panel, qtbot, monkeypatch) -> None:
    from lorekeeper.ui import widgets

    monkeypatch.setattr(widgets, "confirm", lambda *_a: True)
    qtbot.keyClicks(purge_panel.story, "PD-1")
    purge_panel.story_debounce.flush()  # the plan runs once typing pauses
    seen: list[object] = []

    def during() -> None:
        if not seen and workers.tracker().hold_reason(("story", "PD-1")):
            seen.append(None)
            purge_panel.reload()  # a change-feed reload mid-run must not re-enable Purge
            purge_panel.run_retention()  # nor may a second run start: it says why instead
            seen[0] = (
                purge_panel.purge_button.isEnabled(),
                purge_panel.retention_button.isEnabled(),
                purge_panel.purge_button.toolTip(),
                purge_panel.hold_label.isVisible(),
            )

    workers.tracker().changed.connect(during)
    qtbot.mouseClick(purge_panel.purge_button, Qt.MouseButton.LeftButton)
    workers.tracker().changed.disconnect(during)
    [(purge, retention, tip, shown)] = seen
    assert (purge, retention, shown) == (False, False, True)
    assert tip.startswith("Purging PD-1 in progress") and purge_panel.messages[-1] == tip
    assert purge_panel.last_result is not None and purge_panel.last_result.stories == ["PD-1"]  # one run only
    assert purge_panel.model.rowCount() == 1
    assert purge_panel.retention_button.isEnabled()  # the hold is gone; PD-1 has nothing left to purge
    assert not purge_panel.purge_button.isEnabled() and "nothing to purge" in purge_panel.purge_button.toolTip()
    assert not purge_panel.hold_label.isVisible()
