"""Proposals: the keyboard-first review queue of the improvement loop.

A approve · E edit the proposed SKILL.md, then approve the edit · R reject (type the reason,
Enter) · U / Ctrl+Z undo · J / N next · K / P previous · B run benchmark · ? the cheat-sheet. The queue is the shared `ui.review_queue.ReviewQueue` (the
Facts review and Conflicts panels use it too). The card shows the seed's proposal card (project, skill,
reason, metrics, feedback, related learnings) with the benchmark badge; below it, the current
and the proposed SKILL.md side by side with the changed lines marked. Every decision goes
through `ws.improve.proposals` in a worker (the queue's actions) and is a signed audit event.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal, Slot
from PySide6.QtGui import QFontDatabase, QKeyEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from lorekeeper.improve.proposals import ProposalInfo
from lorekeeper.jobs import process_steps
from lorekeeper.ui.diffview import aligned_diff  # noqa: F401 - aligned_diff re-exported
from lorekeeper.ui.i18n import QT_TRANSLATE_NOOP, fmt_datetime, tr_const, value_text
from lorekeeper.ui.models.base import RowsModel
from lorekeeper.ui.panels.base import AppContext, Panel
from lorekeeper.ui.panels.proposals_detail import ProposalDetail
from lorekeeper.ui.panels.proposals_detail import badge_style as badge_style  # re-exported (benchmarks)
from lorekeeper.ui.panels.proposals_detail import card_html as card_html  # re-exported
from lorekeeper.ui.panels.proposals_runs import AnalysisRuns
from lorekeeper.ui.review_notes import QueueNotes
from lorekeeper.ui.review_queue import APPROVE, BULK, BULK_REJECT, UNDO, Decision, QueueActions, ReviewQueue
from lorekeeper.ui.saved_views import SavedViews, saved_view_note
from lorekeeper.ui.theme import color, icon
from lorekeeper.ui.widgets import FlowLayout, label
from lorekeeper.ui.workers import is_synchronous, run_task
from lorekeeper.workspace_jobs import in_workspace

STATUSES = (
    (QT_TRANSLATE_NOOP("proposals", "Pending"), "pending"),
    (QT_TRANSLATE_NOOP("proposals", "Approved"), "approved"),
    (QT_TRANSLATE_NOOP("proposals", "Rejected"), "rejected"),
    (QT_TRANSLATE_NOOP("proposals", "All"), "all"),
)


@dataclass(frozen=True)
class QueueSnapshot:
    rows: list[ProposalInfo]
    counts: dict[str, int]
    last_run: dict[str, Any] | None


class _SubmitEdit(QPlainTextEdit):
    """A plain-text editor where Ctrl+Enter submits (Enter alone types a new line)."""

    submitted = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and (
            event.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            self.submitted.emit()
            return
        super().keyPressEvent(event)


class EditApproveDialog(QDialog):
    """Approve with edits: the operator edits the proposed SKILL.md, then approves the edit.

    The edit (its hash, the proposed content's hash and a line summary) is part of the signed
    decision (`proposals.approve(..., content=...)`, as `lorekeeper proposals approve
    --content-file`). Ctrl+Enter approves, Esc cancels.
    """

    def __init__(self, proposal: ProposalInfo, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.proposal = proposal
        self.setWindowTitle(self.tr("Approve proposal #{id} with edits").format(id=proposal.id))
        self.setObjectName("editApproveDialog")
        self.resize(760, 560)
        intro = label(
            self.tr(
                "Edit the proposed SKILL.md of {skill} before approving it. Approve with edits makes your text the new version; the edit is recorded in the signed decision."
            ).format(skill=proposal.skill),
            "hintText",
            wrap=True,
        )
        self.editor = _SubmitEdit()
        self.editor.setObjectName("editApproveText")
        self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.editor.setPlainText(proposal.proposed_content)
        self.error = label("", "errorText", wrap=True)
        self.error.hide()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.approve_button = self.buttons.addButton(
            self.tr("Approve with edits"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.approve_button.setToolTip(self.tr("Approve your edited text (Ctrl+Enter)"))
        self.approve_button.setDefault(False)
        self.approve_button.setAutoDefault(False)  # Enter types a new line in the editor
        self.reset_button = self.buttons.addButton(self.tr("Reset to proposed"), QDialogButtonBox.ButtonRole.ResetRole)
        self.buttons.accepted.connect(self.try_accept)
        self.buttons.rejected.connect(self.reject)
        self.reset_button.clicked.connect(lambda: self.editor.setPlainText(proposal.proposed_content))
        self.editor.submitted.connect(self.try_accept)
        lay = QVBoxLayout(self)
        lay.addWidget(intro)
        lay.addWidget(self.editor, 1)
        lay.addWidget(self.error)
        lay.addWidget(self.buttons)
        self.editor.setFocus(Qt.FocusReason.OtherFocusReason)

    def text(self) -> str:
        return self.editor.toPlainText()

    @Slot()
    def try_accept(self) -> None:
        if not self.text().strip():  # the service refuses it too; say it here, keep the dialog open
            self.error.setText(self.tr("The edited SKILL.md is empty: write the content to approve, or Cancel."))
            self.error.show()
            return
        self.accept()


class ProposalsModel(RowsModel[ProposalInfo]):
    COL_ID, COL_SKILL, COL_PROJECT, COL_SOURCE, COL_STATUS, COL_BENCH, COL_REASON = range(7)
    HEADERS = (
        "#",
        QT_TRANSLATE_NOOP("ProposalsModel", "Skill"),
        QT_TRANSLATE_NOOP("ProposalsModel", "Project"),
        QT_TRANSLATE_NOOP("ProposalsModel", "Source"),
        QT_TRANSLATE_NOOP("ProposalsModel", "Status"),
        QT_TRANSLATE_NOOP("ProposalsModel", "Benchmark"),
        QT_TRANSLATE_NOOP("ProposalsModel", "Reason"),
    )

    def cell(self, item: ProposalInfo, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            bench = item.benchmark.text if item.benchmark else "—"
            return (
                item.id,
                item.skill,
                item.project or "—",
                value_text(item.source),
                value_text(item.status),
                bench,
                item.reason,
            )[column]
        if role == Qt.ItemDataRole.ForegroundRole and column == self.COL_BENCH and item.benchmark:
            return color({"PASSED": "pass", "FAILED": "fail"}.get(item.benchmark.verdict, "muted"))
        if role == Qt.ItemDataRole.ForegroundRole and column == self.COL_STATUS:
            return color({"approved": "pass", "rejected": "fail"}.get(item.status, "info"))
        if role == Qt.ItemDataRole.DecorationRole and column == self.COL_SKILL and item.scope:
            return icon("fork")
        if role == Qt.ItemDataRole.TextAlignmentRole and column == self.COL_ID:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


class ProposalsPanel(Panel):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.status_combo = QComboBox()
        for text, value in STATUSES:
            self.status_combo.addItem(tr_const("proposals", text), value)
        self.runs = AnalysisRuns(self)
        self.nightly_button, self.sage_button = self.runs.nightly_button, self.runs.sage_button
        self.bench_button = QPushButton(self.tr("Run benchmark (B)"))
        self.counts_label = label("", "hintText")
        # issue 25 d2: the proposals one operator decided (the Vault identity or the OS login)
        self.by_combo = QComboBox()
        self.by_combo.setObjectName("proposalsByFilter")
        self.by_combo.addItem(self.tr("Anyone"), "")
        top_bar = QWidget()
        top = FlowLayout(top_bar)  # wraps in a narrow window (the saved views and "mine" take room)
        top.addWidget(QLabel(self.tr("Show:")))
        top.addWidget(self.status_combo)
        top.addWidget(QLabel(self.tr("By:")))
        top.addWidget(self.by_combo)
        top.addWidget(self.counts_label)
        top.addWidget(self.nightly_button)
        top.addWidget(self.sage_button)
        self.run_label = label("", "hintText", wrap=True)

        self.model = ProposalsModel(self)
        self.edit_dialog: EditApproveDialog | None = None  # E: the open "approve with edits" editor
        proposals = self.ws.improve.proposals
        self.queue = queue = ReviewQueue(
            self.model,
            QueueActions(
                approve=lambda p: proposals.approve(p.id),
                reject=lambda p, why: proposals.reject(p.id, why=why),
                undo=self._undo_decision,
                is_open=lambda p: p.status == "pending",
                edit=self.edit_and_approve,  # E: approve with edits
                hold_kind="proposal",  # a benchmark holds its proposal: decisions wait, saying why
            ),
            host=self,
            noun=self.tr("proposal"),
            next_keys=("J", "N"),
            previous_keys=("K", "P"),
            undo_keys=("U", "Ctrl+Z"),
            undo_text=self.tr("Undo the decision (an approval restores the backed-up version)"),
        )
        queue.add_shortcut(("B",), self.tr("Run the A/B benchmark of the selected proposal"), self.run_benchmark)
        queue.add_shortcut(("F5",), self.tr("Refresh"), self.reload)
        queue.add_action_button(self.bench_button)
        queue.edit_button.setText(self.tr("Edit && approve (E)"))
        queue.edit_button.setToolTip(
            self.tr("Edit the proposed SKILL.md, then approve your edit (signed with the decision)")
        )
        queue.on_escape = self._escape  # Esc in the diff's search closes it first
        self._snap: QueueSnapshot | None = None
        # proposal id -> (the version its undo wrote, the version that one restores, the undone one)
        self.restored: dict[int, tuple[int, int, int]] = {}
        self.notes = QueueNotes(queue, "proposal", lambda: self.ws, self._mine_changed, self)
        top.insertWidget(top.indexOf(self.nightly_button), self.notes.mine_box)
        self.views = SavedViews("proposals", [self.status_combo], [self.notes.mine_box], host=self)
        self.views.applied.connect(lambda _n: saved_view_note(self.views, queue.message))
        top.insertWidget(top.indexOf(self.nightly_button), self.views)
        queue.current_changed.connect(self._show_proposal)
        queue.decided.connect(self._decided)
        queue.busy_changed.connect(self._update_bench_button)
        queue.gate.refresh = self._update_actions  # a hold starts or ends: the queue's and the B button
        # the queue's widgets, under the names the panel has always had
        self.table, self.empty, self.message = queue.table, queue.empty, queue.message
        self.approve_button, self.reject_button = queue.approve_button, queue.reject_button
        self.undo_button, self.prev_button, self.next_button = queue.undo_button, queue.prev_button, queue.next_button
        self.help_button, self.reject_bar, self.reason_edit = queue.help_button, queue.reject_bar, queue.reason_edit
        self.confirm_reject_button, self.cancel_reject_button = queue.confirm_reject_button, queue.cancel_reject_button
        self.cheatsheet, self.cheatsheet_text = queue.cheatsheet, queue.cheatsheet_text
        self.shortcuts = queue.shortcuts
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        hh.setStretchLastSection(True)
        for col, width in ((0, 34), (1, 115), (2, 80), (3, 64), (4, 66), (5, 150)):
            self.table.setColumnWidth(col, width)

        detail = self.detail = ProposalDetail(
            self.notes.history_label, [queue.action_bar, queue.hold_label, self.reject_bar, self.cheatsheet], self
        )
        # the detail's widgets, under the names the panel has always had
        self.card, self.badge, self.diff, self.card_area = detail.card, detail.badge, detail.diff, detail.card_area
        self.detail_split, self.diff_summary = detail, detail.diff.summary  # "3 changes, +12 −4 lines"
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(queue)
        split.addWidget(detail)
        split.setSizes([400, 880])  # the decision side gets the room in a narrow window

        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 16, 20, 12)
        layout.addWidget(label(self.tr("Proposals"), "panelTitle"))
        layout.addWidget(
            label(
                self.tr(
                    "Skill improvements waiting for your decision: from the nightly analysis (templates, no model) and from "
                    "Sage (model-written, benchmarked). Approve keeps the current version in the skill's history; press ? for "
                    "the keyboard shortcuts."
                ),
                "panelSubtitle",
                wrap=True,
            )
        )
        layout.addWidget(top_bar)
        layout.addWidget(self.run_label)
        layout.addWidget(self.runs.reason)
        layout.addWidget(split, 1)
        layout.addWidget(self.message)

        self.status_combo.currentIndexChanged.connect(self._filter_changed)
        self.by_combo.currentIndexChanged.connect(self._by_changed)
        self.bench_button.clicked.connect(self.run_benchmark)
        ctx.bus.changed.connect(self._on_bus)
        self._show_proposal(None)
        self.refresh()

    @property
    def busy(self) -> bool:
        return self.queue.busy

    # ------------------------------------------------------------ loading
    @Slot()
    def refresh(self) -> None:
        self.reload()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.table.setFocus(Qt.FocusReason.OtherFocusReason)
        QTimer.singleShot(0, self.diff, self.diff.scroll_to_first_change)

    def showcase(self) -> None:
        if self.model.rows:
            self.table.selectRow(0)

    @Slot(str)
    def _on_bus(self, topic: str) -> None:
        if topic in ("proposals", "benchmarks", "skills"):
            self.reload()

    def _fill_operators(self, rows: list[ProposalInfo]) -> str:
        """The By filter offers everyone who decided a listed proposal; returns the one selected."""
        current = str(self.by_combo.currentData() or "")
        names = sorted(
            {p.decided_by for p in rows if p.decided_by} | ({current} if current else set()), key=str.casefold
        )
        self.by_combo.blockSignals(True)
        self.by_combo.clear()
        self.by_combo.addItem(self.tr("Anyone"), "")
        for n in names:
            self.by_combo.addItem(n, n)
        self.by_combo.setCurrentIndex(max(0, self.by_combo.findData(current)))
        self.by_combo.blockSignals(False)
        return current

    @Slot()
    def _by_changed(self) -> None:
        if self._snap is not None:
            self.queue.reset_progress()
            self._show(self._snap)

    @Slot()
    def _filter_changed(self) -> None:
        self.queue.reset_progress()
        self.reload()

    @Slot()
    def reload(self) -> None:
        status = self.status_combo.currentData()
        ws = self.ws

        def load() -> QueueSnapshot:
            runs = ws.improve.runs(limit=1)
            return QueueSnapshot(
                ws.improve.proposals.list(status), ws.improve.proposals.counts(), runs[0] if runs else None
            )

        run_task(
            load,
            name=self.tr("Loading proposals"),
            key=(self, "list"),
            visible=False,
            on_result=lambda snap: self._show(snap),
            on_error=self.message.show_error,
        )

    def _show(self, snap: QueueSnapshot) -> None:
        c = snap.counts
        self.counts_label.setText(
            self.tr("{pending} pending · {approved} approved · {rejected} rejected").format(
                pending=c["pending"], approved=c["approved"], rejected=c["rejected"]
            )
        )
        status = self.status_combo.currentData()
        self.queue.set_empty_text(
            self.tr(
                "No pending proposal. Run the nightly analysis (or `lorekeeper nightly`) to look for underperforming skills, "
                "or ask Sage."
            )
            if status == "pending"
            else self.tr("No {status} proposal.").format(status=status)
            if status != "all"
            else self.tr("No proposal yet.")
        )
        if snap.last_run:
            r = snap.last_run
            self.run_label.setText(
                self.tr(
                    "Last {kind} run #{run_id} ({0} UTC): {skills_checked} skill(s) checked, {n} underperforming, {n2} proposal(s) created, {n3} skipped"
                ).format(
                    fmt_datetime(str(r.get("finished_at") or r.get("started_at") or "")),
                    kind={"nightly": self.tr("nightly"), "sage": self.tr("Sage")}.get(
                        str(r.get("kind")), r.get("kind")
                    ),
                    run_id=r.get("run_id"),
                    skills_checked=r.get("skills_checked", 0),
                    n=len(r.get("underperforming", [])),
                    n2=len(r.get("created", [])),
                    n3=len(r.get("skipped", [])),
                )
                + (self.tr(", {n} error(s)").format(n=len(r.get("errors", []))) if r.get("errors") else "")
                + "."
            )
        self._snap = snap
        # the queue keeps the selection in place and shows the current one; "mine": only those
        # assigned to me; "by": only those one operator decided
        by = self._fill_operators(snap.rows)
        rows = [p for p in snap.rows if p.decided_by == by] if by else snap.rows
        self.model.set_rows([r for r in rows if self.notes.keeps(r)])

    def _mine_changed(self, _ids: set[str] | None) -> None:
        self.queue.reset_progress()
        if self._snap is not None:
            self._show(self._snap)

    def open_proposal(self, pid: int) -> None:
        """Select proposal #pid (from the Skills panel's "Open proposal"): in the current filter if it
        is there, else once the list is reloaded (under "All" when the filter would hide it)."""
        if self.queue.select_id(pid):
            self.table.setFocus()
            return
        self.queue.keep(pid)
        if self.status_combo.currentData() in ("pending", "all"):
            self.reload()
        else:
            self.status_combo.setCurrentIndex(self.status_combo.findData("all"))

    def current(self) -> ProposalInfo | None:
        current: ProposalInfo | None = self.queue.current()
        return current

    def _update_actions(self) -> None:
        self.queue._update_actions()
        self._update_bench_button()

    def _update_bench_button(self, *_args: object) -> None:
        p = self.current()
        self.queue.gate.enable(self.bench_button, p is not None and p.status == "pending" and not self.busy)

    def _show_proposal(self, p: ProposalInfo | None) -> None:
        self._update_bench_button()
        restored = self.restored.get(p.id) if p is not None and p.status == "pending" else None
        self.detail.show_proposal(p, restored, lambda: self.current() is p)

    # ------------------------------------------------------------ the queue (keyboard and buttons)
    def next(self) -> None:
        self.queue.next()

    def previous(self) -> None:
        self.queue.previous()

    def toggle_cheatsheet(self) -> None:
        self.queue.toggle_cheatsheet()

    def escape(self) -> None:
        self.queue.escape()

    def approve(self) -> None:
        self.queue.approve()

    def start_reject(self) -> None:
        self.queue.start_reject()

    def confirm_reject(self) -> None:
        self.queue.confirm_reject()

    def cancel_reject(self) -> None:
        self.queue.cancel_reject()

    def undo(self) -> None:
        self.queue.undo()

    def edit_and_approve(self, proposal: ProposalInfo | None = None) -> None:
        """E: edit the proposed SKILL.md, then approve the edit (the queue's decision, undoable)."""
        cur = proposal if proposal is not None else self.queue.current()
        if cur is None:
            return
        if cur.status != "pending":
            self.message.show_error(
                self.tr("Proposal #{id} is {status}: only a pending proposal can be approved.").format(
                    id=cur.id, status=cur.status
                )
            )
            return
        dialog = self.edit_dialog = EditApproveDialog(cur, self)
        dialog.accepted.connect(lambda: self._approve_edit(cur, dialog.text()))
        dialog.rejected.connect(self.table.setFocus)
        dialog.open()  # window-modal, without a nested event loop

    def _approve_edit(self, cur: ProposalInfo, content: str) -> None:
        proposals = self.ws.improve.proposals
        if content == cur.proposed_content:
            self.queue.decide(APPROVE, (cur.id,), lambda p: proposals.approve(p.id), cur)
        else:
            self.queue.decide(APPROVE, (cur.id,), lambda p: proposals.approve(p.id, content=content), cur)
        self.table.setFocus()

    def _undo_decision(self, decision: Decision) -> ProposalInfo | list[ProposalInfo]:
        proposals = self.ws.improve.proposals
        infos = []
        for pid in decision.ids:
            before = proposals.get(int(str(pid)))
            after = proposals.undo(int(str(pid)))
            if before.status == "approved":  # the undo wrote v{after.base} with v{before.base}'s content
                self.restored[after.id] = (after.base_version, before.base_version, before.applied_version or 0)
            infos.append(after)
        assert infos  # a decision names at least one proposal
        return infos if len(infos) > 1 else infos[0]

    def _escape(self) -> bool:
        if self.diff.find_bar.isVisible():
            self.diff.close_find()
            return True
        return False

    def search_box(self) -> QLineEdit:
        """Ctrl+F: search inside the diff (Enter / Shift+Enter: next / previous match, Esc: back)."""
        self.diff.open_find()
        return self.diff.find_edit

    def _decided(self, kind: str, info: ProposalInfo | list[ProposalInfo]) -> None:
        if isinstance(info, list):  # a multi-selection decided, or its undo
            n = len(info)
            text = {
                BULK: self.tr("Approved {0} proposals (Ctrl+Z or H undoes them)"),
                BULK_REJECT: self.tr("Rejected {0} proposals (Ctrl+Z or H undoes them)"),
            }.get(kind, self.tr("Undid {0} decisions: the proposals are pending again")).format(n)
            self.message.show_ok(text)
            self.ctx.status(text)
            return
        what = {UNDO: "Undid"}.get(kind, "Approved" if info.status == "approved" else "Rejected")
        if kind == APPROVE and info.status == "approved" and info.decision_reason.startswith("accepted with edits"):
            what = self.tr("Approved with your edits")
        if kind == UNDO and info.id in self.restored:
            new, old, undone = self.restored[info.id]
            text = self.tr(
                "Undid #{0} ({1}): v{2} restores v{3}, no net change since v{3} (v{4} stays in the history); "
                "pending again"
            ).format(info.id, info.skill, new, old, undone)
            self.message.show_ok(text)
            self.ctx.status(text)
            return
        self.message.show_ok(
            f"{what} #{info.id} ({info.skill})"
            + (
                self.tr(": now v{applied_version}, v{base_version} kept in its history").format(
                    applied_version=info.applied_version, base_version=info.base_version
                )
                if info.status == "approved"
                else f": {info.decision_reason}"
                if info.status == "rejected"
                else self.tr(": pending again")
            )
        )
        self.ctx.status(
            self.tr("{what} proposal #{id}").format(what=what, id=info.id)
        )  # the change feed refreshes the panels

    def _failed(self, exc: BaseException) -> None:
        self.message.show_error(exc)

    def _finished(self) -> None:
        self.reload()
        self.table.setFocus()

    # ------------------------------------------------------------ jobs
    @Slot()
    def run_benchmark(self) -> None:
        p = self.current()
        if p is None or p.status != "pending" or self.busy:
            return
        if self.queue._say_held():  # B again while it runs: say so, do not start a second one
            return
        self.queue.keep(p.id)
        self.message.clear_message()

        def done(run) -> None:
            self.message.show_ok(
                self.tr("Benchmark #{id} of proposal #{proposal_id}: {badge}").format(
                    id=run.id, proposal_id=run.proposal_id, badge=run.badge
                )
            )

        bench, pid = self.ws.improve.bench, p.id
        # The model client's request handling and the scoring hold the interpreter lock: outside
        # synchronous mode the run goes to a worker process, which Cancel terminates.
        job: tuple[Any, ...] = (
            (lambda cancel: bench.run_steps(pid, should_stop=cancel),)  # the status bar's Cancel stops it
            if is_synchronous()
            else (process_steps, in_workspace, str(self.ws.root), "improve.bench.run_steps", pid)
        )
        run_task(
            *job,
            name=self.tr("Benchmark #{id}").format(id=p.id),
            # the proposal is held while it runs: its decisions wait, saying why (other proposals stay open)
            holds=[("proposal", p.id)],
            hold_reason=self.tr(
                "Benchmark running on proposal #{id} — approve or reject it when it finishes, or cancel it (Esc)"
            ).format(id=p.id),
            on_cancelled=lambda: self.message.show_ok(self.tr("Benchmark cancelled: nothing was stored.")),
            on_result=done,
            on_error=self._failed,
            on_finished=self._finished,
        )
