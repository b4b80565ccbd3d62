"""Facts review: the keyboard-first queue of candidate facts (seed 003, issue 11).

A approve · R reject (type the reason, Enter) · E edit (statement, scope, type, confidence) ·
O the quote in its document (again: the next provenance) · J / ↓ next · K / ↑ previous ·
Ctrl+Z undo the last decision in place · Shift+A approve every candidate of the filter ·
Ctrl+N add a fact by hand · ? the cheat-sheet (F1: the app's).

The queue is the shared `ui.review_queue.ReviewQueue`; the list is a paged model over
`ws.facts.list` (filters by project, status, type, document, confidence band and scope), so a
queue of 10k facts costs the GUI thread one page. Every decision is a job calling `ws.facts`
(approve, reject, reopen, edit, add, approve_many), each a signed audit event; the change feed
brings the new state back. Extraction runs as a job with progress and Cancel in the status bar,
and says clearly why it cannot run when no model is configured.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, replace
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, Slot
from PySide6.QtGui import QKeySequence, QShortcut, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from lorekeeper.facts.model import QUESTIONS, TYPES, WEIGHTS, FactInfo, quote_span
from lorekeeper.ui.i18n import QT_TRANSLATE_NOOP, fmt_datetime, lformat, tr_const
from lorekeeper.ui.models.facts import BANDS, SCOPED, UNIVERSAL, FactQuery, FactsModel, band_of
from lorekeeper.ui.models.paged import setup_sorting
from lorekeeper.ui.panels.base import AppContext, FactQueuePanel
from lorekeeper.ui.review_notes import QueueNotes
from lorekeeper.ui.review_queue import BULK, BULK_REJECT, UNDO, Decision, QueueActions, ReviewQueue
from lorekeeper.ui.saved_views import SavedViews, saved_view_note
from lorekeeper.ui.theme import color
from lorekeeper.ui.widgets import Debouncer, FlowLayout, label, mono_font
from lorekeeper.ui.workers import run_task

STATUSES = (
    (QT_TRANSLATE_NOOP("facts", "Candidates"), "candidate"),
    (QT_TRANSLATE_NOOP("facts", "Approved"), "approved"),
    (QT_TRANSLATE_NOOP("facts", "Rejected"), "rejected"),
    (QT_TRANSLATE_NOOP("facts", "Conflicting"), "conflicting"),
    (QT_TRANSLATE_NOOP("facts", "All"), ""),
)


@dataclass(frozen=True)
class FilterOptions:
    """What the filter boxes offer (loaded in a worker)."""

    projects: list[str]
    documents: list[tuple[str, str]]  # (id, origin)
    globs: list[str]
    counts: dict[str, int]


def load_options(service: Any) -> FilterOptions:
    facts = service.list()
    globs = sorted({g for f in facts for g in f.scope})
    counts = dict.fromkeys(("candidate", "approved", "rejected", "conflicting"), 0)
    for f in facts:
        counts[f.status] = counts.get(f.status, 0) + 1
    docs = [(d.id, f"{d.project}: {d.origin}") for d in service.documents()]
    return FilterOptions(service.projects(), docs, globs, counts)


def fact_html(f: FactInfo) -> str:
    e = html.escape
    scope = (
        ", ".join(f"<code>{e(g)}</code>" for g in f.scope)
        if f.scope
        else QCoreApplication.translate("facts", "everywhere (no scope)")
    )
    status = {"approved": "pass", "rejected": "fail", "conflicting": "trigger"}.get(f.status, "info")
    parts = [
        QCoreApplication.translate("facts", "<p style='font-size:13pt; font-weight:600'>{0}</p>").format(
            e(f.statement)
        ),
        QCoreApplication.translate("facts", "<table cellspacing='0' cellpadding='2'>"),
        lformat(
            QCoreApplication.translate(
                "facts",
                "<tr><td><b>Type</b></td><td>{0} <span style='color:{1}'>— {2} (weight {3:.2f})</span></td></tr>",
            ),
            e(f.type),
            color("muted").name(),
            e(QUESTIONS.get(f.type, "")),
            WEIGHTS.get(f.type, 0),
        ),
        lformat(
            QCoreApplication.translate(
                "facts",
                "<tr><td><b>Confidence</b></td><td>{confidence:.2f} ({0}) · corroborated by {corroboration} document{1} · pack score {score:.3f}</td></tr>",
            ),
            band_of(f.confidence),
            "s" if f.corroboration != 1 else "",
            confidence=f.confidence,
            corroboration=f.corroboration,
            score=f.score,
        ),
        "<tr><td><b>" + QCoreApplication.translate("facts", "Scope") + f"</b></td><td>{scope}</td></tr>",
        "<tr><td><b>"
        + QCoreApplication.translate("facts", "Tags")
        + f"</b></td><td>{e(', '.join(f.tags)) if f.tags else '—'}</td></tr>",
        QCoreApplication.translate(
            "facts", "<tr><td><b>Status</b></td><td><span style='color:{0}; font-weight:600'>{1}</span>"
        ).format(color(status).name(), e(f.status))
        + (
            QCoreApplication.translate("facts", " by {0} · {1}").format(e(f.decided_by), e(fmt_datetime(f.decided_at)))
            if f.decided_by
            else ""
        )
        + (f" — {e(f.decision_reason)}" if f.decision_reason else "")
        + (
            QCoreApplication.translate("facts", " · in conflict #{conflict} (Conflicts panel)").format(
                conflict=f.conflict
            )
            if f.conflict
            else ""
        )
        + "</td></tr>",
        "<tr><td><b>"
        + QCoreApplication.translate("facts", "Id")
        + f"</b></td><td><code>{e(f.id)}</code> · {e(f.source or QCoreApplication.translate('facts', 'extracted'))}</td></tr>",
        "</table>",
    ]
    if f.flag:
        parts.append(
            QCoreApplication.translate("facts", "<p style='color:{0}'>⚑ {1}</p>").format(
                color("fail").name(), e(f.flag)
            )
        )
    if f.detail:
        parts.append(f"<p><b>Detail</b><br>{e(f.detail)}</p>")
    parts.append(
        QCoreApplication.translate(
            "facts", "<p><b>Provenance</b> ({n}) — press <b>O</b> to see the quote in its document</p>"
        ).format(n=len(f.provenance))
    )
    for i, p in enumerate(f.provenance, 1):
        parts.append(
            QCoreApplication.translate(
                "facts", "<p style='margin-left:8px'>{i}. <b>{0}</b><br><i>“{1}”</i></p>"
            ).format(e(p.origin or p.document_id), e(p.quote), i=i)
        )
    return "".join(parts)


class FactEditor(QFrame):
    """The inline editor of a fact: statement, scope, type, confidence (Enter saves, Esc cancels)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("factEditor")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.statement = QLineEdit()
        self.type_combo = QComboBox()
        for t in TYPES:
            self.type_combo.addItem(t, t)
        self.scope = QLineEdit()
        self.scope.setPlaceholderText(
            self.tr("globs, comma-separated (empty: everywhere), e.g. db/migration/**, *.sql")
        )
        self.confidence = QDoubleSpinBox()
        self.confidence.setRange(0.05, 1.0)
        self.confidence.setSingleStep(0.05)
        self.confidence.setDecimals(2)
        self.save_button = QPushButton(self.tr("Save (Enter)"))
        self.cancel_button = QPushButton(self.tr("Cancel (Esc)"))
        form = QFormLayout()
        form.addRow(self.tr("Statement"), self.statement)
        row = QHBoxLayout()
        row.addWidget(self.type_combo)
        row.addWidget(QLabel(self.tr("Confidence")))
        row.addWidget(self.confidence)
        row.addStretch(1)
        form.addRow(self.tr("Type"), row)
        form.addRow(self.tr("Scope"), self.scope)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.save_button)
        buttons.addWidget(self.cancel_button)
        lay = QVBoxLayout(self)
        lay.addWidget(label(self.tr("Edit the fact"), "sectionTitle"))
        lay.addLayout(form)
        lay.addLayout(buttons)
        self.fact_id = ""
        self.hide()

    def open_for(self, f: FactInfo) -> None:
        self.fact_id = f.id
        self.statement.setText(f.statement)
        self.type_combo.setCurrentIndex(max(0, self.type_combo.findData(f.type)))
        self.scope.setText(", ".join(f.scope))
        self.confidence.setValue(f.confidence)
        self.show()
        self.statement.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.statement.selectAll()

    def values(self) -> dict[str, Any]:
        return {
            "statement": self.statement.text(),
            "type": self.type_combo.currentData(),
            "scope": [g.strip() for g in self.scope.text().split(",") if g.strip()],
            "confidence": round(self.confidence.value(), 2),
        }


