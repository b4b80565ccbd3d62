"""Skills panel: the library explorer and a skill's Content, Evals and Versions.

The panel composes pieces with one job each: the library actions (`skills_actions`: import,
fork, delete a fork), Sage on the shown skill (`skills_sage`), the detail's tabs (`skill_tabs`)
and the marketplaces (`discover`); it lists, selects and shows. A skill whose stored files no
longer match their content hashes (the database edited outside Lorekeeper) carries a warning in
the list and a banner in the detail.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QScrollArea,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from lorekeeper.skills.integrity import SkillKey, tampered_files, tampered_text
from lorekeeper.skills.library import SkillInfo, SkillVersionInfo
from lorekeeper.ui.models.skills import FORK_MARK, SkillTableModel
from lorekeeper.ui.panels.base import AppContext, Panel
from lorekeeper.ui.panels.discover import DiscoverView
from lorekeeper.ui.panels.skill_tabs import ContentTab, RulesTab, VersionsTab
from lorekeeper.ui.panels.skills_actions import LibraryActions
from lorekeeper.ui.panels.skills_sage import SageControl, skill_hold
from lorekeeper.ui.theme import icon
from lorekeeper.ui.widgets import Debouncer, EmptyState, MessageBox, label, search_box, setup_table
from lorekeeper.ui.workers import Hold, HoldGate, cancel_key, run_task

ALL = "__all__"
GLOBAL = ""


class _SkillsModel(SkillTableModel):
    """The library's rows, with a warning on skills whose stored files do not verify."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tampered: dict[SkillKey, list[str]] = {}

    def cell(self, item: SkillInfo, column: int, role: int) -> Any:
        bad = self.tampered.get((item.name, item.project or "")) if column == self.COL_NAME else None
        if bad and role == Qt.ItemDataRole.DecorationRole:
            return icon("warning")
        if bad and role == Qt.ItemDataRole.ToolTipRole:
            return tampered_text(bad)
        return super().cell(item, column, role)


@dataclass(frozen=True)
class SkillDetail:
    info: SkillInfo
    current: SkillVersionInfo
    versions: list[SkillVersionInfo]
    tampered: list[str] = field(default_factory=list)  # files of the current version that do not verify


