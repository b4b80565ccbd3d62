"""Sage on the skill the Skills panel shows: its button, its message and its proposal's link.

Sage (the skill improver, `lorekeeper sage analyze --skill NAME`) runs as a cancellable job that
holds the skill (`ui.workers` holds): the skill's edits, rules, restore and fork deletion wait,
saying why, until it ends; its proposal opens in the Proposals panel. One job: running Sage and
saying what it gave; the panel places the widgets and enables the button through its hold gate.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Slot
from PySide6.QtWidgets import QPushButton

from lorekeeper.improve.nightly import RunSummary
from lorekeeper.ui.theme import icon
from lorekeeper.ui.widgets import MessageBox
from lorekeeper.ui.workers import Hold, run_task

if TYPE_CHECKING:
    from lorekeeper.ui.panels.skills import SkillsPanel


def skill_hold(name: str, project: str) -> Hold:
    """What a job on one skill holds (Sage, a marketplace install): its edits wait while it runs."""
    return ("skill", (name, project or ""))


@dataclass(frozen=True)
class SageOutcome:
    """What a Sage run on one skill gave: the run summary, and the proposal to open (new or pending)."""

    summary: RunSummary
    proposal: int | None
    pending: int | None = None  # no new one because this proposal is already pending


class SageControl(QObject):
    """The Sage button, the "Open proposal #N" button and the message between them."""

    def __init__(self, panel: SkillsPanel) -> None:
        super().__init__(panel)
        self.panel = panel
        self.button = QPushButton(self.tr("Sage"))
        self.button.setIcon(icon("proposals"))
        self.button.setToolTip(
            self.tr(
                "Ask the model for a better version of this skill: a proposal, benchmarked, waiting in Proposals "
                "(lorekeeper sage analyze --skill NAME)"
            )
        )
        self.button.clicked.connect(self.run)
        self.open_button = QPushButton(self.tr("Open proposal"))
        self.open_button.clicked.connect(self.open_proposal)
        self.open_button.hide()
        self.proposal: int | None = None
        self.message = MessageBox()

    def forget(self) -> None:
        """Another skill is shown: what Sage said about the previous one goes."""
        self.message.clear_message()
        self.set_proposal(None)

    @Slot()
    def run(self) -> None:
        """Sage on the shown skill: a cancellable job (the status bar's Cancel) holding the skill."""
        panel = self.panel
        if panel.detail is None:
            return
        reason = panel.skill_gate.reason()
        if reason:
            panel.ctx.status(reason)
            return
        info = panel.detail.info
        name, project = info.name, info.project or ""
        sage, proposals = panel.ws.improve.sage, panel.ws.improve.proposals
        self.forget()

        def job(cancel) -> Any:
            summary = yield from sage.analyze_steps(name, project or None, should_stop=cancel)
            created = [c["proposal"] for c in summary.created]
            pending = None
            if not created and any("already pending" in str(k.get("why", "")) for k in summary.skipped):
                pending = next(
                    (p.id for p in proposals.list("pending") if p.skill == name and (p.scope or "") == project), None
                )
            return SageOutcome(summary, created[0] if created else None, pending)

        where = f" ({project} fork)" if project else ""
        run_task(
            job,
            name=self.tr("Sage on {name}").format(name=name),
            holds=[skill_hold(name, project)],
            hold_reason=self.tr(
                "Sage is working on {name}{where} — edits wait until it finishes, or cancel it (Cancel in the status bar)"
            ).format(name=name, where=where),
            on_result=lambda out: self._on_result(name, out),
            on_error=self.message.show_error,  # no model: ERR_LLM_UNAVAILABLE and what to configure
            on_cancelled=lambda: self._cancelled(name, project),
        )

    def _cancelled(self, name: str, project: str) -> None:
        """Cancelled: a proposal Sage wrote before its benchmark was stopped stays pending (it is
        complete); say which, or that nothing was proposed."""
        proposals = self.panel.ws.improve.proposals

        def pending() -> int | None:
            return next(
                (p.id for p in proposals.list("pending") if p.skill == name and (p.scope or "") == project), None
            )

        def show(pid: int | None) -> None:
            if pid is None:
                self.message.show_ok(self.tr("Sage on {name} cancelled: nothing was proposed.").format(name=name))
            else:
                self.message.show_ok(
                    self.tr("Sage on {name} cancelled; proposal #{pid} stays pending (not benchmarked).").format(
                        name=name, pid=pid
                    )
                )
            self.set_proposal(pid)

        run_task(pending, name=self.tr("Looking for the proposal"), visible=False, on_result=show)

    def _on_result(self, name: str, out: SageOutcome) -> None:
        summary = out.summary
        if summary.errors:
            e = summary.errors[0]
            self.message.show_error(
                self.tr("Sage on {name} failed — {code}: {error}").format(
                    name=name, code=e.get("code", ""), error=e.get("error", "")
                )
            )
        elif out.proposal is not None:
            created = summary.created[0]
            bench = next((b for b in summary.benchmarks if b.get("proposal") == out.proposal), None)
            badge = ""
            if bench is not None:
                badge = (
                    self.tr(" · benchmark: {badge}").format(badge=bench["badge"])
                    if "badge" in bench
                    else self.tr(" · benchmark failed: {error}").format(error=bench["error"])
                )
            self.message.show_ok(
                self.tr("Sage proposed #{proposal} for {name}: {reason}{badge}").format(
                    proposal=out.proposal, name=name, reason=created["reason"], badge=badge
                )
            )
            self.set_proposal(out.proposal)
        else:
            why = next((str(k.get("why", "")) for k in summary.skipped), self.tr("no target"))
            why = why.removeprefix("NO_CHANGE: ")
            self.message.show_ok(self.tr("Sage proposes nothing for {name}: {why}.").format(name=name, why=why))
            self.set_proposal(out.pending)
        self.panel.ctx.status(self.tr("Sage on {name}: done").format(name=name))

    def set_proposal(self, pid: int | None) -> None:
        self.proposal = pid
        self.open_button.setText(
            self.tr("Open proposal #{pid}").format(pid=pid) if pid is not None else self.tr("Open proposal")
        )
        self.open_button.setVisible(pid is not None)

    @Slot()
    def open_proposal(self) -> None:
        """Show Sage's proposal in the Proposals panel, selected."""
        pid = self.proposal
        window = self.panel.window()
        if pid is None or not hasattr(window, "select_panel"):
            return
        panel = window.select_panel("proposals")
        opener = getattr(panel, "open_proposal", None)
        if opener is not None:
            opener(pid)
