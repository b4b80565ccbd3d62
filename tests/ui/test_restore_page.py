"""The stop page of a damaged store (issue 23): it names the newest backup and its restore command,
and its "Restore this backup" button restores in a worker, then opens the workspace."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from lorekeeper.workspace import Workspace


@pytest.fixture
def async_workers():
    from lorekeeper.ui import workers

    workers.set_synchronous(False)
    yield
    workers.tracker().cancel_all()
    workers.wait_for_all()


def test_the_restore_button_restores_the_newest_backup_off_the_gui_thread_then_opens(
    qtbot, workspace, async_workers, confirm_yes
) -> None:
    import threading

    from lorekeeper import recovery
    from lorekeeper.ui import workers
    from lorekeeper.ui.app import ErrorScreen, _Launcher

    root: Path = workspace.root
    workspace.learnings.add("a rule from before the damage")
    made = workspace.backups.create()
    workspace.close()
    db = root / "lorekeeper.db"
    os.truncate(db, db.stat().st_size - 4096)  # closed: the last page lost

    threads: list[bool] = []
    real = recovery.restore

    def spy(*args, **kwargs):
        threads.append(threading.current_thread() is threading.main_thread())
        return real(*args, **kwargs)

    launcher = _Launcher(lambda: Workspace.open(root), where=str(root))
    try:
        launcher.start()
        qtbot.waitUntil(lambda: launcher.error_screen is not None and launcher.error_screen.isVisible(), timeout=20000)
        screen = launcher.error_screen
        assert isinstance(screen, ErrorScreen) and launcher.window is None
        assert screen.code_label.text() == "ERR_STORE_DAMAGED"
        assert made["path"] in screen.message_label.text() and " restore " in screen.message_label.text()
        assert screen.restore_button.isVisible()

        recovery.restore = spy
        qtbot.mouseClick(screen.restore_button, Qt.MouseButton.LeftButton)
        assert confirm_yes == ["Restore this backup"]
        qtbot.waitUntil(lambda: launcher.window is not None and launcher.window.isVisible(), timeout=30000)
        assert threads == [False]  # the restore ran in a worker
        assert any(x.rule == "a rule from before the damage" for x in launcher.window.ws.learnings.list())
        assert list(root.glob("lorekeeper.replaced-*.db"))  # the damaged file, kept aside
    finally:
        recovery.restore = real
        workers.wait_for_all()
        for w in (launcher.opening, launcher.error_screen, launcher.window):
            if w is not None:
                w.close()
                w.deleteLater()
        if launcher.window is not None:
            launcher.window.ws.close()
