"""Benchmarks: the A/B runs of each proposal, with the seed's battle view.

Left: the runs (newest first) with their verdict badge (PASSED / FAILED / TIE) and improvement.
Right: the chosen run's summary, a pyqtgraph chart of the combined scores (old vs new, 0-10) per
scenario, and per scenario the old and new outputs side by side with their eval, judge and
combined scores, the winner's star, and the judge's reasons for both orders. Re-run benchmarks
the same proposal again (kept scenarios are reused).
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, Qt, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from lorekeeper.improve.bench import EVAL_WEIGHT, JUDGE_WEIGHT, BenchmarkInfo, ScenarioInfo, ScenarioResult
from lorekeeper.ui.charts import ThemedPlot
from lorekeeper.ui.i18n import QT_TRANSLATE_NOOP, fmt_datetime, lformat, tr_const
from lorekeeper.ui.models.base import RowsModel, enable_sorting
from lorekeeper.ui.panels.base import AppContext, Panel
from lorekeeper.ui.panels.proposals_detail import badge_style
from lorekeeper.ui.theme import color, icon
from lorekeeper.ui.widgets import EmptyState, MessageBox, label, mono_font, placeholder_width, setup_table
from lorekeeper.ui.workers import run_task

ALL = 0


@dataclass(frozen=True)
class RunsSnapshot:
    runs: list[BenchmarkInfo]
    proposals: list[tuple[int, str]]  # (id, "#id skill") of proposals that have runs


class RunsModel(RowsModel[BenchmarkInfo]):
    COL_RUN, COL_PROPOSAL, COL_SKILL, COL_VERDICT, COL_IMPROVEMENT, COL_WLT, COL_MODEL, COL_WHEN = range(8)
    HEADERS = (
        QT_TRANSLATE_NOOP("RunsModel", "Run"),
        QT_TRANSLATE_NOOP("RunsModel", "Proposal"),
        QT_TRANSLATE_NOOP("RunsModel", "Skill"),
        QT_TRANSLATE_NOOP("RunsModel", "Verdict"),
        QT_TRANSLATE_NOOP("RunsModel", "Improvement"),
        "W/L/T",
        QT_TRANSLATE_NOOP("RunsModel", "Model"),
        QT_TRANSLATE_NOOP("RunsModel", "When"),
    )
    SORTABLE = tuple(range(8))

    def sort_value(self, item: BenchmarkInfo, column: int) -> Any:
        return (
            item.id,
            item.proposal_id,
            item.skill,
            item.verdict,
            item.improvement_pct,
            (item.wins_new - item.wins_old, item.wins_new),
            item.model,
            item.created_at,
        )[column]

    def cell(self, item: BenchmarkInfo, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            pct = "n/a" if item.improvement_pct is None else f"{item.improvement_pct:+.1f}%"
            return (
                f"#{item.id}",
                f"#{item.proposal_id}",
                item.skill,
                item.verdict,
                pct,
                f"{item.wins_new}/{item.wins_old}/{item.ties}",
                item.model,
                fmt_datetime(item.created_at),
            )[column]
        if role == Qt.ItemDataRole.ForegroundRole and column in (self.COL_VERDICT, self.COL_IMPROVEMENT):
            return color({"PASSED": "pass", "FAILED": "fail"}.get(item.verdict, "muted"))
        if role == Qt.ItemDataRole.DecorationRole and column == self.COL_VERDICT:
            return icon({"PASSED": "pass", "FAILED": "fail"}.get(item.verdict, "info"))
        return None


def _fmt(v: float | None, scale: float = 1.0) -> str:
    return "n/a" if v is None else f"{v * scale:.1f}"


HOW_IT_WORKS = QT_TRANSLATE_NOOP(
    "benchmarks",
    "How a benchmark decides: the current and the proposed content each answer the same scenarios "
    "(3 by default: yours first, then the model's) through the configured model. Each answer gets the "
    "skill's deterministic eval rules (share passed × 10) and an LLM judge's 1-10 score, asked twice with "
    "the two answers swapped and their labels hidden; a judge that changes its mind when the order is "
    "swapped counts as a tie. Combined = 60% evals + 40% judge. The verdict is PASSED when the new content "
    "wins more scenarios, FAILED when it wins fewer, TIE otherwise; improvement = (new − old) / old × 100.\n\n"
    "Runs need a model: configure one in Playground → Model settings (anthropic, ollama or claude-cli).",
)


class BattleCard(QGroupBox):
    """One scenario: the request, old vs new side by side with scores, the star, the judge's reasons."""

    def __init__(self, r: ScenarioResult, parent: QWidget | None = None) -> None:
        winner = {"new": self.tr("new ★"), "old": self.tr("old ★"), "tie": "tie"}[r.winner]
        super().__init__(self.tr("Scenario {0} — winner: {winner}").format(r.position + 1, winner=winner), parent)
        self.result = r
        grid = QGridLayout(self)
        request = label(r.scenario, wrap=True, selectable=True)
        request.setObjectName("hintText")
        grid.addWidget(request, 0, 0, 1, 2)
        for col, side in enumerate(("old", "new")):
            star = " ★" if r.winner == side else ""
            ev = r.old_eval if side == "old" else r.new_eval
            judge = r.old_judge if side == "old" else r.new_judge
            score = r.old_score if side == "old" else r.new_score
            head = label(
                lformat(
                    self.tr("<b>{0}{star}</b> — combined <b>{score:.2f}</b>/10 · evals {1}/10 · judge {judge:.1f}/10"),
                    "Old (current)" if side == "old" else "New (proposed)",
                    _fmt(ev, 10),
                    star=star,
                    score=score,
                    judge=judge,
                ),
                wrap=True,
            )
            head.setTextFormat(Qt.TextFormat.RichText)
            if star:
                head.setStyleSheet(f"color: {color('pass').name()};")
            out = QPlainTextEdit(r.old_output if side == "old" else r.new_output)
            out.setReadOnly(True)
            out.setFont(mono_font(9))
            out.setMaximumHeight(150)
            out.setObjectName(f"{side}Output")
            grid.addWidget(head, 1, col)
            grid.addWidget(out, 2, col)
        judge_lines = []
        for c in r.judge_calls:
            judge_lines.append(
                self.tr("<b>{0}</b>: A {score_a}/10, B {score_b}/10 → prefers {1} — {2}").format(
                    html.escape(str(c.get("order"))),
                    html.escape(str(c.get("prefers"))),
                    html.escape(str(c.get("reason") or "")),
                    score_a=c.get("score_a"),
                    score_b=c.get("score_b"),
                )
            )
        verdict = {"tie": "the two orders disagree (or score equal): judge part is a tie, evals decide"}.get(
            r.judge_winner, f"both orders prefer {r.judge_winner}"
        )
        self.judge_label = label(
            self.tr("Judge: ") + verdict + self.tr("<br>") + "<br>".join(judge_lines), wrap=True, selectable=True
        )
        self.judge_label.setTextFormat(Qt.TextFormat.RichText)
        grid.addWidget(self.judge_label, 3, 0, 1, 2)


