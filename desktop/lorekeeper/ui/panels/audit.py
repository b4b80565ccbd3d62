"""Audit panel, the fail-closed screen, and the key state shown in the status bar.

- The panel: the key session (provider, version, load time), Verify with a readable report whose
  rows name the file and line of each break, Rotate (with confirmation), and an event browser
  with filters (type, story, date) and the signed event of the selected line.
- The fail-closed screen replaces the whole app when the audit key cannot be loaded at launch:
  it says why (no keyring backend, Vault sealed or unreachable, key missing or invalid...),
  offers Retry and Settings, and does nothing else.
- `KeyStateLabel`: the status bar's "Key: provider vN" (red when failed closed).

Everything that reads files, the store or a key provider runs in workers (`run_task`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from PySide6.QtCore import QCoreApplication, QSize, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid

from lorekeeper.audit.errors import (
    CAUSE_CONFIG,
    CAUSE_DENIED,
    CAUSE_INVALID,
    CAUSE_MISSING,
    CAUSE_NO_BACKEND,
    CAUSE_NO_TOKEN,
    CAUSE_SEALED,
    CAUSE_TITLES,
    CAUSE_UNREACHABLE,
    AuditKeyUnavailableError,
)
from lorekeeper.audit.log import ChainState, EventRecord, Issue, VerifyReport
from lorekeeper.ui import widgets
from lorekeeper.ui.i18n import QT_TRANSLATE_NOOP, fmt_datetime, tr_const
from lorekeeper.ui.models.base import RowsModel, enable_sorting
from lorekeeper.ui.panels.base import AppContext, Panel
from lorekeeper.ui.theme import color, icon
from lorekeeper.ui.widgets import EmptyState, MessageBox, WrapBox, label, mono_font, search_box, setup_table
from lorekeeper.ui.workers import HoldGate, run_task
from lorekeeper.workspace import Workspace

ANY = "__any__"
TOPIC = "audit"  # ChangeBus topic: the key or the log changed
KEY_HOLD = ("audit", "key")  # a key rotation holds the key: Verify and Rotate wait until the new session is up

ADVICE = {
    CAUSE_NO_BACKEND: QT_TRANSLATE_NOOP(
        "audit",
        "Install or unlock an OS keyring (GNOME Keyring / Secret Service, KWallet, macOS Keychain), "
        "or switch to the Vault provider in Settings. Then press Retry.",
    ),
    CAUSE_SEALED: QT_TRANSLATE_NOOP(
        "audit", "Unseal Vault (`bao operator unseal` or `vault operator unseal`), then press Retry."
    ),
    CAUSE_UNREACHABLE: QT_TRANSLATE_NOOP(
        "audit", "Start Vault or fix its address in Settings (VAULT_ADDR overrides it), then press Retry."
    ),
    CAUSE_MISSING: QT_TRANSLATE_NOOP(
        "audit",
        "Press Create the key (what `lorekeeper audit init-key` does: an operator action, Lorekeeper "
        "never creates a key silently); the app then continues. Or restore the key in the provider and press Retry.",
    ),
    CAUSE_INVALID: QT_TRANSLATE_NOOP(
        "audit",
        "The stored key must be 64 hexadecimal characters (32 bytes). Restore the right value "
        "in the provider, then press Retry.",
    ),
    CAUSE_DENIED: QT_TRANSLATE_NOOP(
        "audit", "Check the Vault token or AppRole and its policy on the key's path (Settings), then press Retry."
    ),
    CAUSE_NO_TOKEN: QT_TRANSLATE_NOOP(
        "audit",
        "Set VAULT_TOKEN before starting Lorekeeper, or store a token in the OS keyring (Settings), then press Retry.",
    ),
    CAUSE_CONFIG: QT_TRANSLATE_NOOP("audit", "Fix the [audit] table of lorekeeper.toml (Settings), then press Retry."),
}
WHY = QT_TRANSLATE_NOOP(
    "audit",
    "Lorekeeper fails closed: without its audit key it cannot sign what it decides, so it does "
    "nothing until the key loads. It never falls back to another provider.",
)


# --------------------------------------------------------------------------- launch hook


@dataclass(frozen=True)
class FailClosedInfo:
    workspace_root: Path
    provider: str
    location: str


def require_key_at_launch(ws: Workspace) -> None:
    """The app's session start: load the audit key or close the workspace and fail closed."""
    try:
        ws.audit.require_key()
    except AuditKeyUnavailableError as exc:
        st = ws.audit.status()
        exc.fail_closed_info = FailClosedInfo(ws.root, st.provider, st.location)  # type: ignore[attr-defined]
        ws.close()
        raise


def probe_key(workspace_root: Path) -> bool:
    """Can a session start now? (the fail-closed screen's Retry, run in a worker)."""
    ws = Workspace.open(workspace_root)
    try:
        ws.audit.require_key()
        return True
    finally:
        ws.close()


def create_key_at(workspace_root: Path) -> dict[str, Any]:
    """The fail-closed screen's "Create the key" (a worker): `audit init-key` on the workspace."""
    ws = Workspace.open(workspace_root)
    try:
        return dict(ws.audit.init_key())
    finally:
        ws.close()


def fail_closed_screen_class(exc: BaseException) -> type[FailClosedScreen] | None:
    """The screen for launch errors the audit chain owns (None: the shell's generic error screen)."""
    return FailClosedScreen if isinstance(exc, AuditKeyUnavailableError) else None


# --------------------------------------------------------------------------- status bar


