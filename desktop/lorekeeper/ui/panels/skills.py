"""Skills panel: the library explorer and a skill's Content, Evals and Versions."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QMenu,
    QPushButton,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from lorekeeper.skills.library import Resolution, SkillInfo, SkillVersionInfo
from lorekeeper.ui import widgets
from lorekeeper.ui.import_dialog import ConflictDialog
from lorekeeper.ui.models.skills import FORK_MARK, SkillTableModel
from lorekeeper.ui.panels.base import AppContext, Panel
from lorekeeper.ui.panels.discover import DiscoverView
from lorekeeper.ui.panels.skill_tabs import ContentTab, RulesTab, VersionsTab
from lorekeeper.ui.widgets import Debouncer, EmptyState, MessageBox, label, search_box, setup_table
from lorekeeper.ui.workers import cancel_key, run_task

ALL = "__all__"
GLOBAL = ""


@dataclass(frozen=True)
class SkillDetail:
    info: SkillInfo
    current: SkillVersionInfo
    versions: list[SkillVersionInfo]


class SkillsPanel(Panel):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.selected: SkillInfo | None = None
        self.projects: list[str] = []
        self.conflict_dialog: ConflictDialog | None = None  # the open "name exists" question, if any
        self.detail: SkillDetail | None = None
        self._want: tuple[str, str] | None = None

        # ---------------------------------------------------------------- explorer
        self.search = search_box("Search name, description, triggers…  (Ctrl+F)")
        self.scope = QComboBox()
        self.scope.setToolTip("All skills, global skills only, or what one project sees (its forks replace globals)")
        self.model = SkillTableModel(self)
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
        self.explorer = EmptyState(self.table, "Loading the library…")
        self.count_label = label("", "hintText")

        self.import_button = QPushButton("Import…")
        menu = QMenu(self.import_button)
        menu.addAction("Skill folder…", self.import_folder)
        menu.addAction("Zip archive…", self.import_zip)
        self.import_button.setMenu(menu)
        self.fork_button = QPushButton("Fork to project…")
        self.fork_button.clicked.connect(self.fork_selected)
        self.delete_fork_button = QPushButton("Delete fork")
        self.delete_fork_button.clicked.connect(self.delete_selected_fork)
        self.explorer_message = MessageBox()

        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(self.search)
        scope_row = QHBoxLayout()
        scope_row.addWidget(label("Scope:"))
        scope_row.addWidget(self.scope, 1)
        scope_row.addWidget(self.count_label)
        ll.addLayout(scope_row)
        ll.addWidget(self.explorer, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.import_button)
        buttons.addWidget(self.fork_button)
        buttons.addWidget(self.delete_fork_button)
        ll.addLayout(buttons)
        ll.addWidget(self.explorer_message)

        # ---------------------------------------------------------------- detail
        self.title = label("", "skillHeader", selectable=True)
        self.scope_chip = label("", "chip")
        self.description = label("", "panelSubtitle", wrap=True, selectable=True)
        self.terms = label("", "hintText", wrap=True, selectable=True)
        self.content_tab = ContentTab(self)
        self.rules_tab = RulesTab(self)
        self.versions_tab = VersionsTab(self)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.content_tab, "Content")
        self.tabs.addTab(self.rules_tab, "Evals")
        self.tabs.addTab(self.versions_tab, "Versions")

        detail = QWidget()
        dl = QVBoxLayout(detail)
        dl.setContentsMargins(0, 0, 0, 0)
        head = QHBoxLayout()
        head.addWidget(self.title)
        head.addWidget(self.scope_chip)
        head.addStretch(1)
        dl.addLayout(head)
        dl.addWidget(self.description)
        dl.addWidget(self.terms)
        dl.addWidget(self.tabs, 1)
        self.detail_state = EmptyState(detail, "Select a skill on the left to see its content, rules and history.")
        self.detail_state.set_empty(True)

        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(self.detail_state)
        split.setStretchFactor(1, 1)
        split.setSizes([430, 770])

        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 16, 20, 12)
        layout.addWidget(label("Skills", "panelTitle"))
        layout.addWidget(
            label(
                "Every change is a new version. Global skills serve every project; a project fork "
                f"({FORK_MARK}) overrides a skill's content and rules for that project.",
                "panelSubtitle",
                wrap=True,
            )
        )
        # Library | Discover (marketplaces, issue 10); Ctrl+Tab switches
        self.discover = DiscoverView(self.ws, ctx.bus, self)
        self.views = QTabWidget()
        self.views.setDocumentMode(True)
        self.views.addTab(split, "Library")
        self.views.addTab(self.discover, "Discover")
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
        run_task(self.ws.skills.projects, name="Loading projects", visible=False, on_result=self._on_projects)

    def showcase(self) -> None:
        if self.selected is None and self.model.rowCount():
            self.table.selectRow(0)

    def _on_projects(self, projects: list[str]) -> None:
        self.projects = projects
        current = self.scope.currentData()
        self.scope.blockSignals(True)
        self.scope.clear()
        self.scope.addItem("All skills", ALL)
        self.scope.addItem("Global only", GLOBAL)
        for p in projects:
            self.scope.addItem(f"Project: {p}", p)
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

        def load() -> list[SkillInfo]:
            if scope in (None, ALL):
                return lib.list(search=search)
            if scope == GLOBAL:
                return lib.list(search=search, include_forks=False)
            return lib.list(project=scope, search=search)

        run_task(
            load,
            name="Loading skills",
            key=(self, "list"),
            visible=False,
            on_result=lambda rows: self._on_list(rows, search),
            on_error=self.explorer_message.show_error,
        )

    def _on_list(self, rows: list[SkillInfo], search: str) -> None:
        keep = self._want or ((self.selected.name, self.selected.project) if self.selected else None)
        self._want = None
        self.table.selectionModel().blockSignals(True)
        self.model.set_rows(rows)
        self.table.selectionModel().blockSignals(False)
        n = len(rows)
        self.count_label.setText(f"{n} skill{'s' if n != 1 else ''}")
        if not rows:
            text = (
                f"No skill matches “{search}”. Search looks at names, descriptions, triggers and keywords."
                if search
                else "The library is empty — import a skill folder or a zip with Import…"
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
        lib = self.ws.skills

        def load() -> SkillDetail:
            return SkillDetail(info, lib.get(info.name, info.project or None), lib.versions(info.name, info.project))

        run_task(
            load,
            name=f"Loading {info.name}",
            key=(self, "detail"),
            visible=False,
            on_result=lambda d: self._on_detail(d),
            on_error=self.explorer_message.show_error,
        )

    def _on_detail(self, detail: SkillDetail) -> None:
        self.detail = detail
        info = detail.info
        self.detail_state.set_empty(False)
        self.title.setText(info.name)
        self.scope_chip.setText(f"{FORK_MARK} fork · project {info.project}" if info.is_fork else "global")
        self.description.setText(info.description)
        self.terms.setText(
            f"v{detail.current.version} · {info.rules_count} rules · "
            f"triggers: {', '.join(info.triggers) or '—'} · keywords: {', '.join(info.keywords) or '—'}"
        )
        self.content_tab.show_skill(detail)
        self.rules_tab.show_skill(detail)
        self.versions_tab.show_skill(detail)

    def _update_buttons(self) -> None:
        info = self.selected
        self.fork_button.setEnabled(info is not None and not info.is_fork)
        self.delete_fork_button.setEnabled(info is not None and info.is_fork)

    # ------------------------------------------------------------------ changes
    def changed(self, message: str, keep: tuple[str, str] | None = None) -> None:
        """After a successful write: say so, and let every panel that shows skills refresh."""
        if keep is not None:
            self._want = keep
        self.ctx.status(message)  # the change feed emits "skills" for the committed write

    def _import_target(self) -> str | None:
        scope = self.scope.currentData()
        return None if scope in (None, ALL, GLOBAL) else scope

    @Slot()
    def import_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self, "Import a skill folder (or a folder of skill folders)")
        if path:
            self.import_path(Path(path))

    @Slot()
    def import_zip(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Import skills from a zip", "", "Zip archives (*.zip)")
        if path:
            self.import_path(Path(path))

    def import_path(self, path: Path, decisions: dict[str, Resolution] | None = None) -> None:
        """Import every valid skill found in `path`; a name that exists with other content is asked
        about (ConflictDialog, with the diff), then imported as answered."""
        project = self._import_target()
        lib = self.ws.skills
        self.explorer_message.clear_message()

        def done(report) -> None:
            parts = [f"{len(v)} {k}" for k, v in report.to_dict().items() if v and k not in ("warnings", "exists")]
            where = f" into project {project}" if project else ""
            text = f"Imported {path.name}{where}: " + (", ".join(parts) or "nothing to do")
            for bad in report.invalid:
                errs = bad["errors"]
                text += f"\n{bad['path']}: " + "; ".join(str(e["message"]) for e in errs)
            if report.invalid:
                self.explorer_message.show_error(text)
            else:
                self.explorer_message.show_ok(text)
            self.changed(f"Imported {path.name}")
            if report.exists and decisions is None:
                self._ask_conflicts(path, list(report.exists), {})

        run_task(
            lib.import_steps,  # progress per skill; Cancel stops it between skills, before any write
            path,
            project,
            f"imported from {path.name}",
            strict=False,
            on_conflict=decisions if decisions is not None else "ask",
            name=f"Importing {path.name}",
            on_result=done,
            on_error=self.explorer_message.show_error,
        )

    def _ask_conflicts(self, path: Path, pending: list[dict], answers: dict[str, Resolution]) -> None:
        """One dialog per collision (window-modal, opened in turn); then the import runs with the answers."""
        if not pending:
            if any(r.action != "skip" for r in answers.values()):
                self.import_path(path, answers)
            return
        conflict = pending.pop(0)
        dialog = ConflictDialog(self, conflict, self.projects)
        self.conflict_dialog = dialog

        def finished(_code: int) -> None:
            answers[str(conflict["name"])] = dialog.resolution or Resolution("skip")
            self.conflict_dialog = None
            self._ask_conflicts(path, pending, answers)

        dialog.finished.connect(finished)
        dialog.open()

    @Slot()
    def fork_selected(self) -> None:
        info = self.selected
        if info is None or info.is_fork:
            return
        projects = self.projects
        project, ok = QInputDialog.getItem(
            self, "Fork to project", f"Fork {info.name} for project (pick one or type a new name):", projects, 0, True
        )
        if ok and project.strip():
            self.fork_to(info.name, project.strip())

    def fork_to(self, name: str, project: str) -> None:
        lib = self.ws.skills
        run_task(
            lambda: lib.fork(name, project),
            name=f"Forking {name}",
            on_result=lambda v: self.changed(f"Forked {name} for {project} (v{v.version})", (name, project)),
            on_error=self.explorer_message.show_error,
        )

    @Slot()
    def delete_selected_fork(self) -> None:
        info = self.selected
        if info is None or not info.is_fork:
            return
        if not widgets.confirm(
            self,
            "Delete fork",
            f"Delete the fork of {info.name} for project {info.project}, "
            "with its whole history? The global skill stays.",
        ):
            return
        lib = self.ws.skills
        run_task(
            lambda: lib.delete_fork(info.name, info.project),
            name=f"Deleting fork of {info.name}",
            on_result=lambda _r: self.changed(f"Deleted the {info.project} fork of {info.name}", (info.name, "")),
            on_error=self.explorer_message.show_error,
        )
