from __future__ import annotations

from PySide6.QtCore import Qt

from lorekeeper.ui.panels import PANELS


def sidebar_titles(window) -> list[str]:
    return [window.sidebar.item(i).text() for i in range(window.sidebar.count())]


def test_sidebar_lists_exactly_the_registered_panels(window):
    assert sidebar_titles(window) == [spec.title for spec in PANELS]
    assert window.panel_ids == [spec.panel_id for spec in PANELS]
    assert {"skills", "evals", "router"} <= set(window.panel_ids)
    assert window.stack.count() == len(PANELS)


def test_ctrl_number_switches_panels(qtbot, window):
    for i, panel_id in enumerate(window.panel_ids[:9]):
        qtbot.keyClick(window, Qt.Key(Qt.Key.Key_1 + i), Qt.KeyboardModifier.ControlModifier)
        assert window.current_panel() is window.panels[panel_id]
        assert window.sidebar.currentRow() == i
    qtbot.keyClick(window, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    assert window.current_panel() is window.panels["start"]  # the first-run view is the first panel (issue 30 d1)


def test_clicking_the_sidebar_switches_panels(qtbot, window):
    item = window.sidebar.item(window.panel_ids.index("router"))
    rect = window.sidebar.visualItemRect(item)
    qtbot.mouseClick(window.sidebar.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.current_panel() is window.panels["router"]


def test_ctrl_f_focuses_the_panel_search_box(qtbot, window):
    window.select_panel("skills")
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.panels["skills"].search.hasFocus())


def test_status_bar_shows_workspace_model_keys_and_version(window, ui_workspace):
    from lorekeeper import __version__

    assert ui_workspace.name in window.workspace_label.text()
    assert str(ui_workspace.root) in window.path_label.text()
    assert window.model_label.text() == "Model: none"
    assert window.keys_label.text() == "Key: keyring v1"  # provider and key version (audit chain)
    assert window.version_label.text() == f"v{__version__}"
    assert window.jobs_label.text() == "Idle"


def test_f5_refreshes_the_current_panel(qtbot, window, ui_workspace):
    panel = window.select_panel("skills")
    before = panel.model.rowCount()
    ui_workspace.skills.fork("code-review", "zeta-project")  # changed behind the app's back
    qtbot.keyClick(window, Qt.Key.Key_F5)
    assert panel.model.rowCount() == before + 1
