"""`run_app`: the desktop application's entry point (also the `--screenshot` renderer)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Generator
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from lorekeeper import __version__
from lorekeeper.errors import LorekeeperError
from lorekeeper.jobs import Cancelled, Progress, drive
from lorekeeper.ui import i18n, splash, workers
from lorekeeper.ui.i18n import QT_TRANSLATE_NOOP, tr_const
from lorekeeper.ui.theme import ThemeFollower, icon
from lorekeeper.ui.widgets import set_progress

if TYPE_CHECKING:
    # imported when needed, not at start (issue 30 d1): the main window imports the whole workspace
    # (SQLAlchemy, every service: ~4 s of a loaded laptop's start); the "Opening workspace…" screen
    # needs none of it, so it paints first and the worker imports them while it shows
    from lorekeeper.ui.main_window import MainWindow
    from lorekeeper.ui.panels.audit import FailClosedScreen
    from lorekeeper.workspace import Workspace

APP_NAME = "Lorekeeper"
SCREENSHOT_SIZE = (1400, 900)

_ADVICE = {
    "ERR_WORKSPACE": QT_TRANSLATE_NOOP(
        "app",
        "Create the workspace with `lorekeeper init DIR` (add --demo for sample data), "
        "or open another one with `lorekeeper --workspace DIR`.",
    ),
    "ERR_STORE": QT_TRANSLATE_NOOP(
        "app",
        "Check [store] url in lorekeeper.toml, that the database file is readable, "
        "and that no other program holds it locked.",
    ),
    "ERR_INVALID_SPEC": QT_TRANSLATE_NOOP("app", "Fix the file named above (lorekeeper.toml is TOML), then retry."),
    "ERR_CANCELLED": QT_TRANSLATE_NOOP(
        "app", "Opening was stopped before it finished. Retry opens the workspace again."
    ),
    "ERR_AUDIT_KEY_UNAVAILABLE": QT_TRANSLATE_NOOP(
        "app",
        "Provision the audit key (`lorekeeper audit init-key`) or check the keyring/Vault "
        "settings in [audit], then retry.",
    ),
    "ERR_STORE_DAMAGED": QT_TRANSLATE_NOOP(
        "app",
        "Restore the newest backup (the button below, or the command above): the damaged file "
        "is renamed aside, never overwritten, and the workspace opens on the restored copy.",
    ),
    "ERR_WORKSPACE_IN_USE": QT_TRANSLATE_NOOP("app", "Another process is restoring this workspace: retry in a moment."),
}
_NO_BACKUP_ADVICE = QT_TRANSLATE_NOOP(
    "app",
    "There is no backup to restore. Quit, salvage the damaged file with sqlite3's .recover (the command "
    "above), restore the result with `lorekeeper restore`, then retry.",
)


class ErrorScreen(QWidget):
    """Shown instead of the main window when the workspace cannot be opened: code, advice, Retry."""

    retry_requested = Signal()

    def __init__(self, exc: BaseException, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("{APP_NAME} — cannot open the workspace").format(APP_NAME=APP_NAME))
        self.setWindowIcon(icon("lorekeeper"))
        self.resize(760, 420)
        box = QVBoxLayout(self)
        box.setContentsMargins(48, 40, 48, 40)
        box.setSpacing(14)
        title = QLabel(self.tr("The workspace could not be opened"))
        title.setObjectName("errorTitle")
        self.code_label = QLabel()
        self.code_label.setObjectName("errorCode")
        self.message_label = QLabel()
        self.message_label.setWordWrap(True)
        self.message_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.advice_label = QLabel()
        self.advice_label.setWordWrap(True)
        self.advice_label.setObjectName("panelSubtitle")
        self.retry_button = QPushButton(self.tr("Retry"))
        self.retry_button.setObjectName("primary")
        self.retry_button.clicked.connect(self.retry_requested.emit)
        # a damaged store (issue 23): restore the newest backup in a worker, then open the workspace
        self.restore_button = QPushButton(self.tr("Restore this backup"))
        self.restore_button.setToolTip(
            self.tr("Put the newest backup in place (the damaged file is kept aside), then open")
        )
        self.restore_button.clicked.connect(self.restore_backup)
        self.restore_button.hide()
        self.restore_status = QLabel()
        self.restore_status.setWordWrap(True)
        self.restore_status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.restore_status.hide()
        self.backup: str = ""
        self.workspace_root: str = ""
        quit_button = QPushButton(self.tr("Quit"))
        quit_button.clicked.connect(QCoreApplication.quit)
        for w in (title, self.code_label, self.message_label, self.advice_label, self.restore_status):
            box.addWidget(w)
        box.addStretch(1)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(quit_button)
        row.addWidget(self.restore_button)
        row.addWidget(self.retry_button)
        box.addLayout(row)
        self.set_error(exc)

    def set_error(self, exc: BaseException) -> None:
        code = getattr(exc, "code", "ERR_INTERNAL")
        details = getattr(exc, "details", None) or {}
        self.code_label.setText(code)
        self.message_label.setText(getattr(exc, "message", None) or str(exc) or type(exc).__name__)
        self.backup = str(details.get("backup") or "") if code == "ERR_STORE_DAMAGED" else ""
        self.workspace_root = str(details.get("workspace") or "")
        advice = tr_const("app", _ADVICE.get(code, "")) or self.tr(
            "Check the workspace folder and its lorekeeper.toml, then retry."
        )
        if code == "ERR_STORE_DAMAGED" and not self.backup:
            advice = tr_const("app", _NO_BACKUP_ADVICE)
        self.advice_label.setText(self.tr("What to do: ") + advice)
        self.restore_button.setVisible(bool(self.backup and self.workspace_root))
        self.restore_button.setEnabled(True)
        if self.backup:
            self.restore_button.setToolTip(
                self.tr("Restore {backup}, keep the damaged file aside, then open").format(backup=self.backup)
            )

    @Slot()
    def restore_backup(self) -> None:
        """Confirm, then restore off the GUI thread; on success the workspace opens (Retry)."""
        from lorekeeper.recovery import restore
        from lorekeeper.ui import widgets

        if not self.backup or not widgets.confirm(
            self,
            self.tr("Restore this backup"),
            self.tr(
                "Restore {backup}?\n\nThe damaged database is renamed aside (never overwritten or deleted); changes made after the backup was taken are not in it."
            ).format(backup=self.backup),
        ):
            return
        self.restore_button.setEnabled(False)
        self.retry_button.setEnabled(False)
        self.restore_status.setText(self.tr("Restoring the backup…"))
        self.restore_status.show()
        workers.run_task(
            restore,
            self.workspace_root,
            self.backup,
            name=self.tr("Restoring the backup"),
            key=(id(self), "restore"),
            visible=False,
            kind=workers.LONG,  # a long job, in the long jobs' pool (issue 28)
            on_result=self._restored,
            on_error=self._restore_failed,
        )

    def _restored(self, out: dict[str, object]) -> None:
        aside = out.get("set_aside") or []
        kept = ", ".join(str(m.get("to")) for m in aside if isinstance(m, dict)) if isinstance(aside, list) else ""
        self.restore_status.setText(
            self.tr("Restored {backup}.").format(backup=out.get("backup"))
            + (self.tr(" The damaged file is kept as {kept}.").format(kept=kept) if kept else "")
            + self.tr(" Opening…")
        )
        self.retry_button.setEnabled(True)
        self.retry_requested.emit()

    def _restore_failed(self, exc: BaseException) -> None:
        self.restore_status.setText(self.tr("The restore did not happen: {0}").format(workers.error_text(exc)))
        self.restore_button.setEnabled(True)
        self.retry_button.setEnabled(True)


class OpeningScreen(QWidget):
    """Shown at once while the workspace opens in a worker: where, what it is doing, Cancel, Quit."""

    cancel_requested = Signal()

    def __init__(self, where: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("{APP_NAME} — opening the workspace").format(APP_NAME=APP_NAME))
        self.setWindowIcon(icon("lorekeeper"))
        self.resize(560, 220)
        box = QVBoxLayout(self)
        box.setContentsMargins(36, 28, 36, 24)
        box.setSpacing(10)
        title = QLabel(self.tr("Opening workspace…"))
        title.setObjectName("sectionTitle")
        self.where_label = QLabel(where or self.tr("the workspace"))
        self.where_label.setObjectName("hintText")
        self.where_label.setWordWrap(True)
        self.where_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.step_label = QLabel(self.tr("Reading the configuration…"))
        self.progress = QProgressBar()
        self.progress.setTextVisible(False)
        self.progress.setMaximumHeight(14)
        set_progress(self.progress, 0, len(OPEN_STEPS))
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setToolTip(self.tr("Stop waiting: back to a screen with Retry"))
        self.cancel_button.clicked.connect(self.cancel_requested.emit)
        quit_button = QPushButton(self.tr("Quit"))
        quit_button.clicked.connect(QCoreApplication.quit)
        for w in (title, self.where_label, self.step_label, self.progress):
            box.addWidget(w)
        box.addStretch(1)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(quit_button)
        row.addWidget(self.cancel_button)
        box.addLayout(row)

    def set_step(self, done: int, total: int, text: str) -> None:
        self.step_label.setText(tr_const("app", text))
        set_progress(self.progress, done, total)


OPEN_STEPS = (
    QT_TRANSLATE_NOOP("app", "Opening the workspace (configuration, store, migrations)…"),
    QT_TRANSLATE_NOOP("app", "Loading the audit key…"),
)


def open_for_session(
    factory: Callable[[], Workspace], box: dict[str, Workspace]
) -> Generator[Progress, None, Workspace]:
    """The launch job (a worker thread; inline in synchronous mode): open the workspace (config,
    store, Alembic migrations), then load the audit key (keyring or Vault: may take seconds) or
    fail closed. No Qt object is created here. The opened workspace is also put in `box`, so the
    launcher can close it if the job is cancelled after the open (its result is then dropped)."""
    from lorekeeper.ui.panels.audit import require_key_at_launch

    yield Progress(0, len(OPEN_STEPS), OPEN_STEPS[0])
    ws = factory()
    box["ws"] = ws
    yield Progress(1, len(OPEN_STEPS), OPEN_STEPS[1])
    require_key_at_launch(ws)  # session start: no audit key, no app (fail closed); closes ws on failure
    yield Progress(len(OPEN_STEPS), len(OPEN_STEPS), QCoreApplication.translate("app", "Building the window…"))
    return ws


class _Launcher(QObject):
    """Opens the workspace, showing the error screen (with Retry) until it opens.

    `start()` (the app) runs the opening as a job: the "Opening workspace…" screen shows at once
    and the main window (or the error screen) replaces it when the job ends; in synchronous mode
    (tests, screenshots) the job runs inline. `open()` opens inline and says whether it worked."""

    def __init__(self, factory: Callable[[], Workspace], where: str = "") -> None:
        super().__init__()
        self.factory = factory
        self.where = where
        self.window: MainWindow | None = None
        self.error_screen: ErrorScreen | FailClosedScreen | None = None
        self.opening: OpeningScreen | None = None
        self.error: BaseException | None = None
        self.on_opened: Callable[[MainWindow], None] | None = None  # e.g. apply the workspace's theme
        self._job: workers.Worker | None = None

    def open(self) -> bool:
        """Open inline, on the calling thread (synchronous callers and tests)."""
        box: dict[str, Workspace] = {}
        try:
            ws = drive(open_for_session, (self.factory, box))
        except Exception as exc:  # noqa: BLE001 - any failure becomes the error screen, never a crash
            left = box.pop("ws", None)
            if left is not None:
                left.close()
            self._failed(exc)
            return False
        self._opened(ws)
        return True

    @property
    def is_opening(self) -> bool:
        return self._job is not None

    @Slot()
    def start(self) -> None:
        """Open in a worker; the outcome shows itself (main window, or the error screen)."""
        if self._job is not None:
            return
        if self.error_screen is not None:
            self.error_screen.hide()
        if self.opening is None:
            self.opening = OpeningScreen(self.where)
            self.opening.cancel_requested.connect(self.cancel)
        self.opening.set_step(0, len(OPEN_STEPS), OPEN_STEPS[0])
        self.opening.cancel_button.setEnabled(True)
        splash.hand_over(self.opening)  # in the place of the window `lorekeeper.entry` painted first
        box: dict[str, Workspace] = {}
        job: list[workers.Worker] = []

        def finished() -> None:
            if job and self._job is job[0]:
                self._job = None
            left = box.pop("ws", None)
            if left is not None:  # opened, then failed or cancelled: nobody will use it
                left.close()

        def result(ws: Workspace) -> None:
            box.pop("ws", None)
            self._opened(ws)
            self._close_opening()
            assert self.window is not None
            self.window.show()

        def error(exc: BaseException) -> None:
            self._failed(exc)
            self._close_opening()
            assert self.error_screen is not None
            self.error_screen.show()

        worker = workers.run_task(
            open_for_session,
            self.factory,
            box,
            name=self.tr("Opening the workspace"),
            key=(id(self), "open"),  # a Retry supersedes an older attempt still running
            visible=False,  # no main window (and no status bar) yet: the opening screen shows it
            kind=workers.LONG,
            on_progress=self.opening.set_step,
            on_result=result,
            on_error=error,
            on_finished=finished,
        )
        job.append(worker)
        if not workers.is_synchronous():  # inline, the job has already finished
            self._job = worker

    @Slot()
    def cancel(self) -> None:
        """The opening screen's Cancel: stop waiting (a slow Vault, a locked store) and show the
        error screen, whose Retry opens again. A workspace opened after the cancel is closed."""
        if self._job is None:
            return
        self._job.cancel()  # its result is dropped; `finished` closes what it opened
        self._job = None
        self._failed(Cancelled("opening the workspace was cancelled"))
        self._close_opening()
        assert self.error_screen is not None
        self.error_screen.show()

    def _close_opening(self) -> None:
        if self.opening is not None:
            self.opening.close()

    def _failed(self, exc: BaseException) -> None:
        from lorekeeper.ui.panels.audit import fail_closed_screen_class

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

    def _opened(self, ws: Workspace) -> None:
        from lorekeeper.ui.main_window import MainWindow

        self.error = None
        self.window = MainWindow(ws)  # on the GUI thread: the workspace was opened in the worker
        if self.on_opened is not None:
            self.on_opened(self.window)
        if self.error_screen is not None:
            self.error_screen.close()

    @Slot()
    def retry(self) -> None:
        if workers.is_synchronous():
            if self.open():
                assert self.window is not None
                self.window.show()
            elif self.error_screen is not None:
                self.error_screen.show()
            return
        self.start()


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
    i18n.install()  # LOREKEEPER_LANG, the saved choice or the system locale: before any widget
    return app


def render_screenshots(window: MainWindow, out_dir: Path, size: tuple[int, int] = SCREENSHOT_SIZE) -> list[Path]:
    """Select each panel, let its (synchronous) workers finish, and save `<panel-id>.png`."""
    out_dir.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance()
    assert app is not None  # the window exists, so the application does
    window.resize(*size)
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
        for suffix, show in panel.more_showcases():
            show()
            for _ in range(5):
                app.processEvents()
            path = out_dir / f"{panel_id}-{suffix}.png"
            if not window.grab().save(str(path)):
                raise OSError(f"cannot write {path}")
            written.append(path)
    return written


def run_app(
    workspace_factory: Callable[[], Workspace],
    screenshot_dir: Path | str | None = None,
    where: str = "",
    screenshot_size: tuple[int, int] | None = None,
) -> int:
    """Run the desktop app; returns the process exit code. `where` names the workspace (its path)
    on the "Opening workspace…" screen while `workspace_factory` runs in a worker.
    `screenshot_size` (width, height): the window size of the screenshots (default 1400x900)."""
    app = _application()
    launcher = _Launcher(workspace_factory, where)

    if screenshot_dir is not None:
        workers.set_synchronous(True)
        out = Path(screenshot_dir)
        try:
            opened = launcher.open()
            ws_theme = "system"
            if opened and launcher.window is not None:
                ws_theme = _theme_of(launcher.window)
            follower = ThemeFollower(app, "light" if ws_theme == "system" else ws_theme)
            _ = follower
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
            for path in render_screenshots(launcher.window, out, screenshot_size or SCREENSHOT_SIZE):
                print(path)
            return 0
        finally:
            if launcher.window is not None:
                launcher.window.close()
                launcher.window.ws.close()
            workers.set_synchronous(False)

    follower = ThemeFollower(app, "system")  # the workspace's own theme once it is open

    def apply_workspace_theme(window: MainWindow) -> None:
        preference = _theme_of(window)
        if preference != follower.preference and preference in ("system", "light", "dark"):
            follower.preference = preference
            follower.apply()

    launcher.on_opened = apply_workspace_theme
    launcher.start()  # the opening screen now; the main window when the worker has opened the workspace
    code = app.exec()
    workers.tracker().cancel_all()
    workers.wait_for_all()
    if launcher.window is not None:
        launcher.window.ws.close()
    return int(code)


def _theme_of(window: MainWindow) -> str:
    """The workspace's `ui.theme` (an in-memory config value: cheap on the GUI thread)."""
    return str(window.ws.config.get("ui.theme", "system") or "system")
