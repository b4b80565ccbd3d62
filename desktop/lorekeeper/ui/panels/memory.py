"""Memory: the corpora and their indexes (health, Rebuild with progress and Cancel), hybrid search
with filters, the injection preview of a story, the clarification capture with its validation
step, and the CS-1..CS-4 measures. Everything runs through `ws.memory`, `ws.stories`,
`ws.clarifications` and `ws.measures` in jobs; the GUI thread only paints.

Clarify: the four answers stay in this window's memory; Summarise sends them to the sanitizer
process and clears the fields; Validate (Ctrl+Return) writes the summary, Reject (Esc) drops it.
"""

from __future__ import annotations

from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, Qt, Slot
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from lorekeeper.memory.layout import CORPORA
from lorekeeper.memory.measure import METRICS, TITLES, WINDOWS
from lorekeeper.ui.charts import ThemedPlot
from lorekeeper.ui.i18n import QT_TRANSLATE_NOOP, tr_const
from lorekeeper.ui.models.base import RowsModel
from lorekeeper.ui.panels.base import AppContext, Panel
from lorekeeper.ui.theme import color
from lorekeeper.ui.widgets import MessageBox, label, mono_font, search_box, setup_table
from lorekeeper.ui.workers import HoldGate, run_task

SECTIONS = (
    ("problem", QT_TRANSLATE_NOOP("memory", "Problem / user need")),
    ("criteria", QT_TRANSLATE_NOOP("memory", "Success criteria")),
    ("constraints", QT_TRANSLATE_NOOP("memory", "Known constraints")),
    ("priorities", QT_TRANSLATE_NOOP("memory", "Priorities (must-have / nice-to-have)")),
)