class ScoreChart(ThemedPlot):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            QCoreApplication.translate("ScoreChart", "combined /10"), min_height=150, max_height=200, parent=parent
        )
        self.legend = self.plotItem.addLegend(offset=(-10, 5))
        self.bars: list[pg.BarGraphItem] = []

    def show_run(self, run: BenchmarkInfo | None) -> None:
        pi = self.plotItem
        pi.clear()
        self.bars = []
        if run is None or not run.results:
            return
        xs = list(range(len(run.results)))
        old = pg.BarGraphItem(
            x=[x - 0.18 for x in xs],
            height=[r.old_score for r in run.results],
            width=0.34,
            brush=pg.mkBrush(color("muted")),
            pen=pg.mkPen(None),
            name="old",
        )
        new = pg.BarGraphItem(
            x=[x + 0.18 for x in xs],
            height=[r.new_score for r in run.results],
            width=0.34,
            brush=pg.mkBrush(color("info")),
            pen=pg.mkPen(None),
            name="new",
        )
        pi.addItem(old)
        pi.addItem(new)
        self.bars = [old, new]
        pi.setYRange(0, 10, padding=0.05)
        pi.setXRange(-0.6, len(xs) - 0.4, padding=0)
        pi.getAxis("bottom").setTicks(
            [[(x, f"S{x + 1}" + (" ★" if run.results[x].winner == "new" else "")) for x in xs]]
        )


