from __future__ import annotations

import pytest

from helpers.fake_llm import FakeAnthropic, FakeOllama


@pytest.fixture
def anthropic_server():
    with FakeAnthropic() as srv:
        yield srv


@pytest.fixture
def ollama_server():
    with FakeOllama() as srv:
        yield srv


@pytest.fixture
def sync_workers():
    from lorekeeper.ui import workers

    workers.set_synchronous(True)
    yield
    workers.set_synchronous(False)


@pytest.fixture
def window(qtbot, demo_workspace, sync_workers):
    from lorekeeper.ui.main_window import MainWindow

    win = MainWindow(demo_workspace)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    yield win
    win.close()
