"""Purge runs: GDPR erasure of a story from every artefact, its proof, and the daily retention.

The history lists every run with its counts per artefact and its verification; a story search
filters it and shows what a purge of that story would erase now; Purge asks for a confirmation
naming every artefact with its count, then runs as a job (progress and Cancel in the status bar);
the retention preview says what the next daily run erases and when the next summary expires; any
past run can be verified again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any, ClassVar

from PySide6.QtCore import QCoreApplication, Qt, Slot
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QListWidget,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from lorekeeper.privacy.purge import ARTEFACTS, PurgeResult, RunInfo
from lorekeeper.ui import widgets
from lorekeeper.ui.i18n import QT_TRANSLATE_NOOP, fmt_date, fmt_datetime, tr_const
from lorekeeper.ui.models.paged import PagedRowsModel, setup_sorting
from lorekeeper.ui.panels.base import AppContext, Panel
from lorekeeper.ui.theme import color, icon
from lorekeeper.ui.widgets import EmptyState, MessageBox, label, set_progress, setup_table
from lorekeeper.ui.workers import HOLD_TIP, Hold, HoldGate, run_task

STORY_DEBOUNCE_MS = 250  # the story box plans once typing pauses this long
LABELS = {
    "store": QT_TRANSLATE_NOOP("purge", "store rows"),
    "faiss": QT_TRANSLATE_NOOP("purge", "FAISS vectors"),
    "embeddings": QT_TRANSLATE_NOOP("purge", "embedding rows (.npy)"),
    "cache": QT_TRANSLATE_NOOP("purge", "index cache entries"),
    "sessions": QT_TRANSLATE_NOOP("purge", "session-log events (signed tombstones)"),
    "markdown": QT_TRANSLATE_NOOP("purge", "clarification summary files"),
}
EMPTY = QT_TRANSLATE_NOOP(
    "purge",
    "No purge run yet. Type a story id above and press Purge to erase it from every artefact, or let the "
    "daily retention run erase the summaries past their retention date.",
)


def confirmation_text(story: str, plan: dict[str, int]) -> str:
    lines = [
        QCoreApplication.translate("purge", "Erase story {story} from every artefact? This cannot be undone.").format(
            story=story
        ),
        "",
    ]
    for k in ARTEFACTS:
        lines.append(f"• {tr_const('purge', LABELS[k])}: {plan.get(k, 0)}")
    lines += [
        "",
        QCoreApplication.translate(
            "purge", "Then every artefact is verified and a signed clarification_purged event records the counts."
        ),
    ]
    return "\n".join(lines)


@dataclass(frozen=True)
class Snapshot:
    preview: dict[str, Any]
    story: str
    plan: dict[str, int] | None


PURGE_HOLD: Hold = ("purge", "run")


def story_hold(story: str) -> Hold:
    """What a purge run holds for each story it erases (the Memory panel's story actions wait on it)."""
    return ("story", story)


class RunsModel(PagedRowsModel[RunInfo, tuple[str, str]]):
    """Every purge run (the query: a story substring and an operator, "" for all), paged and sorted
    in the store."""

    HEADERS = (
        QT_TRANSLATE_NOOP("RunsModel", "Run"),
        QT_TRANSLATE_NOOP("RunsModel", "Started"),
        QT_TRANSLATE_NOOP("RunsModel", "Mode"),
        QT_TRANSLATE_NOOP("RunsModel", "Stories"),
        QT_TRANSLATE_NOOP("RunsModel", "Store"),
        "FAISS",
        QT_TRANSLATE_NOOP("RunsModel", "Emb."),
        QT_TRANSLATE_NOOP("RunsModel", "Cache"),
        QT_TRANSLATE_NOOP("RunsModel", "Sessions"),
        "MD",
        QT_TRANSLATE_NOOP("RunsModel", "Status"),
        QT_TRANSLATE_NOOP("RunsModel", "By"),
    )
    NUMERIC = range(4, 10)
    JOB_NAME = QT_TRANSLATE_NOOP("RunsModel", "Loading purge runs")
    JOB_VISIBLE = False
    SORT_KEYS: ClassVar[dict[int, str]] = {
        0: "id", 1: "started_at", 2: "mode", 3: "stories", 10: "verified", 11: "by",
    }  # fmt: skip
    DEFAULT_SORT = (0, True)  # newest first

    def __init__(self, service: Callable[[], Any], parent: Any = None) -> None:
        super().__init__(("", ""), parent)
        self._service = service

    def count_rows(self, query: tuple[str, str]) -> int:
        return int(self._service().count_runs(query[0] or None, by=query[1] or None))

    def fetch_rows(
        self, query: tuple[str, str], limit: int, offset: int, order_by: str, descending: bool
    ) -> list[RunInfo]:
        story, by = query
        return list(
            self._service().runs(
                limit, story=story or None, offset=offset, order_by=order_by, descending=descending, by=by or None
            )
        )

    def cell(self, item: RunInfo, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            if column == 0:
                return f"#{item.id}"
            if column == 1:
                return fmt_datetime(item.started_at)
            if column == 2:
                return "retention" if item.mode == "retention" else "forced"
            if column == 3:
                return ", ".join(item.stories) or QCoreApplication.translate("RunsModel", "(nothing due)")
            if column == 11:
                return item.by  # who ran it (issue 25 d2: the Vault identity or the OS login)
            if column in self.NUMERIC:
                return item.artefacts[ARTEFACTS[column - 4]]
            return "verified" if item.verified else ("running" if item.status == "running" else "INCOMPLETE")
        if role == Qt.ItemDataRole.DecorationRole and column == 10:
            return icon("pass") if item.verified else icon("warning")
        if role == Qt.ItemDataRole.ForegroundRole and column == 10:
            return color("pass") if item.verified else color("fail")
        if role == Qt.ItemDataRole.TextAlignmentRole and column in self.NUMERIC:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


class PurgePanel(Panel):
    panel_id = "purge"

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.snapshot: Snapshot | None = None
        self.last_result: PurgeResult | None = None

        self.story = QLineEdit()
        self.story.setPlaceholderText(self.tr("Story id (e.g. PD-42): filters the history, shows what a purge erases"))
        self.story.setClearButtonEnabled(True)
        self.purge_button = QPushButton(self.tr("Purge story…"))
        self.purge_button.setObjectName("danger")
        self.purge_button.setEnabled(False)
        self.plan_label = label("", "hintText", wrap=True)
        self.by_filter = QLineEdit()  # issue 25 d2: the runs of one operator
        self.by_filter.setPlaceholderText(self.tr("By (operator)"))
        self.by_filter.setClearButtonEnabled(True)
        self.by_filter.setMaximumWidth(180)
        top = QHBoxLayout()
        top.addWidget(self.story, 1)
        top.addWidget(self.by_filter)
        top.addWidget(self.purge_button)

        self.model = RunsModel(lambda: self.ws.purge, self)
        self.table = QTableView()
        self.table.setModel(self.model)
        setup_table(self.table)
        setup_sorting(self.table, self.model)
        self.model.loaded.connect(self._on_runs_loaded)
        self.model.failed.connect(self._on_runs_failed)
        self.model.page_loaded.connect(self._on_page_loaded)
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        hh.setStretchLastSection(True)
        for col, width in ((0, 48), (1, 118), (2, 72), (3, 130)):
            self.table.setColumnWidth(col, width)
        for col in range(4, 10):
            self.table.setColumnWidth(col, 70 if col == 8 else 56)
        self.empty = EmptyState(self.table, tr_const("purge", EMPTY))
        self.details = label("", "hintText", wrap=True, selectable=True)
        self.verify_button = QPushButton(self.tr("Verify again"))
        self.verify_button.setEnabled(False)
        drow = QHBoxLayout()
        drow.addWidget(self.details, 1)
        drow.addWidget(self.verify_button, 0, Qt.AlignmentFlag.AlignTop)

        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        self.count_label = label("", "hintText")
        head = QHBoxLayout()
        head.addWidget(label(self.tr("History"), "sectionTitle"))
        head.addStretch(1)
        head.addWidget(self.count_label)
        ll.addLayout(head)
        ll.addWidget(self.empty, 1)
        ll.addLayout(drow)

        self.retention_title = label(self.tr("Retention preview"), "sectionTitle")
        self.retention_info = label("", "hintText", wrap=True)
        self.due_list = QListWidget()
        self.due_list.setWordWrap(True)
        self.due_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.retention_button = QPushButton(self.tr("Run retention now"))
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addWidget(self.retention_title)
        rl.addWidget(self.retention_info)
        rl.addWidget(self.due_list, 1)
        rl.addWidget(self.retention_button)

        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(right)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 1)
        split.setSizes([760, 300])

        self.progress = QProgressBar()
        self.progress.setVisible(False)
        self.message = MessageBox()
        # while a purge run works: why Purge and Run retention wait (the Memory panel's story actions too)
        self.hold_label = label("", "hintText", wrap=True)
        self.gate = HoldGate(self, self.shown_holds, self._update_buttons, self.hold_label)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 16, 20, 12)
        layout.addWidget(label(self.tr("Purge runs"), "panelTitle"))
        layout.addWidget(
            label(
                self.tr(
                    "GDPR erasure (right to be forgotten) and the daily retention of clarification summaries: each run "
                    "erases store rows, FAISS vectors, embedding rows, cache entries, session-log events (replaced by "
                    "signed tombstones, so the chain still verifies) and the markdown summary, then verifies every "
                    "artefact byte for byte."
                ),
                "panelSubtitle",
                wrap=True,
            )
        )
        layout.addLayout(top)
        layout.addWidget(self.plan_label)
        layout.addWidget(self.hold_label)
        layout.addWidget(split, 1)
        layout.addWidget(self.progress)
        layout.addWidget(self.message)

        # issue 28: a plan reads every purgeable; typing a story id plans once, when typing pauses
        self.story_debounce = widgets.Debouncer(STORY_DEBOUNCE_MS, self.reload, self)
        self.story.textChanged.connect(self._on_story_typed)
        self.by_filter.textChanged.connect(self.story_debounce.poke)  # the runs of one operator
        self.story.returnPressed.connect(self._purge_on_enter)  # Enter submits the one-field form
        self.purge_button.clicked.connect(self.ask_purge)
        self.verify_button.clicked.connect(self.verify_selected)
        self.retention_button.clicked.connect(self.run_retention)
        self.table.selectionModel().currentRowChanged.connect(self._on_selected)
        ctx.bus.changed.connect(self._on_bus)
        self.refresh()

    # ------------------------------------------------------------ panel API
    def search_box(self) -> QLineEdit:
        return self.story

    @Slot()
    def refresh(self) -> None:
        self.reload()

    def showcase(self) -> None:
        if self.model.rowCount():
            self.table.selectRow(0)

    @Slot(str)
    def _on_bus(self, topic: str) -> None:
        if topic in ("purge", "memory"):
            self.reload()

    def story_id(self) -> str:
        return " ".join(self.story.text().split())

    @Slot()
    def reload(self) -> None:
        ws, story = self.ws, self.story_id()

        def load() -> Snapshot:
            plan = ws.purge.plan(story) if story else None
            return Snapshot(ws.purge.preview(date.today()), story, plan)

        # the runs: count and first page in the store's order
        self.model.set_query((story, " ".join(self.by_filter.text().split())))

        run_task(
            load,
            name=self.tr("Loading purge runs"),
            key=(self, "load"),
            visible=False,
            on_result=self._show,
            on_error=self.message.show_error,
        )

    def _show(self, snap: Snapshot) -> None:
        self.snapshot = snap
        if snap.plan is not None:
            total = sum(snap.plan.values())
            what = ", ".join(f"{tr_const('purge', LABELS[k])} {snap.plan[k]}" for k in ARTEFACTS if snap.plan[k])
            self.plan_label.setText(
                self.tr("{story}: a purge now erases {what}.").format(story=snap.story, what=what)
                if total
                else self.tr("{story}: nothing is stored for it.").format(story=snap.story)
            )
        else:
            self.plan_label.setText(self.tr("Type a story id to see what a purge of it would erase."))
        self._update_buttons()
        self.purge_button.setText(
            self.tr("Purge {story}…").format(story=snap.story) if snap.story else self.tr("Purge story…")
        )
        pv = snap.preview
        self.due_list.clear()
        for item in pv["due"]:
            counts = ", ".join(f"{k} {item['artefacts'][k]}" for k in ARTEFACTS if item["artefacts"][k])
            self.due_list.addItem(
                self.tr("{story} — expired {retention_until}: {0}").format(
                    counts or self.tr("nothing left"),
                    story=item["story"],
                    retention_until=fmt_date(item["retention_until"]),
                )
            )
        for item in pv["kept"][:50]:
            self.due_list.addItem(
                self.tr("{story} — kept until {retention_until}").format(
                    story=item["story"], retention_until=fmt_date(item["retention_until"])
                )
            )
        nxt = pv["next_expiry"]
        due = len(pv["due"])
        self.retention_info.setText(
            self.tr(
                "The next daily run erases %n summary(-ies) (retention_until before {today}; a summary is kept on its last day).",
                "",
                due,
            ).format(today=fmt_date(pv["today"]))
            + (
                self.tr(" Next expiry: {story} after {retention_until}.").format(
                    story=nxt["story"], retention_until=fmt_date(nxt["retention_until"])
                )
                if nxt
                else ""
            )
        )
        self._update_buttons()
        self._on_selected()

    def shown_holds(self) -> list[Hold]:
        """A purge run in progress holds the purge (one at a time) and the stories it erases."""
        story = self.story_id()
        return [PURGE_HOLD, *([story_hold(story)] if story else [])]

    def _update_buttons(self) -> None:
        snap = self.snapshot
        current = snap is not None and bool(snap.story) and snap.story == self.story_id()
        left = current and snap is not None and snap.plan is not None and sum(snap.plan.values()) > 0
        why = (
            ""
            if left
            else (
                self.tr("Nothing is stored for this story: there is nothing to purge.")
                if current
                else self.tr("Type a story id first.")
            )
        )
        self.purge_button.setProperty(HOLD_TIP, why)  # the tooltip when no job holds the button
        self.gate.enable(self.purge_button, left)
        self.gate.enable(self.retention_button, snap is not None and bool(snap.preview["due"]))

    def _on_runs_loaded(self) -> None:
        total, (story, by) = self.model.total or 0, self.model.query
        if story and by:
            why = self.tr("No purge run by {by!r} erased a story like {story!r}.").format(story=story, by=by)
        elif story:
            why = self.tr("No purge run erased a story like {story!r}.").format(story=story)
        else:
            why = self.tr("No purge run by {by!r}.").format(by=by)
        self.empty.set_empty(not total, tr_const("purge", EMPTY) if not (story or by) else why)
        self.count_label.setText(self.tr("%Ln run(s)", "", total) if total else "")
        self._on_selected()

    def _on_runs_failed(self, exc: BaseException) -> None:
        self.message.show_error(exc)

    def _on_page_loaded(self, first: int, last: int) -> None:
        if first <= self.table.selectionModel().currentIndex().row() <= last:
            self._on_selected()  # the current row's page arrived after it was selected

    def selected_run(self) -> RunInfo | None:
        idx = self.table.selectionModel().currentIndex()
        return self.model.row(idx.row()) if idx.isValid() else None

    @Slot()
    def _on_selected(self, *_args: Any) -> None:
        run = self.selected_run()
        self.verify_button.setEnabled(run is not None and run.status != "running")
        if run is None:
            self.details.setText(self.tr("Select a run to see what it erased and how it was verified."))
            return
        lines = [
            self.tr("Run #{id} ({mode}) by {0}, started {started_at}, ").format(
                run.by or "?", id=run.id, mode=run.mode, started_at=run.started_at
            )
            + (
                self.tr("verified {verified_at}").format(verified_at=run.verified_at)
                if run.verified_at
                else self.tr("not verified yet")
            )
        ]
        lines.append(", ".join(f"{tr_const('purge', LABELS[k])} {run.artefacts[k]}" for k in ARTEFACTS))
        lines += [self.tr("remains: {r}").format(r=r) for r in run.remaining]
        lines += [self.tr("note: {n}").format(n=n) for n in run.notes]
        self.details.setText("\n".join(lines))

    @Slot()
    def _on_story_typed(self) -> None:
        self._update_buttons()  # Purge waits for the plan of the story now typed (no I/O here)
        self.story_debounce.poke()

    # ------------------------------------------------------------ actions
    @Slot()
    def _purge_on_enter(self) -> None:
        self.story_debounce.flush()  # Enter right after typing: the plan of what is typed first
        if self.purge_button.isEnabled():
            self.ask_purge()

    @Slot()
    def ask_purge(self) -> None:
        story = self.story_id()
        if not story:
            return
        ws = self.ws
        run_task(
            lambda: ws.purge.plan(story),
            name=self.tr("Counting {story}").format(story=story),
            visible=False,
            on_result=lambda plan: self._confirm_purge(story, plan),
            on_error=self.message.show_error,
        )

    def _confirm_purge(self, story: str, plan: dict[str, int]) -> None:
        if not widgets.confirm(self, self.tr("Purge {story}?").format(story=story), confirmation_text(story, plan)):
            return
        self._start(self.tr("Purging {story}").format(story=story), [story], self.ws.purge.run_iter, "story", [story])

    @Slot()
    def run_retention(self) -> None:
        pv = self.snapshot.preview if self.snapshot else None
        if not pv or not pv["due"]:
            return
        text = self.tr("Erase the summaries past their retention date?\n\n") + "\n".join(
            f"• {i['story']} (retention_until {i['retention_until']})" for i in pv["due"]
        )
        if widgets.confirm(self, self.tr("Run retention now?"), text):
            self._start(
                self.tr("Retention purge"),
                [str(i["story"]) for i in pv["due"]],
                self.ws.purge.run_iter,
                "retention",
                None,
            )

    def _start(self, name: str, stories: list[str], fn: Any, *args: Any) -> None:
        if self.gate.reason():
            self.ctx.status(self.gate.reason())
            return
        self.message.clear_message()
        self.progress.setVisible(True)
        set_progress(self.progress, 0, 1)
        run_task(
            fn,
            *args,
            name=name,
            key=(self, "purge"),
            holds=[PURGE_HOLD, *(story_hold(st) for st in stories)],
            hold_reason=self.tr(
                "{name} in progress — a new purge can start when it finishes (cancelled, it resumes from its journal at the next run)"
            ).format(name=name),
            on_progress=lambda d, t, _text: set_progress(self.progress, d, t),
            on_result=self._done,
            on_error=self._failed,
        )

    def _done(self, result: PurgeResult) -> None:
        self.last_result = result
        self.progress.setVisible(False)
        what = ", ".join(
            f"{tr_const('purge', LABELS[k])} {result.artefacts[k]}" for k in ARTEFACTS if result.artefacts[k]
        )
        who = ", ".join(result.stories) or self.tr("nothing due")
        if result.verified:
            self.message.show_ok(self.tr("Purged {who}: {0}. Verified.").format(what or "nothing was left", who=who))
        else:
            self.message.show_error(self.tr("ERR_PURGE_INCOMPLETE: ") + "; ".join(result.remaining))
        self.reload()

    def _failed(self, exc: BaseException) -> None:
        self.progress.setVisible(False)
        self.message.show_error(exc)
        self.reload()

    @Slot()
    def verify_selected(self) -> None:
        run = self.selected_run()
        if run is None:
            return
        ws = self.ws
        run_task(
            ws.purge.reverify,
            run.id,
            name=self.tr("Verifying purge #{id}").format(id=run.id),
            on_result=self._verified,
            on_error=self.message.show_error,
        )

    def _verified(self, info: RunInfo) -> None:
        if info.verified:
            self.message.show_ok(
                self.tr("Purge #{id} verified again: nothing of {0} is back.").format(
                    ", ".join(info.stories) or "-", id=info.id
                )
            )
        else:
            self.message.show_error(
                self.tr("ERR_PURGE_INCOMPLETE: purge #{id}: ").format(id=info.id) + "; ".join(info.remaining)
            )
        self.reload()