class BenchmarksPanel(Panel):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self._select_run: int | None = None
        self.run: BenchmarkInfo | None = None

        self.proposal_combo = QComboBox()
        self.proposal_combo.setMinimumWidth(200)
        self.rerun_button = QPushButton(self.tr("Re-run benchmark"))
        self.rerun_button.setToolTip(self.tr("Benchmark the selected run's proposal again (kept scenarios are reused)"))
        self.count_label = label("", "hintText")
        top = QHBoxLayout()
        top.addWidget(QLabel(self.tr("Proposal:")))
        top.addWidget(self.proposal_combo)
        top.addWidget(self.count_label, 1)
        top.addWidget(self.rerun_button)

        self.model = RunsModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        enable_sorting(self.table, self.model)  # a header click sorts the rows (all in memory)
        setup_table(self.table)
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        hh.setStretchLastSection(True)
        for col, width in ((0, 40), (1, 72), (2, 105), (3, 88), (4, 108), (5, 55), (6, 110)):
            self.table.setColumnWidth(col, width)
        self.table.selectionModel().currentRowChanged.connect(self._on_current)
        self.empty = EmptyState(
            self.table,
            (
                self.tr(
                    "No benchmark yet. Select a pending proposal in Proposals and press B (or `lorekeeper bench run ID`); "
                    "Sage proposals are benchmarked automatically."
                )
            ),
        )

        self.summary = QLabel("")
        self.summary.setObjectName("benchmarkBadge")
        self.detail_label = label("", "hintText", wrap=True)
        self.chart = ScoreChart()
        self.battle = QWidget()
        self.battle_layout = QVBoxLayout(self.battle)
        self.battle_layout.setContentsMargins(0, 0, 0, 0)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(self.battle)
        self.cards: list[BattleCard] = []

        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        head = QHBoxLayout()
        head.addWidget(self.summary)
        head.addStretch(1)
        rl.addLayout(head)
        rl.addWidget(self.detail_label)
        rl.addWidget(self.chart)
        self.battle_title = label(self.tr("Battle view"), "sectionTitle")
        rl.addWidget(self.battle_title)
        rl.addWidget(scroll, 1)

        # the kept scenarios of the selected run's skill: the operator adds or removes them here
        self.scenarios_title = label(self.tr("Kept scenarios"), "sectionTitle")
        self.scenario_list = QListWidget()
        self.scenario_list.setWordWrap(True)
        self.scenario_edit = QLineEdit()
        self.scenario_edit.setPlaceholderText(self.tr("A new scenario, Enter keeps it"))
        self.scenario_edit.setToolTip(self.tr("Write a scenario (a request both versions answer), Enter to keep it"))
        self.scenario_edit.setMinimumWidth(placeholder_width(self.scenario_edit))
        self.scenario_edit.returnPressed.connect(self.add_scenario)
        self.add_scenario_button = QPushButton(self.tr("Add"))
        self.add_scenario_button.clicked.connect(self.add_scenario)
        self.delete_scenario_button = QPushButton(self.tr("Delete"))
        self.delete_scenario_button.clicked.connect(self.delete_scenario)
        add_row = QHBoxLayout()
        add_row.addWidget(self.scenario_edit, 1)
        add_row.addWidget(self.add_scenario_button)
        add_row.addWidget(self.delete_scenario_button)
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(self.empty, 3)
        ll.addWidget(self.scenarios_title)
        ll.addWidget(
            label(
                self.tr(
                    "Used first by the next runs of this skill (yours before the model's); missing ones are "
                    "generated by the model and kept."
                ),
                "hintText",
                wrap=True,
            )
        )
        ll.addWidget(self.scenario_list, 1)
        ll.addLayout(add_row)

        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(right)
        split.setSizes([560, 760])
        self.message = MessageBox()

        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 16, 20, 12)
        layout.addWidget(label(self.tr("Benchmarks"), "panelTitle"))
        layout.addWidget(
            label(
                lformat(
                    self.tr(
                        "A/B runs of proposals: current vs proposed content on the same scenarios. Combined score (0-10) = {EVAL_WEIGHT:.0%} evals (share of rules passed × 10) + {JUDGE_WEIGHT:.0%} LLM judge (1-10, both orders, labels hidden; a judge that changes its mind when the order is swapped counts as a tie)."
                    ),
                    EVAL_WEIGHT=EVAL_WEIGHT,
                    JUDGE_WEIGHT=JUDGE_WEIGHT,
                ),
                "panelSubtitle",
                wrap=True,
            )
        )
        layout.addLayout(top)
        layout.addWidget(split, 1)
        layout.addWidget(self.message)

        self.proposal_combo.currentIndexChanged.connect(self.reload)
        self.rerun_button.clicked.connect(self.rerun)
        ctx.bus.changed.connect(self._on_bus)
        self._show_run(None)
        self.refresh()

    @Slot()
    def refresh(self) -> None:
        self.reload()

    def showcase(self) -> None:
        if self.model.rows:
            self.table.selectRow(0)

    @Slot(str)
    def _on_bus(self, topic: str) -> None:
        if topic in ("benchmarks", "proposals"):
            self.reload()

    def filter_proposal(self) -> int | None:
        data = self.proposal_combo.currentData()
        return None if data in (None, ALL) else int(data)

    @Slot()
    def reload(self) -> None:
        pid = self.filter_proposal()
        ws = self.ws

        def load() -> RunsSnapshot:
            runs = ws.improve.bench.list()
            seen: dict[int, str] = {}
            for r in runs:
                seen.setdefault(r.proposal_id, f"#{r.proposal_id} {r.skill}")
            shown = [r for r in runs if pid is None or r.proposal_id == pid]
            return RunsSnapshot(shown, sorted(seen.items(), reverse=True))

        run_task(
            load,
            name=self.tr("Loading benchmarks"),
            key=(self, "list"),
            visible=False,
            on_result=lambda snap: self._show(snap),
            on_error=self.message.show_error,
        )

    def _show(self, snap: RunsSnapshot) -> None:
        current = self.proposal_combo.currentData()
        self.proposal_combo.blockSignals(True)
        self.proposal_combo.clear()
        self.proposal_combo.addItem(self.tr("All proposals"), ALL)
        for pid, text in snap.proposals:
            self.proposal_combo.addItem(text, pid)
        self.proposal_combo.setCurrentIndex(max(self.proposal_combo.findData(current), 0) if current is not None else 0)
        self.proposal_combo.blockSignals(False)
        keep = self._select_run if self._select_run is not None else (self.run.id if self.run else None)
        self._select_run = None
        self.table.selectionModel().blockSignals(True)
        self.model.set_rows(snap.runs)
        row = next((i for i, r in enumerate(self.model.rows) if r.id == keep), 0 if snap.runs else None)
        if row is not None:
            self.table.selectRow(row)
        self.table.selectionModel().blockSignals(False)
        self.empty.set_empty(not snap.runs)
        self.count_label.setText(self.tr("%n run(s)", "", len(snap.runs)))
        self._show_run(self.model.row(row) if row is not None else None)

    @Slot()
    def _on_current(self, *_args: object) -> None:
        idx = self.table.selectionModel().currentIndex()
        self._show_run(self.model.row(idx.row()) if idx.isValid() else None)

    def _show_run(self, run: BenchmarkInfo | None) -> None:
        self.run = run
        self.rerun_button.setEnabled(run is not None)
        for card in self.cards:
            card.setParent(None)
            card.deleteLater()
        self.cards = []
        while self.battle_layout.count():
            self.battle_layout.takeAt(0)
        self.chart.show_run(run)
        self.chart.setVisible(run is not None)
        self.battle_title.setVisible(run is not None)
        self._load_scenarios()
        if run is None:
            self.summary.setText("")
            self.summary.hide()
            self.detail_label.setText(tr_const("benchmarks", HOW_IT_WORKS))
            return
        self.summary.setText(
            self.tr("Run #{id} · proposal #{proposal_id} · {badge}").format(
                id=run.id, proposal_id=run.proposal_id, badge=run.badge
            )
        )
        self.summary.setStyleSheet(badge_style(run.verdict))
        self.summary.show()
        self.detail_label.setText(
            lformat(
                self.tr(
                    "{skill}: mean combined old {old_avg:.2f} → new {new_avg:.2f} (0-10). Model {provider}:{model}, judge {judge_model}, seed {seed}, {created_at:%Y-%m-%d %H:%M} UTC."
                ),
                skill=run.skill,
                old_avg=run.old_avg,
                new_avg=run.new_avg,
                provider=run.provider,
                model=run.model,
                judge_model=run.judge_model,
                seed=run.seed,
                created_at=run.created_at,
            )
        )
        for r in run.results:
            card = BattleCard(r)
            self.cards.append(card)
            self.battle_layout.addWidget(card)
        self.battle_layout.addStretch(1)

    @Slot()
    def rerun(self) -> None:
        run = self.run
        if run is None:
            return
        self.rerun_button.setEnabled(False)
        self.message.clear_message()

        def done(new: BenchmarkInfo) -> None:
            self._select_run = new.id
            self.message.show_ok(
                self.tr("Benchmark #{id} of proposal #{proposal_id}: {badge}").format(
                    id=new.id, proposal_id=new.proposal_id, badge=new.badge
                )
            )

        bench, pid = self.ws.improve.bench, run.proposal_id
        run_task(
            lambda cancel: bench.run_steps(pid, should_stop=cancel),  # the status bar's Cancel stops it
            name=self.tr("Benchmark #{proposal_id}").format(proposal_id=run.proposal_id),
            on_cancelled=lambda: self.message.show_ok(self.tr("Benchmark cancelled: nothing was stored.")),
            on_result=done,
            on_error=self.message.show_error,
            on_finished=lambda: self.rerun_button.setEnabled(True),
        )

    # ------------------------------------------------------------ scenarios
    def _load_scenarios(self) -> None:
        run = self.run
        for w in (self.scenario_edit, self.add_scenario_button, self.delete_scenario_button):
            w.setEnabled(run is not None)
        if run is None:
            self.scenarios_title.setText(self.tr("Kept scenarios"))
            self.scenario_list.clear()
            return
        self.scenarios_title.setText(
            self.tr("Kept scenarios of {skill}").format(skill=run.skill) + (f" ({run.scope})" if run.scope else "")
        )
        bench = self.ws.improve.bench
        run_task(
            bench.scenarios,
            run.skill,
            run.scope,
            name=self.tr("Loading scenarios"),
            visible=False,
            on_result=self._show_scenarios,
            on_error=self.message.show_error,
        )

    def _show_scenarios(self, rows: list[ScenarioInfo]) -> None:
        self.scenario_list.clear()
        for r in rows:
            item = QListWidgetItem(f"[{r.source}] {r.text}")
            item.setData(Qt.ItemDataRole.UserRole, r.id)
            self.scenario_list.addItem(item)

    @Slot()
    def add_scenario(self) -> None:
        run = self.run
        text = self.scenario_edit.text().strip()
        if run is None or not text:
            return
        bench = self.ws.improve.bench

        def added(_info: ScenarioInfo) -> None:
            self.scenario_edit.clear()
            self._load_scenarios()

        run_task(
            bench.add_scenario,
            run.skill,
            run.scope,
            text,
            name=self.tr("Adding a scenario"),
            on_result=added,
            on_error=self.message.show_error,
        )

    @Slot()
    def delete_scenario(self) -> None:
        item = self.scenario_list.currentItem()
        if item is None:
            return  # type: ignore[unreachable]  # PySide6's stub says currentItem() is never None; it is with no selection
        run_task(
            self.ws.improve.bench.delete_scenario,
            int(item.data(Qt.ItemDataRole.UserRole)),
            name=self.tr("Deleting a scenario"),
            on_result=lambda _none: self._load_scenarios(),
            on_error=self.message.show_error,
        )
