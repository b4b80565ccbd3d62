"""The Proposals panel's analysis runs: Run nightly (templates, no model) and Sage analyze
(model-written, benchmarked), one at a time from this window. One job: starting a run and saying
what it gave; the change feed refreshes the queue when the run's writes land."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt, Slot
from PySide6.QtWidgets import QPushButton

from lorekeeper.jobs import process_steps
from lorekeeper.ui.widgets import label
from lorekeeper.ui.workers import HoldGate, is_synchronous, run_task
from lorekeeper.workspace_jobs import in_workspace

if TYPE_CHECKING:
    from lorekeeper.ui.panels.proposals import ProposalsPanel

RUN_HOLD = ("improve", "run")  # nightly or a Sage analysis: one analysis run at a time from this window


class AnalysisRuns(QObject):
    """The two run buttons, the reason they wait (`reason`) and the runs they start."""

    def __init__(self, panel: ProposalsPanel) -> None:
        super().__init__(panel)
        self.panel = panel
        self.nightly_button = QPushButton(self.tr("Run nightly"))
        self.nightly_button.setToolTip(
            self.tr("Find underperforming skills now and write template proposals (no model)")
        )
        self.sage_button = QPushButton(self.tr("Sage analyze"))
        self.sage_button.setToolTip(self.tr("Ask the model for better versions of up to 5 skills; each is benchmarked"))
        for b in (self.nightly_button, self.sage_button):
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the keyboard stays on the queue
        self.nightly_button.clicked.connect(self.run_nightly)
        self.sage_button.clicked.connect(self.run_sage)
        self.reason = label("", "hintText", wrap=True)
        self.gate = HoldGate(self, lambda: RUN_HOLD, self.update_buttons, self.reason)
        self.update_buttons()

    def update_buttons(self) -> None:
        for b in (self.nightly_button, self.sage_button):
            self.gate.enable(b, True)

    @Slot()
    def run_nightly(self) -> None:
        panel = self.panel
        if self.gate.reason():
            panel.ctx.status(self.gate.reason())
            return
        panel.message.clear_message()
        ws = panel.ws
        # Metrics and evidence are pure-Python work that holds the interpreter lock: outside
        # synchronous mode (tests, screenshots) the run goes to a worker process (Cancel stops it).
        job: tuple[Any, ...] = (
            (ws.improve.nightly.run_steps,)
            if is_synchronous()
            else (process_steps, in_workspace, str(ws.root), "improve.nightly.run_steps")
        )
        run_task(
            *job,
            name=self.tr("Nightly analysis"),
            holds=[RUN_HOLD],
            hold_reason=self.tr(
                "Nightly analysis running — the next run can start when it finishes (or cancel it in the status bar)"
            ),
            on_result=self._on_run,
            on_error=panel.message.show_error,
        )

    @Slot()
    def run_sage(self) -> None:
        panel = self.panel
        if self.gate.reason():  # without a model the worker fails at once with ERR_LLM_UNAVAILABLE and why
            panel.ctx.status(self.gate.reason())
            return
        panel.message.clear_message()
        sage = panel.ws.improve.sage
        run_task(
            lambda cancel: sage.analyze_steps(should_stop=cancel),  # the status bar's Cancel stops it
            name=self.tr("Sage analysis"),
            holds=[RUN_HOLD],
            hold_reason=self.tr(
                "Sage analysis running — the next run can start when it finishes (or cancel it in the status bar)"
            ),
            on_cancelled=lambda: panel.message.show_ok(self.tr("Sage run cancelled.")),
            on_result=self._on_run,
            on_error=panel.message.show_error,
        )

    def _on_run(self, summary) -> None:
        text = summary.text().splitlines()[0]
        errors = [f"{e.get('skill')}: {e.get('code', '')} {e['error']}" for e in summary.errors]
        if errors:
            self.panel.message.show_error(text + "\n" + "\n".join(errors))
        else:
            self.panel.message.show_ok(text)
        self.panel.ctx.status(text)  # the run wrote in a worker process: the change feed polls when it ends
