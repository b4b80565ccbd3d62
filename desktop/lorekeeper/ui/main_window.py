"""The main window: a sidebar of panels, a stack, and a status bar that watches the jobs."""

from __future__ import annotations

import functools
import html
import traceback

from PySide6.QtCore import QEvent, QObject, QSize, Qt, Slot
from PySide6.QtGui import QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMenu,
    QPlainTextEdit,
    QProgressBar,
    QScrollArea,
    QStackedWidget,
    QStyle,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from lorekeeper import __version__, gcpolicy
from lorekeeper.errorlog import append_error
from lorekeeper.ui.bus import ChangeBus
from lorekeeper.ui.changefeed import ChangeFeedBridge
from lorekeeper.ui.i18n import QT_TRANSLATE_NOOP, ensure_installed, language_button, tr_const
from lorekeeper.ui.models.paged import JumpToEnd, keep_view_state, paged_model_of
from lorekeeper.ui.panels import PANELS, AppContext, Panel, PanelSpec
from lorekeeper.ui.theme import icon
from lorekeeper.ui.widgets import ElidedLabel, set_progress
from lorekeeper.ui.workers import error_text, tracker
from lorekeeper.workspace import Workspace


class _PanelMap(dict[str, Panel]):
    """The window's panels by id; a panel is built the first time it is shown or asked for."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__()
        self.window = window

    def __missing__(self, panel_id: str) -> Panel:
        return self.window._build_panel(panel_id)


GLOBAL_SHORTCUTS: list[tuple[str, str]] = [
    ("F1", QT_TRANSLATE_NOOP("main_window", "Show this list of keyboard shortcuts")),
    ("Ctrl+F", QT_TRANSLATE_NOOP("main_window", "Search in the current panel")),
    ("F5", QT_TRANSLATE_NOOP("main_window", "Refresh the current panel")),
    (
        QT_TRANSLATE_NOOP("main_window", "Tab / Shift+Tab"),
        QT_TRANSLATE_NOOP("main_window", "Next / previous field (Tab leaves a table; the arrows move inside it)"),
    ),
    ("Ctrl+Tab", QT_TRANSLATE_NOOP("main_window", "Next tab inside a panel")),
    ("Ctrl+Q", QT_TRANSLATE_NOOP("main_window", "Quit Lorekeeper")),
]


def panel_keys(index: int) -> str:
    """The shortcut of the sidebar's panel number `index` (0-based): Ctrl+1..Ctrl+9, Ctrl+0 for
    the tenth, then Alt+1..Alt+9 for the next nine."""
    if index < 9:
        return f"Ctrl+{index + 1}"
    if index == 9:
        return "Ctrl+0"
    if index < 19:
        return f"Alt+{index - 9}"
    return ""


class CheatSheet(QDialog):
    """The F1 list: this panel's shortcuts, then the global ones (non-modal; Esc closes it)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Keyboard shortcuts"))
        self.view = QTextBrowser()
        self.view.setOpenLinks(False)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        box = QVBoxLayout(self)
        box.addWidget(self.view, 1)
        box.addWidget(buttons)
        self.resize(560, 520)

    def set_rows(self, panel_title: str, panel_rows: list[tuple[str, str]], global_rows: list[tuple[str, str]]) -> None:
        def table(rows: list[tuple[str, str]]) -> str:
            cells = "".join(
                f"<tr><td style='padding-right:16px'><b>{html.escape(k)}</b></td><td>{html.escape(v)}</td></tr>"
                for k, v in rows
            )
            return f"<table>{cells}</table>"

        parts = []
        if panel_title:
            parts.append(f"<h3>{html.escape(panel_title)}</h3>")
            parts.append(table(panel_rows) if panel_rows else self.tr("<p>No shortcuts of its own.</p>"))
        parts.append("<h3>Everywhere</h3>" + table(global_rows))
        self.view.setHtml("".join(parts))

    def text(self) -> str:
        return self.view.toPlainText()