class SkillsPanel(Panel):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.selected: SkillInfo | None = None
        self.projects: list[str] = []
        self.detail: SkillDetail | None = None
        self._want: tuple[str, str] | None = None

        # ---------------------------------------------------------------- explorer
        self.search = search_box(self.tr("Search name, description, triggers…  (Ctrl+F)"))
        self.scope = QComboBox()
        self.scope.setToolTip(
            self.tr("All skills, global skills only, or what one project sees (its forks replace globals)")
        )
        self.model = _SkillsModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        setup_table(self.table)
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(SkillTableModel.COL_NAME, QHeaderView.ResizeMode.Interactive)
        hh.setStretchLastSection(True)
        self.table.setColumnWidth(SkillTableModel.COL_NAME, 215)
        self.table.setColumnWidth(SkillTableModel.COL_VERSION, 46)
        self.table.setColumnWidth(SkillTableModel.COL_RULES, 48)
        self.table.selectionModel().currentRowChanged.connect(self._on_row_changed)
        self.explorer = EmptyState(self.table, self.tr("Loading the library…"))
        self.count_label = label("", "hintText")
        self.library = LibraryActions(self)
        self.import_path = self.library.import_path

        self.explorer_message = MessageBox()

        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(self.search)
        scope_row = QHBoxLayout()
        scope_row.addWidget(label(self.tr("Scope:")))
        scope_row.addWidget(self.scope, 1)
        scope_row.addWidget(self.count_label)
        ll.addLayout(scope_row)
        ll.addWidget(self.explorer, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.library.import_button)
        buttons.addWidget(self.library.fork_button)
        buttons.addWidget(self.library.delete_fork_button)
        ll.addLayout(buttons)
        ll.addWidget(self.library.import_reason)
        ll.addWidget(self.explorer_message)

        # ---------------------------------------------------------------- detail
        self.title = label("", "skillHeader", selectable=True)
        self.scope_chip = label("", "chip")
        self.description = label("", "panelSubtitle", wrap=True, selectable=True)
        self.terms = label("", "hintText", wrap=True, selectable=True)
        self.hold_label = label("", "hintText", wrap=True)  # why the shown skill's edits wait (Sage on it)
        self.skill_gate = HoldGate(self, self.shown_hold, self.update_held, self.hold_label)
        self.content_tab = ContentTab(self)
        self.rules_tab = RulesTab(self)
        self.versions_tab = VersionsTab(self)
        self.sage = SageControl(self)
        # the names the holds tests and the Proposals flow click
        self.sage_button, self.open_proposal_button = self.sage.button, self.sage.open_button
        self.sage_message = self.sage.message
        self.integrity_banner = MessageBox()
        self.tabs = QTabWidget()
        self.tabs.addTab(self.content_tab, self.tr("Content"))
        self.tabs.addTab(self.rules_tab, self.tr("Evals"))
        self.tabs.addTab(self.versions_tab, self.tr("Versions"))

        detail = QWidget()
        dl = QVBoxLayout(detail)
        dl.setContentsMargins(0, 0, 0, 0)
        head = QHBoxLayout()
        head.addWidget(self.title)
        head.addWidget(self.scope_chip)
        head.addStretch(1)
        head.addWidget(self.open_proposal_button)
        head.addWidget(self.sage_button)
        dl.addLayout(head)
        dl.addWidget(self.integrity_banner)
        dl.addWidget(self.hold_label)
        dl.addWidget(self.sage_message)
        # the description and the terms scroll in at most six lines: the content viewer below
        # keeps the room (issue 30 d2: at 1024x640 they took 230 px, the viewer about 150)
        about = QWidget()
        al = QVBoxLayout(about)
        al.setContentsMargins(0, 0, 0, 0)
        al.addWidget(self.description)
        al.addWidget(self.terms)
        self.about_area = QScrollArea()
        self.about_area.setWidgetResizable(True)
        self.about_area.setFrameShape(QFrame.Shape.NoFrame)
        self.about_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.about_area.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.about_area.setWidget(about)
        self.about_area.setMaximumHeight(self.fontMetrics().lineSpacing() * 6 + 8)
        dl.addWidget(self.about_area)
        dl.addWidget(self.tabs, 1)
        self.detail_state = EmptyState(
            detail, self.tr("Select a skill on the left to see its content, rules and history.")
        )
        self.detail_state.set_empty(True)

        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(self.detail_state)
        split.setStretchFactor(1, 1)
        split.setSizes([430, 770])

        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 16, 20, 12)
        layout.addWidget(label(self.tr("Skills"), "panelTitle"))
        layout.addWidget(
            label(
                self.tr(
                    "Every change is a new version. Global skills serve every project; a project fork ({FORK_MARK}) overrides a skill's content and rules for that project."
                ).format(FORK_MARK=FORK_MARK),
                "panelSubtitle",
                wrap=True,
            )
        )
        # Library | Discover (marketplaces, issue 10); Ctrl+Tab switches
        self.discover = DiscoverView(self.ws, ctx.bus, self)
        self.views = QTabWidget()
        self.views.setDocumentMode(True)
        self.views.addTab(split, self.tr("Library"))
        self.views.addTab(self.discover, self.tr("Discover"))
        self.views.currentChanged.connect(self._on_view)
        layout.addWidget(self.views, 1)

        self.search_debounce = Debouncer(150, self.reload_list, self)
        self.search.textChanged.connect(self.search_debounce.poke)
        self.scope.currentIndexChanged.connect(self.reload_list)
        ctx.bus.skills_changed.connect(self.refresh)
        self._update_buttons()
        self.refresh()

    def _on_view(self, index: int) -> None:
        if self.views.widget(index) is self.discover:
            self.discover.refresh()

    # ------------------------------------------------------------------ panel API
    def search_box(self):
        return self.search

    @Slot()
    def refresh(self) -> None:
        run_task(self.ws.skills.projects, name=self.tr("Loading projects"), visible=False, on_result=self._on_projects)

    def showcase(self) -> None:
        if self.selected is None and self.model.rowCount():
            self.table.selectRow(0)

    def _on_projects(self, projects: list[str]) -> None:
        self.projects = projects
        current = self.scope.currentData()
        self.scope.blockSignals(True)
        self.scope.clear()
        self.scope.addItem(self.tr("All skills"), ALL)
        self.scope.addItem(self.tr("Global only"), GLOBAL)
        for p in projects:
            self.scope.addItem(self.tr("Project: {p}").format(p=p), p)
        idx = self.scope.findData(current) if current is not None else 0
        self.scope.setCurrentIndex(max(idx, 0))
        self.scope.blockSignals(False)
        self.reload_list()

    # ------------------------------------------------------------------ explorer
    @Slot()
    def reload_list(self) -> None:
        scope = self.scope.currentData()
        search = self.search.text().strip()
        lib = self.ws.skills

        store = self.ws.store

        def load() -> tuple[list[SkillInfo], dict[SkillKey, list[str]]]:
            if scope in (None, ALL):
                rows = lib.list(search=search)
            elif scope == GLOBAL:
                rows = lib.list(search=search, include_forks=False)
            else:
                rows = lib.list(project=scope, search=search)
            return rows, tampered_files(store)

        run_task(
            load,
            name=self.tr("Loading skills"),
            key=(self, "list"),
            visible=False,
            on_result=lambda got: self._on_list(got[0], search, got[1]),
            on_error=self.explorer_message.show_error,
        )

    def _on_list(self, rows: list[SkillInfo], search: str, tampered: dict[SkillKey, list[str]] | None = None) -> None:
        self.model.tampered = tampered or {}
        keep = self._want or ((self.selected.name, self.selected.project) if self.selected else None)
        self._want = None
        self.table.selectionModel().blockSignals(True)
        self.model.set_rows(rows)
        self.table.selectionModel().blockSignals(False)
        n = len(rows)
        self.count_label.setText(self.tr("%n skill(s)", "", n))
        if not rows:
            text = (
                self.tr(
                    "No skill matches “{search}”. Search looks at names, descriptions, triggers and keywords."
                ).format(search=search)
                if search
                else self.tr("The library is empty — import a skill folder or a zip with Import…")
            )
            self.explorer.set_empty(True, text)
            self._select(None)
            return
        self.explorer.set_empty(False)
        row = self.model.index_of(*keep) if keep else -1
        if row < 0 and keep is not None:  # e.g. a deleted fork: fall back to the same name
            row = next((i for i, r in enumerate(rows) if r.name == keep[0]), -1)
        self.table.selectRow(max(row, 0))
        self._on_row_changed()

    @Slot()
    def _on_row_changed(self, *_args: object) -> None:
        info = self.model.row(self.table.currentIndex().row())
        shown = self.detail.info if self.detail is not None else None
        key = (info.name, info.project) if info is not None else None
        if shown is not None and key != (shown.name, shown.project):
            # another skill: unsaved edits of the shown one are saved, discarded or kept (Cancel)
            self._keep_row(shown)
            if not self.leave(lambda: self._reselect(key)):
                return
            self._keep_row(info)
        self._select(info)

    def _keep_row(self, info: SkillInfo | None) -> None:
        """Put the table's selection on `info` without acting on it (the guard's Cancel)."""
        row = self.model.index_of(info.name, info.project) if info is not None else -1
        if row >= 0:
            self.table.selectionModel().blockSignals(True)
            self.table.selectRow(row)
            self.table.selectionModel().blockSignals(False)

    def _reselect(self, key: tuple[str, str] | None) -> None:
        if key is None or not self.select_skill(*key):
            self._on_row_changed()

    def leave(self, proceed) -> bool:
        """Unsaved SKILL.md edits or an open rule dialog with changes: ask Save / Discard / Cancel."""
        return self.content_tab.resolve_unsaved(proceed) and self.rules_tab.resolve_unsaved(proceed)

    def select_skill(self, name: str, project: str = "") -> bool:
        row = self.model.index_of(name, project)
        if row >= 0:
            self.table.selectRow(row)
        return row >= 0

    def _select(self, info: SkillInfo | None) -> None:
        self.selected = info
        self._update_buttons()
        if info is None:
            cancel_key((self, "detail"))
            self.detail = None
            self.detail_state.set_empty(True)
            return
        lib, store = self.ws.skills, self.ws.store

        def load() -> SkillDetail:
            current = lib.get(info.name, info.project or None)
            versions = lib.versions(info.name, info.project)
            bad = tampered_files(store, (info.name, info.project or "")).get((info.name, info.project or ""), [])
            return SkillDetail(info, current, versions, bad)

        run_task(
            load,
            name=self.tr("Loading {name}").format(name=info.name),
            key=(self, "detail"),
            visible=False,
            on_result=lambda d: self._on_detail(d),
            on_error=self.explorer_message.show_error,
        )

    def _on_detail(self, detail: SkillDetail) -> None:
        previous = self.detail.info if self.detail is not None else None
        self.detail = detail
        info = detail.info
        if previous is None or (previous.name, previous.project) != (info.name, info.project):
            self.sage.forget()
        if detail.tampered:
            self.integrity_banner.show_error(tampered_text(detail.tampered))
        else:
            self.integrity_banner.clear_message()
        self.detail_state.set_empty(False)
        self.title.setText(info.name)
        self.scope_chip.setText(
            self.tr("{FORK_MARK} fork · project {project}").format(FORK_MARK=FORK_MARK, project=info.project)
            if info.is_fork
            else "global"
        )
        self.description.setText(info.description)
        self.terms.setText(
            self.tr("v{version} · {rules_count} rules · triggers: {0} · keywords: {1}").format(
                ", ".join(info.triggers) or "—",
                ", ".join(info.keywords) or "—",
                version=detail.current.version,
                rules_count=info.rules_count,
            )
        )
        self.content_tab.show_skill(detail)
        self.rules_tab.show_skill(detail)
        self.versions_tab.show_skill(detail)
        self.update_held()

    def shown_hold(self) -> list[Hold]:
        """The holds that stop the shown skill's edits: the selected skill and the one in the detail."""
        out = []
        for info in (self.selected, self.detail.info if self.detail is not None else None):
            if info is not None:
                out.append(skill_hold(info.name, info.project))
        return out

    def update_held(self) -> None:
        """A job on the shown skill started or ended: every action bound to it, enabled or not, saying why."""
        self._update_buttons()
        self.content_tab.update_buttons()
        self.rules_tab._update_buttons()
        self.versions_tab.update_restore()

    def _update_buttons(self) -> None:
        self.library.update_buttons()
        self.skill_gate.enable(self.sage_button, self.detail is not None)

    # ------------------------------------------------------------------ changes
    def changed(self, message: str, keep: tuple[str, str] | None = None) -> None:
        """After a successful write: say so, and let every panel that shows skills refresh."""
        if keep is not None:
            self._want = keep
        self.ctx.status(message)  # the change feed emits "skills" for the committed write

    def scope_project(self) -> str | None:
        """The project the scope box shows (imports go there), None for all or global skills."""
        scope = self.scope.currentData()
        return None if scope in (None, ALL, GLOBAL) else scope
