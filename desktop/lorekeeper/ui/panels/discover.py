"""The Skills panel's Discover view: marketplace sources, search, a compatibility note, install or fork.

The same calls as `lorekeeper market ...`. Scans, searches and notes run as jobs (a scan shows
progress and Cancel in the status bar); the GUI thread only paints. Keyboard: Ctrl+L the search,
Enter in it searches, arrows move in the results, Enter on a result installs it globally.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Slot
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from lorekeeper.market.service import CompatNote, Scan, SearchHit
from lorekeeper.ui.i18n import QT_TRANSLATE_NOOP, tr_const
from lorekeeper.ui.widgets import MessageBox, label, mono_font
from lorekeeper.ui.workers import Hold, HoldGate, run_task

GLOBAL_TARGET = ""


class DiscoverView(QWidget):
    COLUMNS = (
        QT_TRANSLATE_NOOP("DiscoverView", "Skill"),
        QT_TRANSLATE_NOOP("DiscoverView", "Source"),
        QT_TRANSLATE_NOOP("DiscoverView", "Score"),
        QT_TRANSLATE_NOOP("DiscoverView", "Installed"),
        QT_TRANSLATE_NOOP("DiscoverView", "Description"),
    )

    def __init__(self, ws, bus, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ws = ws
        self.hits: list[SearchHit] = []
        self.note: CompatNote | None = None
        self.scans: list[Scan] = []
        self._query = ""

        self.location = QLineEdit()
        self.location.setPlaceholderText(
            self.tr("A folder, a git checkout or URL, a zip, or a .claude-plugin/marketplace.json")
        )
        self.add_button = QPushButton(self.tr("Add source"))
        self.add_button.clicked.connect(self.add_source)
        self.location.returnPressed.connect(self.add_source)
        self.rescan_button = QPushButton(self.tr("Rescan"))
        self.rescan_button.clicked.connect(self.rescan)
        self.sources_label = label(self.tr("No sources yet."), "hintText", wrap=True)

        self.query = QLineEdit()
        self.query.setPlaceholderText(self.tr("Search the marketplaces: what should the skill do?  (Ctrl+L)"))
        self.query.returnPressed.connect(self.search)
        self.search_button = QPushButton(self.tr("Search"))
        self.search_button.clicked.connect(self.search)
        self.project = QComboBox()
        self.project.setToolTip(self.tr("The project the compatibility note and a fork are for"))
        self.project.currentIndexChanged.connect(self._load_note)

        self.table = QTableWidget(0, len(self.COLUMNS))
        self.table.setHorizontalHeaderLabels([tr_const("DiscoverView", c) for c in self.COLUMNS])
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        hh = self.table.horizontalHeader()
        hh.setStretchLastSection(True)
        hh.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        self.table.setColumnWidth(0, 190)
        self.table.setColumnWidth(1, 130)
        self.table.setColumnWidth(2, 56)
        self.table.setColumnWidth(3, 70)
        self.table.itemSelectionChanged.connect(self._load_note)
        self.table.itemActivated.connect(lambda _item: self.install())

        self.note_view = QPlainTextEdit()
        self.note_view.setReadOnly(True)
        self.note_view.setFont(mono_font())
        self.note_view.setPlaceholderText(
            self.tr("Select a skill to see what it needs and how it overlaps with your skills.")
        )
        self.install_button = QPushButton(self.tr("Install globally"))
        self.install_button.clicked.connect(self.install)
        self.fork_button = QPushButton(self.tr("Fork into project"))
        self.fork_button.clicked.connect(self.fork)
        self.message = MessageBox()
        # an install of the selected skill in progress: Install and Fork wait, saying why (so do the
        # Skills panel's edits of that skill: the install holds it as Sage does)
        self.hold_label = label("", "hintText", wrap=True)
        self.gate = HoldGate(self, self._shown_holds, self._update_buttons, self.hold_label)

        top = QHBoxLayout()
        top.addWidget(self.location, 1)
        top.addWidget(self.add_button)
        top.addWidget(self.rescan_button)
        search_row = QHBoxLayout()
        search_row.addWidget(self.query, 1)
        search_row.addWidget(self.search_button)
        search_row.addWidget(label(self.tr("For:")))
        search_row.addWidget(self.project)

        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addWidget(label(self.tr("Compatibility note"), "sectionTitle"))
        rl.addWidget(self.note_view, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.install_button)
        buttons.addWidget(self.fork_button)
        buttons.addStretch(1)
        rl.addLayout(buttons)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.table)
        split.addWidget(right)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 8, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.sources_label)
        layout.addLayout(search_row)
        layout.addWidget(split, 1)
        layout.addWidget(self.hold_label)
        layout.addWidget(self.message)

        focus_search = QShortcut(QKeySequence("Ctrl+L"), self)
        focus_search.activated.connect(self.query.setFocus)
        focus_search.setWhatsThis(self.tr("Discover: search the marketplaces"))  # listed by F1
        bus.skills_changed.connect(self.search)
        bus.changed.connect(self._on_bus)  # a source added or removed by another process (issue 23 d4)
        self._update_buttons()

    @Slot(str)
    def _on_bus(self, topic: str) -> None:
        if topic == "market" and self.isVisible():
            self.rescan()  # hidden: the next switch to Discover refreshes (no scan behind the operator's back)

    # ------------------------------------------------------------------ sources
    def refresh(self) -> None:
        run_task(self.ws.skills.projects, name=self.tr("Loading projects"), visible=False, on_result=self._on_projects)
        self.rescan()

    def _on_projects(self, projects: list[str]) -> None:
        current = self.project.currentData()
        self.project.blockSignals(True)
        self.project.clear()
        self.project.addItem(self.tr("Global library"), GLOBAL_TARGET)
        for p in projects:
            self.project.addItem(self.tr("Project: {p}").format(p=p), p)
        self.project.setCurrentIndex(max(self.project.findData(current), 0) if current is not None else 0)
        self.project.blockSignals(False)

    @Slot()
    def add_source(self) -> None:
        where = self.location.text().strip()
        if not where:
            self.message.show_error(self.tr("Give a folder, a zip, a git URL or a marketplace.json first."))
            return
        market = self.ws.market
        self.message.clear_message()

        def done(scan: Scan) -> None:
            self.location.clear()
            skipped = f" ({len(scan.problems)} skipped)" if scan.problems else ""
            self.message.show_ok(
                self.tr("Added {name}: {skills} skill(s){skipped}").format(
                    name=scan.source.name, skills=scan.source.skills, skipped=skipped
                )
            )
            self.rescan()

        run_task(
            market.add,
            where,
            name=self.tr("Adding {where}").format(where=where),
            on_result=done,
            on_error=self.message.show_error,
        )

    @Slot()
    def rescan(self) -> None:
        run_task(
            self.ws.market.scan_all_steps,
            name=self.tr("Scanning marketplaces"),
            key=(self, "scan"),
            on_result=self._on_scans,
            on_error=self.message.show_error,
        )

    def _on_scans(self, scans: list[Scan]) -> None:
        self.scans = scans
        if not scans:
            self.sources_label.setText(
                self.tr("No sources yet: add a folder, a zip, a git URL or a marketplace.json above.")
            )
        else:
            parts = [f"{s.source.name} ({s.source.kind}, {s.source.skills})" for s in scans]
            self.sources_label.setText(self.tr("Sources: ") + ", ".join(parts))
        self.search()

    # ------------------------------------------------------------------ search
    @Slot()
    def search(self) -> None:
        query = self.query.text().strip()
        market = self.ws.market
        run_task(
            lambda: market.search(query, top=100),
            name=self.tr("Searching marketplaces"),
            key=(self, "search"),
            visible=False,
            on_result=lambda hits: self._on_hits(hits, query),
            on_error=self.message.show_error,
        )

    def _on_hits(self, hits: list[SearchHit], query: str = "") -> None:
        keep = self.selected_hit() if query == self._query else None  # a new query starts at its best hit
        self._query = query
        self.hits = hits
        self.table.blockSignals(True)
        self.table.setRowCount(len(hits))
        for row, h in enumerate(hits):
            cells = (
                h.skill.name,
                h.skill.source,
                f"{h.score:.2f}" if h.score else "",
                "yes" if h.installed else "",
                h.skill.description,
            )
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if col == 4:
                    item.setToolTip(h.skill.description)
                self.table.setItem(row, col, item)
        self.table.blockSignals(False)
        again = next((i for i, h in enumerate(hits) if keep and h.skill.ref == keep.skill.ref), None)
        if hits:
            self.table.blockSignals(True)  # the same row index may now hold another skill: load its note below
            self.table.selectRow(again if again is not None else 0)
            self.table.blockSignals(False)
            self._load_note()
        else:
            self.note = None
            self.note_view.setPlainText("")
        self._update_buttons()

    def selected_hit(self) -> SearchHit | None:
        rows = self.table.selectionModel().selectedRows()
        if not rows or rows[0].row() >= len(self.hits):
            return None
        return self.hits[rows[0].row()]

    def target_project(self) -> str:
        return str(self.project.currentData() or "")

    # ------------------------------------------------------------------ note, install, fork
    @Slot()
    def _load_note(self) -> None:
        hit = self.selected_hit()
        self._update_buttons()
        if hit is None:
            return
        market, project = self.ws.market, self.target_project()
        self.note_view.setPlainText(
            self.tr("{ref}\n\nReading the skill and the project's skills…").format(ref=hit.skill.ref)
        )
        run_task(
            lambda: market.note(hit.skill, project or None),
            name=self.tr("Compatibility of {name}").format(name=hit.skill.name),
            key=(self, "note"),
            on_result=self._on_note,
            on_error=self.message.show_error,
        )

    def _on_note(self, note: CompatNote) -> None:
        self.note = note
        sk = note.skill
        head = f"{sk.ref}" + (self.tr("  (plugin {plugin})").format(plugin=sk.plugin) if sk.plugin else "")
        self.note_view.setPlainText(f"{head}\n{sk.description}\n\n{note.text}")
        self._update_buttons()

    def _shown_holds(self) -> list[Hold]:
        hit = self.selected_hit()
        if hit is None:
            return []
        return [("skill", (hit.skill.name, "")), ("skill", (hit.skill.name, self.target_project()))]

    def _update_buttons(self) -> None:
        hit = self.selected_hit()
        self.gate.enable(self.install_button, hit is not None)
        self.gate.enable(self.fork_button, hit is not None and bool(self.target_project()))
        if not self.gate.reason():
            self.fork_button.setToolTip("" if self.target_project() else self.tr("Pick a project under For: first"))

    @Slot()
    def install(self) -> None:
        self._install(GLOBAL_TARGET)

    @Slot()
    def fork(self) -> None:
        if self.target_project():
            self._install(self.target_project())

    def _install(self, project: str) -> None:
        hit = self.selected_hit()
        if hit is None:
            return
        if self.gate.reason():  # the same skill is being installed: say so, do not start a second install
            self.message.show_error(self.gate.reason())
            return
        market = self.ws.market
        where = self.tr("into project {project}").format(project=project) if project else "globally"
        run_task(
            lambda: market.install(hit.skill, project or None),
            name=self.tr("Installing {name}").format(name=hit.skill.name),
            holds=[("skill", (hit.skill.name, project or ""))],
            hold_reason=self.tr("Installing {name} {where} — wait for it to finish").format(
                name=hit.skill.name, where=where
            ),
            on_result=lambda _r: self.message.show_ok(
                self.tr("Installed {name} {where} from {source}").format(
                    name=hit.skill.name, where=where, source=hit.skill.source
                )
            ),
            on_error=self.message.show_error,
        )
