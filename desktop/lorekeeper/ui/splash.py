"""The first window of `lorekeeper` and `lorekeeper gui` (issue 30 d1): painted before the CLI
(click), the app's modules and the workspace are imported.

`lorekeeper.entry` calls `show()` for a plain launch of the app (no `--screenshot`, no `--help`):
it creates the QApplication, shows an "Opening workspace…" window of the opening screen's size
and lets it paint, then the CLI runs as before; `run_app` reuses this QApplication and its opening
screen (`lorekeeper.ui.app.OpeningScreen`, with the steps, Cancel and Quit) takes the splash's
place at the same position (`hand_over`). Imports: PySide6.QtWidgets and `lorekeeper.ui.i18n`
(the window speaks the operator's language from its first paint) only.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QCoreApplication, QEvent, QEventLoop, QObject, QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QLabel, QVBoxLayout, QWidget

from lorekeeper.ui import i18n

#: the longest a launch waits for the window system to expose the splash before it goes on
PAINT_WAIT_MS = 300

_splash: list[QWidget] = []  # the splash on screen, until the opening screen takes its place


class _Painted(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.done = False

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.done = True
        return False


def show(where: str = "") -> QWidget:
    """Create the application, show the splash and return once it has painted (or after
    `PAINT_WAIT_MS`, when the window system does not expose it)."""
    app = QApplication.instance() or QApplication(sys.argv[:1])
    QApplication.setApplicationName("Lorekeeper")  # as `run_app` names it (the window system's class)
    QApplication.setApplicationDisplayName("Lorekeeper")
    QApplication.setOrganizationName("lorekeeper")
    QApplication.setDesktopFileName("lorekeeper")
    i18n.install()  # before any widget: the splash speaks the operator's language
    from lorekeeper.paths import resources_dir

    art = resources_dir() / "icons" / "lorekeeper.svg"
    if art.is_file():
        QApplication.setWindowIcon(QIcon(str(art)))
    w = QWidget()
    w.setObjectName("splash")
    w.setWindowTitle(
        QCoreApplication.translate("OpeningScreen", "{APP_NAME} — opening the workspace").format(APP_NAME="Lorekeeper")
    )
    w.resize(560, 220)
    box = QVBoxLayout(w)
    box.setContentsMargins(36, 28, 36, 24)
    box.setSpacing(10)
    title = QLabel(QCoreApplication.translate("OpeningScreen", "Opening workspace…"))
    title.setObjectName("sectionTitle")
    place = QLabel(where or QCoreApplication.translate("OpeningScreen", "the workspace"))
    place.setObjectName("hintText")
    place.setWordWrap(True)
    box.addWidget(title)
    box.addWidget(place)
    box.addStretch(1)
    painted = _Painted()
    w.installEventFilter(painted)
    w.show()
    timer = QTimer()
    timer.setSingleShot(True)
    timer.start(PAINT_WAIT_MS)  # also wakes the loop below when no paint comes
    while not painted.done and timer.isActive():
        app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
    timer.stop()
    w.removeEventFilter(painted)
    _splash[:] = [w]
    return w


def current() -> QWidget | None:
    """The splash still on screen, if any."""
    return _splash[0] if _splash else None


def hand_over(successor: QWidget) -> None:
    """Show `successor` (the opening screen) in the splash's place (same position), then close
    the splash; without a splash (tests, `--screenshot`, an embedding) just show it."""
    if _splash:
        # the window system's placement of the splash (its configure events wait in the queue
        # while the CLI and the app were imported), then the successor goes where it is
        QApplication.processEvents()
        successor.move(_splash[0].pos())
    successor.show()
    if _splash:
        w = _splash.pop()
        w.close()
        w.deleteLater()
