"""Skills panel: the library explorer and a skill's Content, Evals and Versions.

Sage (the skill improver, `lorekeeper sage analyze --skill NAME`) runs on the shown skill as a
cancellable job that holds the skill (`ui.workers` holds): its edits, rules, restore and fork
deletion wait, saying why, until it ends; its proposal opens in the Proposals panel. A skill
whose stored files no longer match their content hashes (the database edited outside
Lorekeeper) carries a warning in the list and a banner in the detail.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QMenu,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from lorekeeper.improve.nightly import RunSummary
from lorekeeper.skills.integrity import SkillKey, tampered_files, tampered_text
from lorekeeper.skills.library import Resolution, SkillInfo, SkillVersionInfo
from lorekeeper.ui import widgets
from lorekeeper.ui.import_dialog import ConflictDialog
from lorekeeper.ui.models.skills import FORK_MARK, SkillTableModel
from lorekeeper.ui.panels.base import AppContext, Panel
from lorekeeper.ui.panels.discover import DiscoverView
from lorekeeper.ui.panels.skill_tabs import ContentTab, RulesTab, VersionsTab
from lorekeeper.ui.theme import icon
from lorekeeper.ui.widgets import Debouncer, EmptyState, MessageBox, label, search_box, setup_table
from lorekeeper.ui.workers import Hold, HoldGate, cancel_key, run_task

ALL = "__all__"
GLOBAL = ""
IMPORT_HOLD: Hold = ("library", "import")


def skill_hold(name: str, project: str) -> Hold:
    """What a job on one skill holds (Sage, a marketplace install): its edits wait while it runs."""
    return ("skill", (name, project or ""))


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


@dataclass(frozen=True)
class SageOutcome:
    """What a Sage run on one skill gave: the run summary, and the proposal to open (new or pending)."""

    summary: RunSummary
    proposal: int | None
    pending: int | None = None  # no new one because this proposal is already pending


class SkillsPanel(Panel):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.selected: SkillInfo | None = None
        self.projects: list[str] = []
        self.conflict_dialog: ConflictDialog | None = None  # the open "name exists" question, if any
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

        self.import_button = QPushButton(self.tr("Import…"))
        menu = QMenu(self.import_button)
        menu.addAction(self.tr("Skill folder…"), self.import_folder)
        menu.addAction(self.tr("Zip archive…"), self.import_zip)
        self.import_button.setMenu(menu)
        self.fork_button = QPushButton(self.tr("Fork to project…"))
        self.fork_button.clicked.connect(self.fork_selected)
        self.delete_fork_button = QPushButton(self.tr("Delete fork"))
        self.delete_fork_button.clicked.connect(self.delete_selected_fork)
        self.explorer_message = MessageBox()
        # an import in progress: Import… waits, saying why (one import at a time from this window)
        self.import_reason = label("", "hintText", wrap=True)
        self.import_gate = HoldGate(self, lambda: IMPORT_HOLD, self._update_buttons, self.import_reason)

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
        buttons.addWidget(self.import_button)
        buttons.addWidget(self.fork_button)
        buttons.addWidget(self.delete_fork_button)
        ll.addLayout(buttons)
        ll.addWidget(self.import_reason)
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
        self.sage_button = QPushButton(self.tr("Sage"))
        self.sage_button.setIcon(icon("proposals"))
        self.sage_button.setToolTip(
            self.tr(
                "Ask the model for a better version of this skill: a proposal, benchmarked, waiting in Proposals "
                "(lorekeeper sage analyze --skill NAME)"
            )
        )
        self.sage_button.clicked.connect(self.run_sage)
        self.open_proposal_button = QPushButton(self.tr("Open proposal"))
        self.open_proposal_button.clicked.connect(self.open_proposal)
        self.open_proposal_button.hide()
        self.sage_proposal: int | None = None
        self.sage_message = MessageBox()
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
            self.sage_message.clear_message()
            self._set_sage_proposal(None)
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
        info = self.selected
        self.import_gate.enable(self.import_button, True)
        self.fork_button.setEnabled(info is not None and not info.is_fork)
        self.skill_gate.enable(self.delete_fork_button, info is not None and info.is_fork)
        self.skill_gate.enable(self.sage_button, self.detail is not None)

    # ------------------------------------------------------------------ Sage
    @Slot()
    def run_sage(self) -> None:
        """Sage on the shown skill: a cancellable job (the status bar's Cancel) holding the skill."""
        if self.detail is None:
            return
        reason = self.skill_gate.reason()
        if reason:
            self.ctx.status(reason)
            return
        info = self.detail.info
        name, project = info.name, info.project or ""
        sage, proposals = self.ws.improve.sage, self.ws.improve.proposals
        self.sage_message.clear_message()
        self._set_sage_proposal(None)

        def job(cancel) -> Any:
            summary = yield from sage.analyze_steps(name, project or None, should_stop=cancel)
            created = [c["proposal"] for c in summary.created]
            pending = None
            if not created and any("already pending" in str(k.get("why", "")) for k in summary.skipped):
                pending = next(
                    (p.id for p in proposals.list("pending") if p.skill == name and (p.scope or "") == project), None
                )
            return SageOutcome(summary, created[0] if created else None, pending)

        where = f" ({project} fork)" if project else ""
        run_task(
            job,
            name=self.tr("Sage on {name}").format(name=name),
            holds=[skill_hold(name, project)],
            hold_reason=self.tr(
                "Sage is working on {name}{where} — edits wait until it finishes, or cancel it (Cancel in the status bar)"
            ).format(name=name, where=where),
            on_result=lambda out: self._on_sage(name, out),
            on_error=self.sage_message.show_error,  # no model: ERR_LLM_UNAVAILABLE and what to configure
            on_cancelled=lambda: self._sage_cancelled(name, project),
        )

    def _sage_cancelled(self, name: str, project: str) -> None:
        """Cancelled: a proposal Sage wrote before its benchmark was stopped stays pending (it is
        complete); say which, or that nothing was proposed."""
        proposals = self.ws.improve.proposals

        def pending() -> int | None:
            return next(
                (p.id for p in proposals.list("pending") if p.skill == name and (p.scope or "") == project), None
            )

        def show(pid: int | None) -> None:
            if pid is None:
                self.sage_message.show_ok(self.tr("Sage on {name} cancelled: nothing was proposed.").format(name=name))
            else:
                self.sage_message.show_ok(
                    self.tr("Sage on {name} cancelled; proposal #{pid} stays pending (not benchmarked).").format(
                        name=name, pid=pid
                    )
                )
            self._set_sage_proposal(pid)

        run_task(pending, name=self.tr("Looking for the proposal"), visible=False, on_result=show)

    def _on_sage(self, name: str, out: SageOutcome) -> None:
        summary = out.summary
        if summary.errors:
            e = summary.errors[0]
            self.sage_message.show_error(
                self.tr("Sage on {name} failed — {code}: {error}").format(
                    name=name, code=e.get("code", ""), error=e.get("error", "")
                )
            )
        elif out.proposal is not None:
            created = summary.created[0]
            bench = next((b for b in summary.benchmarks if b.get("proposal") == out.proposal), None)
            badge = ""
            if bench is not None:
                badge = (
                    self.tr(" · benchmark: {badge}").format(badge=bench["badge"])
                    if "badge" in bench
                    else self.tr(" · benchmark failed: {error}").format(error=bench["error"])
                )
            self.sage_message.show_ok(
                self.tr("Sage proposed #{proposal} for {name}: {reason}{badge}").format(
                    proposal=out.proposal, name=name, reason=created["reason"], badge=badge
                )
            )
            self._set_sage_proposal(out.proposal)
        else:
            why = next((str(k.get("why", "")) for k in summary.skipped), self.tr("no target"))
            why = why.removeprefix("NO_CHANGE: ")
            self.sage_message.show_ok(self.tr("Sage proposes nothing for {name}: {why}.").format(name=name, why=why))
            self._set_sage_proposal(out.pending)
        self.ctx.status(self.tr("Sage on {name}: done").format(name=name))

    def _set_sage_proposal(self, pid: int | None) -> None:
        self.sage_proposal = pid
        self.open_proposal_button.setText(
            self.tr("Open proposal #{pid}").format(pid=pid) if pid is not None else self.tr("Open proposal")
        )
        self.open_proposal_button.setVisible(pid is not None)

    @Slot()
    def open_proposal(self) -> None:
        """Show Sage's proposal in the Proposals panel, selected."""
        pid = self.sage_proposal
        window = self.window()
        if pid is None or not hasattr(window, "select_panel"):
            return
        panel = window.select_panel("proposals")
        opener = getattr(panel, "open_proposal", None)
        if opener is not None:
            opener(pid)

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
        path = QFileDialog.getExistingDirectory(self, self.tr("Import a skill folder (or a folder of skill folders)"))
        if path:
            self.import_path(Path(path))

    @Slot()
    def import_zip(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Import skills from a zip"), "", self.tr("Zip archives (*.zip)")
        )
        if path:
            self.import_path(Path(path))

    def import_path(self, path: Path, decisions: dict[str, Resolution] | None = None) -> None:
        """Import every valid skill found in `path`; a name that exists with other content is asked
        about (ConflictDialog, with the diff), then imported as answered."""
        if self.import_gate.reason():
            self.ctx.status(self.import_gate.reason())
            return
        project = self._import_target()
        lib = self.ws.skills
        self.explorer_message.clear_message()

        def done(report) -> None:
            parts = [f"{len(v)} {k}" for k, v in report.to_dict().items() if v and k not in ("warnings", "exists")]
            where = self.tr(" into project {project}").format(project=project) if project else ""
            text = self.tr("Imported {name}{where}: ").format(name=path.name, where=where) + (
                ", ".join(parts) or self.tr("nothing to do")
            )
            for bad in report.invalid:
                errs = bad["errors"]
                text += f"\n{bad['path']}: " + "; ".join(str(e["message"]) for e in errs)
            if report.invalid:
                self.explorer_message.show_error(text)
            else:
                self.explorer_message.show_ok(text)
            self.changed(self.tr("Imported {name}").format(name=path.name))
            if report.exists and decisions is None:
                self._ask_conflicts(path, list(report.exists), {})

        run_task(
            lib.import_steps,  # progress per skill; Cancel stops it between skills, before any write
            path,
            project,
            self.tr("imported from {name}").format(name=path.name),
            strict=False,
            on_conflict=decisions if decisions is not None else "ask",
            name=self.tr("Importing {name}").format(name=path.name),
            holds=[IMPORT_HOLD],
            hold_reason=self.tr(
                "Importing {name} — the next import can start when it finishes, or cancel it (Cancel in the status bar)"
            ).format(name=path.name),
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
            self,
            self.tr("Fork to project"),
            self.tr("Fork {name} for project (pick one or type a new name):").format(name=info.name),
            projects,
            0,
            True,
        )
        if ok and project.strip():
            self.fork_to(info.name, project.strip())

    def fork_to(self, name: str, project: str) -> None:
        lib = self.ws.skills
        run_task(
            lambda: lib.fork(name, project),
            name=self.tr("Forking {name}").format(name=name),
            on_result=lambda v: self.changed(
                self.tr("Forked {name} for {project} (v{version})").format(
                    name=name, project=project, version=v.version
                ),
                (name, project),
            ),
            on_error=self.explorer_message.show_error,
        )

    @Slot()
    def delete_selected_fork(self) -> None:
        info = self.selected
        if info is None or not info.is_fork:
            return
        if not widgets.confirm(
            self,
            self.tr("Delete fork"),
            self.tr(
                "Delete the fork of {name} for project {project}, with its whole history? The global skill stays."
            ).format(name=info.name, project=info.project),
        ):
            return
        lib = self.ws.skills
        run_task(
            lambda: lib.delete_fork(info.name, info.project),
            name=self.tr("Deleting fork of {name}").format(name=info.name),
            on_result=lambda _r: self.changed(
                self.tr("Deleted the {project} fork of {name}").format(project=info.project, name=info.name),
                (info.name, ""),
            ),
            on_error=self.explorer_message.show_error,
        )