class ErrorDialog(QDialog):
    """An unexpected error in a job: a one-line message, ERR_INTERNAL, and "Copy details"."""

    def __init__(self, job_name: str, exc: BaseException, details: str, log_path: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Unexpected error"))
        self.setMinimumWidth(520)
        self.details = details
        first = (str(exc) or type(exc).__name__).strip().splitlines()
        self.code_label = QLabel("ERR_INTERNAL")
        self.code_label.setObjectName("errorCode")
        self.message_label = QLabel(
            self.tr("{job_name} failed: {error_type}: {0}").format(
                first[0] if first else "", job_name=job_name, error_type=type(exc).__name__
            )
        )
        self.message_label.setWordWrap(True)
        self.message_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        hint = QLabel(
            self.tr("This is a bug or an environment failure. The details are in {log_path}.").format(log_path=log_path)
        )
        hint.setObjectName("hintText")
        hint.setWordWrap(True)
        self.details_view = QPlainTextEdit(details)
        self.details_view.setReadOnly(True)
        self.details_view.setMaximumHeight(160)
        self.details_view.hide()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.copy_button = buttons.addButton(self.tr("Copy details"), QDialogButtonBox.ButtonRole.ActionRole)
        self.copy_button.clicked.connect(self.copy_details)
        self.show_button = buttons.addButton(self.tr("Show details"), QDialogButtonBox.ButtonRole.ActionRole)
        self.show_button.clicked.connect(lambda: self.details_view.setVisible(not self.details_view.isVisible()))
        buttons.rejected.connect(self.reject)
        box = QVBoxLayout(self)
        for w in (self.code_label, self.message_label, hint, self.details_view, buttons):
            box.addWidget(w)

    @Slot()
    def copy_details(self) -> None:
        QGuiApplication.clipboard().setText(self.details)
        self.copy_button.setText(self.tr("Copied"))


# The window's first size: a share of the screen's available area, capped, never below the size
# every panel is laid out for (MIN_SIZE: 1024x640 logical pixels, tests/ui/test_fit.py).
MIN_SIZE = QSize(1024, 640)
MAX_START_SIZE = QSize(1600, 1000)
SCREEN_SHARE = 0.85


def initial_size(avail: QSize | None) -> QSize:
    """85% of the screen's available area, capped at MAX_START_SIZE, at least MIN_SIZE (or the
    whole available area when the screen is smaller than that: the panels then scroll)."""
    if avail is None or avail.isEmpty():
        return QSize(1280, 800)
    width = min(int(avail.width() * SCREEN_SHARE), MAX_START_SIZE.width())
    height = min(int(avail.height() * SCREEN_SHARE), MAX_START_SIZE.height())
    width = min(max(width, MIN_SIZE.width()), avail.width())
    height = min(max(height, MIN_SIZE.height()), avail.height())
    return QSize(width, height)


class PanelFrame(QScrollArea):
    """Holds one panel in the stack. Panels are laid out to fit MIN_SIZE; should one need more
    room than the window has (a new panel, a huge font), it scrolls instead of forcing the whole
    window wider than the screen (a QStackedWidget is as wide as its widest page).

    The panel is sized here, not by `widgetResizable`: a resizable scroll area takes a
    height-for-width layout's *preferred* height (every wrapped label at full length) as its
    minimum, and would scroll panels that fit."""

    def __init__(self, panel: Panel) -> None:
        super().__init__()
        self.panel = panel
        self.setObjectName(f"frame-{panel.panel_id}")
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setWidgetResizable(False)
        self.setWidget(panel)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        panel.installEventFilter(self)

    def minimumSizeHint(self) -> QSize:
        return QSize(0, 0)

    def sizeHint(self) -> QSize:
        return self.panel.sizeHint()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.panel and event.type() == QEvent.Type.LayoutRequest:
            self.fit_panel()
        return False

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.fit_panel()

    def panel_minimum(self) -> QSize:
        """The least room the panel's layout needs (what the window test holds to MIN_SIZE)."""
        layout = self.panel.layout()
        hint = layout.totalMinimumSize() if layout is not None else self.panel.minimumSizeHint()
        return hint.expandedTo(self.panel.minimumSize())

    def fit_panel(self) -> None:
        room = self.maximumViewportSize()
        need = self.panel_minimum()
        bar = self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        w, h = room.width(), room.height()
        for _ in range(2):  # a scroll bar on one side takes room from the other
            if need.width() > w:
                h = room.height() - bar
            if need.height() > h:
                w = room.width() - bar
        size = QSize(max(w, need.width()), max(h, need.height()))
        if self.panel.size() != size:
            self.panel.resize(size)


class MainWindow(QMainWindow):
    _gc_settled: bool  # this window holds the collector's freeze (lorekeeper.gcpolicy)

    def fit_sidebar(self) -> None:
        """Make the sidebar as wide as its longest title in the current theme's font."""
        self.sidebar.ensurePolished()
        fm = self.sidebar.fontMetrics()
        longest = max(
            (fm.horizontalAdvance(self.sidebar.item(i).text()) for i in range(self.sidebar.count())), default=0
        )
        self.sidebar.setFixedWidth(max(180, longest + 20 + 64))  # icon + item and frame padding

    def showEvent(self, event) -> None:
        self.fit_sidebar()  # the theme is applied after construction: measure again with its font
        super().showEvent(event)
        if not self._gc_settled:  # the long-lived heap is up: full collections stop walking it
            self._gc_settled = True
            gcpolicy.settle()

    def __init__(self, ws: Workspace, panels: list[PanelSpec] | None = None) -> None:
        super().__init__()
        self.full_message = ""  # the last status-bar message whole (show_message cuts it to the room)
        ensure_installed()
        self._gc_settled = False
        self.ws = ws
        self.bus = ChangeBus(self)
        # the one place that feeds the bus: this process's change sets and other processes' (polled)
        self.feed = ChangeFeedBridge(ws, self.bus, self)
        self.ctx = AppContext(ws=ws, bus=self.bus, status=self.show_message)
        self.setWindowTitle(self.tr("Lorekeeper — {name}").format(name=ws.name))
        self.setWindowIcon(icon("lorekeeper"))
        screen = QGuiApplication.primaryScreen()
        self.resize(initial_size(screen.availableGeometry().size() if screen is not None else None))

        self.sidebar = QListWidget()
        self.sidebar.setObjectName("sidebar")
        self.sidebar.setIconSize(QSize(20, 20))
        self.sidebar.setFixedWidth(180)
        self.sidebar.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.stack = QStackedWidget()
        self.stack.setMinimumSize(0, 0)
        self.panels: dict[str, Panel] = _PanelMap(self)
        self.jump_to_end = JumpToEnd(self)
        self.panel_ids: list[str] = []
        self.specs: dict[str, PanelSpec] = {}
        for spec in panels if panels is not None else PANELS:
            self.specs[spec.panel_id] = spec
            self.panel_ids.append(spec.panel_id)
            self.stack.addWidget(QWidget())  # a placeholder until the panel is first shown
            item = QListWidgetItem(icon(spec.icon), spec.label)
            item.setData(Qt.ItemDataRole.UserRole, spec.panel_id)
            keys = panel_keys(len(self.panel_ids) - 1)
            item.setToolTip(f"{spec.label}  ({keys})" if keys else spec.label)
            self.sidebar.addItem(item)
        self.sidebar.currentRowChanged.connect(self._show_row)
        # Wide enough for the longest title (item padding from the theme included), never a scroll bar.
        self.sidebar.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.fit_sidebar()

        central = QWidget()
        row = QHBoxLayout(central)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(0)
        row.addWidget(self.sidebar)
        row.addWidget(self.stack, 1)
        self.setCentralWidget(central)
        self._build_status_bar()
        self._build_shortcuts()
        if self.panel_ids:
            self.sidebar.setCurrentRow(0)

    # ------------------------------------------------------------------ panels (built on first show)
    def _build_panel(self, panel_id: str) -> Panel:
        spec = self.specs[panel_id]
        panel = spec.factory(self.ctx)
        panel.panel_id = spec.panel_id
        panel.setObjectName(f"panel-{spec.panel_id}")
        if spec.panel_id == "start":  # its lines go to the other panels
            panel.go = self.select_panel  # type: ignore[attr-defined]
        index = self.panel_ids.index(panel_id)
        current = self.stack.currentIndex()
        placeholder = self.stack.widget(index)
        self.stack.insertWidget(index, PanelFrame(panel))
        if placeholder is not None:
            self.stack.removeWidget(placeholder)
            placeholder.deleteLater()
        if current >= 0:
            self.stack.setCurrentIndex(current)
        for view in panel.findChildren(QAbstractItemView):
            if isinstance(view, QHeaderView):
                continue  # a table's header shares its model and selection: the table's own filters serve both
            view.setTabKeyNavigation(False)  # Tab leaves a table (arrows move inside it)
            if paged_model_of(view) is not None:
                view.installEventFilter(self.jump_to_end)  # Ctrl+End reaches the last row, not the last page
                keep_view_state(view)  # a reload keeps the selection and the scroll position
        dict.__setitem__(self.panels, panel_id, panel)
        return panel

    @Slot(int)
    def _show_row(self, row: int) -> None:
        shown = self.stack.currentIndex()
        if row != shown and 0 <= shown < len(self.panel_ids):
            leaving = self.panels.get(self.panel_ids[shown])  # only a built panel can hold edits
            if leaving is not None and not leaving.leave(functools.partial(self.select_index, row)):
                self.sidebar.blockSignals(True)  # unsaved edits kept: stay (or go once saved)
                self.sidebar.setCurrentRow(shown)
                self.sidebar.blockSignals(False)
                return
        if 0 <= row < len(self.panel_ids):
            _ = self.panels[self.panel_ids[row]]  # builds it the first time
        self.stack.setCurrentIndex(row)

    # ------------------------------------------------------------------ status bar
    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        bar.setSizeGripEnabled(False)
        self.workspace_label = ElidedLabel(self.tr("Workspace: {name}").format(name=self.ws.name))
        self.workspace_label.setToolTip(str(self.ws.root))
        self.path_label = ElidedLabel(str(self.ws.root))
        self.path_label.setObjectName("hintText")
        provider = str(self.ws.config.get("llm.provider", "none") or "none")
        model = str(self.ws.config.get("llm.model", "") or "")
        self.model_label = QLabel(
            self.tr("Model: {provider}").format(provider=provider if provider != "none" else self.tr("none"))
            + (f" ({model})" if model and provider != "none" else "")
        )
        from lorekeeper.ui.panels.audit import KeyStateLabel  # provider + key version, red when failed closed

        self.keys_label = KeyStateLabel(lambda: self.ws.audit.status(follow=True), self.bus)
        self.version_label = QLabel(f"v{__version__}")
        self.jobs_label = QLabel("")
        self.jobs_progress = QProgressBar()
        self.jobs_progress.setFixedWidth(140)
        self.jobs_progress.setMaximumHeight(14)
        self.jobs_progress.setTextVisible(False)
        self.jobs_progress.hide()
        self.cancel_button = QToolButton()
        self.cancel_button.setObjectName("cancelJobs")
        self.cancel_button.setText(self.tr("Cancel"))
        self.cancel_button.setToolTip(self.tr("Cancel the running jobs (the arrow: one of them)"))
        self.cancel_button.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
        self.cancel_menu = QMenu(self.cancel_button)
        self.cancel_button.setMenu(self.cancel_menu)
        self.cancel_button.clicked.connect(tracker().cancel_visible)
        self.cancel_button.hide()
        self.error_dialog: ErrorDialog | None = None
        bar.addWidget(self.workspace_label)
        bar.addWidget(self.path_label, 1)
        bar.addPermanentWidget(self.jobs_label)
        bar.addPermanentWidget(self.jobs_progress)
        bar.addPermanentWidget(self.cancel_button)
        bar.addPermanentWidget(self.model_label)
        bar.addPermanentWidget(self.keys_label)
        self.language_button = language_button(self.show_message)  # English / Français (lorekeeper.ui.i18n)
        bar.addPermanentWidget(self.language_button)
        bar.addPermanentWidget(self.version_label)
        tracker().changed.connect(self.on_jobs_changed)
        tracker().failed.connect(self.on_job_failed)
        tracker().unexpected.connect(self.on_unexpected_error)
        self.on_jobs_changed()

    @Slot()
    def on_jobs_changed(self) -> None:
        jobs = tracker().jobs()
        self.cancel_menu.clear()
        for job in jobs:
            self.cancel_menu.addAction(
                self.tr("Cancel {name}").format(name=job.name), functools.partial(tracker().cancel, job.id)
            )
        if not jobs:
            self.jobs_label.setText(self.tr("Idle"))
            self.jobs_progress.hide()
            self.cancel_button.hide()
            return
        self.cancel_button.show()
        names = ", ".join(j.text or j.name for j in jobs[:2]) + ("…" if len(jobs) > 2 else "")
        self.jobs_label.setText(self.tr("%n job(s): {names}", "", len(jobs)).format(names=names))
        done, total = tracker().progress()
        set_progress(self.jobs_progress, done, total)  # total 0: not known yet
        self.jobs_progress.show()

    @Slot(str, object)
    def on_job_failed(self, name: str, exc: object) -> None:
        self.show_message(
            self.tr("{name} failed — {0}").format(error_text(exc), name=name)
            if isinstance(exc, BaseException)
            else str(exc)
        )

    @Slot(str, object)
    def on_unexpected_error(self, name: str, exc: object) -> None:
        """A job failed with an error that has no Lorekeeper code: log it, show the error dialog."""
        if not isinstance(exc, BaseException):
            return
        details = getattr(exc, "__traceback_text__", "") or "".join(
            traceback.format_exception(type(exc), exc, exc.__traceback__)
        )
        try:  # one small append to the local error log, only after a failure: left on the GUI thread
            log_path = str(append_error(self.ws.root, f"ERR_INTERNAL in job {name!r}\n{details}"))
        except OSError as log_exc:  # the log is a help, never a second failure
            log_path = self.tr("(not written: {log_exc})").format(log_exc=log_exc)
        self.show_message(
            self.tr("{name} failed — ERR_INTERNAL: {error_type}").format(name=name, error_type=type(exc).__name__)
        )
        if self.error_dialog is not None:
            self.error_dialog.close()
        self.error_dialog = ErrorDialog(name, exc, details, log_path, self)
        self.error_dialog.open()

    def show_message(self, text: str) -> None:
        """A status-bar message, cut with "…" to the room the permanent widgets leave (Qt clips it
        mid-word under them: "Europe/Paris; ne" at 1024x640, issue 30's walk under X)."""
        bar = self.statusBar()
        left = (self.workspace_label, self.path_label)  # hidden while a message shows
        taken = sum(
            w.width() + 8
            for w in bar.findChildren(QWidget)
            if w.parentWidget() is bar and w.isVisible() and w not in left
        )
        room = max(bar.width() - taken - 24, 80)
        shown = bar.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, room)
        self.full_message = text  # the whole text: the status bar's tooltip when it is cut
        bar.setToolTip(text if shown != text else "")
        bar.showMessage(shown, 8000)

    # ------------------------------------------------------------------ keyboard
    def _build_shortcuts(self) -> None:
        for i, _panel_id in enumerate(self.panel_ids):
            keys = panel_keys(i)
            if keys:
                sc = QShortcut(QKeySequence(keys), self)
                sc.activated.connect(lambda i=i: self.select_index(i))
        QShortcut(QKeySequence("Ctrl+F"), self).activated.connect(self.focus_search)
        QShortcut(QKeySequence("F5"), self).activated.connect(self.refresh_current)
        QShortcut(QKeySequence("F1"), self).activated.connect(self.show_cheatsheet)
        self.quit_shortcut = QShortcut(QKeySequence("Ctrl+Q"), self)
        self.quit_shortcut.setContext(Qt.ShortcutContext.ApplicationShortcut)
        self.quit_shortcut.activated.connect(self.close)  # the app quits with its last window
        self.cheatsheet: CheatSheet | None = None

    def global_shortcuts(self) -> list[tuple[str, str]]:
        rows = [
            (keys, self.tr("Go to {title}").format(title=self.specs[pid].label))
            for i, pid in enumerate(self.panel_ids)
            if (keys := panel_keys(i))
        ]
        return [(tr_const("main_window", k), tr_const("main_window", v)) for k, v in GLOBAL_SHORTCUTS] + rows

    @Slot()
    def show_cheatsheet(self) -> None:
        """F1: the current panel's shortcuts, then the ones that work everywhere."""
        panel = self.current_panel()
        title = self.specs[panel.panel_id].label if panel is not None and panel.panel_id in self.specs else ""
        if self.cheatsheet is None:
            self.cheatsheet = CheatSheet(self)
        self.cheatsheet.set_rows(title, panel.cheatsheet_rows() if panel is not None else [], self.global_shortcuts())
        self.cheatsheet.show()

    def select_index(self, index: int) -> None:
        if 0 <= index < len(self.panel_ids):
            self.sidebar.setCurrentRow(index)

    def select_panel(self, panel_id: str) -> Panel:
        self.select_index(self.panel_ids.index(panel_id))
        return self.panels[panel_id]

    def current_panel(self) -> Panel | None:
        w = self.stack.currentWidget()
        return w.panel if isinstance(w, PanelFrame) else None

    @Slot()
    def focus_search(self) -> None:
        panel = self.current_panel()
        box = panel.search_box() if panel else None
        if box is not None:
            box.setFocus(Qt.FocusReason.ShortcutFocusReason)
            box.selectAll()

    @Slot()
    def refresh_current(self) -> None:
        panel = self.current_panel()
        if panel is not None:
            panel.refresh()
            self.show_message(self.tr("Refreshed"))

    def closeEvent(self, event) -> None:
        for panel in list(self.panels.values()):  # unsaved edits: Save (then close), Discard or Cancel
            if not panel.leave(self.close):
                event.ignore()
                return
        self.feed.stop()
        tracker().cancel_all()
        super().closeEvent(event)
        if self._gc_settled:
            self._gc_settled = False
            gcpolicy.release()
