"""Learnings panel: every rule the reflect loop saved, filtered, edited, archived, imported, exported.

The table is paged and sorted by the store (a header click sorts every row; pages are fetched in a
worker as they are shown) and allows multi-selection
for bulk archive/restore. Import and export speak the seed's learnings.md format.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from PySide6.QtCore import QCoreApplication, Qt, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from lorekeeper.learnings.service import SCOPES, SOURCES, LearningInfo, LearningService
from lorekeeper.ui.i18n import QT_TRANSLATE_NOOP, fmt_datetime, tr_const, value_text
from lorekeeper.ui.models.paged import PagedRowsModel, setup_sorting
from lorekeeper.ui.panels.base import AppContext, Panel
from lorekeeper.ui.theme import color
from lorekeeper.ui.widgets import Debouncer, EmptyState, MessageBox, label, search_box, setup_table
from lorekeeper.ui.workers import run_task

PAGE_SIZE = 200
ALL = "__all__"
EMPTY = QT_TRANSLATE_NOOP(
    "learnings",
    "No learnings yet. Fix It and thumbs down in the Playground create them; Add or Import brings your own.",
)
EMPTY_FILTERED = QT_TRANSLATE_NOOP("learnings", "No learning matches these filters.")


@dataclass(frozen=True)
class LearningQuery:
    project: str | None = None  # None: every project; "": the learnings without one
    source: str = ""
    scope: str = ""
    status: str = "active"
    search: str = ""

    def kwargs(self) -> dict[str, Any]:
        return {
            "project": self.project,
            "source": self.source,
            "scope": self.scope,
            "status": self.status,
            "search": self.search,
        }


class LearningsModel(PagedRowsModel[LearningInfo, LearningQuery]):
    COL_TIME, COL_PROJECT, COL_SOURCE, COL_SCOPE, COL_STATUS, COL_RULE, COL_TAGS = range(7)
    HEADERS = (
        QT_TRANSLATE_NOOP("LearningsModel", "When (UTC)"),
        QT_TRANSLATE_NOOP("LearningsModel", "Project"),
        QT_TRANSLATE_NOOP("LearningsModel", "Source"),
        QT_TRANSLATE_NOOP("LearningsModel", "Scope"),
        QT_TRANSLATE_NOOP("LearningsModel", "Status"),
        QT_TRANSLATE_NOOP("LearningsModel", "Rule"),
        QT_TRANSLATE_NOOP("LearningsModel", "Tags"),
    )
    PAGE_SIZE = PAGE_SIZE
    JOB_NAME = QT_TRANSLATE_NOOP("LearningsModel", "Loading learnings")
    JOB_VISIBLE = False
    SORT_KEYS: ClassVar[dict[int, str]] = dict(
        enumerate(("created_at", "project", "source", "scope", "status", "rule", "tags"))
    )
    DEFAULT_SORT = (COL_TIME, True)  # newest first

    def __init__(self, service: LearningService, parent: Any = None) -> None:
        super().__init__(LearningQuery(), parent)
        self.service = service

    def count_rows(self, query: LearningQuery) -> int:
        return self.service.count(**query.kwargs())

    def fetch_rows(
        self, query: LearningQuery, limit: int, offset: int, order_by: str, descending: bool
    ) -> list[LearningInfo]:
        return self.service.list(**query.kwargs(), limit=limit, offset=offset, order_by=order_by, descending=descending)

    def cell(self, item: LearningInfo, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            return (
                fmt_datetime(item.created_at),
                item.project or "—",
                value_text(item.source),
                value_text(item.scope),
                value_text(item.status),
                item.rule,
                ", ".join(item.tags),
            )[column]
        if role == Qt.ItemDataRole.ToolTipRole and column == self.COL_RULE:
            extra = (
                [QCoreApplication.translate("LearningsModel", "story {story}").format(story=item.story)]
                if item.story
                else []
            )
            extra += (
                [QCoreApplication.translate("LearningsModel", "domain {domain}").format(domain=item.domain)]
                if item.domain
                else []
            )
            return item.rule + ("\n" + " · ".join(extra) if extra else "")
        if role == Qt.ItemDataRole.ForegroundRole and item.status == "archived":
            return color("muted")
        return None


class LearningDialog(QDialog):
    """Add or edit a learning: the rule (one line), and its optional story, domain, tags, scope."""

    def __init__(
        self,
        projects: list[str],
        learning: LearningInfo | None = None,
        project: str = "",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.learning = learning
        self.setWindowTitle(self.tr("Edit learning") if learning else self.tr("Add learning"))
        self.setMinimumWidth(520)
        self.rule = QPlainTextEdit(learning.rule if learning else "")
        self.rule.setFixedHeight(80)
        self.project = QComboBox()
        self.project.setEditable(learning is None)
        self.project.addItem(self.tr("(no project)"), "")
        for p in projects:
            self.project.addItem(p, p)
        current = learning.project if learning else project
        idx = self.project.findData(current)
        if idx < 0 and current:
            self.project.addItem(current, current)
            idx = self.project.count() - 1
        self.project.setCurrentIndex(max(idx, 0))
        self.project.setEnabled(learning is None)
        self.story = QLineEdit(learning.story if learning else "")
        self.domain = QLineEdit(learning.domain if learning else "")
        self.tags = QLineEdit(", ".join(learning.tags) if learning else "")
        self.tags.setPlaceholderText(self.tr("comma-separated"))
        self.scope = QComboBox()
        for s in SCOPES:
            self.scope.addItem(value_text(s), s)
        self.scope.setCurrentIndex(self.scope.findData(learning.scope if learning else "story"))
        self.message = MessageBox()
        form = QFormLayout()
        form.addRow(self.tr("Rule"), self.rule)
        form.addRow(self.tr("Project"), self.project)
        form.addRow(self.tr("Story"), self.story)
        form.addRow(self.tr("Domain"), self.domain)
        form.addRow(self.tr("Tags"), self.tags)
        form.addRow(self.tr("Scope"), self.scope)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        self.save_button = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        self.buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(self.message)
        lay.addWidget(self.buttons)

    def chosen_project(self) -> str:
        data = self.project.currentData()
        text = self.project.currentText().strip()
        if data is not None and self.project.itemText(self.project.currentIndex()) == text:
            return str(data)
        return "" if text == self.tr("(no project)") else text


class LearningsPanel(Panel):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.dialog: LearningDialog | None = None
        self.projects: list[str] = []

        self.f_project = QComboBox()
        self.f_project.setMinimumWidth(150)
        self.f_source = QComboBox()
        self.f_source.addItem(self.tr("Any source"), "")
        for s in SOURCES:
            self.f_source.addItem(value_text(s), s)
        self.f_scope = QComboBox()
        self.f_scope.addItem(self.tr("Any scope"), "")
        for s in SCOPES:
            self.f_scope.addItem(value_text(s), s)
        self.f_status = QComboBox()
        for text, data in (
            (self.tr("Active"), "active"),
            (self.tr("Archived"), "archived"),
            (self.tr("Active and archived"), "all"),
        ):
            self.f_status.addItem(text, data)
        self.f_search = search_box(self.tr("Search…"), self.tr("Search the rules, stories, domains and tags (Ctrl+F)"))
        filters = QHBoxLayout()
        for w in (self.f_project, self.f_source, self.f_scope, self.f_status):
            filters.addWidget(w)
        filters.addWidget(self.f_search, 1)
        self.count_label = label("", "hintText")
        filters.addWidget(self.count_label)

        self.model = LearningsModel(self.ws.learnings, self)
        self.model.loaded.connect(self._on_loaded)
        self.model.failed.connect(lambda exc: self.message.show_error(exc))
        self.table = QTableView()
        self.table.setModel(self.model)
        setup_table(self.table)
        setup_sorting(self.table, self.model)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        hh.setSectionResizeMode(LearningsModel.COL_RULE, QHeaderView.ResizeMode.Stretch)
        for col, width in ((0, 125), (1, 110), (2, 70), (3, 65), (4, 70), (6, 120)):
            self.table.setColumnWidth(col, width)
        self.table.doubleClicked.connect(lambda _i: self.edit_selected())
        self.table.selectionModel().selectionChanged.connect(self._update_buttons)
        self.model.page_loaded.connect(self._update_buttons)  # a selected row's page arrived
        self.empty = EmptyState(self.table, tr_const("learnings", EMPTY))

        self.add_button = QPushButton(self.tr("Add…"))
        self.add_button.clicked.connect(self.add)
        self.edit_button = QPushButton(self.tr("Edit…"))
        self.edit_button.clicked.connect(self.edit_selected)
        self.archive_button = QPushButton(self.tr("Archive"))
        self.archive_button.setShortcut("Del")
        self.archive_button.clicked.connect(lambda: self.set_status("archived"))
        self.restore_button = QPushButton(self.tr("Restore"))
        self.restore_button.clicked.connect(lambda: self.set_status("active"))
        self.import_button = QPushButton(self.tr("Import learnings.md…"))
        self.import_button.clicked.connect(self.import_dialog)
        self.export_button = QPushButton(self.tr("Export learnings.md…"))
        self.export_button.clicked.connect(self.export_dialog)
        self.message: MessageBox = MessageBox()  # annotated: a lambda above refers to it first
        actions = QHBoxLayout()
        for b in (self.add_button, self.edit_button, self.archive_button, self.restore_button):
            actions.addWidget(b)
        actions.addStretch(1)
        actions.addWidget(self.import_button)
        actions.addWidget(self.export_button)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 16, 20, 12)
        layout.addWidget(label(self.tr("Learnings"), "panelTitle"))
        layout.addWidget(
            label(
                self.tr(
                    "Rules learnt from corrections. A project's prompts carry its active rules (and the global-scope ones), "
                    "newest first, within 2,000 characters."
                ),
                "panelSubtitle",
                wrap=True,
            )
        )
        layout.addLayout(filters)
        layout.addWidget(self.empty, 1)
        layout.addLayout(actions)
        layout.addWidget(self.message)

        self.search_debounce = Debouncer(250, self.reload, self)
        self.f_search.textChanged.connect(self.search_debounce.poke)
        for combo in (self.f_project, self.f_source, self.f_scope, self.f_status):
            combo.currentIndexChanged.connect(self.reload)
        ctx.bus.changed.connect(self._on_bus)
        ctx.bus.skills_changed.connect(self.load_projects)
        self._update_buttons()
        self.refresh()

    # ------------------------------------------------------------ panel API
    def search_box(self) -> QLineEdit:
        return self.f_search

    @Slot()
    def refresh(self) -> None:
        self.load_projects()

    def showcase(self) -> None:
        if self.model.rowCount():
            self.table.selectRow(0)

    @Slot(str)
    def _on_bus(self, topic: str) -> None:
        if topic == "learnings":
            self.load_projects()

    # ------------------------------------------------------------ loading
    @Slot()
    def load_projects(self) -> None:
        ws = self.ws
        run_task(
            lambda: sorted(set(ws.skills.projects()) | set(ws.learnings.projects())),
            name=self.tr("Loading projects"),
            visible=False,
            on_result=self._on_projects,
        )

    def _on_projects(self, projects: list[str]) -> None:
        self.projects = projects
        current = self.f_project.currentData()
        self.f_project.blockSignals(True)
        self.f_project.clear()
        self.f_project.addItem(self.tr("All projects"), ALL)
        self.f_project.addItem(self.tr("No project"), "")
        for p in projects:
            self.f_project.addItem(p, p)
        idx = self.f_project.findData(current) if current is not None else 0
        self.f_project.setCurrentIndex(max(idx, 0))
        self.f_project.blockSignals(False)
        self.reload()

    def current_query(self) -> LearningQuery:
        proj = self.f_project.currentData()
        return LearningQuery(
            project=None if proj in (None, ALL) else proj,
            source=self.f_source.currentData() or "",
            scope=self.f_scope.currentData() or "",
            status=self.f_status.currentData() or "active",
            search=self.f_search.text().strip(),
        )

    @Slot()
    def reload(self) -> None:
        self.model.set_query(self.current_query())

    def _on_loaded(self) -> None:
        total = self.model.total or 0
        filtered = self.current_query() != LearningQuery()
        self.empty.set_empty(total == 0, tr_const("learnings", EMPTY_FILTERED if filtered else EMPTY))
        self.count_label.setText(self.tr("%Ln learning(s)", "", total))
        self._update_buttons()

    # ------------------------------------------------------------ selection
    def selected(self) -> list[LearningInfo]:
        rows = sorted({i.row() for i in self.table.selectionModel().selectedRows()})
        return [r for r in (self.model.row(i) for i in rows) if r is not None]

    @Slot()
    def _update_buttons(self, *_args: object) -> None:
        sel = self.selected()
        self.edit_button.setEnabled(len(sel) == 1)
        self.archive_button.setEnabled(any(r.status == "active" for r in sel))
        self.restore_button.setEnabled(any(r.status == "archived" for r in sel))
        n = len(sel)
        self.archive_button.setText(self.tr("Archive {n}").format(n=n) if n > 1 else self.tr("Archive"))
        self.restore_button.setText(self.tr("Restore {n}").format(n=n) if n > 1 else self.tr("Restore"))

    # ------------------------------------------------------------ actions
    def _changed(self, text: str) -> None:
        warnings = self.ws.learnings.take_audit_warnings()
        if warnings:
            self.message.show_error(text + " " + " ".join(warnings))
        else:
            self.message.show_ok(text)
        # the change feed emits "learnings" for the committed change (lorekeeper.ui.changefeed)

    @Slot()
    def add(self) -> None:
        q = self.current_query()
        self.dialog = LearningDialog(self.projects, None, q.project or "", self)
        self.dialog.save_button.clicked.connect(self._save_dialog)
        self.dialog.open()

    @Slot()
    def edit_selected(self) -> None:
        sel = self.selected()
        if len(sel) != 1:
            return
        self.dialog = LearningDialog(self.projects, sel[0], parent=self)
        self.dialog.save_button.clicked.connect(self._save_dialog)
        self.dialog.open()

    @Slot()
    def _save_dialog(self) -> None:
        dlg = self.dialog
        assert dlg is not None
        ws = self.ws
        rule, story, domain, tags, scope = (
            dlg.rule.toPlainText(),
            dlg.story.text(),
            dlg.domain.text(),
            dlg.tags.text(),
            dlg.scope.currentData(),
        )
        if dlg.learning is None:
            project = dlg.chosen_project()

            def work() -> LearningInfo:
                return ws.learnings.add(
                    rule, project=project or None, story=story, domain=domain, tags=tags, scope=scope
                )
        else:
            lid = dlg.learning.id

            def work() -> LearningInfo:
                return ws.learnings.edit(lid, rule=rule, story=story, domain=domain, tags=tags, scope=scope)

        def done(info: LearningInfo) -> None:
            dlg.accept()
            self._changed(self.tr("Saved learning {id}.").format(id=info.id))

        run_task(work, name=self.tr("Saving learning"), on_result=done, on_error=dlg.message.show_error)

    def set_status(self, status: str, *, loaded: bool = False) -> None:
        if not loaded:  # rows selected but not shown yet (Ctrl+A on 10k) are read first, then archived too
            rows = [i.row() for i in self.table.selectionModel().selectedRows()]
            self.model.load_rows(rows, lambda: self.set_status(status, loaded=True))
            return
        ids = [r.id for r in self.selected() if r.status != status]
        if not ids:
            return
        ws = self.ws
        verb = self.tr("Archived") if status == "archived" else self.tr("Restored")
        run_task(
            lambda: ws.learnings.set_status(ids, status),
            name=self.tr("{verb} learnings").format(verb=verb),
            on_result=lambda infos: self._changed(self.tr("{verb} %n learning(s).", "", len(infos)).format(verb=verb)),
            on_error=self.message.show_error,
        )

    def _file_project(self) -> str:
        q = self.current_query()
        return q.project or ""

    @Slot()
    def import_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Import learnings.md"), str(Path.home()), self.tr("Markdown (*.md);;All files (*)")
        )
        if path:
            self.import_path(Path(path), self._file_project())

    def import_path(self, path: Path, project: str) -> None:
        ws = self.ws

        def done(report: Any) -> None:
            skipped = (
                self.tr("; {n} line(s) between the rules kept as text").format(n=len(report.skipped_lines))
                if report.skipped_lines
                else ""
            )
            self._changed(
                self.tr("Imported {added} learning(s) into {0}, {unchanged} already there{skipped}.").format(
                    project or self.tr("no project"), added=report.added, unchanged=report.unchanged, skipped=skipped
                )
            )

        run_task(
            lambda: ws.learnings.import_file(path, project or None),
            name=self.tr("Importing learnings"),
            on_result=done,
            on_error=self.message.show_error,
        )

    @Slot()
    def export_dialog(self) -> None:
        start = str(self.ws.root / "exports" / "learnings.md")
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export learnings.md"), start, self.tr("Markdown (*.md)"))
        if path:
            self.export_path(Path(path), self._file_project())

    def export_path(self, path: Path, project: str) -> None:
        ws = self.ws
        run_task(
            lambda: ws.learnings.export_file(path, project or None),
            name=self.tr("Exporting learnings"),
            on_result=lambda n: self.message.show_ok(
                self.tr("Wrote {n} learning(s) of {0} to {path}.").format(
                    project or self.tr("no project"), n=n, path=path
                )
            ),
            on_error=self.message.show_error,
        )
