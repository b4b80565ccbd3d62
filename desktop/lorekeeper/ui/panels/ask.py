"""Ask panel (seed 001 "NotebookLM"): a question over the knowledge, answered with numbered
citations to exact passages (document, line range); without a model, the ranked passages."""

from __future__ import annotations

import html

from PySide6.QtCore import QCoreApplication, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from lorekeeper.ask.service import AskResult, Hit
from lorekeeper.ui.i18n import QT_TRANSLATE_NOOP, lformat, tr_const
from lorekeeper.ui.panels.base import AppContext, Panel
from lorekeeper.ui.widgets import EmptyState, MessageBox, label
from lorekeeper.ui.workers import run_task

GLOBAL_SCOPE = QT_TRANSLATE_NOOP("ask", "Global (no project)")
EXAMPLE = "How do we deploy Citadel v2 safely?"
EMPTY = QT_TRANSLATE_NOOP(
    "ask",
    "Ask a question about this workspace's knowledge: skills, learnings, facts and the documents "
    "under sources/ (research notes too) and clarifications/. Answers cite the exact passages they come from.",
)


def passage_html(hit: Hit, cited: bool) -> str:
    p = hit.passage
    head = lformat(
        QCoreApplication.translate(
            "ask",
            "<b>[{n}]</b> <code>{0}</code> lines {start}–{end} <span style='color:gray'>({1}, score {score:.2f})</span>",
        ),
        html.escape(p.document),
        html.escape(p.corpus),
        n=hit.n,
        start=p.start,
        end=p.end,
        score=hit.score,
    ) + (" <b>· cited</b>" if cited else "")
    body = html.escape(p.text).replace("\n", "<br>")
    return QCoreApplication.translate(
        "ask", "<p>{head}<br><span style='font-family:monospace'>{body}</span></p>"
    ).format(head=head, body=body)


class AskPanel(Panel):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.last_result: AskResult | None = None

        title = label(self.tr("Ask"), "panelTitle")
        subtitle = label(
            self.tr(
                "Questions over the knowledge (BM25 over skills, learnings, documents and facts). The configured "
                "model answers from the retrieved passages only and cites them; without one, the passages are ranked."
            ),
            "panelSubtitle",
            wrap=True,
        )
        self.question = QLineEdit()
        self.question.setPlaceholderText(self.tr("Ask a question, e.g. “how do we deploy Citadel?” — Enter asks"))
        self.question.returnPressed.connect(self.ask_now)
        self.ask_button = QPushButton(self.tr("Ask"))
        self.ask_button.setDefault(True)
        self.ask_button.clicked.connect(self.ask_now)
        row = QHBoxLayout()
        row.addWidget(self.question, 1)
        row.addWidget(self.ask_button)

        self.project = QComboBox()
        self.project.setMinimumWidth(200)
        self.use_model = QCheckBox(self.tr("Answer with the model"))
        self.use_model.setChecked(True)
        opts = QHBoxLayout()
        opts.addWidget(QLabel(self.tr("Project:")))
        opts.addWidget(self.project)
        opts.addSpacing(12)
        opts.addWidget(self.use_model)
        opts.addStretch(1)
        self.summary = label("", "hintText")
        opts.addWidget(self.summary)

        self.message = MessageBox()
        self.answer = QTextBrowser()
        self.answer.setOpenExternalLinks(False)
        self.passages = QTextBrowser()
        answer_box = QWidget()
        al = QVBoxLayout(answer_box)
        al.setContentsMargins(0, 0, 0, 0)
        al.addWidget(label(self.tr("Answer"), "sectionTitle"))
        al.addWidget(self.answer, 1)
        passages_box = QWidget()
        pl = QVBoxLayout(passages_box)
        pl.setContentsMargins(0, 0, 0, 0)
        pl.addWidget(label(self.tr("Passages"), "sectionTitle"))
        pl.addWidget(self.passages, 1)
        split = QSplitter()
        split.addWidget(answer_box)
        split.addWidget(passages_box)
        split.setSizes([420, 520])
        self.results = EmptyState(split, tr_const("ask", EMPTY))
        self.results.set_empty(True)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 16, 20, 12)
        layout.addWidget(title)
        layout.addWidget(subtitle)
        layout.addWidget(label(self.tr("Question"), "sectionTitle"))
        layout.addLayout(row)
        layout.addLayout(opts)
        layout.addWidget(self.message)
        layout.addWidget(self.results, 1)

        ctx.bus.skills_changed.connect(self.refresh)
        self.refresh()

    def search_box(self) -> QLineEdit:
        return self.question

    @Slot()
    def refresh(self) -> None:
        run_task(self.ws.skills.projects, name=self.tr("Loading projects"), on_result=self._on_projects, visible=False)

    def _on_projects(self, projects: list[str]) -> None:
        current = self.project.currentData()
        self.project.blockSignals(True)
        self.project.clear()
        self.project.addItem(tr_const("ask", GLOBAL_SCOPE), "")
        for p in projects:
            self.project.addItem(p, p)
        idx = self.project.findData(current) if current else 0
        self.project.setCurrentIndex(max(idx, 0))
        self.project.blockSignals(False)

    @Slot()
    def ask_now(self) -> None:
        question = self.question.text().strip()
        if not question:
            self.message.show_error(self.tr("Type a question first."))
            return
        self.message.clear_message()
        self.summary.setText(self.tr("asking…"))
        ws, project, use_model = self.ws, self.project.currentData() or None, self.use_model.isChecked()
        run_task(
            lambda: ws.ask.ask(question, project, use_model=use_model),
            name=self.tr("Asking the knowledge"),
            key=(self, "ask"),
            on_result=self._show,
            on_error=self._failed,
        )

    def _failed(self, exc: BaseException) -> None:
        self.summary.setText("")
        self.message.show_error(exc)

    def _show(self, result: AskResult) -> None:
        self.last_result = result
        self.results.set_empty(False)
        cited = {h.n for h in result.citations}
        if result.answered:
            refs = "".join(
                f"<li>[{h.n}] <code>{html.escape(h.passage.document)}</code> lines {h.passage.start}–{h.passage.end}</li>"
                for h in result.citations
            )
            self.answer.setHtml(
                f"<p>{html.escape(result.answer).replace(chr(10), '<br>')}</p>"
                + (f"<p><b>Citations</b></p><ul>{refs}</ul>" if refs else "")
                + self.tr("<p style='color:gray'>{0}</p>").format(html.escape(result.model))
            )
        else:
            text = result.answer or self.tr("No model answer.")
            note = self.tr("<p style='color:gray'>{0}</p>").format(html.escape(result.note)) if result.note else ""
            self.answer.setHtml(f"<p><b>{html.escape(text)}</b></p>{note}")
        if result.passages:
            self.passages.setHtml("".join(passage_html(h, h.n in cited) for h in result.passages))
        else:
            self.passages.setHtml(self.tr("<p>No passage of the knowledge matches the question.</p>"))
        n = len(result.passages)
        self.summary.setText(
            self.tr("%n passage(s)", "", n) + (self.tr(", {n} cited").format(n=len(cited)) if cited else "")
        )

    def showcase(self) -> None:
        if not self.question.text().strip():
            self.question.setText(EXAMPLE)
            self.use_model.setChecked(False)
            self.ask_now()
