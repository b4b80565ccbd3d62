"""Evals panel: run a response against a skill's rules, and browse the history of eval runs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, Qt, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from lorekeeper.evals.engine import EvalReport
from lorekeeper.evals.service import EvalRunInfo, EvalService
from lorekeeper.ui.charts import ThemedPlot
from lorekeeper.ui.i18n import QT_TRANSLATE_NOOP, fmt_datetime, fmt_day, tr_const
from lorekeeper.ui.models.history import EvalHistoryModel, HistoryQuery
from lorekeeper.ui.models.paged import setup_sorting
from lorekeeper.ui.models.rules import ResultsTableModel
from lorekeeper.ui.panels.base import AppContext, Panel
from lorekeeper.ui.theme import color
from lorekeeper.ui.widgets import Debouncer, EmptyState, MessageBox, label, search_box, setup_table
from lorekeeper.ui.workers import run_task

ANY = "__any__"
CHART_DAYS = 30
MAX_FILE_BYTES = 5 * 1024 * 1024
TIME_RANGES = (
    (QT_TRANSLATE_NOOP("evals", "All time"), None),
    (QT_TRANSLATE_NOOP("evals", "Last 24 hours"), 1),
    (QT_TRANSLATE_NOOP("evals", "Last 7 days"), 7),
    (QT_TRANSLATE_NOOP("evals", "Last 30 days"), 30),
)
EMPTY_HISTORY = QT_TRANSLATE_NOOP("evals", "No eval runs yet — run one above, or use `lorekeeper eval` from a script.")
EMPTY_FILTERED = QT_TRANSLATE_NOOP(
    "evals", "No eval run matches these filters. Widen the time range or clear the search."
)
EMPTY_RESULT = QT_TRANSLATE_NOOP(
    "evals", "Pick a skill, paste a response and press Run: each rule shows pass or fail here."
)
EXAMPLE_RESPONSE = (
    "Review of PR #482 — verdict: request changes.\n\n"
    "Major: src/api/users.py:88 builds SQL with string formatting; use a bound parameter instead.\n"
    "Minor: tests/test_users.py:12 asserts on a list order the API does not guarantee.\n"
    "Nit: rename `tmp` in src/api/users.py:91 to `row`.\n"
)


@dataclass(frozen=True)
class DailyRate:
    """Pass rate per day, oldest first (days without runs have total 0)."""

    days: list[datetime]
    totals: list[int]
    passed: list[int]


def daily_pass_rate(service: EvalService, query: HistoryQuery, days: int = CHART_DAYS) -> DailyRate:
    """Counts per local day over the last `days` days, from `count(since=...)` differences (no row loading)."""
    today = datetime.now().astimezone().replace(hour=0, minute=0, second=0, microsecond=0)
    starts = [today - timedelta(days=days - 1 - i) for i in range(days)]
    base = {k: v for k, v in query.kwargs().items() if k != "since"}
    floor = query.since
    cum_total, cum_passed = [], []
    for start in [*starts, None]:
        since = start.astimezone(UTC) if start is not None else datetime.now(UTC) + timedelta(days=1)
        if floor is not None and since < floor:
            since = floor
        cum_total.append(service.count(**base, since=since))
        cum_passed.append(service.count(**{**base, "passed": True}, since=since) if query.passed in (None, True) else 0)
    totals = [cum_total[i] - cum_total[i + 1] for i in range(days)]
    passed = [cum_passed[i] - cum_passed[i + 1] for i in range(days)]
    return DailyRate(days=starts, totals=totals, passed=passed)


class PassRateChart(ThemedPlot):
    """Bars: pass rate per day (%), for the history filters in force."""

    def __init__(self, parent: QWidget | None = None) -> None:
        # 70 px: at 1024x640 a 150 px chart made the history the taller half and left the Result
        # table above and the run's rules beside about one row each (issue 30 d2)
        super().__init__(QCoreApplication.translate("PassRateChart", "pass %"), min_height=70, parent=parent)
        self.plotItem.setYRange(0, 100, padding=0.02)
        self.plotItem.setXRange(-0.7, CHART_DAYS - 0.3, padding=0)
        self.bars: pg.BarGraphItem | None = None

    def set_rate(self, rate: DailyRate) -> None:
        if self.bars is not None:
            self.plotItem.removeItem(self.bars)
        xs, heights, brushes = [], [], []
        for i, (total, ok) in enumerate(zip(rate.totals, rate.passed, strict=True)):
            if total:
                pct = 100.0 * ok / total
                xs.append(i)
                heights.append(max(pct, 1.5))  # a 0 % day still shows a sliver
                brushes.append(pg.mkBrush(color("pass") if pct >= 80 else color("fail")))
        self.bars = pg.BarGraphItem(x=xs, height=heights, width=0.7, brushes=brushes, pen=pg.mkPen(None))
        self.plotItem.addItem(self.bars)
        ticks = [(i, fmt_day(d)) for i, d in enumerate(rate.days) if (len(rate.days) - 1 - i) % 7 == 0]
        self.plotItem.getAxis("bottom").setTicks([ticks])


class EvalsPanel(Panel):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.skill_names: list[str] = []
        self.projects: list[str] = []
        self.last_report: EvalReport | None = None

        # ---------------------------------------------------------------- run
        # narrow enough that the Result box beside keeps room at 1024x640 (issue 30 d2: it had
        # about 115 px in French); a longer name is cut in the box, whole in its list
        self.skill = QComboBox()
        self.skill.setMinimumWidth(130)
        self.project = QComboBox()
        self.project.setMinimumWidth(100)
        for combo in (self.skill, self.project):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(8)
        self.load_button = QPushButton(self.tr("Load file…"))
        self.load_button.clicked.connect(self.load_file)
        self.run_button = QPushButton(self.tr("Run"))
        self.run_button.setObjectName("primary")
        self.run_button.setShortcut("Ctrl+Return")
        self.run_button.setToolTip(self.tr("Run the skill's rules on this response (Ctrl+Enter); the run is recorded"))
        self.run_button.clicked.connect(lambda: self.run_eval())
        self.response = QPlainTextEdit()
        self.response.setPlaceholderText(self.tr("Paste or type the model's answer here, or load it from a file."))
        self.response.textChanged.connect(self._update_run_enabled)
        self.run_message = MessageBox()

        pick = QHBoxLayout()
        pick.addWidget(QLabel(self.tr("Skill:")))
        pick.addWidget(self.skill, 1)
        pick.addWidget(QLabel(self.tr("Project:")))
        pick.addWidget(self.project, 1)
        pick.addWidget(self.load_button)
        pick.addWidget(self.run_button)

        run_box = QGroupBox(self.tr("Run an eval"))
        rl = QVBoxLayout(run_box)
        rl.addLayout(pick)
        rl.addWidget(self.response, 1)
        rl.addWidget(self.run_message)

        self.results_model = ResultsTableModel(self)
        self.results_table = QTableView()
        self.results_table.setModel(self.results_model)
        setup_table(self.results_table)
        self.results_table.horizontalHeader().setStretchLastSection(False)
        self.results_table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.results_table.setColumnWidth(0, 80)
        self.results_table.setColumnWidth(2, 150)
        self.results_table.setColumnWidth(3, 80)
        self.results_table.setColumnWidth(4, 70)
        self.results_empty = EmptyState(self.results_table, tr_const("evals", EMPTY_RESULT))
        self.results_empty.set_empty(True)
        self.footnote = label("", "footnote", wrap=True, selectable=True)
        self.footnote.hide()

        result_box = QGroupBox(self.tr("Result"))
        res_l = QVBoxLayout(result_box)
        res_l.addWidget(self.results_empty, 1)
        res_l.addWidget(self.footnote)

        top = QSplitter(Qt.Orientation.Horizontal)
        top.addWidget(run_box)
        top.addWidget(result_box)
        top.setSizes([600, 560])

        # ---------------------------------------------------------------- history
        self.f_skill = QComboBox()
        self.f_project = QComboBox()
        self.f_passed = QComboBox()
        # String data, not bools: a QVariant<bool> round trip is where PySide's refcounts are fragile.
        for text, data in (
            (self.tr("Passed and failed"), "any"),
            (self.tr("Passed"), "passed"),
            (self.tr("Failed"), "failed"),
        ):
            self.f_passed.addItem(text, data)
        self.f_search = search_box(self.tr("Search…"), self.tr("Search the runs' responses and footnotes (Ctrl+F)"))
        self.f_range = QComboBox()
        for text, days in TIME_RANGES:
            self.f_range.addItem(tr_const("evals", text), days)
        for combo in (self.f_skill, self.f_project):  # "Toute skill" was cut at 54 px in French
            combo.setMinimumWidth(110)
        filters = QHBoxLayout()
        filters.addWidget(self.f_skill)
        filters.addWidget(self.f_project)
        filters.addWidget(self.f_passed)
        filters.addWidget(self.f_range)
        filters.addWidget(self.f_search, 1)
        self.history_count = label("", "hintText")
        filters.addWidget(self.history_count)

        self.history_model = EvalHistoryModel(self.ws.evals, self)
        self.history_model.loaded.connect(self._on_history_loaded)
        self.history_model.failed.connect(lambda exc: self.ctx.status(self.tr("Eval history: {exc}").format(exc=exc)))
        self.history_table = QTableView()
        self.history_table.setModel(self.history_model)
        setup_table(self.history_table)
        setup_sorting(self.history_table, self.history_model)
        hh = self.history_table.horizontalHeader()
        hh.setStretchLastSection(True)
        for col, width in ((0, 120), (1, 130), (2, 95), (3, 80), (4, 55), (5, 55)):
            self.history_table.setColumnWidth(col, width)
        self.history_table.selectionModel().currentRowChanged.connect(self._on_run_selected)
        self.history_model.page_loaded.connect(
            lambda first, last: (
                self._on_run_selected() if first <= self.history_table.currentIndex().row() <= last else None
            )
        )  # the current row's page arrived after it was selected (a jump, a fast scroll)
        self.history_empty = EmptyState(self.history_table, tr_const("evals", EMPTY_HISTORY))

        self.chart = PassRateChart()
        self.chart_title = label(
            self.tr("Pass rate per day, last {CHART_DAYS} days").format(CHART_DAYS=CHART_DAYS), "sectionTitle"
        )
        self.detail_title = label(self.tr("Selected run"), "sectionTitle")
        self.detail_footnote = label(
            self.tr("Select a run in the table to see its response and rule results."), "hintText", wrap=True
        )
        self.detail_response = QPlainTextEdit()
        self.detail_response.setReadOnly(True)
        self.detail_response.setPlaceholderText(self.tr("The selected run's response."))
        self.detail_results = ResultsTableModel(self)
        self.detail_table = QTableView()
        self.detail_table.setModel(self.detail_results)
        setup_table(self.detail_table)
        self.detail_table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.detail_table.setColumnWidth(0, 70)
        for c in (2, 3, 4):
            self.detail_table.setColumnHidden(c, True)

        # the chart over the selected run, a splitter between them: at 1024x640 the run's rules
        # keep several rows (issue 30 d2: a 150 px chart left them and the Result table one row)
        chart_box = QWidget()
        cl = QVBoxLayout(chart_box)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.addWidget(self.chart_title)
        cl.addWidget(self.chart, 1)
        run_detail = QWidget()
        dl = QVBoxLayout(run_detail)
        dl.setContentsMargins(0, 0, 0, 0)
        dl.addWidget(self.detail_title)
        dl.addWidget(self.detail_footnote)
        detail_split = QSplitter(Qt.Orientation.Horizontal)
        detail_split.addWidget(self.detail_response)
        detail_split.addWidget(self.detail_table)
        dl.addWidget(detail_split, 1)
        side = QSplitter(Qt.Orientation.Vertical)
        side.addWidget(chart_box)
        side.addWidget(run_detail)
        side.setCollapsible(1, False)  # the chart may be dragged shut, the run's detail never
        side.setStretchFactor(0, 2)
        side.setStretchFactor(1, 3)
        side.setSizes([200, 300])

        bottom_split = QSplitter(Qt.Orientation.Horizontal)
        bottom_split.addWidget(self.history_empty)
        bottom_split.addWidget(side)
        bottom_split.setSizes([640, 520])

        history_box = QGroupBox(self.tr("History"))
        hl = QVBoxLayout(history_box)
        hl.addLayout(filters)
        hl.addWidget(bottom_split, 1)

        main = QSplitter(Qt.Orientation.Vertical)
        main.addWidget(top)
        main.addWidget(history_box)
        main.setSizes([400, 400])  # half each: the Result table shows its rules, not one row

        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 16, 20, 12)
        layout.addWidget(label(self.tr("Evals"), "panelTitle"))
        layout.addWidget(
            label(
                self.tr(
                    "Binary, deterministic checks of an answer against a skill's rules. Failed rules make the footnote; "
                    "a run succeeds when no warning rule fails."
                ),
                "panelSubtitle",
                wrap=True,
            )
        )
        layout.addWidget(main, 1)

        self.filter_debounce = Debouncer(250, self.reload_history, self)
        self.f_search.textChanged.connect(self.filter_debounce.poke)
        for combo in (self.f_skill, self.f_project, self.f_passed, self.f_range):
            combo.currentIndexChanged.connect(self.reload_history)
        self.skill.currentIndexChanged.connect(self._update_run_enabled)
        ctx.bus.skills_changed.connect(self.load_choices)
        ctx.bus.evals_changed.connect(self.reload_history)
        self.refresh()

    # ------------------------------------------------------------------ panel API
    def search_box(self):
        return self.f_search

    @Slot()
    def refresh(self) -> None:
        self.load_choices()
        self.reload_history()

    def showcase(self) -> None:
        if self.history_model.rowCount():
            self.history_table.selectRow(0)
        if not self.response.toPlainText() and "code-review" in self.skill_names:
            self.skill.setCurrentIndex(self.skill.findData("code-review"))
            self.response.setPlainText(EXAMPLE_RESPONSE)
            self.run_eval(record=False)

    # ------------------------------------------------------------------ choices
    @Slot()
    def load_choices(self) -> None:
        ws = self.ws
        run_task(
            lambda: (sorted({i.name for i in ws.skills.list()}), ws.skills.projects()),
            name=self.tr("Loading skills"),
            visible=False,
            on_result=self._on_choices,
        )

    def _on_choices(self, out: tuple[list[str], list[str]]) -> None:
        self.skill_names, self.projects = out
        self._fill(self.skill, [(n, n) for n in self.skill_names], None)
        self._fill(self.project, [(self.tr("Global"), "")] + [(p, p) for p in self.projects], None)
        self._fill(self.f_skill, [(self.tr("Any skill"), ANY)] + [(n, n) for n in self.skill_names], ANY)
        self._fill(
            self.f_project,
            [(self.tr("Any project"), ANY), (self.tr("Global"), "")] + [(p, p) for p in self.projects],
            ANY,
        )
        if not self.skill_names:
            self.run_message.show_error(self.tr("The library has no skill yet: import one in the Skills panel first."))
        self._update_run_enabled()

    @staticmethod
    def _fill(combo: QComboBox, items: Sequence[tuple[str, object]], default: object) -> None:
        current = combo.currentData()
        combo.blockSignals(True)
        combo.clear()
        for text, data in items:
            combo.addItem(text, data)
        idx = combo.findData(current) if current is not None else -1
        combo.setCurrentIndex(idx if idx >= 0 else max(combo.findData(default), 0))
        combo.blockSignals(False)

    @Slot()
    def _update_run_enabled(self) -> None:
        self.run_button.setEnabled(bool(self.skill.currentData()) and bool(self.response.toPlainText().strip()))

    # ------------------------------------------------------------------ run
    @Slot()
    def load_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Load a response"), "", self.tr("Text files (*.txt *.md *.json);;All files (*)")
        )
        if path:
            self.load_path(Path(path))

    def load_path(self, path: Path) -> None:
        def read() -> str:
            if path.stat().st_size > MAX_FILE_BYTES:
                raise ValueError(
                    self.tr("{name} is larger than {0} MB").format(MAX_FILE_BYTES // (1024 * 1024), name=path.name)
                )
            return path.read_text(encoding="utf-8", errors="replace")

        run_task(
            read,
            name=self.tr("Reading {name}").format(name=path.name),
            on_result=self.response.setPlainText,
            on_error=self.run_message.show_error,
        )

    def run_eval(self, record: bool = True) -> None:
        skill = self.skill.currentData()
        response = self.response.toPlainText()
        if not skill or not response.strip():
            return
        project = self.project.currentData() or None
        self.run_message.clear_message()
        self.run_button.setEnabled(False)
        evals = self.ws.evals
        run_task(
            lambda: evals.run_skill(response, skill, project, source="app", record=record),
            name=self.tr("Eval {skill}").format(skill=skill),
            on_result=lambda report: self._on_report(report, record),
            on_error=self.run_message.show_error,
            on_finished=self._update_run_enabled,
        )

    def _on_report(self, report: EvalReport, recorded: bool) -> None:
        self.last_report = report
        self.results_model.set_rows([r.to_dict() for r in report.results])
        self.results_empty.set_empty(
            not report.results, self.tr("This skill has no eval rules yet: add some in Skills → Evals.")
        )
        self._show_footnote(self.footnote, report.footnote, bool(report.results))
        # a recorded run reaches the history through the change feed ("evals")

    @staticmethod
    def _show_footnote(lab: QLabel, footnote: str, has_rules: bool) -> None:
        lab.setObjectName("footnote" if footnote else "footnoteOk")
        lab.setText(
            footnote
            or (
                QCoreApplication.translate("EvalsPanel", "Every rule passed — no footnote.")
                if has_rules
                else QCoreApplication.translate("EvalsPanel", "No rules to check.")
            )
        )
        lab.style().unpolish(lab)
        lab.style().polish(lab)
        lab.show()

    # ------------------------------------------------------------------ history
    def current_query(self) -> HistoryQuery:
        skill = self.f_skill.currentData()
        project = self.f_project.currentData()
        days = self.f_range.currentData()
        return HistoryQuery(
            skill=None if skill in (None, ANY) else skill,
            project=None if project in (None, ANY) else project,
            passed={"passed": True, "failed": False}.get(self.f_passed.currentData()),
            search=self.f_search.text().strip(),
            since=datetime.now(UTC) - timedelta(days=days) if days else None,
        )

    @Slot()
    def reload_history(self) -> None:
        query = self.current_query()
        self.history_model.set_query(query)
        evals = self.ws.evals
        run_task(
            lambda: daily_pass_rate(evals, query),
            name=self.tr("Pass-rate chart"),
            visible=False,
            on_result=self.chart.set_rate,
        )

    @Slot()
    def _on_history_loaded(self) -> None:
        total = self.history_model.total or 0
        q = self.history_model.query
        filtered = bool(q.skill or q.project is not None or q.passed is not None or q.search or q.since)
        self.history_empty.set_empty(total == 0, tr_const("evals", EMPTY_FILTERED if filtered else EMPTY_HISTORY))
        self.history_count.setText(self.tr("%Ln run(s)", "", total))
        self._on_run_selected()

    @Slot()
    def _on_run_selected(self, *_args: object) -> None:
        run = self.history_model.row(self.history_table.currentIndex().row())
        if run is None:
            self.detail_title.setText(self.tr("Selected run"))
            self.detail_footnote.setObjectName("hintText")
            self.detail_footnote.setText(self.tr("Select a run in the table to see its response and rule results."))
            self.detail_footnote.style().polish(self.detail_footnote)
            self.detail_response.setPlainText("")
            self.detail_results.set_rows([])
            return
        self._show_run(run)

    def _show_run(self, run: EvalRunInfo) -> None:
        when = fmt_datetime(run.created_at.astimezone())
        scope = f" · {run.project}" if run.project else ""
        version = f" v{run.skill_version}" if run.skill_version else ""
        self.detail_title.setText(
            self.tr("Run #{id} · {0}{version}{scope} · {when} · {source}").format(
                run.skill or "rules file", id=run.id, version=version, scope=scope, when=when, source=run.source
            )
        )
        self._show_footnote(self.detail_footnote, run.footnote, bool(run.results))
        self.detail_response.setPlainText(run.response)
        self.detail_results.set_rows(run.results)
