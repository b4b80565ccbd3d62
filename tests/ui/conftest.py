"""pytest-qt fixtures for the desktop app: a fresh demo workspace and main window per test.

Workers run synchronously here, so a click has its whole effect when `qtbot.mouseClick` returns;
debounced views (search, live evals, routing) are awaited with `qtbot.waitUntil`.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _discard_unsaved_at_close(monkeypatch):
    """A test that ends mid-edit is not asked Save / Discard / Cancel when its window closes (a
    modal box would block): unsaved edits are discarded. Tests of the guard set their answers."""
    from lorekeeper.ui import widgets

    monkeypatch.setattr(widgets, "ask_unsaved", lambda *_args: widgets.DISCARD)


@pytest.fixture
def ui_workspace(tmp_path: Path, workspace_templates):
    ws = workspace_templates.copy(tmp_path / "ws", demo=True)  # as Workspace.init(..., demo=True)
    yield ws
    ws.close()


@pytest.fixture
def window(qtbot, ui_workspace, sync_workers):
    from lorekeeper.ui.main_window import MainWindow

    win = MainWindow(ui_workspace)
    qtbot.addWidget(win)
    win.show()
    win.activateWindow()
    qtbot.waitExposed(win)
    yield win
    win.close()
    _delete_now(win)


def _delete_now(widget) -> None:
    """Destroy a window before the next test (not at interpreter exit, where PySide is fragile)."""
    from PySide6.QtCore import QCoreApplication, QEvent

    widget.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
