"""Router panel: type a message, see which skills it routes to, why, and the SKILLS_HINT block."""

from __future__ import annotations

import html
import re
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, Qt, Slot
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableView,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from lorekeeper.skills.router import DEFAULT_TOP, RouteResult
from lorekeeper.skills.triggers import TRIGGER_FILES, SkillTriggerScore, TriggerReport, evaluate_steps
from lorekeeper.text import fold
from lorekeeper.ui.i18n import QT_TRANSLATE_NOOP, tr_const
from lorekeeper.ui.models.route import RouteTableModel, TriggerTableModel
from lorekeeper.ui.panels.base import AppContext, Panel
from lorekeeper.ui.theme import color
from lorekeeper.ui.widgets import Debouncer, EmptyState, label, mono_font, setup_table
from lorekeeper.ui.workers import cancel_key, run_task

GLOBAL_SCOPE = QT_TRANSLATE_NOOP("router", "Global (no project)")
EXAMPLE = "Please review this pull request and add regression tests before we deploy the migration."
EMPTY_NO_MESSAGE = QT_TRANSLATE_NOOP(
    "router", "Type a message above: the skills it calls for appear here, ranked, with the words that matched."
)
EMPTY_NO_MATCH = QT_TRANSLATE_NOOP(
    "router",
    "No skill matches this message. The router only hints skills whose triggers or keywords appear "
    "as whole words — try the words an operator would use, e.g. “review”, “deploy”, “migration”.",
)


def highlight_html(message: str, result: RouteResult) -> str:
    """The message with matched triggers and keywords highlighted (accent- and case-insensitive)."""
    terms: list[tuple[str, str]] = []
    for m in result.skills:
        terms += [(t, "trigger") for t in m.triggers] + [(k, "keyword") for k in m.keywords]
    if not message.strip():
        return ""
    # Match on the normalised text, then map spans back: fold() keeps one char per char
    # for most text; when it does not (ligatures), fall back to plain escaping.
    norm = fold(message)
    if len(norm) != len(message):
        return html.escape(message)
    spans: list[tuple[int, int, str]] = []
    for term, kind in sorted(terms, key=lambda t: -len(t[0])):
        words = fold(term).split()
        if not words:
            continue
        pat = re.compile(r"(?<!\w)" + r"\s+".join(map(re.escape, words)) + r"(?!\w)")
        for mt in pat.finditer(norm):
            if not any(a < mt.end() and mt.start() < b for a, b, _ in spans):
                spans.append((mt.start(), mt.end(), kind))
    spans.sort()
    out, pos = [], 0
    for a, b, kind in spans:
        out.append(html.escape(message[pos:a]))
        bg = color("hl_trigger" if kind == "trigger" else "hl_keyword").name()
        out.append(
            QCoreApplication.translate("router", '<span style="background:{bg}; font-weight:600">{0}</span>').format(
                html.escape(message[a:b]), bg=bg
            )
        )
        pos = b
    out.append(html.escape(message[pos:]))
    return "".join(out).replace("\n", "<br>")


