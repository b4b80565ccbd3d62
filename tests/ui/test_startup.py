"""The app's start off the GUI thread: the workspace opens (config, store, migrations, audit key)
in a worker while an "Opening workspace…" screen shows and the event loop keeps running; the main
window (or the error screen, whose Retry opens again) replaces it. Workers are NOT synchronous here.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QThread, QTimer
from PySide6.QtWidgets import QApplication

from lorekeeper.errors import WorkspaceError
from lorekeeper.workspace import Workspace


class Heartbeat:
    """A 10 ms QTimer on the GUI thread: counts ticks and the largest gap between two."""

    def __init__(self) -> None:
        self.ticks = 0
        self.max_gap = 0.0
        self._last = time.perf_counter()
        self.timer = QTimer()
        self.timer.setInterval(10)
        self.timer.timeout.connect(self._tick)
        self.timer.start()

    def _tick(self) -> None:
        now = time.perf_counter()
        self.max_gap = max(self.max_gap, now - self._last)
        self._last = now
        self.ticks += 1

    def stop(self) -> None:
        self.timer.stop()


class GatedFactory:
    """Opens `root` only when the test says so, recording the thread it ran on."""

    def __init__(self, root: Path, *, fail_first: bool = False) -> None:
        self.root = root
        self.started = threading.Event()
        self.release = threading.Event()
        self.on_gui_thread: list[bool] = []
        self.opened: list[Workspace] = []
        self.fail_first = fail_first

    def __call__(self) -> Workspace:
        app = QApplication.instance()
        assert app is not None
        self.on_gui_thread.append(QThread.currentThread() is app.thread())
        self.started.set()
        assert self.release.wait(30), "the test never released the open"
        if self.fail_first and len(self.on_gui_thread) == 1:
            raise WorkspaceError(f"no workspace at {self.root} (simulated)")
        ws = Workspace.open(self.root)
        self.opened.append(ws)
        return ws


@pytest.fixture
def async_workers():
    from lorekeeper.ui import workers

    workers.set_synchronous(False)
    yield
    workers.tracker().cancel_all()
    workers.wait_for_all()


@pytest.fixture
def root(tmp_path: Path, workspace_templates) -> Path:
    ws = workspace_templates.copy(tmp_path / "ws")
    ws.close()
    return ws.root


def _cleanup(launcher) -> None:
    from lorekeeper.ui import workers

    workers.wait_for_all()
    for w in (launcher.opening, launcher.error_screen, launcher.window):
        if w is not None:
            w.close()
            w.deleteLater()
    if launcher.window is not None:
        launcher.window.ws.close()


def test_the_workspace_opens_in_a_worker_while_the_opening_screen_shows(qtbot, root, async_workers):
    from lorekeeper.ui.app import _Launcher

    factory = GatedFactory(root)
    launcher = _Launcher(factory, where=str(root))
    beat = Heartbeat()
    try:
        launcher.start()
        opening = launcher.opening
        assert opening is not None and opening.isVisible()  # at once, before the workspace is open
        assert opening.where_label.text() == str(root)
        assert "Opening" in opening.step_label.text()
        qtbot.waitUntil(factory.started.is_set, timeout=10000)
        ticks = beat.ticks
        qtbot.waitUntil(lambda: beat.ticks >= ticks + 5, timeout=10000)  # the GUI keeps ticking meanwhile
        assert launcher.window is None and opening.isVisible()
        assert factory.on_gui_thread == [False]  # config, store and migrations ran in the worker

        factory.release.set()
        qtbot.waitUntil(lambda: launcher.window is not None and launcher.window.isVisible(), timeout=20000)
        assert not opening.isVisible()
        assert launcher.window.ws is factory.opened[0]
        assert launcher.window.ws.audit.key_session is not None  # the key was loaded in the worker too
        qtbot.waitUntil(lambda: launcher.window.keys_label.text().startswith("Key: "), timeout=10000)
        print(f"\nlargest GUI-thread gap while opening: {beat.max_gap * 1000:.1f} ms over {beat.ticks} ticks")
    finally:
        beat.stop()
        factory.release.set()
        _cleanup(launcher)


def test_a_failing_open_shows_the_error_screen_and_retry_opens_in_a_worker(qtbot, root, async_workers):
    from lorekeeper.ui.app import ErrorScreen, _Launcher

    factory = GatedFactory(root, fail_first=True)
    factory.release.set()
    launcher = _Launcher(factory, where=str(root))
    try:
        launcher.start()
        qtbot.waitUntil(lambda: launcher.error_screen is not None and launcher.error_screen.isVisible(), timeout=10000)
        screen = launcher.error_screen
        assert isinstance(screen, ErrorScreen) and launcher.window is None
        assert screen.code_label.text() == "ERR_WORKSPACE"
        assert "lorekeeper init" in screen.advice_label.text()
        assert not launcher.opening.isVisible()

        factory.release.clear()
        qtbot.mouseClick(screen.retry_button, Qt.MouseButton.LeftButton)
        assert launcher.opening.isVisible() and not screen.isVisible()  # Retry opens in the worker again
        qtbot.waitUntil(lambda: len(factory.on_gui_thread) == 2, timeout=10000)
        factory.release.set()
        qtbot.waitUntil(lambda: launcher.window is not None and launcher.window.isVisible(), timeout=20000)
        assert factory.on_gui_thread == [False, False]
        assert launcher.error is None and not screen.isVisible()
    finally:
        factory.release.set()
        _cleanup(launcher)


def test_cancel_while_opening_shows_retry_and_closes_what_the_worker_opened(qtbot, root, async_workers):
    from lorekeeper.ui import workers
    from lorekeeper.ui.app import _Launcher

    factory = GatedFactory(root)
    launcher = _Launcher(factory, where=str(root))
    try:
        launcher.start()
        qtbot.waitUntil(factory.started.is_set, timeout=10000)
        qtbot.mouseClick(launcher.opening.cancel_button, Qt.MouseButton.LeftButton)
        screen = launcher.error_screen
        assert screen is not None and screen.isVisible() and not launcher.opening.isVisible()
        assert screen.code_label.text() == "ERR_CANCELLED"
        factory.release.set()  # the open finishes after the cancel: its workspace is closed, not shown
        qtbot.waitUntil(lambda: len(factory.opened) == 1 and not launcher.is_opening, timeout=20000)
        workers.wait_for_all()
        qtbot.wait(50)
        assert launcher.window is None and screen.isVisible()

        qtbot.mouseClick(screen.retry_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: launcher.window is not None and launcher.window.isVisible(), timeout=20000)
        assert launcher.window.ws is factory.opened[1]
    finally:
        factory.release.set()
        _cleanup(launcher)


def test_a_missing_audit_key_fails_closed_after_a_threaded_open(qtbot, tmp_path: Path, async_workers, monkeypatch):
    """The key is loaded in the worker: a provider that cannot load it gives the fail-closed screen."""
    from lorekeeper.audit.errors import AuditKeyUnavailableError
    from lorekeeper.audit.service import AuditService
    from lorekeeper.ui.app import _Launcher
    from lorekeeper.ui.panels.audit import FailClosedScreen

    ws = Workspace.init(tmp_path / "k", starter=False)
    root = ws.root
    ws.close()
    threads: list[bool] = []

    def no_key(self):
        app = QApplication.instance()
        threads.append(QThread.currentThread() is app.thread())
        raise AuditKeyUnavailableError("the key is missing (simulated)", cause="missing", provider="keyring")

    monkeypatch.setattr(AuditService, "require_key", no_key)
    launcher = _Launcher(lambda: Workspace.open(root), where=str(root))
    try:
        launcher.start()
        qtbot.waitUntil(lambda: launcher.error_screen is not None and launcher.error_screen.isVisible(), timeout=10000)
        assert isinstance(launcher.error_screen, FailClosedScreen) and launcher.window is None
        assert launcher.error_screen.cause_label.text() == "Audit key missing"
        assert threads and threads[0] is False
    finally:
        _cleanup(launcher)


def test_no_panel_queries_the_store_or_the_keyring_on_the_gui_thread(qtbot, ui_workspace, async_workers, monkeypatch):
    """Every panel shown and refreshed with threaded workers: each store query and keyring call
    happens in a worker, none on the GUI thread (the watcher itself is checked first)."""
    from helpers.gui_io import watch_gui_thread_io
    from lorekeeper.ui import workers
    from lorekeeper.ui.main_window import MainWindow

    ws = ui_workspace
    ws.audit.require_key()  # as the launch job does, in a worker
    with watch_gui_thread_io(ws.store, monkeypatch) as seen:
        ws.skills.list()  # on the GUI thread, on purpose: the watcher sees it
        assert seen.hits and seen.hits[0][0].startswith("store: ")
        seen.hits.clear()

        win = MainWindow(ws)
        qtbot.addWidget(win)
        win.show()
        for panel_id in win.panel_ids:
            panel = win.select_panel(panel_id)
            panel.refresh()
            qtbot.waitUntil(lambda: workers.tracker().running() == 0, timeout=20000)
            workers.wait_for_all()
            qtbot.wait(20)  # deliver the results (their slots run on the GUI thread)
        win.close()
        workers.wait_for_all()
    assert not seen.hits, seen.report()
