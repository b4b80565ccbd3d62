"""Compression ledger: what a context pack sends, file by file, and why.

Pick a folder and a task, a budget and the model's window, press Pack. The pack runs in a worker
(progress, Cancel). Then: each file with its relevance, mode, tokens original/sent and the reason
for its mode; a pressure gauge against the window; the re-injection plan and deficit suggestions;
a pyqtgraph chart of tokens by file and mode; and the selected file's original beside what was
sent. Same engine as `lorekeeper ctx pack`.
"""

from __future__ import annotations

import html
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QLocale, Qt, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QSplitter,
    QStyledItemDelegate,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from lorekeeper.context.ledger import (
    DEFAULT_WINDOW,
    PRESSURE_COMPRESS,
    PRESSURE_EVICT,
    LedgerSnapshot,
    pack_with_ledger,
)
from lorekeeper.context.pack import PACK_MODES, FileEntry
from lorekeeper.jobs import process_steps
from lorekeeper.ui.charts import ThemedPlot
from lorekeeper.ui.i18n import QT_TRANSLATE_NOOP, lformat
from lorekeeper.ui.models.ledger import MODE_COLORS, LedgerFilesModel, SourceSortProxy
from lorekeeper.ui.panels.base import AppContext, Panel
from lorekeeper.ui.theme import PRESSURE_LEVELS, color
from lorekeeper.ui.turns import in_turns
from lorekeeper.ui.widgets import EmptyState, Gauge, MessageBox, label, mono_font, set_progress, setup_table
from lorekeeper.ui.workers import Worker, cancel_key, is_synchronous, run_task

CHART_FILES = 24  # files shown in the chart (the largest originals)
SHOWCASE_TASK = QT_TRANSLATE_NOOP("ledger", "fix the budget overrun when a pack downgrades files")
# The pack modes as shown (table, combo, chart legend, titles, plan): the data keep the English
# names (the engine, the CLI, sorting and the showcase's selection compare them).
MODE_NAMES = (
    QT_TRANSLATE_NOOP("ledger", "auto"),
    QT_TRANSLATE_NOOP("ledger", "full"),
    QT_TRANSLATE_NOOP("ledger", "map"),
    QT_TRANSLATE_NOOP("ledger", "signatures"),
    QT_TRANSLATE_NOOP("ledger", "reference"),
    QT_TRANSLATE_NOOP("ledger", "omitted"),
)


def mode_text(mode: str) -> str:
    """A pack mode in the app's language ("omitted" -> "omis" in French); unknown names as they are."""
    return QCoreApplication.translate("ledger", mode) if mode in MODE_NAMES else mode


class ModeDelegate(QStyledItemDelegate):
    """Paints the Mode column's stored value in the app's language (the model's data stays English)."""

    def displayText(self, value: Any, locale: QLocale | QLocale.Language) -> str:
        return mode_text(str(value)) if isinstance(value, str) else super().displayText(value, locale)


