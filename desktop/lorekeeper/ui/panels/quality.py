"""Quality dashboard: per-skill health over a time window, charts over time, underperformers marked.

A skill is underperforming (the seed's rule, from `lorekeeper.quality`) when it was applied at
least 3 times and its success rate is below 80% or its negative feedback outnumbers the positive.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, Qt, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from lorekeeper.quality.metrics import MIN_APPLIED, SUCCESS_THRESHOLD, DayPoint, SkillMetrics, format_rate
from lorekeeper.ui.charts import ThemedPlot
from lorekeeper.ui.i18n import QT_TRANSLATE_NOOP, fmt_day, tr_const
from lorekeeper.ui.models.base import RowsModel, enable_sorting
from lorekeeper.ui.panels.base import AppContext, Panel
from lorekeeper.ui.theme import color, icon
from lorekeeper.ui.widgets import EmptyState, MessageBox, label, setup_table
from lorekeeper.ui.workers import run_task

WINDOWS = (
    (QT_TRANSLATE_NOOP("quality", "Last 7 days"), 7),
    (QT_TRANSLATE_NOOP("quality", "Last 30 days"), 30),
    (QT_TRANSLATE_NOOP("quality", "Last 90 days"), 90),
    (QT_TRANSLATE_NOOP("quality", "All time"), None),
)
ALL = "__all__"
EMPTY = QT_TRANSLATE_NOOP(
    "quality",
    "No quality events in this window. Every answer in the Playground (or `lorekeeper llm ask`) records the "
    "skills it was routed to, their eval outcome and your feedback.",
)


@dataclass(frozen=True)
class Snapshot:
    metrics: list[SkillMetrics]
    points: list[DayPoint]
    skill: str | None
    days: int | None


class SkillHealthModel(RowsModel[SkillMetrics]):
    COL_SKILL, COL_PROJECT, COL_APPLIED, COL_SUCCESS, COL_UP, COL_DOWN, COL_STATUS = range(7)
    HEADERS = (
        QT_TRANSLATE_NOOP("SkillHealthModel", "Skill"),
        QT_TRANSLATE_NOOP("SkillHealthModel", "Scope"),
        QT_TRANSLATE_NOOP("SkillHealthModel", "Applied"),
        QT_TRANSLATE_NOOP("SkillHealthModel", "Success"),
        QT_TRANSLATE_NOOP("SkillHealthModel", "Up"),
        QT_TRANSLATE_NOOP("SkillHealthModel", "Down"),
        QT_TRANSLATE_NOOP("SkillHealthModel", "Health"),
    )
    SORTABLE = tuple(range(7))

    def sort_value(self, item: SkillMetrics, column: int) -> Any:
        if column == self.COL_SUCCESS:
            return item.success_rate  # the rate, not its text ("79.9%" < "8.0%" as text)
        if column == self.COL_STATUS:
            return (0 if item.underperforming else 1 if item.applied_count < MIN_APPLIED else 2, item.skill)
        return self.cell(item, column, Qt.ItemDataRole.DisplayRole)

    def cell(self, item: SkillMetrics, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            rate = format_rate(item.success_rate, none="—")
            if item.underperforming:
                status = QCoreApplication.translate("SkillHealthModel", "Underperforming: ") + "; ".join(item.reasons)
            elif item.applied_count < MIN_APPLIED:
                status = QCoreApplication.translate("SkillHealthModel", "Too few uses (< {MIN_APPLIED})").format(
                    MIN_APPLIED=MIN_APPLIED
                )
            else:
                status = QCoreApplication.translate("SkillHealthModel", "Healthy")
            return (
                item.skill,
                item.project or "global",
                item.applied_count,
                rate,
                item.feedback_positive,
                item.feedback_negative,
                status,
            )[column]
        if role == Qt.ItemDataRole.DecorationRole and column == self.COL_STATUS:
            return (
                icon("warning")
                if item.underperforming
                else (icon("pass") if item.applied_count >= MIN_APPLIED else None)
            )
        if (
            role == Qt.ItemDataRole.ForegroundRole
            and item.underperforming
            and column in (self.COL_SKILL, self.COL_STATUS)
        ):
            return color("fail")
        if role == Qt.ItemDataRole.ForegroundRole and column == self.COL_SUCCESS and item.success_rate is not None:
            return color("pass") if item.success_rate >= SUCCESS_THRESHOLD else color("fail")
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (
            self.COL_APPLIED,
            self.COL_SUCCESS,
            self.COL_UP,
            self.COL_DOWN,
        ):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


class _Chart(ThemedPlot):
    def __init__(self, ylabel: str, parent: QWidget | None = None) -> None:
        super().__init__(ylabel, min_height=130, parent=parent)
        self.plotItem.getAxis("left").setWidth(48)  # both charts share the x axis: same left margin


def day_axis(days: int | None, points: list[DayPoint]) -> list[datetime]:
    """The days shown: the whole window (days without events included), or the span of the data."""
    today = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    if days is not None:
        return [today - timedelta(days=days - 1 - i) for i in range(days)]
    if not points:
        return [today]
    first = datetime.strptime(points[0].day, "%Y-%m-%d").replace(tzinfo=UTC)
    n = (today - first).days + 1
    return [first + timedelta(days=i) for i in range(max(n, 1))]


class QualityPanel(Panel):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.snapshot: Snapshot | None = None

        self.window_combo = QComboBox()
        for text, days in WINDOWS:
            self.window_combo.addItem(tr_const("quality", text), days)
        self.window_combo.setCurrentIndex(1)
        self.project = QComboBox()
        self.project.setMinimumWidth(150)
        self.summary = label("", "hintText")
        filters = QHBoxLayout()
        filters.addWidget(QLabel(self.tr("Window:")))
        filters.addWidget(self.window_combo)
        filters.addWidget(QLabel(self.tr("Project:")))
        filters.addWidget(self.project)
        filters.addStretch(1)
        filters.addWidget(self.summary)

        self.model = SkillHealthModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        enable_sorting(self.table, self.model)  # a header click sorts the rows (all in memory)
        setup_table(self.table)
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        hh.setStretchLastSection(True)
        for col, width in ((0, 170), (1, 90), (2, 70), (3, 70), (4, 50), (5, 55)):
            self.table.setColumnWidth(col, width)
        # rows are per skill scope (the global skill or a project's fork): the scope column tells
        # a fork from its global skill, whatever the project filter
        self.table.selectionModel().currentRowChanged.connect(self._on_selected)
        self.empty = EmptyState(self.table, tr_const("quality", EMPTY))

        self.chart_title = label(self.tr("Success rate per day — all skills"), "sectionTitle")
        self.rate_chart = _Chart(self.tr("success %"))
        self.rate_chart.plotItem.setYRange(0, 100, padding=0.05)
        self.feedback_chart = _Chart(self.tr("feedback"))
        self.feedback_chart.setXLink(self.rate_chart)
        self.message = MessageBox()

        charts = QWidget()
        cl = QVBoxLayout(charts)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.addWidget(self.chart_title)
        cl.addWidget(self.rate_chart, 3)
        cl.addWidget(label(self.tr("Feedback per day (thumbs up above, thumbs down below)"), "sectionTitle"))
        cl.addWidget(self.feedback_chart, 2)

        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.empty)
        split.addWidget(charts)
        split.setSizes([620, 520])

        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 16, 20, 12)
        layout.addWidget(label(self.tr("Quality"), "panelTitle"))
        layout.addWidget(
            label(
                self.tr(
                    "Skill health per skill scope (the global skill or a project's fork) from the answers since its current version and its last reviewed proposal: applied count, success rate (no warning rule failed) and feedback. Underperforming: applied ≥ {MIN_APPLIED} and success < {0} or more thumbs down than up — the skills the nightly run proposes to fix. Worst first."
                ).format(format_rate(SUCCESS_THRESHOLD), MIN_APPLIED=MIN_APPLIED),
                "panelSubtitle",
                wrap=True,
            )
        )
        layout.addLayout(filters)
        layout.addWidget(split, 1)
        layout.addWidget(self.message)

        self.window_combo.currentIndexChanged.connect(self.reload)
        self.project.currentIndexChanged.connect(self.reload)
        ctx.bus.changed.connect(self._on_bus)
        self.refresh()

    # ------------------------------------------------------------ panel API
    @Slot()
    def refresh(self) -> None:
        ws = self.ws
        run_task(
            lambda: sorted(set(ws.skills.projects()) | set(ws.learnings.projects())),
            name=self.tr("Loading projects"),
            visible=False,
            on_result=self._on_projects,
        )

    def showcase(self) -> None:
        bad = next((i for i, m in enumerate(self.model.rows) if m.underperforming), None)
        if bad is not None:
            self.table.selectRow(bad)

    @Slot(str)
    def _on_bus(self, topic: str) -> None:
        if topic in ("quality", "evals"):
            self.reload()

    def _on_projects(self, projects: list[str]) -> None:
        current = self.project.currentData()
        self.project.blockSignals(True)
        self.project.clear()
        self.project.addItem(self.tr("All projects"), ALL)
        for p in projects:
            self.project.addItem(p, p)
        idx = self.project.findData(current) if current else 0
        self.project.setCurrentIndex(max(idx, 0))
        self.project.blockSignals(False)
        self.reload()

    def selected_skill(self) -> str | None:
        idx = self.table.selectionModel().currentIndex()
        row = self.model.row(idx.row()) if idx.isValid() else None
        return row.skill if row else None

    @Slot()
    def reload(self) -> None:
        days = self.window_combo.currentData()
        proj = self.project.currentData()
        project = None if proj in (None, ALL) else proj
        skill = self.selected_skill()
        ws = self.ws

        def load() -> Snapshot:
            return Snapshot(
                ws.quality.health(days=days, project=project),
                ws.quality.daily(days=days, project=project, skill=skill),
                skill,
                days,
            )

        run_task(
            load,
            name=self.tr("Loading quality"),
            key=(self, "load"),
            visible=False,
            on_result=lambda snap: self._show(snap),
            on_error=self.message.show_error,
        )

    def _show(self, snap: Snapshot) -> None:
        self.snapshot = snap
        keep = snap.skill
        self.table.selectionModel().blockSignals(True)
        self.model.set_rows(snap.metrics)
        if keep:
            for i, m in enumerate(self.model.rows):  # the table's order (a header may have sorted it)
                if m.skill == keep:
                    self.table.selectRow(i)
                    break
        self.table.selectionModel().blockSignals(False)
        self.empty.set_empty(not snap.metrics)
        bad = sum(1 for m in snap.metrics if m.underperforming)
        self.summary.setText(self.tr("{n} skill(s) used · {bad} underperforming").format(n=len(snap.metrics), bad=bad))
        self.chart_title.setText(self.tr("Success rate per day — {0}").format(snap.skill or "all skills"))
        self._draw(snap)

    def _draw(self, snap: Snapshot) -> None:
        days = day_axis(snap.days, snap.points)
        index = {d.strftime("%Y-%m-%d"): i for i, d in enumerate(days)}
        xs, rates, ups, downs = [], [], [], []
        for p in snap.points:
            i = index.get(p.day)
            if i is None:
                continue
            if p.success_rate is not None:
                xs.append(i)
                rates.append(100.0 * p.success_rate)
            ups.append((i, p.positive))
            downs.append((i, p.negative))
        rc = self.rate_chart.plotItem
        rc.clear()
        rc.addItem(
            pg.InfiniteLine(
                pos=100 * SUCCESS_THRESHOLD, angle=0, pen=pg.mkPen(color("muted"), style=Qt.PenStyle.DashLine)
            )
        )
        if xs:
            rc.plot(
                xs,
                rates,
                pen=pg.mkPen(color("info"), width=2),
                symbol="o",
                symbolSize=6,
                symbolBrush=[
                    pg.mkBrush(color("pass") if r >= 100 * SUCCESS_THRESHOLD else color("fail")) for r in rates
                ],
            )
        fc = self.feedback_chart.plotItem
        fc.clear()
        if ups:
            fc.addItem(
                pg.BarGraphItem(
                    x=[i for i, _ in ups],
                    height=[n for _, n in ups],
                    width=0.6,
                    brush=pg.mkBrush(color("pass")),
                    pen=pg.mkPen(None),
                )
            )
            fc.addItem(
                pg.BarGraphItem(
                    x=[i for i, _ in downs],
                    height=[-n for _, n in downs],
                    width=0.6,
                    brush=pg.mkBrush(color("fail")),
                    pen=pg.mkPen(None),
                )
            )
        top = max([1] + [n for _, n in ups])
        bottom = max([1] + [n for _, n in downs])
        fc.setYRange(-bottom, top, padding=0.1)
        step = max(1, -(-(top + bottom) // 4))
        fc.getAxis("left").setTickSpacing(step, step)
        rc.setXRange(-0.7, len(days) - 0.3, padding=0)
        step = max(len(days) // 6, 1)
        ticks = [(i, fmt_day(d)) for i, d in enumerate(days) if (len(days) - 1 - i) % step == 0]
        for plot in (rc, fc):
            plot.getAxis("bottom").setTicks([ticks])

    @Slot()
    def _on_selected(self, *_args: object) -> None:
        self.reload()