class CorporaModel(RowsModel[dict[str, Any]]):
    HEADERS = (
        QT_TRANSLATE_NOOP("CorporaModel", "Corpus"),
        QT_TRANSLATE_NOOP("CorporaModel", "Documents"),
        QT_TRANSLATE_NOOP("CorporaModel", "Indexed"),
        QT_TRANSLATE_NOOP("CorporaModel", "Embedder"),
        QT_TRANSLATE_NOOP("CorporaModel", "Dims"),
        QT_TRANSLATE_NOOP("CorporaModel", "State"),
        QT_TRANSLATE_NOOP("CorporaModel", "Index"),
    )

    def cell(self, item: dict[str, Any], column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            state = (
                QCoreApplication.translate("CorporaModel", "stale: {reason}").format(reason=item["reason"])
                if item["stale"]
                else QCoreApplication.translate("CorporaModel", "up to date")
            )
            # issue 25 d3: the store's shared index (every workspace on it) or this workspace's FAISS files
            where = (
                QCoreApplication.translate("CorporaModel", "the store's, shared (pgvector)")
                if item.get("backend") == "pgvector"
                else QCoreApplication.translate("CorporaModel", "this workspace (FAISS)")
            )
            row = (
                item["corpus"],
                item["documents"],
                item["indexed"],
                item["embedder"],
                item["dimension"],
                state,
                where,
            )
            return row[column]
        if role == Qt.ItemDataRole.ToolTipRole and column == 6 and item.get("backend_note"):
            return str(item["backend_note"])
        if role == Qt.ItemDataRole.ForegroundRole and column == 5:
            return color("fail") if item["stale"] else color("pass")
        return None


class ResultsModel(RowsModel[dict[str, Any]]):
    HEADERS = (
        QT_TRANSLATE_NOOP("ResultsModel", "Score"),
        QT_TRANSLATE_NOOP("ResultsModel", "Title"),
        QT_TRANSLATE_NOOP("ResultsModel", "Id"),
        QT_TRANSLATE_NOOP("ResultsModel", "Details"),
    )

    def cell(self, item: dict[str, Any], column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            details = ", ".join(
                str(item[k]) for k in ("verdict", "impact", "date", "domain", "project", "scope") if item.get(k)
            )
            return (f"{item['score']:.4f}", item["title"], item["id"], details)[column]
        return None


class MemoryPanel(Panel):
    panel_id = "memory"

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.draft: Any = None
        self.message = MessageBox()

        # corpora and index health
        self.corpora = CorporaModel(self)
        self.corpora_view = QTableView()
        self.corpora_view.setModel(self.corpora)
        setup_table(self.corpora_view)
        self.corpora_view.horizontalHeader().setStretchLastSection(True)
        self.corpora_view.setFixedHeight(112)  # three corpora, always visible
        self.rebuild_btn = QPushButton(self.tr("Rebuild indexes"))
        self.rebuild_btn.setToolTip(
            self.tr("Rebuild every corpus's FAISS index from the store (progress and Cancel in the status bar)")
        )
        self.rebuild_btn.clicked.connect(self.rebuild)

        self.tabs = QTabWidget()
        self.tabs.addTab(self._search_tab(), self.tr("Search"))
        self.tabs.addTab(self._preview_tab(), self.tr("Injection preview"))
        self.tabs.addTab(self._clarify_tab(), self.tr("Clarify"))
        self.tabs.addTab(self._measures_tab(), self.tr("Measures"))

        head = QHBoxLayout()
        head.addWidget(label(self.tr("Corpora and indexes"), "sectionTitle"))
        head.addStretch(1)
        head.addWidget(self.rebuild_btn)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 16, 20, 12)
        layout.addWidget(label(self.tr("Memory"), "panelTitle"))
        layout.addWidget(
            label(
                self.tr(
                    "Research notes, validated clarification summaries (never their verbatim) and learnings, indexed "
                    "with FAISS and BM25. Each story starts with exactly 5 learnings + 3 notes + 3 clarifications, "
                    "traced and signed before they are injected."
                ),
                "panelSubtitle",
                wrap=True,
            )
        )
        layout.addLayout(head)
        layout.addWidget(self.corpora_view)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.message)
        ctx.bus.changed.connect(self._on_bus)
        self.refresh()

    # ------------------------------------------------------------------ tabs
    def _search_tab(self) -> QWidget:
        w = QWidget()
        self.query = search_box(
            self.tr("Search the memory…"), self.tr("Search the memory: BM25 and vectors, fused; Enter searches")
        )
        self.query.returnPressed.connect(self.search)
        self.corpus = QComboBox()
        for c in CORPORA:
            self.corpus.addItem(c, c)
        self.impact = QComboBox()
        self.verdict = QComboBox()
        for combo, values in (
            (self.impact, ("fort", "modere", "faible")),
            (self.verdict, ("signal", "bruit", "veille")),
        ):
            combo.addItem("any", "")
            for v in values:
                combo.addItem(v, v)
        self.domain = QLineEdit()
        self.domain.setPlaceholderText("domain")
        self.project = QLineEdit()
        self.project.setPlaceholderText("project")
        go = QPushButton(self.tr("Search"))
        go.clicked.connect(self.search)
        row = QHBoxLayout()
        row.addWidget(self.query, 3)
        for text, widget in (
            (self.tr("Corpus"), self.corpus),
            (self.tr("Impact"), self.impact),
            (self.tr("Verdict"), self.verdict),
        ):
            row.addWidget(QLabel(text))
            row.addWidget(widget)
        row.addWidget(self.domain, 1)
        row.addWidget(self.project, 1)
        row.addWidget(go)
        self.results = ResultsModel(self)
        self.results_view = QTableView()
        self.results_view.setModel(self.results)
        setup_table(self.results_view)
        hh = self.results_view.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        hh.setStretchLastSection(True)
        for col, width in ((0, 70), (1, 380), (2, 240)):
            self.results_view.setColumnWidth(col, width)
        lay = QVBoxLayout(w)
        lay.addLayout(row)
        lay.addWidget(self.results_view, 1)
        return w

    def _preview_tab(self) -> QWidget:
        w = QWidget()
        self.story = QComboBox()
        self.story.setMinimumWidth(160)
        self.story.currentIndexChanged.connect(self.preview)
        self.preview_note = label("", "hintText")
        self.preview_text = QPlainTextEdit()
        self.preview_text.setReadOnly(True)
        self.preview_text.setFont(mono_font())
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("Story:")))
        row.addWidget(self.story)
        row.addWidget(self.preview_note, 1)
        lay = QVBoxLayout(w)
        lay.addLayout(row)
        lay.addWidget(self.preview_text, 1)
        return w

    def _clarify_tab(self) -> QWidget:
        w = QWidget()
        self.c_story = QLineEdit()
        self.c_story.setPlaceholderText(self.tr("PD-42"))
        self.c_domain = QLineEdit()
        self.c_project = QLineEdit()
        self.answers: dict[str, QPlainTextEdit] = {}
        form = QFormLayout()
        ids = QHBoxLayout()
        for text, widget in (
            (self.tr("Story"), self.c_story),
            (self.tr("Domain"), self.c_domain),
            (self.tr("Project"), self.c_project),
        ):
            ids.addWidget(QLabel(text))
            ids.addWidget(widget)
        form.addRow(ids)
        for key, text in SECTIONS:
            box = QPlainTextEdit()
            box.setMaximumHeight(52)
            self.answers[key] = box
            form.addRow(tr_const("memory", text), box)
        self.summarise_btn = QPushButton(self.tr("Summarise (no personal data kept)"))
        self.summarise_btn.clicked.connect(self.summarise)
        self.summary_text = QPlainTextEdit()
        self.summary_text.setReadOnly(True)
        self.summary_text.setPlaceholderText(self.tr("The structured summary appears here for your validation."))
        self.validate_btn = QPushButton(self.tr("Validate  (Ctrl+Return)"))
        self.reject_btn = QPushButton(self.tr("Reject  (Esc)"))
        for b in (self.validate_btn, self.reject_btn):
            b.setEnabled(False)
        self.validate_btn.clicked.connect(self.validate)
        self.reject_btn.clicked.connect(self.reject)
        # a purge run erasing this story (Purge runs panel): Validate waits, saying why (it would leave residue)
        self.hold_label = label("", "hintText", wrap=True)
        self.story_gate = HoldGate(self, self._draft_hold, self._update_validate, self.hold_label)
        QShortcut(QKeySequence("Ctrl+Return"), w, self.validate)
        QShortcut(QKeySequence("Escape"), w, self.reject)
        buttons = QHBoxLayout()
        buttons.addWidget(self.hold_label, 1)
        buttons.addWidget(self.summarise_btn)
        buttons.addStretch(1)
        buttons.addWidget(self.reject_btn)
        buttons.addWidget(self.validate_btn)
        split = QSplitter(Qt.Orientation.Horizontal)
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addLayout(form)
        split.addWidget(left)
        split.addWidget(self.summary_text)
        split.setSizes([560, 440])
        lay = QVBoxLayout(w)
        lay.addWidget(split, 1)
        lay.addLayout(buttons)
        return w

    def _measures_tab(self) -> QWidget:
        w = QWidget()
        self.cs_window = QComboBox()
        for d in WINDOWS:
            self.cs_window.addItem(self.tr("Last {d} days").format(d=d), d)
        self.cs_window.currentIndexChanged.connect(self.measure)
        self.chart = ThemedPlot("share", min_height=160)
        self.chart.plotItem.setYRange(-1, 1, padding=0.05)
        self.chart.getAxis("bottom").setTicks([[(i, m.upper()) for i, m in enumerate(METRICS)]])
        self.measure_text = label("", "hintText", wrap=True)
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("Window:")))
        row.addWidget(self.cs_window)
        row.addStretch(1)
        lay = QVBoxLayout(w)
        lay.addLayout(row)
        lay.addWidget(self.chart, 1)
        lay.addWidget(self.measure_text)
        return w

    # ------------------------------------------------------------------ panel API
    def search_box(self) -> QLineEdit:
        return self.query

    @Slot()
    def refresh(self) -> None:
        ws = self.ws
        run_task(
            lambda: [ws.memory.status(c).to_dict() for c in CORPORA],
            name=self.tr("Memory status"),
            key=(self, "status"),
            visible=False,
            on_result=self.corpora.set_rows,
            on_error=self.message.show_error,
        )
        run_task(
            lambda: [s["id"] for s in ws.stories.stories()],
            name=self.tr("Stories"),
            key=(self, "stories"),
            visible=False,
            on_result=self._on_stories,
            on_error=self.message.show_error,
        )
        self.measure()

    def showcase(self) -> None:
        self.tabs.setCurrentIndex(1)

    @Slot(str)
    def _on_bus(self, topic: str) -> None:
        if topic in ("memory", "learnings"):
            self.refresh()

    def _on_stories(self, ids: list[str]) -> None:
        current = self.story.currentData()
        self.story.blockSignals(True)
        self.story.clear()
        for sid in ids:
            self.story.addItem(sid, sid)
        idx = self.story.findData(current) if current else 0
        self.story.setCurrentIndex(max(idx, 0))
        self.story.blockSignals(False)
        self.preview()

    # ------------------------------------------------------------------ actions
    @Slot()
    def rebuild(self) -> None:
        ws = self.ws
        self.rebuild_btn.setEnabled(False)

        def job(cancel: Any) -> Any:
            return ws.memory.rebuild_job(cancel=cancel)

        run_task(
            job,
            name=self.tr("Rebuilding memory indexes"),
            key=(self, "rebuild"),
            on_result=lambda _r: self.message.show_ok(self.tr("Indexes rebuilt.")),
            on_error=self.message.show_error,
            on_finished=self._rebuilt,
        )

    def _rebuilt(self) -> None:
        self.rebuild_btn.setEnabled(True)
        self.refresh()

    @Slot()
    def search(self) -> None:
        from lorekeeper.memory.indexes import Filters

        ws = self.ws
        query, corpus = self.query.text(), self.corpus.currentData()
        flt = Filters.of(self.impact.currentData(), self.verdict.currentData(), self.domain.text(), self.project.text())
        run_task(
            lambda: [h.to_dict() for h in ws.memory.search(query, corpus, filters=flt, top=20)],
            name=self.tr("Searching the memory"),
            key=(self, "search"),
            visible=False,
            on_result=self.results.set_rows,
            on_error=self.message.show_error,
        )

    @Slot()
    def preview(self) -> None:
        sid = self.story.currentData()
        if not sid:
            self.preview_text.setPlainText("")
            self.preview_note.setText(self.tr("No story yet: `lorekeeper story start STORY --domain D --project P`."))
            return
        ws = self.ws
        run_task(
            lambda: ws.stories.block_for(sid, inject=False),
            name=self.tr("Injection preview"),
            key=(self, "preview"),
            visible=False,
            on_result=self._show_preview,
            on_error=self.message.show_error,
        )

    def _show_preview(self, block: str) -> None:
        self.preview_text.setPlainText(block or self.tr("(no traced injection for this story)"))
        self.preview_note.setText(
            self.tr("The block of the story's latest traced injection, as the agent received it.")
        )

    @Slot()
    def summarise(self) -> None:
        answers = {k: box.toPlainText() for k, box in self.answers.items()}
        for box in self.answers.values():  # the verbatim leaves the window; only the summary comes back
            box.clear()
        sid, domain, project = self.c_story.text().strip(), self.c_domain.text().strip(), self.c_project.text().strip()
        ws = self.ws
        self.summarise_btn.setEnabled(False)
        run_task(
            lambda: ws.clarifications.sanitize(sid, domain, project, answers),
            name=self.tr("Summarising the clarification"),
            key=(self, "sanitize"),
            on_result=self._show_draft,
            on_error=self._draft_failed,
        )

    def _draft_failed(self, exc: BaseException) -> None:
        self.summarise_btn.setEnabled(True)
        self.message.show_error(exc)

    def _show_draft(self, draft: Any) -> None:
        self.draft = draft
        self.summarise_btn.setEnabled(True)
        self.summary_text.setPlainText("\n\n".join(f"{tr_const('memory', t)}\n{draft.summary[k]}" for k, t in SECTIONS))
        self.reject_btn.setEnabled(True)
        self._update_validate()
        self.validate_btn.setFocus()

    @Slot()
    def validate(self) -> None:
        draft = self.draft
        if draft is None:
            return
        if self.story_gate.reason():  # Ctrl+Return while a purge erases the story: said, nothing saved
            self.ctx.status(self.story_gate.reason())
            return
        ws = self.ws
        run_task(
            lambda: ws.clarifications.save(draft),
            name=self.tr("Saving the clarification"),
            on_result=lambda info: self.message.show_ok(
                self.tr("Saved {path} (kept until {retention_until}).").format(
                    path=info.path, retention_until=info.retention_until
                )
            ),
            on_error=self.message.show_error,
            on_finished=self._clear_draft,
        )

    def _draft_hold(self) -> tuple[str, str] | None:
        return ("story", self.draft.story) if self.draft is not None else None

    def _update_validate(self) -> None:
        self.story_gate.enable(self.validate_btn, self.draft is not None)

    @Slot()
    def reject(self) -> None:
        if self.draft is not None:
            self._clear_draft()
            self.message.show_ok(self.tr("Rejected: nothing was kept."))

    def _clear_draft(self) -> None:
        self.draft = None
        self.summary_text.clear()
        self.reject_btn.setEnabled(False)
        self._update_validate()

    @Slot()
    def measure(self) -> None:
        ws, days = self.ws, int(self.cs_window.currentData() or 30)
        run_task(
            lambda: [ws.measures.measure(m, days) for m in METRICS],
            name=self.tr("Memory measures"),
            key=(self, "measures"),
            visible=False,
            on_result=self._show_measures,
            on_error=self.message.show_error,
        )

    def _show_measures(self, rows: list[dict[str, Any]]) -> None:
        self.chart.plotItem.clear()
        values = [r["value"] if r["value"] is not None else 0.0 for r in rows]
        self.chart.plotItem.addItem(
            pg.BarGraphItem(x=list(range(len(rows))), height=values, width=0.6, brush=color("info"))
        )
        self.measure_text.setText(
            "  ·  ".join(
                f"{r['metric'].upper()} {TITLES[r['metric']]}: "
                + ("n/a" if r["value"] is None else f"{r['value']:.2f}")
                for r in rows
            )
        )