class TokensChart(ThemedPlot):
    """Original tokens (grey) behind sent tokens (coloured by mode), per file. The legend is a label
    of its own (`legend`, laid out above the plot by the panel): inside the plot it covered the
    tallest bars, and the plot's 110 px left no room beside them at 1024x640."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            QCoreApplication.translate("TokensChart", "tokens"), min_height=110, max_height=230, parent=parent
        )
        self.legend = QLabel()
        self.legend.setObjectName("hintText")
        self.legend.setWordWrap(True)
        self.legend.setTextFormat(Qt.TextFormat.RichText)
        self.bars: list[pg.BarGraphItem] = []
        self.files: list[str] = []

    def show_entries(self, entries: list[FileEntry]) -> None:
        for _ in self.build_steps(entries):
            pass

    def build_steps(self, entries: list[FileEntry]) -> Iterator[None]:
        """Build the chart one plot item at a time (a generator: the panel spreads the steps over
        event-loop turns, with the chart's painting held until the last one)."""
        pi = self.plotItem
        pi.clear()
        self.bars = []
        shown = sorted(entries, key=lambda e: (-e.original_tokens, e.rel))[:CHART_FILES]
        self.files = [e.rel for e in shown]
        self.legend.setText("")
        self.legend.setVisible(bool(shown))
        if not shown:
            return
        xs = list(range(len(shown)))
        yield
        orig = pg.BarGraphItem(
            x=xs,
            height=[e.original_tokens for e in shown],
            width=0.8,
            brush=pg.mkBrush(color("muted").lighter(150)),
            pen=pg.mkPen(None),
            name=QCoreApplication.translate("TokensChart", "original"),
        )
        pi.addItem(orig)
        self.bars.append(orig)
        keys = [(color("muted").lighter(150), QCoreApplication.translate("TokensChart", "original"))]
        for mode, cname in MODE_COLORS.items():
            idx = [k for k, e in enumerate(shown) if e.mode == mode]
            if not idx:
                continue
            yield
            bar = pg.BarGraphItem(
                x=idx,
                height=[shown[k].sent_tokens for k in idx],
                width=0.5,
                brush=pg.mkBrush(color(cname)),
                pen=pg.mkPen(None),
                name=QCoreApplication.translate("TokensChart", "sent: {mode}").format(mode=mode_text(mode)),
            )
            pi.addItem(bar)
            self.bars.append(bar)
            keys.append((color(cname), bar.name()))
        yield
        self.legend.setText(
            "&nbsp;&nbsp; ".join(
                f'<span style="color:{c.name()}">&#9632;</span>&nbsp;{html.escape(t)}' for c, t in keys
            )
        )
        pi.setXRange(-0.6, len(xs) - 0.4, padding=0)
        # as many names as the axis has room for (six 9-letter names ran into each other at 1024x640)
        label_px = self.fontMetrics().horizontalAdvance("m" * 9) + 12
        fit = max(1, (max(self.width(), 200) - 70) // label_px)
        step = max(1, -(-len(xs) // fit))
        pi.getAxis("bottom").setTicks([[(x, Path(shown[x].rel).stem[:9]) for x in xs[::step]]])


class LedgerPanel(Panel):
    panel_id = "ledger"

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.worker: Worker | None = None
        self.snapshot: LedgerSnapshot | None = None

        self.folder_edit = QLineEdit()
        self.folder_edit.setPlaceholderText(self.tr("Source folder to pack"))
        self.browse_button = QPushButton(self.tr("Browse…"))
        self.task_edit = QLineEdit()
        self.task_edit.setPlaceholderText(self.tr("Task, e.g. fix the NaN bug in entropy.rs (optional)"))
        self.budget_spin = QSpinBox()
        self.budget_spin.setRange(0, 2_000_000)
        self.budget_spin.setSingleStep(1000)
        self.budget_spin.setSpecialValueText("auto")
        self.budget_spin.setValue(16000)
        self.window_spin = QSpinBox()
        self.window_spin.setRange(1000, 2_000_000)
        self.window_spin.setSingleStep(8000)
        self.window_spin.setValue(DEFAULT_WINDOW)
        self.mode_combo = QComboBox()
        for mode in PACK_MODES:
            self.mode_combo.addItem(mode_text(mode), mode)
        self.pack_button = QPushButton(self.tr("Pack"))
        self.pack_button.setDefault(True)
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setEnabled(False)
        self.progress = QProgressBar()
        self.progress.setTextVisible(True)
        self.progress.setFormat("idle")
        self.progress.setValue(0)

        form = QFormLayout()
        row1 = QHBoxLayout()
        row1.addWidget(self.folder_edit, 1)
        row1.addWidget(self.browse_button)
        form.addRow(self.tr("Folder:"), row1)
        form.addRow(self.tr("Task:"), self.task_edit)
        row3 = QHBoxLayout()
        row3.addWidget(QLabel(self.tr("Budget:")))
        row3.addWidget(self.budget_spin)
        row3.addWidget(QLabel(self.tr("Window:")))
        row3.addWidget(self.window_spin)
        row3.addWidget(QLabel(self.tr("Mode:")))
        row3.addWidget(self.mode_combo)
        row3.addStretch(1)
        row3.addWidget(self.pack_button)
        row3.addWidget(self.cancel_button)
        form.addRow(row3)
        form.addRow(self.progress)

        self.model = LedgerFilesModel(self)
        self.proxy = SourceSortProxy(self)
        self.proxy.setSourceModel(self.model)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        setup_table(self.table)
        self.table.setSortingEnabled(True)
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        hh.setStretchLastSection(True)
        for col, width in ((0, 230), (1, 75), (2, 85), (3, 70), (4, 70), (5, 70)):
            self.table.setColumnWidth(col, width)
        self.mode_delegate = ModeDelegate(self.table)
        self.table.setItemDelegateForColumn(LedgerFilesModel.COL_MODE, self.mode_delegate)
        self.table.selectionModel().currentRowChanged.connect(self._on_current)
        self.empty = EmptyState(
            self.table,
            self.tr("Choose a folder (and a task), then press Pack to see what an agent would receive, file by file."),
        )

        self.summary = label("", "hintText", wrap=True)
        self.gauge = Gauge()
        self.gauge.setRange(0, 1000)
        self.gauge.setTextVisible(True)
        self.gauge.setFormat(self.tr("window: empty"))
        self.pressure_label = label("", "sectionTitle")
        self.plan_box = QPlainTextEdit()
        self.plan_box.setReadOnly(True)
        self.plan_box.setMaximumHeight(120)
        self.plan_box.setMinimumHeight(48)
        self.plan_box.setFont(mono_font(9))
        self.chart = TokensChart()

        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addWidget(self.pressure_label)
        rl.addWidget(self.gauge)
        rl.addWidget(label(self.tr("Re-injection plan and suggestions"), "sectionTitle"))
        rl.addWidget(self.plan_box)
        rl.addWidget(label(self.tr("Tokens by file and mode"), "sectionTitle"))
        rl.addWidget(self.chart.legend)
        rl.addWidget(self.chart, 1)

        top_split = QSplitter(Qt.Orientation.Horizontal)
        top_split.addWidget(self.empty)
        top_split.addWidget(right)
        top_split.setSizes([700, 520])

        self.original_view = QPlainTextEdit()
        self.sent_view = QPlainTextEdit()
        for view in (self.original_view, self.sent_view):
            view.setReadOnly(True)
            view.setFont(mono_font(9))
            view.setMinimumHeight(48)  # three lines at least; the rest of the room goes to the chart at 1024x640
            view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.original_title = label(self.tr("Original"), "sectionTitle")
        self.sent_title = label(self.tr("Sent"), "sectionTitle")
        left_box = QWidget()
        lb = QVBoxLayout(left_box)
        lb.setContentsMargins(0, 0, 0, 0)
        lb.addWidget(self.original_title)
        lb.addWidget(self.original_view)
        right_box = QWidget()
        rb = QVBoxLayout(right_box)
        rb.setContentsMargins(0, 0, 0, 0)
        rb.addWidget(self.sent_title)
        rb.addWidget(self.sent_view)
        compare = QSplitter(Qt.Orientation.Horizontal)
        compare.addWidget(left_box)
        compare.addWidget(right_box)

        main_split = QSplitter(Qt.Orientation.Vertical)
        main_split.addWidget(top_split)
        main_split.addWidget(compare)
        main_split.setSizes([430, 300])
        self.message = MessageBox()

        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 16, 20, 12)
        layout.addWidget(label(self.tr("Compression ledger"), "panelTitle"))
        layout.addWidget(
            label(
                self.tr(
                    "What a context pack sends for a task: relevance from the task's words, the import and call graphs "
                    "(heat diffusion + PageRank), Boltzmann token budgets, and a mode per file. The budget is never "
                    "exceeded and the pack is never larger than the files; every file's header says its mode and the "
                    "tokens dropped. Same engine as `lorekeeper ctx pack`."
                ),
                "panelSubtitle",
                wrap=True,
            )
        )
        layout.addLayout(form)
        # the summary spans the panel (one line at 1024x640): in the right column it wrapped to two
        # lines the splitter did not count, and the chart's axis labels were cut by as much
        layout.addWidget(self.summary)
        layout.addWidget(main_split, 1)
        layout.addWidget(self.message)

        self.browse_button.clicked.connect(self.browse)
        self.pack_button.clicked.connect(self.start_pack)
        self.cancel_button.clicked.connect(self.cancel)
        self.task_edit.returnPressed.connect(self.start_pack)
        self.folder_edit.returnPressed.connect(self.start_pack)  # Enter in either field packs
        self.folder_edit.textChanged.connect(lambda _t: self._update_pack_button())
        self._update_pack_button()
        self._show(None)

    # -- actions ------------------------------------------------------------------------------

    def search_box(self) -> QLineEdit:
        return self.task_edit

    def showcase(self) -> None:
        """Screenshot mode: pack Lorekeeper's own context engine for a sample task."""
        import lorekeeper.context as engine

        self.folder_edit.setText(str(Path(engine.__file__).parent))
        self.task_edit.setText(SHOWCASE_TASK)
        self.budget_spin.setValue(9000)
        self.window_spin.setValue(12000)
        self.start_pack()
        for row in range(self.proxy.rowCount()):
            if self.proxy.index(row, LedgerFilesModel.COL_MODE).data() == "map":
                self.table.selectRow(row)
                break

    @Slot()
    def browse(self) -> None:
        folder = QFileDialog.getExistingDirectory(
            self, self.tr("Folder to pack"), self.folder_edit.text() or str(Path.home())
        )
        if folder:
            self.folder_edit.setText(folder)

    @Slot()
    def start_pack(self) -> None:
        folder = self.folder_edit.text().strip()
        if not folder:
            self.message.show_error(self.tr("Choose a folder to pack first."))
            return
        if self.worker is not None:
            return
        self.message.clear_message()
        cancel_key((self, "original"))  # a file read for the previous pack must not land in the new one
        budget = self.budget_spin.value() or None
        self.pack_button.setEnabled(False)
        self.pack_button.setToolTip(self.tr("A pack is running: wait for it or Cancel it"))
        self.cancel_button.setEnabled(True)
        set_progress(self.progress, 0, 0, self.tr("starting…"))
        # Packing is long pure-Python work that would hold the interpreter lock and stall the GUI:
        # it runs in a worker process (Cancel terminates it). Synchronous mode (tests, screenshots)
        # packs inline.
        job: tuple[Any, ...] = (pack_with_ledger,) if is_synchronous() else (process_steps, pack_with_ledger)
        self.worker = run_task(
            *job,
            Path(folder),
            task=self.task_edit.text().strip() or None,
            budget=budget,
            mode=str(self.mode_combo.currentData()),
            window=self.window_spin.value(),
            name=self.tr("Packing {name}").format(name=Path(folder).name),
            on_progress=self._on_progress,
            on_result=self._show,
            on_error=self._on_error,
            on_cancelled=self._on_cancelled,
            on_finished=self._on_finished,
        )

    @Slot()
    def cancel(self) -> None:
        if self.worker is not None:
            self.worker.cancel()
            self.progress.setFormat(self.tr("cancelling…"))

    # -- worker callbacks -------------------------------------------------------------------------

    def _on_progress(self, done: int, total: int, text: str) -> None:
        set_progress(self.progress, done, max(1, total), f"{text} (%p%)")

    def _on_error(self, exc: BaseException) -> None:
        self.message.show_error(exc)
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.progress.setFormat("failed")

    def _on_cancelled(self) -> None:
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.progress.setFormat("cancelled")
        self.message.show_ok(self.tr("Pack cancelled: nothing changed."))

    def _on_finished(self) -> None:
        self.worker = None
        self._update_pack_button()
        self.cancel_button.setEnabled(False)

    def _update_pack_button(self) -> None:
        """Pack can do nothing without a folder, or while a pack runs: disabled, saying why."""
        if self.worker is not None:
            why = self.tr("A pack is running: wait for it or Cancel it")
        elif not self.folder_edit.text().strip():
            why = self.tr("Choose a folder to pack first (type it, or Browse…)")
        else:
            why = ""
        self.pack_button.setEnabled(not why)
        self.pack_button.setToolTip(why or self.tr("Pack the folder for the task (Enter in the folder or task field)"))

    # -- display ------------------------------------------------------------------------------

    def _show(self, snap: LedgerSnapshot | None) -> None:
        self.snapshot = snap
        # A big pack is shown in pieces, one event-loop turn each: the table (painted before the
        # next piece), then the summary, then the chart one plot item per turn, painted once.
        in_turns(self, self._show_steps(snap), lambda: self.snapshot is snap)

    def _show_steps(self, snap: LedgerSnapshot | None) -> Generator[None, None, None]:
        self.original_view.clear()
        self.sent_view.clear()
        if snap is None:
            self.model.set_rows([])
            self.empty.set_empty(True)
            self.summary.setText("")
            self.pressure_label.setText(self.tr("Pressure: —"))
            self.plan_box.setPlainText("")
            self.chart.show_entries([])
            return
        r: Any = snap.result
        self.model.set_rows(r.entries)
        self.empty.set_empty(not r.entries)
        self.table.sortByColumn(LedgerFilesModel.COL_RELEVANCE, Qt.SortOrder.DescendingOrder)
        set_progress(self.progress, 1, 1, lformat(self.tr("done in {seconds:.2f}s"), seconds=r.seconds))
        yield
        self._show_summary(snap)
        yield
        self.chart.setUpdatesEnabled(False)
        try:
            yield from self.chart.build_steps(r.entries)
        finally:
            self.chart.setUpdatesEnabled(True)

    def _show_summary(self, snap: LedgerSnapshot) -> None:
        r: Any = snap.result
        intent = r.intent
        task = (
            self.tr("{task_type}, scope {scope}, specificity {specificity}").format(
                task_type=intent.task_type, scope=intent.scope, specificity=intent.specificity
            )
            if intent.task
            else self.tr("no task")
        )
        self.summary.setText(
            lformat(
                self.tr(
                    "{n} files: {input_tokens:,} → {output_tokens:,} tokens ({0:.1%} less, limit {cap:,}) · {task}"
                ),
                1 - r.output_tokens / max(1, r.input_tokens),
                n=len(r.entries),
                input_tokens=r.input_tokens,
                output_tokens=r.output_tokens,
                cap=r.cap,
                task=task,
            )
        )
        frac = min(1.0, snap.utilization)
        set_progress(
            self.gauge,
            int(frac * 1000),
            1000,
            lformat(
                self.tr("{used:,} of {window:,} tokens ({utilization:.1%})"),
                used=snap.used,
                window=snap.window,
                utilization=snap.utilization,
            ),
        )
        self._gauge_level(PRESSURE_LEVELS[snap.pressure])
        self.pressure_label.setText(
            lformat(
                self.tr(
                    "Pressure: {pressure} (compress from {PRESSURE_COMPRESS:.0%}, evict from {PRESSURE_EVICT:.0%})"
                ),
                pressure=snap.pressure,
                PRESSURE_COMPRESS=PRESSURE_COMPRESS,
                PRESSURE_EVICT=PRESSURE_EVICT,
            )
        )
        lines = [
            lformat(
                self.tr("{path}: {from_mode} → {to_mode} (frees {saves:,} tokens)"),
                path=s.path,
                from_mode=mode_text(s.from_mode),
                to_mode=mode_text(s.to_mode),
                saves=s.saves,
            )
            for s in snap.plan
        ]
        if snap.plan and snap.protected:
            lines.append(self.tr("protected (task targets): {0}").format(", ".join(snap.protected[:6])))
        if not snap.plan and snap.pressure == "none":
            lines.append(self.tr("No re-injection needed: the window is below the compress level."))
        elif not snap.plan:
            lines.append(self.tr("Nothing left to downgrade: every file still in the window is a target of the task."))
        lines.extend(self.tr("suggest: {d}").format(d=d) for d in snap.deficits)
        self.plan_box.setPlainText("\n".join(lines))

    def _gauge_level(self, level: str) -> None:
        """The gauge's colour (it repaints itself; no style sheet, whose chunk colour left the text
        unreadable on it in both themes)."""
        self.gauge.set_level(level)

    def selected_entry(self) -> FileEntry | None:
        idx = self.table.currentIndex()
        if not idx.isValid():
            return None
        return self.model.row(self.proxy.mapToSource(idx).row())

    def _on_current(self, *_args: object) -> None:
        entry = self.selected_entry()
        snap = self.snapshot
        if entry is None or snap is None:
            return
        r: Any = snap.result
        self.sent_view.setPlainText(r.sections.get(entry.rel, "(omitted to fit the budget)"))
        self.sent_title.setText(
            lformat(
                self.tr("Sent: {mode}, {sent_tokens:,} tokens"),
                mode=mode_text(entry.mode),
                sent_tokens=entry.sent_tokens,
            )
        )
        self.original_title.setText(
            lformat(
                self.tr("Original: {rel}, {original_tokens:,} tokens"),
                rel=entry.rel,
                original_tokens=entry.original_tokens,
            )
        )
        root, rel = Path(r.root), entry.rel

        def load() -> str:  # the stat and the read both in the worker
            path = root if root.is_file() else root / rel
            return path.read_text(encoding="utf-8", errors="replace")

        run_task(
            load,
            name=self.tr("Reading file"),
            key=(self, "original"),
            visible=False,
            on_result=self.original_view.setPlainText,
            on_error=self.message.show_error,
        )