class AddFactForm(QFrame):
    """A fact written by hand: project, type, statement, the document and a verbatim quote of it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("addFactForm")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.project = QComboBox()
        self.project.setEditable(True)
        self.type_combo = QComboBox()
        for t in TYPES:
            self.type_combo.addItem(t, t)
        self.type_combo.setCurrentIndex(TYPES.index("convention"))
        self.statement = QLineEdit()
        self.statement.setPlaceholderText(self.tr("One imperative, self-contained sentence"))
        self.document = QComboBox()
        self.document.setEditable(True)
        edit = self.document.lineEdit()
        if edit is not None:
            edit.setPlaceholderText(self.tr("an ingested document, or a file path"))
        self.browse_button = QPushButton(self.tr("Browse…"))
        self.quote = QPlainTextEdit()
        self.quote.setPlaceholderText(self.tr("The verbatim quote of the document that supports the fact"))
        self.quote.setTabChangesFocus(True)
        self.quote.setFixedHeight(60)
        self.scope = QLineEdit()
        self.scope.setPlaceholderText(self.tr("globs, comma-separated (empty: everywhere)"))
        self.confidence = QDoubleSpinBox()
        self.confidence.setRange(0.05, 1.0)
        self.confidence.setSingleStep(0.05)
        self.confidence.setDecimals(2)
        self.confidence.setValue(0.9)
        self.add_button = QPushButton(self.tr("Add fact (Ctrl+Enter)"))
        self.cancel_button = QPushButton(self.tr("Cancel (Esc)"))
        form = QFormLayout()
        row = QHBoxLayout()
        row.addWidget(self.project, 1)
        row.addWidget(QLabel(self.tr("Type")))
        row.addWidget(self.type_combo)
        row.addWidget(QLabel(self.tr("Confidence")))
        row.addWidget(self.confidence)
        form.addRow(self.tr("Project"), row)
        form.addRow(self.tr("Statement"), self.statement)
        doc = QHBoxLayout()
        doc.addWidget(self.document, 1)
        doc.addWidget(self.browse_button)
        form.addRow(self.tr("Document"), doc)
        form.addRow(self.tr("Quote"), self.quote)
        form.addRow(self.tr("Scope"), self.scope)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.cancel_button)
        lay = QVBoxLayout(self)
        lay.addWidget(label(self.tr("Add a fact by hand"), "sectionTitle"))
        lay.addLayout(form)
        lay.addLayout(buttons)
        self.browse_button.clicked.connect(self._browse)
        self.hide()

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Document of the fact"))
        if path:
            self.document.setEditText(path)

    def set_options(self, projects: list[str], documents: list[tuple[str, str]]) -> None:
        text = self.project.currentText()
        self.project.clear()
        self.project.addItems(projects)
        self.project.setEditText(text or (projects[0] if projects else ""))
        doc_text = self.document.currentText()
        self.document.clear()
        for doc_id, name in documents:
            self.document.addItem(name, doc_id)
        self.document.setEditText(doc_text)

    def document_ref(self) -> str:
        """The chosen document's id, or the typed path."""
        text = self.document.currentText().strip()
        i = self.document.findText(text)
        return str(self.document.itemData(i)) if i >= 0 else text

    def values(self) -> dict[str, Any]:
        return {
            "project": self.project.currentText().strip(),
            "type": self.type_combo.currentData(),
            "statement": self.statement.text(),
            "document": self.document_ref(),
            "quote": self.quote.toPlainText(),
            "scope": [g.strip() for g in self.scope.text().split(",") if g.strip()],
            "confidence": round(self.confidence.value(), 2),
        }

    def clear_fact(self) -> None:
        self.statement.clear()
        self.quote.clear()
        self.scope.clear()