class RouterPanel(Panel):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.last_result: RouteResult | None = None

        title = label(self.tr("Router"), "panelTitle")
        subtitle = label(
            self.tr("Which skills would a message call for, and why? Advisory only: the router never hides a skill."),
            "panelSubtitle",
            wrap=True,
        )
        subtitle.setToolTip(
            self.tr(
                "Score = 2 × triggers matched + 1 × keywords matched. In a library where some skills carry no "
                "router words, both kinds are ranked on one calibrated scale (route --json shows the parts)."
            )
        )
        self.message = QPlainTextEdit()
        self.message.setPlaceholderText(
            self.tr("Type or paste a message to an agent, e.g. “review this PR and write tests”")
        )
        self.message.setFixedHeight(72)
        self.project = QComboBox()
        self.project.setMinimumWidth(200)
        self.top = QSpinBox()
        self.top.setRange(1, 50)
        self.top.setValue(int(self.ws.config.get("router.top", DEFAULT_TOP) or DEFAULT_TOP))
        self.top.setPrefix(self.tr("top "))

        opts = QHBoxLayout()
        opts.addWidget(QLabel(self.tr("Project:")))
        opts.addWidget(self.project)
        opts.addSpacing(12)
        opts.addWidget(QLabel(self.tr("Show:")))
        opts.addWidget(self.top)
        opts.addStretch(1)
        self.summary = label("", "hintText")
        opts.addWidget(self.summary)

        self.model = RouteTableModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        setup_table(self.table)
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        hh.setStretchLastSection(True)
        for col, width in ((0, 40), (1, 190), (2, 60), (3, 300)):
            self.table.setColumnWidth(col, width)
        self.results = EmptyState(self.table, tr_const("router", EMPTY_NO_MESSAGE))
        self.results.set_empty(True)

        self.highlighted = QTextBrowser()
        self.highlighted.setMaximumHeight(90)
        self.highlighted.setPlaceholderText(self.tr("Matched words are highlighted here."))
        legend = QLabel()
        legend.setTextFormat(Qt.TextFormat.RichText)
        legend.setText(
            self.tr(
                '<span style="background:{0}">&nbsp;trigger&nbsp;</span>&nbsp;&nbsp;<span style="background:{1}">&nbsp;keyword&nbsp;</span>'
            ).format(color("hl_trigger").name(), color("hl_keyword").name())
        )

        self.hint = QPlainTextEdit()
        self.hint.setReadOnly(True)
        self.hint.setObjectName("mono")
        self.hint.setFont(mono_font())
        self.hint.setPlaceholderText(self.tr("The SKILLS_HINT block appears here when at least one skill scores."))
        self.copy_button = QPushButton(self.tr("Copy hint"))
        self.copy_button.setEnabled(False)
        self.copy_button.clicked.connect(self.copy_hint)

        top_box = QWidget()
        tl = QVBoxLayout(top_box)
        tl.setContentsMargins(0, 0, 0, 0)
        tl.addWidget(label(self.tr("Matched words in the message"), "sectionTitle"))
        tl.addWidget(self.highlighted)
        tl.addWidget(legend)
        tl.addWidget(label(self.tr("Ranked skills"), "sectionTitle"))
        tl.addWidget(self.results, 1)

        hint_box = QWidget()
        hl = QVBoxLayout(hint_box)
        hl.setContentsMargins(0, 0, 0, 0)
        head = QHBoxLayout()
        head.addWidget(label(self.tr("Hint block injected into the prompt"), "sectionTitle"))
        head.addStretch(1)
        head.addWidget(self.copy_button)
        hl.addLayout(head)
        hl.addWidget(self.hint, 1)

        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(top_box)
        split.addWidget(hint_box)
        split.setSizes([480, 220])

        route_tab = QWidget()
        rl = QVBoxLayout(route_tab)
        rl.setContentsMargins(0, 8, 0, 0)
        rl.addWidget(label(self.tr("Message"), "sectionTitle"))
        rl.addWidget(self.message)
        rl.addLayout(opts)
        rl.addWidget(split, 1)

        self.tabs = QTabWidget()
        self.tabs.addTab(route_tab, self.tr("Route a message"))
        self.tabs.addTab(self._trigger_tab(), self.tr("Trigger evals"))

        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 16, 20, 12)
        layout.addWidget(title)
        layout.addWidget(subtitle)
        layout.addWidget(self.tabs, 1)

        self.debounce = Debouncer(150, self.route_now, self)
        self.message.textChanged.connect(self.debounce.poke)
        self.top.valueChanged.connect(self.debounce.poke)
        self.project.currentIndexChanged.connect(self.debounce.poke)
        ctx.bus.skills_changed.connect(self.refresh)
        self.refresh()

    # ------------------------------------------------------------------ trigger evals (issue 27 d2)
    def _trigger_tab(self) -> QWidget:
        self.trigger_report: TriggerReport | None = None
        self.run_triggers = QPushButton(self.tr("Run trigger evals"))
        self.run_triggers.setToolTip(
            self.tr(
                "Route every skill's trigger cases over the whole library (the project chosen in the other tab) "
                "and score each skill: does it fire on its cases, and only on them?"
            )
        )
        self.run_triggers.clicked.connect(self.run_trigger_evals)
        self.optimise_button = QPushButton(self.tr("Optimise selected"))
        self.optimise_button.setToolTip(
            self.tr(
                "Ask the model for description and router-word edits of the selected skill, scored on its "
                "trigger cases (a held-out part kept apart); the best one that lowers nothing is queued "
                "as a proposal in Proposals"
            )
        )
        self.optimise_button.setEnabled(False)
        self.optimise_button.clicked.connect(self.optimise_selected)
        self.trigger_summary = label("", "hintText")
        head = QHBoxLayout()
        head.addWidget(self.run_triggers)
        head.addWidget(self.optimise_button)
        head.addSpacing(12)
        head.addWidget(self.trigger_summary, 1)

        self.trigger_model = TriggerTableModel(self)
        self.trigger_table = QTableView()
        self.trigger_table.setModel(self.trigger_model)
        setup_table(self.trigger_table)
        th = self.trigger_table.horizontalHeader()
        th.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        th.setStretchLastSection(True)
        for col, width in ((0, 200), (1, 60), (2, 80), (3, 80)):
            self.trigger_table.setColumnWidth(col, width)
        self.trigger_table.selectionModel().currentRowChanged.connect(lambda *_: self._show_confusions())
        self.trigger_results = EmptyState(
            self.trigger_table,
            self.tr(
                'No trigger evals run yet. A skill\'s trigger cases live in {0} in its folder ([{{"query": "...", "should_trigger": true}}, ...], skill-creator\'s shape); `lorekeeper skills suggest NAME --triggers` writes them from its description and history.'
            ).format(TRIGGER_FILES[0]),
        )
        self.trigger_results.set_empty(True)
        self.confusions = QTextBrowser()
        self.confusions.setPlaceholderText(self.tr("Select a skill: its confusions and collisions appear here."))

        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.trigger_results)
        split.addWidget(self.confusions)
        split.setSizes([320, 200])
        tab = QWidget()
        tl = QVBoxLayout(tab)
        tl.setContentsMargins(0, 8, 0, 0)
        tl.addLayout(head)
        tl.addWidget(split, 1)
        return tab

    @Slot()
    def run_trigger_evals(self) -> None:
        ws, project, top = self.ws, self.project.currentData() or None, self.top.value()

        def job():
            cases, problems = ws.skills.trigger_cases(project)
            router = ws.routers.get(project)
            report = yield from evaluate_steps(cases, lambda q: router.route(q, top=top), top=top)
            return report, problems

        self.run_triggers.setEnabled(False)
        self.trigger_summary.setText(self.tr("Routing the trigger cases…"))
        run_task(
            job,
            name=self.tr("Trigger evals"),
            key=(self, "triggers"),
            on_result=self._show_triggers,
            on_error=lambda exc: self.trigger_summary.setText(self.tr("Trigger evals failed: {exc}").format(exc=exc)),
            on_finished=lambda: self.run_triggers.setEnabled(True),
        )

    def _show_triggers(self, outcome: tuple[TriggerReport, list[dict[str, object]]]) -> None:
        report, problems = outcome
        self.trigger_report = report
        self.trigger_model.set_rows(list(report.skills))
        self.trigger_results.set_empty(
            not report.skills,
            self.tr("No skill has trigger cases ({0} in its folder).").format(" or ".join(TRIGGER_FILES)),
        )
        cases = sum(s.cases for s in report.skills)
        wrong = sum(len(s.confusions) for s in report.skills)
        text = self.tr(
            "{n} skills, {cases} cases, {wrong} confusions (a skill fires when it is in the top {top})"
        ).format(n=len(report.skills), cases=cases, wrong=wrong, top=report.top)
        if problems:
            text += self.tr("; {n} trigger file(s) do not parse: {message}").format(
                n=len(problems), message=problems[0]["message"]
            )
        self.trigger_summary.setText(text)
        if report.skills:
            self.trigger_table.selectRow(0)
        self._show_confusions()

    def _selected_trigger_skill(self) -> str | None:
        idx = self.trigger_table.currentIndex()
        if not idx.isValid() or idx.row() >= len(self.trigger_model.rows):
            return None
        return str(self.trigger_model.rows[idx.row()].name)

    @Slot()
    def optimise_selected(self) -> None:
        """`skills optimise NAME` for the selected skill, as a job (issue 27 d3)."""
        name = self._selected_trigger_skill()
        if name is None:
            return
        ws, project, top = self.ws, self.project.currentData() or None, self.top.value()

        def job():
            return ws.improve.optimiser.optimise(name, project, top=top)

        def done(res) -> None:
            from lorekeeper.rates import format_rate

            def pair(r) -> str:
                return self.tr("precision {0}, recall {1}").format(
                    format_rate(r["precision"], none="n/a"), format_rate(r["recall"], none="n/a")
                )

            if res.proposal is None:
                verdicts = "; ".join(sorted({c.verdict for c in res.candidates})) or self.tr("no candidate")
                self.trigger_summary.setText(
                    self.tr("{name}: nothing proposed ({verdicts})").format(name=name, verdicts=verdicts)
                )
            else:
                self.trigger_summary.setText(
                    self.tr("{name}: proposal #{id} queued; held-out {0} → {1}").format(
                        pair(res.before), pair(res.after), name=name, id=res.proposal.id
                    )
                )
                self.ctx.bus.emit("proposals")

        self.optimise_button.setEnabled(False)
        self.trigger_summary.setText(self.tr("Optimising {name} with the model…").format(name=name))
        run_task(
            job,
            name=self.tr("Optimise {name}").format(name=name),
            key=(self, "optimise"),
            on_result=done,
            on_error=lambda exc: self.trigger_summary.setText(
                self.tr("Optimise {name} failed: {exc}").format(name=name, exc=exc)
            ),
            on_finished=lambda: self.optimise_button.setEnabled(self._selected_trigger_skill() is not None),
        )

    def _show_confusions(self) -> None:
        idx = self.trigger_table.currentIndex()
        self.optimise_button.setEnabled(idx.isValid() and idx.row() < len(self.trigger_model.rows))
        if not idx.isValid() or idx.row() >= len(self.trigger_model.rows):
            self.confusions.setHtml("")
            return
        sc: SkillTriggerScore = self.trigger_model.rows[idx.row()]
        parts = [
            self.tr("<b>{0}</b>: {tp} hit, {fn} missed, {fp} false, {tn} rightly left alone").format(
                html.escape(sc.name), tp=sc.tp, fn=sc.fn, fp=sc.fp, tn=sc.tn
            )
        ]
        if sc.collisions:
            top3 = sorted(sc.collisions.items(), key=lambda kv: (-kv[1], kv[0]))
            parts.append(
                self.tr("<b>Collisions</b> (also fire on its should-trigger cases): ")
                + ", ".join(f"{html.escape(k)} ({v})" for k, v in top3)
            )
        if sc.confusions:
            items = []
            for c in sc.confusions:
                q = html.escape(str(c["query"]))
                if c["should_trigger"]:
                    items.append(
                        self.tr("<li>missed “{q}”: taken by {0}</li>").format(
                            html.escape(str(c["taken_by"] or "no skill")), q=q
                        )
                    )
                else:
                    items.append(
                        self.tr("<li>fired on “{q}” (rank {rank}), should not</li>").format(q=q, rank=c["rank"])
                    )
            parts.append("<b>" + self.tr("Confusions") + "</b><ul>" + "".join(items) + "</ul>")
        else:
            parts.append(self.tr("No confusion: every case answered as expected."))
        self.confusions.setHtml("<br>".join(parts))

    def search_box(self) -> QPlainTextEdit:
        return self.message  # Ctrl+F: the message box is this panel's query

    @Slot()
    def refresh(self) -> None:
        run_task(self.ws.skills.projects, name=self.tr("Loading projects"), on_result=self._on_projects, visible=False)

    def _on_projects(self, projects: list[str]) -> None:
        current = self.project.currentData()
        self.project.blockSignals(True)
        self.project.clear()
        self.project.addItem(tr_const("router", GLOBAL_SCOPE), "")
        for p in projects:
            self.project.addItem(p, p)
        idx = self.project.findData(current) if current else 0
        self.project.setCurrentIndex(max(idx, 0))
        self.project.blockSignals(False)
        self.route_now()

    @Slot()
    def route_now(self) -> None:
        message = self.message.toPlainText()
        if not message.strip():
            cancel_key((self, "route"))  # an answer for an older message must not replace this one
            self._show(message, RouteResult(skills=(), hint=""))
            return
        ws, project, top = self.ws, self.project.currentData() or None, self.top.value()
        run_task(
            lambda: ws.routers.get(project).route(message, top=top),
            name=self.tr("Routing"),
            key=(self, "route"),
            visible=False,
            on_result=lambda result: self._show(message, result),
            on_error=lambda exc: self.ctx.status(self.tr("Routing failed: {exc}").format(exc=exc)),
        )

    def _show(self, message: str, result: RouteResult) -> None:
        self.last_result = result
        self.model.set_rows(list(result.skills))
        if not message.strip():
            self.results.set_empty(True, tr_const("router", EMPTY_NO_MESSAGE))
            self.summary.setText("")
        else:
            self.results.set_empty(not result.skills, tr_const("router", EMPTY_NO_MATCH))
            n = len(result.skills)
            self.summary.setText(self.tr("%n skill(s) hinted", "", n) if n else self.tr("no skill hinted"))
        self.highlighted.setHtml(highlight_html(message, result))
        self.hint.setPlainText(result.hint)
        self.copy_button.setEnabled(bool(result.hint))

    @Slot()
    def copy_hint(self) -> None:
        QGuiApplication.clipboard().setText(self.hint.toPlainText())
        self.ctx.status(self.tr("SKILLS_HINT copied to the clipboard"))

    def more_showcases(self) -> list[tuple[str, Callable[[], object]]]:
        def triggers() -> None:
            self.tabs.setCurrentIndex(1)
            self.run_trigger_evals()

        return [("triggers", triggers)]

    def showcase(self) -> None:
        if not self.message.toPlainText().strip():
            self.message.setPlainText(EXAMPLE)
            self.debounce.flush()
