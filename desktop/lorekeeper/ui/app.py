"""`run_app`: the desktop application's entry point (also the `--screenshot` renderer)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt, Signal, Slot
from PySide6.QtWidgets import QApplication, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from lorekeeper import __version__
from lorekeeper.errors import LorekeeperError
from lorekeeper.ui import workers
from lorekeeper.ui.main_window import MainWindow
from lorekeeper.ui.theme import ThemeFollower, icon
from lorekeeper.workspace import Workspace

if TYPE_CHECKING:
    from lorekeeper.ui.panels.audit import FailClosedScreen

APP_NAME = "Lorekeeper"
SCREENSHOT_SIZE = (1400, 900)

_ADVICE = {
    "ERR_WORKSPACE": "Create the workspace with `lorekeeper init DIR` (add --demo for sample data), "
    "or open another one with `lorekeeper --workspace DIR`.",
    "ERR_STORE": "Check [store] url in lorekeeper.toml, that the database file is readable, "
    "and that no other program holds it locked.",
    "ERR_INVALID_SPEC": "Fix the file named above (lorekeeper.toml is TOML), then retry.",
    "ERR_AUDIT_KEY_UNAVAILABLE": "Provision the audit key (`lorekeeper audit init-key`) or check the keyring/Vault "
    "settings in [audit], then retry.",
}


class ErrorScreen(QWidget):
    """Shown instead of the main window when the workspace cannot be opened: code, advice, Retry."""

    retry_requested = Signal()

    def __init__(self, exc: BaseException, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"{APP_NAME} — cannot open the workspace")
        self.setWindowIcon(icon("lorekeeper"))
        self.resize(760, 420)
        box = QVBoxLayout(self)
        box.setContentsMargins(48, 40, 48, 40)
        box.setSpacing(14)
        title = QLabel("The workspace could not be opened")
        title.setObjectName("errorTitle")
        self.code_label = QLabel()
        self.code_label.setObjectName("errorCode")
        self.message_label = QLabel()
        self.message_label.setWordWrap(True)
        self.message_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.advice_label = QLabel()
        self.advice_label.setWordWrap(True)
        self.advice_label.setObjectName("panelSubtitle")
        self.retry_button = QPushButton("Retry")
        self.retry_button.setObjectName("primary")
        self.retry_button.clicked.connect(self.retry_requested.emit)
        quit_button = QPushButton("Quit")
        quit_button.clicked.connect(QCoreApplication.quit)
        for w in (title, self.code_label, self.message_label, self.advice_label):
            box.addWidget(w)
        box.addStretch(1)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(quit_button)
        row.addWidget(self.retry_button)
        box.addLayout(row)
        self.set_error(exc)

    def set_error(self, exc: BaseException) -> None:
        code = getattr(exc, "code", "ERR_INTERNAL")
        self.code_label.setText(code)
        self.message_label.setText(getattr(exc, "message", None) or str(exc) or type(exc).__name__)
        self.advice_label.setText(
            "What to do: " + _ADVICE.get(code, "Check the workspace folder and its lorekeeper.toml, then retry.")
        )


class _Launcher:
    """Opens the workspace, showing the error screen (with Retry) until it opens."""

    def __init__(self, factory: Callable[[], Workspace]) -> None:
        self.factory = factory
        self.window: MainWindow | None = None
        self.error_screen: ErrorScreen | FailClosedScreen | None = None
        self.error: BaseException | None = None

    def open(self) -> bool:
        from lorekeeper.ui.panels.audit import fail_closed_screen_class, require_key_at_launch

        try:
            ws = self.factory()
            require_key_at_launch(ws)  # session start: no audit key, no app (fail closed)
        except Exception as exc:  # noqa: BLE001 - any failure becomes the error screen, never a crash
            self.error = exc
            screen_cls: type[ErrorScreen | FailClosedScreen] = fail_closed_screen_class(exc) or ErrorScreen
            if self.error_screen is None or type(self.error_screen) is not screen_cls:
                if self.error_screen is not None:
                    self.error_screen.close()
                screen = screen_cls(exc)
                screen.retry_requested.connect(self.retry)
                self.error_screen = screen
            else:
                self.error_screen.set_error(exc)
            return False
        self.error = None
        self.window = MainWindow(ws)
        if self.error_screen is not None:
            self.error_screen.close()
        return True

    @Slot()
    def retry(self) -> None:
        if self.open():
            assert self.window is not None
            self.window.show()
        elif self.error_screen is not None:
            self.error_screen.show()


def _application() -> QApplication:
    app = QApplication.instance()
    if app is None:
        app = QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    app.setApplicationName(APP_NAME)
    app.setApplicationDisplayName(APP_NAME)
    app.setApplicationVersion(__version__)
    app.setOrganizationName("lorekeeper")
    app.setWindowIcon(icon("lorekeeper"))
    app.setDesktopFileName("lorekeeper")
    return app


def render_screenshots(window: MainWindow, out_dir: Path) -> list[Path]:
    """Select each panel, let its (synchronous) workers finish, and save `<panel-id>.png`."""
    out_dir.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance()
    assert app is not None  # the window exists, so the application does
    window.resize(*SCREENSHOT_SIZE)
    window.show()
    written: list[Path] = []
    for panel_id in window.panel_ids:
        panel = window.select_panel(panel_id)
        panel.showcase()
        for _ in range(5):
            app.processEvents()
        path = out_dir / f"{panel_id}.png"
        if not window.grab().save(str(path)):
            raise OSError(f"cannot write {path}")
        written.append(path)
    return written


def run_app(workspace_factory: Callable[[], Workspace], screenshot_dir: Path | str | None = None) -> int:
    """Run the desktop app; returns the process exit code."""
    app = _application()
    ws_theme = "system"
    launcher = _Launcher(workspace_factory)
    if screenshot_dir is not None:
        workers.set_synchronous(True)
    opened = launcher.open()
    if opened and launcher.window is not None:
        ws_theme = str(launcher.window.ws.config.get("ui.theme", "system") or "system")
    follower = ThemeFollower(app, "light" if screenshot_dir is not None and ws_theme == "system" else ws_theme)
    _ = follower

    if screenshot_dir is not None:
        out = Path(screenshot_dir)
        try:
            if not opened:
                assert launcher.error_screen is not None
                out.mkdir(parents=True, exist_ok=True)
                launcher.error_screen.show()
                app.processEvents()
                path = out / "error.png"
                launcher.error_screen.grab().save(str(path))
                print(
                    f"cannot open the workspace: {workers.error_text(launcher.error or Exception())}", file=sys.stderr
                )
                print(path)
                err = launcher.error
                return err.exit_code if isinstance(err, LorekeeperError) else 1
            assert launcher.window is not None
            for path in render_screenshots(launcher.window, out):
                print(path)
            return 0
        finally:
            if launcher.window is not None:
                launcher.window.close()
                launcher.window.ws.close()
            workers.set_synchronous(False)

    if opened:
        assert launcher.window is not None
        launcher.window.show()
    else:
        assert launcher.error_screen is not None
        launcher.error_screen.show()
    code = app.exec()
    workers.tracker().cancel_all()
    workers.wait_for_all()
    if launcher.window is not None:
        launcher.window.ws.close()
    return int(code)