class DocumentView(QFrame):
    """A document with a quote selected, highlighted and scrolled into view."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = label("", "sectionTitle")
        self.hint = label("", "hintText")
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setFont(mono_font())
        self.text.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        head = QHBoxLayout()
        head.addWidget(self.title)
        head.addStretch(1)
        head.addWidget(self.hint)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 4, 0, 0)
        lay.addLayout(head)
        lay.addWidget(self.text, 1)
        self.span: tuple[int, int] | None = None
        self.hide()

    def show_quote(self, origin: str, text: str, quote: str, position: str) -> None:
        self.title.setText(f"{origin}")
        self.text.setPlainText(text)
        self.span = quote_span(quote, text)
        if self.span is None:
            self.hint.setText(self.tr("{position} · the quote is no longer in this document").format(position=position))
            self.text.setExtraSelections([])
        else:
            start, end = self.span
            cursor = QTextCursor(self.text.document())
            cursor.setPosition(start)
            cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
            sel = QTextEdit.ExtraSelection()
            fmt = QTextCharFormat()
            fmt.setBackground(color("hl_trigger"))
            sel.format = fmt
            sel.cursor = cursor
            self.text.setExtraSelections([sel])
            self.text.setTextCursor(cursor)  # the quote is selected (copy it with Ctrl+C)
            self.text.centerCursor()
            line = text.count("\n", 0, start) + 1
            self.hint.setText(
                self.tr("{position} · line {line} · O: next provenance · Esc: close").format(
                    position=position, line=line
                )
            )
        self.show()

    def selected_text(self) -> str:
        return self.text.textCursor().selectedText().replace("\u2029", "\n")


class FactsPanel(FactQueuePanel):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self._quote_at = -1  # which provenance the document view shows
        self._options: FilterOptions | None = None
        self._options_later = Debouncer(400, self._load_options, self)

        # ------------------------------------------------------------ filters
        self.status_combo = QComboBox()
        for text, value in STATUSES:
            self.status_combo.addItem(tr_const("facts", text), value)
        self.project_combo = QComboBox()
        self.project_combo.addItem(self.tr("All projects"), "")
        self.type_combo = QComboBox()
        self.type_combo.addItem(self.tr("All types"), "")
        for t in TYPES:
            self.type_combo.addItem(t, t)
        self.band_combo = QComboBox()
        for text, band in BANDS:
            self.band_combo.addItem(tr_const("facts", text), band)
        self.document_combo = QComboBox()
        self.document_combo.addItem(self.tr("All documents"), "")
        self.scope_combo = QComboBox()
        self.scope_combo.addItem(self.tr("Any scope"), "")
        self.scope_combo.addItem(self.tr("Everywhere (no scope)"), UNIVERSAL)
        self.scope_combo.addItem(self.tr("Scoped"), SCOPED)
        self.filters = (
            self.status_combo,
            self.project_combo,
            self.type_combo,
            self.band_combo,
            self.document_combo,
            self.scope_combo,
        )
        self.add_button = QPushButton(self.tr("Add fact… (Ctrl+N)"))
        self.extract_button = QPushButton(self.tr("Extract"))
        self.extract_button.setToolTip(
            self.tr("Extract facts from the documents not extracted yet, with the configured model")
        )
        for w in (*self.filters, self.add_button, self.extract_button):
            w.setFocusPolicy(Qt.FocusPolicy.NoFocus if isinstance(w, QPushButton) else Qt.FocusPolicy.ClickFocus)
        for combo in (self.project_combo, self.document_combo, self.scope_combo):
            combo.setMinimumContentsLength(12)  # long names (documents, globs) elide instead of widening the window
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        filter_bar = QWidget()
        top = FlowLayout(filter_bar)
        for w in self.filters:
            top.addWidget(w)

        # ------------------------------------------------------------ the queue
        self.model = FactsModel(lambda: self.ws.facts, self)
        facts = self.ws.facts
        self.queue = queue = ReviewQueue(
            self.model,
            QueueActions(
                approve=lambda f: facts.approve(f.id),
                reject=lambda f, why: facts.reject(f.id, why=why),
                undo=self._undo_decision,
                bulk_approve=lambda ids: facts.approve_many(
                    ids, why=self.tr("bulk approval by filter in the review queue")
                ),
                approve_many=lambda items: facts.approve_many(
                    [f.id for f in items], why=self.tr("bulk approval of a selection in the review queue")
                ),
                reject_many=lambda items, why: facts.reject_many([f.id for f in items], why=why),
                bulk_ids=self._bulk_ids,
                bulk_text=self._bulk_text,
                edit=self.start_edit,
                is_open=lambda f: f.status == "candidate",
            ),
            host=self,
            noun=self.tr("fact"),
            bulk_in_bar=False,
        )
        self.counts_label = label("", "hintText")
        self.counts_label.setMinimumHeight(self.status_combo.sizeHint().height())
        top.addWidget(queue.bulk_button)
        top.addWidget(self.counts_label)
        queue.add_shortcut(
            ("O",), self.tr("Show the quote in its document (again: the next provenance)"), self.show_quote
        )
        queue.add_shortcut(
            ("Ctrl+N",), self.tr("Add a fact by hand (its document and a verbatim quote)"), self.start_add
        )
        queue.add_shortcut(("F5",), self.tr("Refresh"), self.refresh)
        queue.on_escape = self._escape
        self.notes = QueueNotes(queue, "fact", lambda: self.ws, lambda _ids: self._filter_changed(), self)
        top.addWidget(self.notes.mine_box)
        self.views = SavedViews("facts", self.filters, [self.notes.mine_box], host=self)
        self.views.applied.connect(lambda _n: saved_view_note(self.views, queue.message))
        top.addWidget(self.views)
        queue.current_changed.connect(self._show_fact)
        queue.decided.connect(self._decided)
        self.quote_button = QPushButton(self.tr("Quote (O)"))
        self.quote_button.setToolTip(
            self.tr("Show the quote highlighted in its document (O again: the next provenance)")
        )
        queue.add_action_button(self.quote_button)
        self.quote_button.clicked.connect(self.show_quote)
        self.table, self.message = queue.table, queue.message
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        hh.setSectionResizeMode(FactsModel.COL_STATEMENT, QHeaderView.ResizeMode.Stretch)
        for col, width in ((0, 86), (2, 48), (3, 46), (4, 92), (5, 74)):
            self.table.setColumnWidth(col, width)
        setup_sorting(self.table, self.model)  # a header click orders the whole queue (Conf.: the fragile first)
        queue.set_empty_text("")

        # ------------------------------------------------------------ the detail
        self.card = QLabel()
        self.card.setObjectName("factCard")
        self.card.setWordWrap(True)
        self.card.setTextFormat(Qt.TextFormat.RichText)
        self.card.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.card.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        card_scroll = QScrollArea()
        card_scroll.setWidgetResizable(True)
        card_scroll.setFrameShape(QFrame.Shape.NoFrame)
        card_box = QWidget()
        cb = QVBoxLayout(card_box)
        cb.setContentsMargins(0, 0, 0, 0)
        cb.addWidget(self.card)
        cb.addWidget(self.notes.history_label)  # the fact's assignment and comments
        cb.addStretch(1)
        card_scroll.setWidget(card_box)
        card_scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.editor = FactEditor()
        self.editor.save_button.clicked.connect(self.save_edit)
        self.editor.cancel_button.clicked.connect(self.cancel_edit)
        self.add_form = AddFactForm()
        self.add_form.add_button.clicked.connect(self.confirm_add)
        self.add_form.cancel_button.clicked.connect(self.cancel_add)
        self.doc_view = DocumentView()
        for keys, slot, where in (
            (("Return", "Enter"), self.save_edit, self.editor),
            (("Ctrl+Return", "Ctrl+Enter"), self.confirm_add, self.add_form),
        ):
            for k in keys:
                sc = QShortcut(QKeySequence(k), where)
                sc.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
                sc.activated.connect(slot)

        self.detail_split = QSplitter(Qt.Orientation.Vertical)
        self.detail_split.addWidget(card_scroll)
        self.detail_split.addWidget(self.doc_view)
        self.detail_split.setSizes([300, 300])

        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(queue)
        split.addWidget(self.detail_split)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([640, 480])

        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 16, 20, 12)
        head = QHBoxLayout()
        head.addWidget(label(self.tr("Facts review"), "panelTitle"))
        head.addStretch(1)
        head.addWidget(self.add_button)
        head.addWidget(self.extract_button)
        layout.addLayout(head)
        layout.addWidget(
            label(
                self.tr(
                    "Typed, scoped, sourced facts from your documentation: approve what a newcomer would need, reject the "
                    "rest with a reason. Press O for the quote in its document, ? for the keyboard shortcuts."
                ),
                "panelSubtitle",
                wrap=True,
            )
        )
        layout.addWidget(filter_bar)
        layout.addWidget(queue.action_bar)
        layout.addWidget(queue.reject_bar)
        layout.addWidget(self.editor)
        layout.addWidget(self.add_form)
        layout.addWidget(queue.cheatsheet)
        layout.addWidget(split, 1)
        layout.addWidget(self.message)

        for combo in self.filters:
            combo.currentIndexChanged.connect(self._filter_changed)
        self.add_button.clicked.connect(self.start_add)
        self.extract_button.clicked.connect(self.run_extract)
        ctx.bus.changed.connect(self._on_bus)
        self._show_fact(None)
        self.refresh()

    # ------------------------------------------------------------ loading
    @Slot()
    def refresh(self) -> None:
        self.reload()
        self._load_options()

    # showEvent and showcase: FactQueuePanel
    @Slot(str)
    def _on_bus(self, topic: str) -> None:
        super()._on_bus(topic)
        if topic in ("facts", "fact_conflicts"):
            self._options_later.poke()  # the counts and filter choices: once the decisions pause

    def query(self) -> FactQuery:
        return FactQuery(
            project=self.project_combo.currentData() or None,
            status=self.status_combo.currentData() or None,
            type=self.type_combo.currentData() or None,
            document=self.document_combo.currentData() or None,
            band=tuple(self.band_combo.currentData()),
            scope=self.scope_combo.currentData() or None,
            only=frozenset(self.notes.mine_ids) if self.notes.mine_ids is not None else None,
        )

    @Slot()
    def _filter_changed(self) -> None:
        self.queue.reset_progress()
        self.reload()
        self.table.setFocus()

    @Slot()
    def reload(self) -> None:
        q = self.query()
        self.table.setColumnHidden(FactsModel.COL_STATUS, q.status is not None)  # one status: the column says nothing
        self.queue.set_empty_text(self._empty_text(q))
        self.model.set_query(q)

    def _empty_text(self, q: FactQuery) -> str:
        if q == FactQuery(project=q.project):
            return self.tr(
                "No candidate fact to review. Ingest documentation with `lorekeeper facts ingest PATH`, then Extract "
                "(a model is needed), or add a fact by hand (Ctrl+N)."
            )
        return self.tr("No fact matches these filters.")

    def _load_options(self) -> None:
        run_task(
            load_options,
            self.ws.facts,
            name=self.tr("Loading fact filters"),
            key=(self, "options"),
            visible=False,
            on_result=self._set_options,
            on_error=self.message.show_error,
        )

    def _set_options(self, opts: FilterOptions) -> None:
        self._options = opts
        c = opts.counts
        self.counts_label.setText(
            self.tr(
                "{candidate} candidate · {approved} approved · {rejected} rejected · {conflicting} conflicting"
            ).format(
                candidate=c["candidate"], approved=c["approved"], rejected=c["rejected"], conflicting=c["conflicting"]
            )
        )
        self._refill(self.project_combo, self.tr("All projects"), [(p, p) for p in opts.projects])
        self._refill(self.document_combo, self.tr("All documents"), opts.documents)
        fixed = [(self.tr("Everywhere (no scope)"), UNIVERSAL), (self.tr("Scoped"), SCOPED)]
        self._refill(self.scope_combo, self.tr("Any scope"), [(v, t) for t, v in fixed] + [(g, g) for g in opts.globs])
        self.add_form.set_options(opts.projects, opts.documents)

    @staticmethod
    def _refill(combo: QComboBox, first: str, items: list[tuple[str, str]]) -> None:
        """Replace a filter's choices, keeping the chosen one (no reload when nothing changed)."""
        wanted = [("", first), *((v, t) for v, t in items)]
        have = [(combo.itemData(i), combo.itemText(i)) for i in range(combo.count())]
        if have == wanted:
            return
        current = combo.currentData()
        combo.blockSignals(True)
        combo.clear()
        for value, text in wanted:
            combo.addItem(text, value)
        combo.setCurrentIndex(max(0, combo.findData(current)))
        combo.blockSignals(False)
        if combo.currentData() != current:
            combo.currentIndexChanged.emit(combo.currentIndex())

    # ------------------------------------------------------------ the current fact
    def current(self) -> FactInfo | None:
        cur: FactInfo | None = self.queue.current()
        return cur

    def _show_fact(self, f: FactInfo | None) -> None:
        self.quote_button.setEnabled(f is not None and bool(f.provenance))
        if self.editor.isVisible() and (f is None or f.id != self.editor.fact_id):
            self.editor.hide()
        if f is None:
            self.card.setText(
                self.tr("<p>Select a fact to see its statement, scope, confidence and where it comes from.</p>")
                if self.model.rowCount()
                else ""
            )
            self.doc_view.hide()
            return
        self.card.setText(fact_html(f))
        if self.doc_view.isVisible():
            self._quote_at = -1
            self.show_quote()  # the open document follows the queue

    @Slot()
    def show_quote(self) -> None:
        """The current fact's quote in its document (the next provenance on each press)."""
        f = self.current()
        if f is None or not f.provenance:
            return
        self._quote_at = (self._quote_at + 1) % len(f.provenance)
        prov = f.provenance[self._quote_at]
        position = self.tr("quote {0} of {n}").format(self._quote_at + 1, n=len(f.provenance))
        fid = f.id
        run_task(
            self.ws.facts.document,
            prov.document_id,
            name=self.tr("Opening the document"),
            key=(self, "document"),
            visible=False,
            on_result=lambda doc: self._show_document(fid, doc, prov.quote, position),
            on_error=self.message.show_error,
        )

    def _show_document(self, fid: str, doc: Any, quote: str, position: str) -> None:
        cur = self.current()
        if cur is None or cur.id != fid:
            return
        self.doc_view.show_quote(doc.origin, doc.text, quote, position)
        sizes = self.detail_split.sizes()
        if sizes[1] < 120:
            total = sum(sizes)
            self.detail_split.setSizes([total * 2 // 5, total - total * 2 // 5])

    def _escape(self) -> bool:
        if self.editor.isVisible():
            self.cancel_edit()
            return True
        if self.add_form.isVisible():
            self.cancel_add()
            return True
        if self.doc_view.isVisible():
            self.doc_view.hide()
            self._quote_at = -1
            self.table.setFocus()
            return True
        return False

    # ------------------------------------------------------------ decisions
    def _bulk_ids(self) -> list[str]:
        return [f.id for f in self.model.snapshot if f.status == "candidate"]

    @staticmethod
    def _bulk_text(n: int) -> str:
        return QCoreApplication.translate(
            "FactsPanel", "Approve {n} candidate fact(s) matching the current filter? (Ctrl+Z undoes it)"
        ).format(n=n)

    def _undo_decision(self, decision: Decision) -> Any:
        out = None
        facts: list[Any] = []
        for fid in decision.ids:
            out = self.ws.facts.reopen(str(fid), why=self.tr("undo in the review queue"))
            facts.extend(getattr(out, "facts", []) or [])
        if out is not None and len(decision.ids) > 1:
            out = replace(out, facts=facts)  # the message counts every fact put back
        return out

    def _decided(self, kind: str, result: Any) -> None:
        facts = list(getattr(result, "facts", []) or [])
        if kind == BULK:
            text = self.tr("Approved %n fact(s): Ctrl+Z puts them back in the queue", "", len(facts))
        elif kind == BULK_REJECT:
            text = self.tr("Rejected %n fact(s): Ctrl+Z puts them back in the queue", "", len(facts))
        elif kind == UNDO and len(facts) > 1:
            text = self.tr("Back in the queue: %n fact(s)", "", len(facts))
        elif not facts:
            text = self.tr("Done.")
        else:
            f = facts[0]
            what = {UNDO: "Back in the queue"}.get(kind, f.status.capitalize())
            text = f"{what}: {f.statement}" + (f" — {f.decision_reason}" if f.status == "rejected" else "")
        self.message.show_ok(text)
        self.ctx.status(text)

    # ------------------------------------------------------------ edit
    def start_edit(self, f: FactInfo) -> None:
        self.add_form.hide()
        self.editor.open_for(f)

    @Slot()
    def save_edit(self) -> None:
        if not self.editor.isVisible() or self.queue.busy:
            return
        fid, values = self.editor.fact_id, self.editor.values()
        facts = self.ws.facts

        def done(result: Any) -> None:
            self.editor.hide()
            new = result.facts[0] if getattr(result, "facts", None) else None
            if new is not None:
                self.queue.keep(new.id)
                self.message.show_ok(
                    self.tr("Edited: {statement}").format(statement=new.statement)
                    + (self.tr(" (now {id})").format(id=new.id) if new.id != fid else "")
                )
            self.table.setFocus()

        run_task(
            lambda: facts.edit(fid, **values, why=self.tr("edited in the review queue")),
            name=self.tr("Edit fact"),
            on_result=done,
            on_error=self._edit_failed,
        )

    def _edit_failed(self, exc: BaseException) -> None:
        self.message.show_error(exc)
        self.editor.statement.setFocus()

    @Slot()
    def cancel_edit(self) -> None:
        self.editor.hide()
        self.table.setFocus()

    # ------------------------------------------------------------ add
    @Slot()
    def start_add(self) -> None:
        self.editor.hide()
        cur = self.current()
        if cur is not None and not self.add_form.project.currentText():
            self.add_form.project.setEditText(cur.project)
        self.add_form.show()
        self.add_form.statement.setFocus(Qt.FocusReason.ShortcutFocusReason)

    @Slot()
    def confirm_add(self) -> None:
        if not self.add_form.isVisible():
            return
        v = self.add_form.values()
        facts = self.ws.facts

        def add() -> Any:
            return facts.add(
                v["project"],
                v["type"],
                v["statement"],
                v["document"],
                v["quote"],
                scope=v["scope"],
                confidence=v["confidence"],
            )

        def done(result: Any) -> None:
            f = result.facts[0]
            merged = squash_eq(f.statement, v["statement"])
            self.add_form.clear_fact()
            self.add_form.hide()
            self.queue.keep(f.id)
            self.message.show_ok(
                self.tr("Added {id}: {statement}").format(id=f.id, statement=f.statement)
                if merged
                else self.tr("Merged into the older fact {id} (lexical consolidation): {statement}").format(
                    id=f.id, statement=f.statement
                )
            )
            self.table.setFocus()

        run_task(add, name=self.tr("Add fact"), on_result=done, on_error=self._add_failed)

    def _add_failed(self, exc: BaseException) -> None:
        self.message.show_error(exc)
        self.add_form.statement.setFocus()

    @Slot()
    def cancel_add(self) -> None:
        self.add_form.hide()
        self.table.setFocus()

    # ------------------------------------------------------------ extract
    @Slot()
    def run_extract(self) -> None:
        project = self.project_combo.currentData() or None
        facts = self.ws.facts
        self.extract_button.setEnabled(False)
        self.message.clear_message()

        def done(report: Any) -> None:
            d = report.to_dict() if hasattr(report, "to_dict") else {}
            kept = d.get("kept", d.get("facts", []))
            dropped = d.get("dropped", [])
            n_kept = len(kept) if isinstance(kept, list) else kept
            n_dropped = len(dropped) if isinstance(dropped, list) else dropped
            self.message.show_ok(
                self.tr("Extraction done: {n_kept} fact(s) kept, {n_dropped} dropped (see the run report).").format(
                    n_kept=n_kept, n_dropped=n_dropped
                )
            )

        def failed(exc: BaseException) -> None:
            if getattr(exc, "code", "") == "ERR_LLM_UNAVAILABLE":
                self.message.show_error(
                    self.tr(
                        "{0}: extraction needs a model — {1}. Configure one in the model settings (or `lorekeeper llm`), or add facts by hand (Ctrl+N)."
                    ).format(getattr(exc, "code", ""), getattr(exc, "message", exc))
                )
            else:
                self.message.show_error(exc)

        run_task(
            lambda cancel: facts.extract(project, cancel=cancel),  # the status bar's Cancel stops it
            name=self.tr("Extracting facts"),
            on_result=done,
            on_error=failed,
            on_cancelled=lambda: self.message.show_ok(self.tr("Extraction cancelled: nothing was stored.")),
            on_finished=lambda: self.extract_button.setEnabled(True),
        )


def squash_eq(a: str, b: str) -> bool:
    return " ".join(a.split()) == " ".join(b.split())