def key_state(status: Any) -> tuple[str, bool]:
    """(text, failed) for the status bar."""
    if status.state == "loaded":
        text = QCoreApplication.translate("audit", "Key: {provider} v{key_version}").format(
            provider=status.provider, key_version=status.key_version
        )
        if status.pending_version:
            text += QCoreApplication.translate("audit", " (v{pending_version} from next launch)").format(
                pending_version=status.pending_version
            )
        return text, False
    if status.state == "failed":
        return QCoreApplication.translate("audit", "Key: {provider} — failed closed ({0})").format(
            CAUSE_TITLES.get(status.cause or "", "unavailable"), provider=status.provider
        ), True
    return QCoreApplication.translate("audit", "Key: {provider} (not loaded)").format(provider=status.provider), False


class KeyStateLabel(QLabel):
    """The key provider and version, red when failed closed; follows the `audit` bus topic."""

    def __init__(self, status_source: Any, bus: Any = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("keyState")
        self._source = status_source  # a callable returning an AuditStatus (called in a worker)
        self.failed = False
        self.setText(self.tr("Key: …"))
        if bus is not None:
            bus.changed.connect(self._on_topic)
        self.update_state()

    @Slot(str)
    def _on_topic(self, topic: str) -> None:
        if topic == TOPIC:
            self.update_state()

    def update_state(self) -> None:
        """Ask for the key state in a worker: before the key is loaded, `status()` asks the keyring
        which backend it has (a D-Bus round trip, seconds when the keyring daemon hangs); the GUI
        thread never calls the keyring. Synchronous mode (tests) shows it at once."""
        run_task(
            self._source,
            name=self.tr("Reading the audit key state"),
            key=(id(self), "key-state"),
            visible=False,
            on_result=self._show_state,
        )

    def _show_state(self, status: Any) -> None:
        if not isValid(self):  # closed while the worker asked
            return
        text, failed = key_state(status)
        self.failed = failed
        self.setText(text)
        self.setToolTip(status.location or "")
        self.setStyleSheet(f"color: {color('fail').name()}; font-weight: 600;" if failed else "")


# --------------------------------------------------------------------------- table models


class EventsModel(RowsModel[EventRecord]):
    HEADERS = (
        QT_TRANSLATE_NOOP("EventsModel", "Line"),
        "#",
        QT_TRANSLATE_NOOP("EventsModel", "Time (UTC)"),
        QT_TRANSLATE_NOOP("EventsModel", "Type"),
        QT_TRANSLATE_NOOP("EventsModel", "Story"),
        QT_TRANSLATE_NOOP("EventsModel", "Key"),
        QT_TRANSLATE_NOOP("EventsModel", "Status"),
        QT_TRANSLATE_NOOP("EventsModel", "By"),
    )
    SORTABLE = tuple(range(8))
    STATUS_TEXT: ClassVar[dict[str, str]] = {
        "valid": QT_TRANSLATE_NOOP("EventsModel", "valid"),
        "tombstone": QT_TRANSLATE_NOOP("EventsModel", "tombstone (erased)"),
        "bad_signature": QT_TRANSLATE_NOOP("EventsModel", "BAD SIGNATURE"),
        "content_mismatch": QT_TRANSLATE_NOOP("EventsModel", "EDITED CONTENT"),
        "unsigned": "UNSIGNED",
        "damaged": "DAMAGED",
    }

    def sort_value(self, item: EventRecord, column: int) -> Any:
        return (
            f"{item.file}:{item.line:09d}",
            item.seq,
            item.ts,
            item.type,
            item.story or None,
            item.key_version,
            item.status,
            item.by or None,
        )[column]

    def cell(self, item: EventRecord, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            return (
                f"{item.file}:{item.line}",
                item.seq if item.seq is not None else "?",
                fmt_datetime(item.ts, seconds=True),
                item.type,
                item.story or "",
                f"v{item.key_version}" if item.key_version is not None else "",
                tr_const("EventsModel", self.STATUS_TEXT.get(item.status, item.status)),
                item.by,  # who made the decision (issue 25 d2: the Vault identity or the OS login)
            )[column]
        if role == Qt.ItemDataRole.ForegroundRole and column == 6:
            if item.status == "valid":
                return color("pass")
            if item.status == "tombstone":
                return color("muted")
            return color("fail")
        return None


class IssuesModel(RowsModel[Issue]):
    HEADERS = (
        QT_TRANSLATE_NOOP("IssuesModel", "File"),
        QT_TRANSLATE_NOOP("IssuesModel", "Line"),
        QT_TRANSLATE_NOOP("IssuesModel", "Problem"),
        QT_TRANSLATE_NOOP("IssuesModel", "Details"),
    )

    def cell(self, item: Issue, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            return (item.file, item.line or "", item.kind.replace("_", " "), item.message)[column]
        if role == Qt.ItemDataRole.ForegroundRole and column == 2:
            return color("fail")
        return None


@dataclass
class EventsPage:
    records: list[EventRecord] = field(default_factory=list)
    types: list[str] = field(default_factory=list)
    dates: list[str] = field(default_factory=list)
    operators: list[str] = field(default_factory=list)


def load_events(ws: Workspace) -> EventsPage:
    ws.audit.require_key()
    ws.audit.follow_rotation()  # another process rotated: the key box shows the version now in use
    records = ws.audit.log.events()
    records.reverse()  # newest first
    return EventsPage(
        records=records,
        types=sorted({r.type for r in records if r.type}),
        dates=sorted({r.file[:10] for r in records}, reverse=True),
        operators=sorted({r.by for r in records if r.by}, key=str.casefold),
    )


def verify_log(ws: Workspace) -> tuple[VerifyReport, EventsPage, ChainState]:
    """The report, the events as they are now (so the browser shows what was verified) and the
    breaks acknowledged or not."""
    ws.audit.require_key()
    return ws.audit.verify(), load_events(ws), ws.audit.chain_state()


def chain_state(ws: Workspace) -> ChainState:
    """The breaks of the log, acknowledged or not (the panel checks at every start)."""
    ws.audit.require_key()
    return ws.audit.chain_state()


def chain_text(state: ChainState) -> str:
    """The banner's words: where the first unacknowledged break is, and what to do."""
    first = state.breaks[0]
    more = (
        QCoreApplication.translate("audit", " {0} more break(s) after it.").format(len(state.breaks) - 1)
        if len(state.breaks) > 1
        else ""
    )
    return QCoreApplication.translate(
        "audit",
        "The audit chain has a break: {0} — {message}.{more} Signed writes go on after it. Look into it (Verify chain lists every problem), then acknowledge it with a reason: a signed break_acknowledged event records who, when and why. A new break is reported again.",
    ).format(first.where(), message=first.message, more=more)


# --------------------------------------------------------------------------- the panel


class _DownScroll(QScrollArea):
    """Scrolls down only: never narrower than its content's minimum width, so nothing is cut
    off on the side (the horizontal bar is off)."""

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        content = self.widget()
        if content is None:
            return hint
        width = content.minimumSizeHint().width() + self.verticalScrollBar().sizeHint().width()
        return QSize(max(hint.width(), width), hint.height())


class AuditPanel(Panel):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.page = EventsPage()
        self.last_report: VerifyReport | None = None

        # ---------------------------------------------------------------- key
        self.provider_value = label("", selectable=True)
        # one line each, elided with the whole text in the tooltip (issue 30 d2: wrapped values
        # clipped and overlapped the next row at 1024x640)
        self.location_value = label("", "hintText", selectable=True)
        self.version_value = label("")
        self.loaded_value = label("")
        form = QFormLayout()
        form.addRow(self.tr("Provider:"), self.provider_value)
        form.addRow(self.tr("Where:"), self.location_value)
        form.addRow(self.tr("Key version:"), self.version_value)
        form.addRow(self.tr("Loaded at:"), self.loaded_value)
        self.log_value = label("")
        form.addRow(self.tr("Session log:"), self.log_value)
        self.folder_value = label("", "hintText", selectable=True)
        form.addRow(self.tr("Folder:"), self.folder_value)
        self.verify_button = QPushButton(self.tr("Verify chain"))
        self.verify_button.setObjectName("primary")
        self.verify_button.setToolTip(self.tr("Check every event's signature, the chain and the checkpoints"))
        self.verify_button.clicked.connect(self.verify)
        self.rotate_button = QPushButton(self.tr("Rotate key…"))
        self.rotate_button.setToolTip(self.tr("New key version; old versions stay readable for verification"))
        self.rotate_button.clicked.connect(self.rotate)
        self.key_message = MessageBox()
        # a key rotation in progress: Verify and Rotate wait, saying why, until the new session is up
        self.hold_label = label("", "hintText", wrap=True)
        self.key_gate = HoldGate(self, lambda: KEY_HOLD, self._update_key_buttons, self.hold_label)
        self._key_loaded = False
        self._verifying = False
        buttons = QHBoxLayout()
        buttons.addWidget(self.verify_button)
        buttons.addWidget(self.rotate_button)
        buttons.addStretch(1)
        key_box = QGroupBox(self.tr("Audit key (this session)"))
        key_content = QWidget()
        kl = QVBoxLayout(key_content)
        kl.setContentsMargins(0, 0, 0, 0)
        kl.addLayout(form)
        kl.addLayout(buttons)
        kl.addWidget(self.key_message)
        kl.addWidget(self.hold_label)
        kl.addStretch(1)
        # a long message (a rotation's, a hold) scrolls inside the box instead of squeezing the rows
        key_scroll = _DownScroll()
        key_scroll.setWidgetResizable(True)
        key_scroll.setFrameShape(QFrame.Shape.NoFrame)
        key_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        key_scroll.setWidget(key_content)
        key_scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        QVBoxLayout(key_box).addWidget(key_scroll)

        # ---------------------------------------------------------------- verification
        self.verify_summary = MessageBox()
        self.issues_model = IssuesModel(self)
        self.issues_table = QTableView()
        self.issues_table.setModel(self.issues_model)
        setup_table(self.issues_table)
        self.issues_table.horizontalHeader().setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.issues_table.setColumnWidth(0, 130)
        self.issues_table.setColumnWidth(1, 50)
        self.issues_table.setColumnWidth(2, 120)
        self.issues_table.doubleClicked.connect(self._jump_to_issue)
        self.report_text = QPlainTextEdit()
        self.report_text.setReadOnly(True)
        self.report_text.setFont(mono_font())
        self.report_text.setPlaceholderText(self.tr("Press Verify chain: the report per file appears here."))
        self.report_text.setMaximumHeight(90)
        self.issues_empty = EmptyState(self.issues_table, self.tr("No verification yet."))
        self.issues_empty.set_empty(True)
        verify_box = QGroupBox(self.tr("Verification"))
        verify_content = WrapBox()  # its wrapped summary and empty state ask the height they need
        vl = QVBoxLayout(verify_content)
        vl.setContentsMargins(0, 0, 0, 0)
        vl.addWidget(self.verify_summary)
        vl.addWidget(self.report_text)
        vl.addWidget(self.issues_empty, 1)
        QVBoxLayout(verify_box).addWidget(verify_content)

        # ---------------------------------------------------------------- a break in the log (issue 31 item 10)
        self.chain_message = MessageBox()
        self.ack_reason = QLineEdit()
        self.ack_reason.setPlaceholderText(self.tr("Why the break is acceptable (kept, signed, in the event)…"))
        self.ack_button = QPushButton(self.tr("Acknowledge break"))
        self.ack_button.setToolTip(self.tr("Write a signed break_acknowledged event naming these breaks"))
        self.ack_button.clicked.connect(self.acknowledge)
        self.ack_reason.returnPressed.connect(  # a one-field form: Enter acknowledges
            lambda: self.acknowledge() if self.ack_button.isEnabled() else None
        )
        self.chain: ChainState | None = None
        ack_row = QHBoxLayout()
        ack_row.setContentsMargins(0, 0, 0, 0)
        ack_row.addWidget(self.ack_reason, 1)
        ack_row.addWidget(self.ack_button)
        self.chain_box = QWidget()
        cl = QVBoxLayout(self.chain_box)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.addWidget(self.chain_message)
        self.ack_controls = QWidget()
        self.ack_controls.setLayout(ack_row)
        cl.addWidget(self.ack_controls)
        self.chain_box.hide()

        top = QSplitter(Qt.Orientation.Horizontal)
        top.addWidget(key_box)
        top.addWidget(verify_box)
        top.setSizes([420, 760])
        top.setChildrenCollapsible(False)  # dragged all the way, the key box keeps its rows and buttons

        # ---------------------------------------------------------------- event browser
        self.f_type = QComboBox()
        # not as wide as the longest event type: at 1024x640 the row then cut its count ("26 of 26 …");
        # a long type chosen is cut in the box, whole in its list and its tooltip
        self.f_type.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.f_type.setMinimumContentsLength(10)
        self.f_type.setMinimumWidth(130)
        self.f_type.currentTextChanged.connect(self.f_type.setToolTip)
        self.f_date = QComboBox()
        self.f_date.setMinimumWidth(120)
        self.f_by = QComboBox()  # issue 25 d2: the decisions of one operator
        self.f_by.setMinimumWidth(120)
        self.f_story = search_box(self.tr("Story…"), self.tr("Only the events of one story, e.g. PD-42 (Ctrl+F)"))
        self.count_label = label("", "hintText")
        filters = QHBoxLayout()
        filters.addWidget(QLabel(self.tr("Type:")))
        filters.addWidget(self.f_type)
        filters.addWidget(QLabel(self.tr("Date:")))
        filters.addWidget(self.f_date)
        filters.addWidget(QLabel(self.tr("By:")))
        filters.addWidget(self.f_by)
        filters.addWidget(self.f_story, 1)
        filters.addWidget(self.count_label)

        self.events_model = EventsModel(self)
        self.events_table = QTableView()
        self.events_table.setModel(self.events_model)
        enable_sorting(self.events_table, self.events_model)  # a header click sorts the rows (all in memory)
        setup_table(self.events_table)
        hh = self.events_table.horizontalHeader()
        hh.setStretchLastSection(True)
        for col, width in ((0, 140), (1, 45), (2, 140), (3, 170), (4, 80), (5, 45), (6, 110)):
            self.events_table.setColumnWidth(col, width)
        self.events_table.selectionModel().currentRowChanged.connect(self._on_event_selected)
        self.events_empty = EmptyState(
            self.events_table, self.tr("No signed event yet: they appear as Lorekeeper records its decisions.")
        )
        self.payload_title = label(self.tr("Signed event"), "sectionTitle")
        self.payload_status = label(self.tr("Select an event to see exactly what was signed."), "hintText", wrap=True)
        self.payload = QPlainTextEdit()
        self.payload.setReadOnly(True)
        self.payload.setFont(mono_font())
        self.payload.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        side = QWidget()
        sl = QVBoxLayout(side)
        sl.setContentsMargins(0, 0, 0, 0)
        sl.addWidget(self.payload_title)
        sl.addWidget(self.payload_status)
        sl.addWidget(self.payload, 1)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.events_empty)
        split.addWidget(side)
        split.setSizes([720, 460])
        events_box = QGroupBox(self.tr("Session log"))
        el = QVBoxLayout(events_box)
        el.addLayout(filters)
        el.addWidget(split, 1)

        main = QSplitter(Qt.Orientation.Vertical)
        main.addWidget(top)
        main.addWidget(events_box)
        main.setSizes([330, 470])  # the key and verification boxes above keep their rows whole at 1024x640

        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 16, 20, 12)
        layout.addWidget(label(self.tr("Audit"), "panelTitle"))
        layout.addWidget(
            label(
                self.tr(
                    "Every decision is signed (HMAC-SHA256 over RFC 8785 JSON) and chained in the session log; "
                    "a checkpoint in the store catches a cut tail. Erased events stay in place as signed tombstones."
                ),
                "panelSubtitle",
                wrap=True,
            )
        )
        layout.addWidget(self.chain_box)
        layout.addWidget(main, 1)

        for combo in (self.f_type, self.f_date, self.f_by):
            combo.currentIndexChanged.connect(self.apply_filters)
        self.f_story.textChanged.connect(self.apply_filters)
        ctx.bus.changed.connect(self._on_topic)
        self.refresh()
        self.check_chain()  # at every start: a break in the log is said until it is acknowledged

    # ------------------------------------------------------------------ panel API
    def search_box(self):
        return self.f_story

    def showEvent(self, event: Any) -> None:
        """Each time the panel is shown the keyboard is on Verify chain, then Tab: Rotate key…
        (issue 30's walk under X: a second visit from Start kept the keyboard where it was left,
        so Space rotated the key again instead of verifying)."""
        super().showEvent(event)
        if self.verify_button.isEnabled():
            self.verify_button.setFocus(Qt.FocusReason.OtherFocusReason)

    @Slot()
    def refresh(self) -> None:
        self.show_key()
        ws = self.ws
        run_task(
            load_events,
            ws,
            name=self.tr("Reading the session log"),
            on_result=self._on_events,
            on_error=self._on_load_error,
        )

    def showcase(self) -> None:
        if self.last_report is None:
            self.verify()
        if self.events_model.rowCount():
            self.events_table.selectRow(0)

    @Slot(str)
    def _on_topic(self, topic: str) -> None:
        if topic == TOPIC:
            self.refresh()

    # ------------------------------------------------------------------ key
    def show_key(self) -> None:
        # In memory: the main window exists only once the launch job loaded the key, and a loaded
        # session's status never asks the provider (no keyring or Vault call on the GUI thread).
        st = self.ws.audit.status()
        self.provider_value.setText(st.provider)
        self.location_value.setText(st.location)
        if st.state == "loaded":
            version = f"v{st.key_version}"
            if st.pending_version:
                version += self.tr("  (rotated to v{pending_version}: used from the next launch)").format(
                    pending_version=st.pending_version
                )
            self.version_value.setText(version)
            self.loaded_value.setText((st.loaded_at or "").replace("T", " ").replace("+00:00", " UTC"))
        else:
            self.version_value.setText("—")
            self.loaded_value.setText(self.tr("not loaded") if st.state == "not_loaded" else self.tr("failed closed"))
            if st.state == "failed":
                self.key_message.show_error(f"{st.code}: {st.message}")
        self._key_loaded = st.state == "loaded"
        self._update_key_buttons()

    def _update_key_buttons(self) -> None:
        loaded = self._key_loaded and self.ws.audit.key_session is not None
        self.key_gate.enable(self.verify_button, loaded and not self._verifying)
        self.key_gate.enable(self.rotate_button, loaded)

    @Slot()
    def verify(self) -> None:
        if self.key_gate.reason():
            self.ctx.status(self.key_gate.reason())
            return
        self._verifying = True
        self._update_key_buttons()
        self.verify_summary.clear_message()

        def finished() -> None:
            self._verifying = False
            self._update_key_buttons()

        run_task(
            verify_log,
            self.ws,
            name=self.tr("Verifying the audit chain"),
            on_result=self._on_report,
            on_error=self.verify_summary.show_error,
            on_finished=finished,
        )

    # ------------------------------------------------------------------ breaks
    def check_chain(self) -> None:
        if self.ws.audit.key_session is None:
            return
        run_task(
            chain_state,
            self.ws,
            name=self.tr("Checking the audit chain"),
            key=(id(self), "chain"),
            on_result=self._on_chain,
            on_error=self.chain_message.show_error,
        )

    def _on_chain(self, state: ChainState) -> None:
        self.chain = state
        if state.breaks:
            self.chain_message.show_error(chain_text(state))
            self.ack_controls.show()
            self.ack_button.setEnabled(True)
            self.chain_box.show()
        elif state.acknowledged:
            self.chain_message.show_ok(
                self.tr("Chain: {0}. Verify chain still lists them; a new break is reported again.").format(
                    state.summary()
                )
            )
            self.ack_controls.hide()
            self.chain_box.show()
        else:
            self.chain_message.clear_message()
            self.chain_box.hide()

    @Slot()
    def acknowledge(self) -> None:
        if self.chain is None or not self.chain.breaks:
            return
        self.ack_button.setEnabled(False)
        run_task(
            self.ws.audit.acknowledge,
            self.ack_reason.text(),
            name=self.tr("Acknowledging the chain break"),
            on_result=self._on_acknowledged,
            on_error=self._on_ack_failed,
        )

    def _on_acknowledged(self, out: dict[str, Any]) -> None:
        self.ack_reason.clear()
        n = len(out["acknowledged"])
        if out.get("event"):
            self.ctx.status(
                self.tr("{n} chain break(s) acknowledged (signed event break_acknowledged #{seq})").format(
                    n=n, seq=out["event"]["seq"]
                )
            )
        self.check_chain()

    def _on_ack_failed(self, exc: BaseException) -> None:
        self.ack_button.setEnabled(True)
        self.chain_message.show_error(exc)

    def _on_report(self, out: tuple[VerifyReport, EventsPage, ChainState]) -> None:
        report, page, state = out
        self.last_report = report
        self._on_events(page)
        self._on_chain(state)
        t = report.totals()
        self.report_text.setPlainText(report.text())
        self.issues_model.set_rows(report.issues)
        if report.ok:
            self.verify_summary.show_ok(
                self.tr(
                    "Chain verified: {events} events in {files} file(s), {valid} valid, {tombstones} tombstone(s)."
                ).format(events=t["events"], files=t["files"], valid=t["valid"], tombstones=t["tombstones"])
            )
            self.issues_empty.set_empty(True, self.tr("No break: every signature, link and checkpoint verifies."))
        else:
            first = report.issues[0]
            self.verify_summary.show_error(
                self.tr("ERR_AUDIT_VERIFY_FAILED: {n} problem(s). First: {file} line {line} — {message}").format(
                    n=len(report.issues), file=first.file, line=first.line, message=first.message
                )
            )
            self.issues_empty.set_empty(False)

    @Slot()
    def rotate(self) -> None:
        st = self.ws.audit.status()
        current = st.pending_version or st.key_version
        if not widgets.confirm(
            self,
            self.tr("Rotate the audit key"),
            self.tr(
                "Create key version {0} in {provider}?\n\nThe current version stays archived so every past event still verifies. A signed audit_key_rotated event is written with the new key, and a new audit session starts on it at once: every event from then on is signed with the new version (one key per session)."
            ).format(int(current or 0) + 1, provider=st.provider),
        ):
            return
        run_task(
            self.ws.audit.rotate,
            name=self.tr("Rotating the audit key"),
            holds=[KEY_HOLD],
            hold_reason=self.tr(
                "Key rotation in progress — verify or rotate again once the new key's session has started"
            ),
            on_result=self._on_rotated,
            on_error=self.key_message.show_error,
        )

    def _on_rotated(self, out: dict[str, Any]) -> None:
        self.key_message.show_ok(
            self.tr(
                "Key rotated: v{previous_version} → v{new_version}. The audit_key_rotated event is signed with v{new_version}, and so is every event from now on (a new session started on it); v{previous_version} stays readable for verification."
            ).format(previous_version=out["previous_version"], new_version=out["new_version"])
        )
        self.show_key()
        self.ctx.status(
            self.tr("Audit key rotated to v{new_version}").format(new_version=out["new_version"])
        )  # its signed event: "audit" via the feed

    # ------------------------------------------------------------------ events
    def _on_load_error(self, exc: BaseException) -> None:
        self.events_empty.set_empty(
            True, self.tr("The session log cannot be read: {0}").format(widgets.describe_error(exc))
        )

    def _on_events(self, page: EventsPage) -> None:
        self.page = page
        self.show_key()
        n, files = len(page.records), len({r.file for r in page.records})
        last = fmt_datetime(page.records[0].ts, seconds=True) if page.records else ""
        self.log_value.setText(
            self.tr("%n event(s)", "", n)
            + self.tr(" in %n file(s)", "", files)
            + (self.tr(" · last {last} UTC").format(last=last) if last else "")
        )
        self.folder_value.setText(str(self.ws.root / "sessions"))
        self._fill(self.f_type, [(self.tr("Any type"), ANY)] + [(t, t) for t in page.types])
        self._fill(self.f_date, [(self.tr("Any date"), ANY)] + [(d, d) for d in page.dates])
        self._fill(self.f_by, [(self.tr("Anyone"), ANY)] + [(o, o) for o in page.operators])
        self.apply_filters()

    @staticmethod
    def _fill(combo: QComboBox, items: list[tuple[str, str]]) -> None:
        current = combo.currentData()
        combo.blockSignals(True)
        combo.clear()
        for text, data in items:
            combo.addItem(text, data)
        idx = combo.findData(current) if current is not None else -1
        combo.setCurrentIndex(max(idx, 0))
        combo.blockSignals(False)

    @Slot()
    def apply_filters(self) -> None:
        etype = self.f_type.currentData()
        day = self.f_date.currentData()
        by = self.f_by.currentData()
        story = self.f_story.text().strip().lower()
        rows = [
            r
            for r in self.page.records
            if (etype in (None, ANY) or r.type == etype)
            and (day in (None, ANY) or r.file.startswith(day))
            and (by in (None, ANY) or r.by == by)
            and (not story or story in (r.story or "").lower())
        ]
        self.events_model.set_rows(rows)
        total = len(self.page.records)
        self.count_label.setText(self.tr("{n} of %Ln event(s)", "", total).format(n=len(rows)))
        filtered = etype not in (None, ANY) or day not in (None, ANY) or by not in (None, ANY) or bool(story)
        self.events_empty.set_empty(
            not rows,
            self.tr("No event matches these filters.")
            if filtered and total
            else self.tr("No signed event yet: they appear as Lorekeeper records its decisions."),
        )
        self._on_event_selected()

    @Slot()
    def _on_event_selected(self, *_args: object) -> None:
        rec = self.events_model.row(self.events_table.currentIndex().row())
        if rec is None:
            self.payload_status.setText(self.tr("Select an event to see exactly what was signed."))
            self.payload.setPlainText("")
            return
        try:
            pretty = json.dumps(json.loads(rec.raw), indent=2, ensure_ascii=False, sort_keys=True)
        except ValueError:
            pretty = rec.raw
        verdict = {
            "valid": self.tr("Signature valid (key v{0}); content matches its signed hash.").format(rec.key_version),
            "tombstone": self.tr(
                "Erased: the content was replaced by a signed tombstone; the event's signature still verifies."
            ),
            "bad_signature": self.tr("The signature does NOT verify: this event was altered."),
            "content_mismatch": self.tr("The content does NOT match its signed hash: the data was edited."),
            "unsigned": self.tr("Unsigned line: not written by Lorekeeper."),
            "damaged": self.tr("Damaged line: not valid JSON."),
        }.get(rec.status, rec.status)
        self.payload_title.setText(self.tr("Signed event — {file} line {line}").format(file=rec.file, line=rec.line))
        self.payload_status.setText(verdict)
        self.payload.setPlainText(pretty)

    def select_event(self, file: str, line: int) -> bool:
        for combo in (self.f_type, self.f_date):
            combo.setCurrentIndex(0)
        self.f_story.clear()
        for i, r in enumerate(self.events_model.rows):
            if r.file == file and r.line == line:
                self.events_table.selectRow(i)
                return True
        return False

    @Slot()
    def _jump_to_issue(self, index: Any) -> None:
        issue = self.issues_model.row(index.row())
        if issue is not None:
            self.select_event(issue.file, issue.line)


# --------------------------------------------------------------------------- fail-closed screen


class AuditSettingsDialog(QDialog):
    """Edit [audit] / [audit.vault] of lorekeeper.toml and optionally keep a Vault token in the keyring."""

    def __init__(self, workspace_root: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        from lorekeeper.audit.settings import AUTH_METHODS, PROVIDERS, AuditSettings
        from lorekeeper.config import CONFIG_NAME, Config

        self.setWindowTitle(self.tr("Audit key settings"))
        self.config_path = workspace_root / CONFIG_NAME
        self.config = Config.load(self.config_path)  # one small local TOML, on an operator's click: left inline
        current = AuditSettings.from_config(self.config)
        self.provider = QComboBox()
        self.provider.addItems(list(PROVIDERS))
        self.provider.setCurrentText(current.provider)
        self.addr = QLineEdit(current.addr)
        self.mount = QLineEdit(current.mount)
        self.path = QLineEdit(current.path)
        self.auth = QComboBox()
        self.auth.addItems(list(AUTH_METHODS))
        self.auth.setCurrentText(current.auth)
        self.role_id = QLineEdit(current.role_id)
        self.secret = QLineEdit()
        self.secret.setEchoMode(QLineEdit.EchoMode.Password)
        self.secret.setPlaceholderText(self.tr("optional: stored in the OS keyring, never in a file"))
        form = QFormLayout()
        form.addRow(self.tr("Provider:"), self.provider)
        form.addRow(self.tr("Vault address:"), self.addr)
        form.addRow(self.tr("KV v2 mount:"), self.mount)
        form.addRow(self.tr("Key path:"), self.path)
        form.addRow(self.tr("Vault auth:"), self.auth)
        form.addRow(self.tr("AppRole role id:"), self.role_id)
        form.addRow(self.tr("Token / secret id:"), self.secret)
        self.message = MessageBox()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        box = QVBoxLayout(self)
        box.addWidget(
            label(
                self.tr("Saved to {config_path}").format(config_path=self.config_path),
                "hintText",
                wrap=True,
                selectable=True,
            )
        )
        box.addLayout(form)
        box.addWidget(self.message)
        box.addWidget(self.buttons)
        self.provider.currentTextChanged.connect(self._update_enabled)
        self._update_enabled()

    def _update_enabled(self) -> None:
        vault = self.provider.currentText() == "vault"
        for w in (self.addr, self.mount, self.path, self.auth, self.role_id, self.secret):
            w.setEnabled(vault)

    def values(self) -> Any:
        from lorekeeper.audit.settings import AuditSettings

        return AuditSettings(
            provider=self.provider.currentText(),
            addr=self.addr.text().strip(),
            mount=self.mount.text().strip(),
            path=self.path.text().strip(),
            auth=self.auth.currentText(),
            role_id=self.role_id.text().strip(),
        )

    @Slot()
    def save(self) -> None:
        from lorekeeper.audit.providers import store_vault_secret
        from lorekeeper.audit.settings import save_audit_settings
        from lorekeeper.errors import LorekeeperError

        settings = self.values()
        secret = self.secret.text() if self.provider.currentText() == "vault" else ""
        self.secret.clear()
        try:
            settings.validate()  # pure: a bad address is refused at once, nothing is written
        except LorekeeperError as exc:
            self.message.show_error(exc)
            return
        config_path, approle = self.config_path, self.auth.currentText() == "approle"
        ws_id = str(self.config.get("workspace.id", "") or "")  # in memory (read when the dialog opened)

        def write() -> None:  # lorekeeper.toml and the OS keyring: off the GUI thread
            save_audit_settings(config_path, settings)
            if secret:
                store_vault_secret(ws_id, secret, approle=approle)

        self.buttons.setEnabled(False)
        run_task(
            write,
            name=self.tr("Saving the audit key settings"),
            on_result=lambda _none: self.accept(),
            on_error=self.message.show_error,
            on_finished=lambda: self.buttons.setEnabled(True),
        )


class FailClosedScreen(QWidget):
    """Shown instead of the app when the audit key cannot be loaded: the cause, Retry, Settings."""

    retry_requested = Signal()

    def __init__(self, exc: BaseException, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Lorekeeper — stopped: audit key unavailable"))
        self.setWindowIcon(icon("lorekeeper"))
        self.resize(820, 500)
        self.info: FailClosedInfo | None = None
        self.cause = ""
        box = QVBoxLayout(self)
        box.setContentsMargins(48, 36, 48, 16)
        box.setSpacing(12)
        head = QHBoxLayout()
        shield = QLabel()
        shield.setPixmap(icon("audit").pixmap(40, 40))
        head.addWidget(shield)
        self.title = QLabel(self.tr("Lorekeeper has stopped: the audit key is unavailable"))
        self.title.setObjectName("errorTitle")
        self.title.setWordWrap(True)
        head.addWidget(self.title, 1)
        box.addLayout(head)
        self.cause_label = label("", "sectionTitle")
        self.code_label = label("", "errorCode", selectable=True)
        self.message_label = label("", wrap=True, selectable=True)
        self.provider_label = label("", "hintText", wrap=True, selectable=True)
        self.advice_label = label("", wrap=True)
        self.why_label = label(tr_const("audit", WHY), "panelSubtitle", wrap=True)
        for w in (
            self.cause_label,
            self.code_label,
            self.message_label,
            self.provider_label,
            self.advice_label,
            self.why_label,
        ):
            box.addWidget(w)
        box.addStretch(1)
        self.settings_message = MessageBox()
        box.addWidget(self.settings_message)
        row = QHBoxLayout()
        row.addStretch(1)
        self.quit_button = QPushButton(self.tr("Quit"))
        self.quit_button.clicked.connect(QCoreApplication.quit)
        self.settings_button = QPushButton(self.tr("Settings…"))
        self.settings_button.setToolTip(self.tr("Keyring or Vault: address, mount, path, token or AppRole"))
        self.settings_button.clicked.connect(self.open_settings)
        # issue 30 d4: fix it from here — a missing key is created in the configured provider
        # (what `lorekeeper audit init-key` does), then the app continues
        self.create_button = QPushButton(self.tr("Create the key"))
        self.create_button.setObjectName("createKey")
        self.create_button.clicked.connect(self.create_key)
        self.retry_button = QPushButton(self.tr("Retry"))
        self.retry_button.setObjectName("primary")
        self.retry_button.clicked.connect(self.retry)
        for b in (self.quit_button, self.settings_button, self.create_button, self.retry_button):
            row.addWidget(b)
        box.addLayout(row)
        self.status_label = label("", "keyState")
        strip = QHBoxLayout()
        strip.addStretch(1)
        strip.addWidget(self.status_label)
        box.addLayout(strip)
        self.set_error(exc)

    def set_error(self, exc: BaseException) -> None:
        cause = getattr(exc, "cause", "") or ""
        self.info = getattr(exc, "fail_closed_info", None) or self.info
        self.cause_label.setText(CAUSE_TITLES.get(cause, "Audit key unavailable"))
        self.code_label.setText(
            self.tr("{0} · cause: {1}").format(getattr(exc, "code", "ERR_AUDIT_KEY_UNAVAILABLE"), cause or "unknown")
        )
        self.message_label.setText(getattr(exc, "message", None) or str(exc))
        if self.info is not None:
            self.provider_label.setText(
                self.tr("Provider: {provider}").format(provider=self.info.provider)
                + (f" — {self.info.location}" if self.info.location else "")
                + self.tr("\nWorkspace: {workspace_root}").format(workspace_root=self.info.workspace_root)
            )
        self.advice_label.setText(self.tr("What to do: ") + tr_const("audit", ADVICE.get(cause, ADVICE[CAUSE_CONFIG])))
        provider = self.info.provider if self.info else getattr(exc, "provider", "") or "?"
        self.status_label.setText(
            self.tr("Key: {provider} — failed closed ({0})").format(
                CAUSE_TITLES.get(cause, "unavailable"), provider=provider
            )
        )
        self.status_label.setStyleSheet(f"color: {color('fail').name()}; font-weight: 600;")
        self.settings_button.setEnabled(self.info is not None)
        self.cause = cause
        missing = cause == CAUSE_MISSING and self.info is not None
        self.create_button.setVisible(missing)
        self.create_button.setToolTip(
            self.tr("Create this workspace's audit key in {0} (as `lorekeeper audit init-key`), then continue").format(
                self.info.provider if self.info else "the provider"
            )
        )

    @Slot()
    def retry(self) -> None:
        """Try the key in a worker (a dead Vault may take seconds); reopen the app only if it loads."""
        if self.info is None:
            self.retry_requested.emit()
            return
        self.retry_button.setEnabled(False)
        self.retry_button.setText(self.tr("Checking…"))
        run_task(
            probe_key,
            self.info.workspace_root,
            name=self.tr("Loading the audit key"),
            on_result=lambda _ok: self.retry_requested.emit(),
            on_error=self._on_retry_failed,
            on_finished=self._retry_done,
        )

    def _on_retry_failed(self, exc: BaseException) -> None:
        if isinstance(exc, AuditKeyUnavailableError):
            self.set_error(exc)
        else:  # the workspace itself is the problem now: the launcher shows its own screen
            self.retry_requested.emit()

    def _retry_done(self) -> None:
        self.retry_button.setEnabled(True)
        self.retry_button.setText(self.tr("Retry"))

    @Slot()
    def create_key(self) -> None:
        """Create the missing key in the configured provider (an operator's explicit action, asked
        first), then continue: the app opens on it. A store already signed by another key refuses
        (ERR_STORE_KEY_MISMATCH and how to use that key), shown here."""
        if self.info is None or self.cause != CAUSE_MISSING:
            return
        if not widgets.confirm(
            self,
            self.tr("Create the audit key"),
            self.tr(
                "Create a new audit key for this workspace in {0}? It signs everything from now on; "
                "keep the provider's backup of it."
            ).format(self.info.provider),
        ):
            return
        self.create_button.setEnabled(False)
        self.settings_message.clear_message()
        run_task(
            create_key_at,
            self.info.workspace_root,
            name="Creating the audit key",
            on_result=self._created,
            on_error=self._create_failed,
            on_finished=lambda: self.create_button.setEnabled(True),
        )

    def _created(self, out: dict[str, Any]) -> None:
        self.settings_message.show_ok(
            self.tr("Audit key created in {0} (version {1}): continuing.").format(
                out.get("provider"), out.get("key_version")
            )
        )
        self.retry()  # then continue: the key loads, the app opens

    def _create_failed(self, exc: BaseException) -> None:
        self.settings_message.show_error(exc)

    @Slot()
    def open_settings(self) -> None:
        if self.info is None:
            return
        dialog = self.settings_dialog()
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.settings_saved()

    def settings_saved(self) -> None:
        """Saved: continue with them at once (the key is tried; the screen stays if it still fails)."""
        self.settings_message.show_ok(self.tr("Settings saved: trying the key with them…"))
        self.retry()

    def settings_dialog(self) -> AuditSettingsDialog:
        """The dialog Settings opens (tests drive it without `exec`)."""
        assert self.info is not None
        return AuditSettingsDialog(self.info.workspace_root, self)
