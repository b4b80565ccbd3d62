from __future__ import annotations

import pytest


@pytest.fixture
def window(qtbot, demo_workspace, sync_workers):
    from lorekeeper.ui.main_window import MainWindow

    win = MainWindow(demo_workspace)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    yield win
    win.close()
